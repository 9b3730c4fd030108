"""Markdown knowledge: documents with YAML front matter, loaded and normalised.

A folder of `*.md` files is a knowledge base (telecom's manuals, codeqa's docs). Each file may
start with a YAML front matter block (title, version, last_updated, audience, language, summary,
and anything else, such as origin and license). A file without one, or with one that is not
valid YAML or not a mapping, still loads: its title falls back to its first H1 or its file name,
and the problem is reported as a warning naming the file, never raised.

Normalisation keeps what carries structure (headers, lists, code blocks) and drops what does
not: tables become "Header: value" lines, HTML comments go, runs of blank lines shrink to one
blank line, trailing spaces are trimmed.
"""

from __future__ import annotations

import hashlib
import logging
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml

logger = logging.getLogger(__name__)

FRONT_MATTER_RE = re.compile(r"\A\ufeff?---[ \t]*\r?\n(.*?)\r?\n---[ \t]*(?:\r?\n|\Z)", re.DOTALL)
HEADER_RE = re.compile(r"^(#{1,6})[ \t]+(.+?)[ \t]*#*[ \t]*$")
_HTML_COMMENT = re.compile(r"<!--.*?-->", re.DOTALL)
_TABLE_RULE = re.compile(r"^\s*\|?\s*:?-{3,}:?\s*(\|\s*:?-{3,}:?\s*)*\|?\s*$")
_FENCE = re.compile(r"^\s*(```|~~~)")
META_FIELDS = ("title", "version", "last_updated", "audience", "language", "summary")


class MarkdownKnowledgeError(ValueError):
    """The knowledge folder as a whole cannot be used (missing, or no documents)."""


@dataclass(frozen=True)
class MarkdownDocument:
    doc_id: str  # the file name without `.md`
    path: str  # relative to the knowledge folder
    meta: dict[str, Any]  # front matter, with every META_FIELDS key present (str or "")
    text: str  # normalised body
    warnings: tuple[str, ...] = ()

    @property
    def title(self) -> str:
        return str(self.meta.get("title") or self.doc_id)

    @property
    def version(self) -> str:
        return str(self.meta.get("version") or "")


@dataclass
class MarkdownCorpus:
    """All documents of one knowledge folder; quacks like `KnowledgeSource` for ingestion."""

    property_id: str  # the corpus id every chunk is filed under
    documents: list[MarkdownDocument]
    source: str
    fingerprint: str
    skipped: list[str] = field(default_factory=list)

    @property
    def items(self) -> list[MarkdownDocument]:
        """The units ingested, as `KnowledgeSource.items` are (for counts and reports)."""
        return self.documents

    @property
    def warnings(self) -> list[str]:
        return [w for doc in self.documents for w in doc.warnings] + list(self.skipped)


def split_front_matter(raw: str, name: str) -> tuple[dict[str, Any], str, list[str]]:
    """(front matter, body, warnings). Broken front matter is dropped with a warning."""
    match = FRONT_MATTER_RE.match(raw)
    if not match:
        if raw.lstrip("\ufeff").startswith("---"):
            return {}, raw, [f"{name}: front matter is not closed by a '---' line; ignored"]
        return {}, raw, [f"{name}: no front matter; title taken from the document"]
    body = raw[match.end() :]
    try:
        meta = yaml.safe_load(match.group(1))
    except yaml.YAMLError as exc:
        problem = str(exc).splitlines()[0]
        return {}, body, [f"{name}: front matter is not valid YAML ({problem}); ignored"]
    if meta is None:
        return {}, body, [f"{name}: front matter is empty"]
    if not isinstance(meta, dict):
        return {}, body, [f"{name}: front matter is not a mapping of fields; ignored"]
    return {str(k): v for k, v in meta.items()}, body, []


def table_to_text(lines: list[str]) -> list[str]:
    """A markdown table as one line per row: "Header: value; Header: value"."""
    rows = [
        [cell.strip() for cell in line.strip().strip("|").split("|")]
        for line in lines
        if not _TABLE_RULE.match(line)
    ]
    if len(rows) < 2:
        return [" ".join(cell for cell in row if cell) for row in rows]
    header, *body = rows
    out = []
    for row in body:
        pairs = [f"{h}: {v}" if h else v for h, v in zip(header, row, strict=False) if v]
        out.append("; ".join(pairs))
    return out


def normalize_markdown(text: str) -> str:
    text = _HTML_COMMENT.sub("", text.replace("\r\n", "\n"))
    out: list[str] = []
    table: list[str] = []
    in_code = False
    for line in text.split("\n"):
        if _FENCE.match(line):
            in_code = not in_code
        is_table_row = not in_code and line.strip().startswith("|") and line.strip().count("|") >= 2
        if is_table_row:
            table.append(line)
            continue
        if table:
            out.extend(table_to_text(table))
            table = []
        out.append(line.rstrip())
    if table:
        out.extend(table_to_text(table))
    collapsed = re.sub(r"\n{3,}", "\n\n", "\n".join(out))
    return collapsed.strip() + "\n"


def _first_h1(text: str) -> str | None:
    for line in text.splitlines():
        match = HEADER_RE.match(line)
        if match and len(match.group(1)) == 1:
            return match.group(2).strip()
    return None


def _as_text(value: Any) -> str:
    if value is None:
        return ""
    if isinstance(value, list | tuple):
        return ", ".join(str(v) for v in value)
    return str(value).strip()


def parse_document(raw: str, path: str) -> MarkdownDocument:
    name = Path(path).name
    meta, body, warnings = split_front_matter(raw, name)
    text = normalize_markdown(body)
    meta = {k: _as_text(v) for k, v in meta.items()}
    if not meta.get("title"):
        meta["title"] = _first_h1(text) or Path(path).stem.replace("_", " ")
    for key in META_FIELDS:
        meta.setdefault(key, "")
    return MarkdownDocument(
        doc_id=Path(path).stem, path=path, meta=meta, text=text, warnings=tuple(warnings)
    )


def load_markdown_folder(folder: Path, corpus_id: str) -> MarkdownCorpus:
    """Every `*.md` under `folder` (sorted, README.md excluded), parsed; warnings logged."""
    folder = Path(folder)
    if not folder.is_dir():
        raise MarkdownKnowledgeError(f"knowledge folder {folder} does not exist")
    digest = hashlib.sha256()
    documents: list[MarkdownDocument] = []
    skipped: list[str] = []
    for path in sorted(folder.rglob("*.md")):
        if path.name.lower() == "readme.md":
            continue
        relative = path.relative_to(folder).as_posix()
        try:
            raw = path.read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError) as exc:
            skipped.append(f"{relative}: cannot be read as UTF-8 text ({exc}); skipped")
            continue
        digest.update(relative.encode() + b"\0" + raw.encode() + b"\0")
        document = parse_document(raw, relative)
        if not document.text.strip():
            skipped.append(f"{relative}: no text after the front matter; skipped")
            continue
        documents.append(document)
    if not documents:
        raise MarkdownKnowledgeError(f"knowledge folder {folder} holds no markdown documents")
    corpus = MarkdownCorpus(
        property_id=corpus_id,
        documents=documents,
        source=str(folder),
        fingerprint=digest.hexdigest(),
        skipped=skipped,
    )
    for warning in corpus.warnings:
        logger.warning("knowledge: %s", warning)
    return corpus
