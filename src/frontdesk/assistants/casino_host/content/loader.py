"""Load one casino's folder of YAML files into a validated `Catalog`; every file is checked.

A casino is a folder `data/casinos/<casino_id>/` holding `casino.yaml` (one mapping) and any
of the item files below (each a list of items). A venue file names its category, so its items
may leave `category` out. Anything wrong stops the load with a `ContentError` that names the
file, the item and the field: a host must never answer from half-loaded content.
"""

from __future__ import annotations

import hashlib
from pathlib import Path
from typing import Any

import yaml
from pydantic import BaseModel, ValidationError

from frontdesk.assistants.casino_host.content.catalog import Catalog
from frontdesk.assistants.casino_host.content.models import (
    VENUE_CATEGORIES,
    Casino,
    Event,
    Faq,
    InfoItem,
    Promotion,
    Regulation,
    Venue,
    item_category,
    item_name,
)

CASINO_FILE = "casino.yaml"
ITEM_FILES: dict[str, type[BaseModel]] = {
    **{f"{category}.yaml": Venue for category in VENUE_CATEGORIES},
    "events.yaml": Event,
    "promotions.yaml": Promotion,
    "regulations.yaml": Regulation,
    "faq.yaml": Faq,
    "info.yaml": InfoItem,
}
IGNORED_FILES = {"README.md"}


class ContentError(ValueError):
    """A casino's content cannot be used: the message names the file, item and field."""


def _read_yaml(path: Path, where: str) -> Any:
    try:
        return yaml.safe_load(path.read_text(encoding="utf-8"))
    except OSError as exc:
        raise ContentError(f"{where}: cannot read: {exc.strerror}") from exc
    except yaml.YAMLError as exc:
        raise ContentError(f"{where}: not valid YAML: {exc}") from exc


def _field_errors(error: ValidationError) -> str:
    parts = []
    for problem in error.errors():
        location = ".".join(str(part) for part in problem["loc"]) or "(item)"
        parts.append(f"{location}: {problem['msg']}")
    return "; ".join(parts)


def _validate(model: type[BaseModel], raw: Any, where: str) -> Any:
    try:
        return model.model_validate(raw)
    except ValidationError as exc:
        raise ContentError(f"{where}: {_field_errors(exc)}") from None


def _load_items(path: Path, model: type[BaseModel], where: str) -> list[Any]:
    raw = _read_yaml(path, where)
    if raw is None:
        return []
    if not isinstance(raw, list):
        raise ContentError(f"{where}: must be a list of items, got {type(raw).__name__}")
    venue_category = path.stem if model is Venue else None
    items = []
    for position, entry in enumerate(raw):
        label = entry.get("id") if isinstance(entry, dict) else None
        item_where = f"{where}: item {position}" + (f" ({label})" if label else "")
        if not isinstance(entry, dict):
            raise ContentError(f"{item_where}: must be a mapping, got {type(entry).__name__}")
        if venue_category is not None:
            given = entry.get("category", venue_category)
            if given != venue_category:
                raise ContentError(
                    f"{item_where}: category: '{given}' in {path.name} (must be "
                    f"'{venue_category}' or left out)"
                )
            entry = {**entry, "category": venue_category}
        items.append(_validate(model, entry, item_where))
    return items


def _check_references(catalog: Catalog, where: str) -> None:
    """What one file cannot check alone: unique ids, event venues, the state's rules."""
    seen: dict[str, str] = {}
    for item in catalog.all_items(include_inactive=True):
        kind = type(item).__name__
        if item.id in seen:
            raise ContentError(f"{where}: id '{item.id}' is used by a {seen[item.id]} and a {kind}")
        seen[item.id] = kind
    names: set[tuple[str, str]] = set()
    for item in catalog.all_items():
        # Search results are traced back to their item by category and name (documents.py).
        key = (item_category(item), item_name(item))
        if key in names:
            raise ContentError(f"{where}: two active {key[0]} items are named '{key[1]}'")
        names.add(key)
    venue_ids = {venue.id for venue in catalog.all_venues}
    for event in catalog.all_events:
        if event.venue_id is not None and event.venue_id not in venue_ids:
            raise ContentError(
                f"{where}/events.yaml: event '{event.id}': venue_id '{event.venue_id}' is not a "
                "venue of this casino"
            )
    casino = catalog.casino
    for rule in catalog.all_regulations:
        if rule.state != casino.state:
            raise ContentError(
                f"{where}/regulations.yaml: '{rule.id}': state '{rule.state}' is not the "
                f"casino's ('{casino.state}')"
            )
        if rule.kind == "gaming_age" and rule.min_age != casino.gaming_age_minimum:
            raise ContentError(
                f"{where}/regulations.yaml: '{rule.id}': min_age {rule.min_age} differs from "
                f"casino.yaml's gaming_age_minimum {casino.gaming_age_minimum}"
            )


def load_catalog(directory: str | Path) -> Catalog:
    """The casino in `directory`, every file validated; `ContentError` on the first problem."""
    directory = Path(directory)
    where = directory.name
    if not directory.is_dir():
        raise ContentError(f"{directory}: not a casino content folder")
    unknown = sorted(
        p.name
        for p in directory.iterdir()
        if p.name not in ITEM_FILES and p.name not in (CASINO_FILE, *IGNORED_FILES)
    )
    if unknown:
        expected = ", ".join([CASINO_FILE, *ITEM_FILES])
        raise ContentError(f"{where}: unknown file(s) {', '.join(unknown)} (expected {expected})")
    casino_path = directory / CASINO_FILE
    if not casino_path.is_file():
        raise ContentError(f"{where}: no {CASINO_FILE}")
    casino = _validate(
        Casino, _read_yaml(casino_path, f"{where}/{CASINO_FILE}"), where + "/" + CASINO_FILE
    )
    if casino.id != directory.name:
        raise ContentError(
            f"{where}/{CASINO_FILE}: id: '{casino.id}' must match its folder '{directory.name}'"
        )
    loaded: dict[str, list[Any]] = {}
    digest = hashlib.sha256(casino_path.read_bytes())
    for name, model in ITEM_FILES.items():
        path = directory / name
        if path.is_file():
            loaded[name] = _load_items(path, model, f"{where}/{name}")
            digest.update(name.encode() + b"\0" + path.read_bytes())
    venues = [
        venue for category in VENUE_CATEGORIES for venue in loaded.get(f"{category}.yaml", [])
    ]
    catalog = Catalog(
        casino,
        venues=venues,
        events=loaded.get("events.yaml", []),
        promotions=loaded.get("promotions.yaml", []),
        regulations=loaded.get("regulations.yaml", []),
        faqs=loaded.get("faq.yaml", []),
        info=loaded.get("info.yaml", []),
        fingerprint=digest.hexdigest(),
    )
    _check_references(catalog, where)
    return catalog


def casino_folders(root: str | Path) -> list[Path]:
    """The casino folders under `root`, sorted: every folder is one (one without a casino.yaml
    fails to load rather than being skipped, so a casino never silently goes missing)."""
    return sorted(
        p for p in Path(root).iterdir() if p.is_dir() and not p.name.startswith((".", "_"))
    )
