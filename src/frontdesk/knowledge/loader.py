"""Load a property knowledge file: structured items grouped by category.

The file is one JSON object: `{"property": {...}, "categories": {name: [item, ...]}}`. A broken
item (not an object, no name, wrong property) is skipped with a warning that names it; a file
that cannot be read or parsed at all raises `KnowledgeFileError`.
"""

from __future__ import annotations

import hashlib
import json
import logging
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

logger = logging.getLogger(__name__)

# An item's display name: most categories use `name`, FAQ entries may only have `question`.
NAME_FIELDS = ("name", "question", "title")


class KnowledgeFileError(ValueError):
    """The knowledge file as a whole cannot be used."""


@dataclass(frozen=True)
class KnowledgeItem:
    category: str
    name: str
    fields: dict[str, Any]
    property_id: str
    last_updated: str
    source: str


@dataclass
class KnowledgeSource:
    property: dict[str, Any]
    items: list[KnowledgeItem]
    source: str
    # sha256 of the raw file: what "the data changed" means for re-ingestion.
    fingerprint: str
    skipped: list[str] = field(default_factory=list)

    @property
    def property_id(self) -> str:
        return str(self.property["property_id"])

    @property
    def categories(self) -> list[str]:
        return sorted({item.category for item in self.items})


def item_name(raw: dict[str, Any]) -> str | None:
    for key in NAME_FIELDS:
        value = raw.get(key)
        if isinstance(value, str) and value.strip():
            return value.strip()
    return None


def load_knowledge_file(path: str | Path) -> KnowledgeSource:
    path = Path(path)
    try:
        raw_bytes = path.read_bytes()
    except OSError as exc:
        raise KnowledgeFileError(f"cannot read knowledge file {path}: {exc.strerror}") from exc
    try:
        document = json.loads(raw_bytes)
    except (json.JSONDecodeError, UnicodeDecodeError) as exc:
        raise KnowledgeFileError(f"knowledge file {path} is not valid JSON: {exc}") from exc
    if not isinstance(document, dict):
        raise KnowledgeFileError(f"knowledge file {path}: the top level must be a JSON object")
    prop = document.get("property")
    if not isinstance(prop, dict) or not prop.get("property_id"):
        raise KnowledgeFileError(
            f"knowledge file {path}: needs a 'property' object with a 'property_id'"
        )
    categories = document.get("categories")
    if not isinstance(categories, dict) or not categories:
        raise KnowledgeFileError(
            f"knowledge file {path}: needs a 'categories' object mapping names to item lists"
        )

    property_id = str(prop["property_id"])
    default_updated = str(document.get("last_updated", prop.get("last_updated", "")))
    items: list[KnowledgeItem] = []
    skipped: list[str] = []

    def skip(where: str, why: str) -> None:
        message = f"{path.name}: skipped {where}: {why}"
        logger.warning(message)
        skipped.append(message)

    for category, entries in categories.items():
        if not isinstance(entries, list):
            skip(f"category '{category}'", "its value must be a list of items")
            continue
        for position, raw in enumerate(entries):
            where = f"{category}[{position}]"
            if not isinstance(raw, dict):
                skip(where, f"an item must be a JSON object, got {type(raw).__name__}")
                continue
            name = item_name(raw)
            if name is None:
                skip(where, "it has no 'name'")
                continue
            where = f"{category}[{position}] '{name}'"
            item_property = str(raw.get("property_id", property_id))
            if item_property != property_id:
                skip(where, f"property_id '{item_property}' is not '{property_id}'")
                continue
            if not any(
                isinstance(v, (str, int, float, list)) and v
                for k, v in raw.items()
                if k not in NAME_FIELDS and k not in ("property_id", "last_updated")
            ):
                skip(where, "it has no content besides its name")
                continue
            items.append(
                KnowledgeItem(
                    category=str(category),
                    name=name,
                    fields=raw,
                    property_id=property_id,
                    last_updated=str(raw.get("last_updated", default_updated)),
                    source=path.name,
                )
            )
    if not items:
        raise KnowledgeFileError(f"knowledge file {path}: no usable items")
    return KnowledgeSource(
        property=prop,
        items=items,
        source=path.name,
        fingerprint=hashlib.sha256(raw_bytes).hexdigest(),
        skipped=skipped,
    )
