"""Context around the chunks found: what a reader needs to understand a piece of code.

For each hit, in order, while the budget lasts: the hit itself; the header of its parent class
(signature and docstring); the signatures of its siblings (the other methods of that class);
and the chunk after it in the same file when the hit ends mid-definition. The seed's step
(L564), with a budget so a small model's prompt stays short."""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass, field
from typing import Any

from langchain_core.documents import Document

__all__ = ["ContextBlock", "expand"]


@dataclass(frozen=True)
class ContextBlock:
    """One retrieved chunk and what was added around it; `cited` are the line ranges it
    shows, which citations may point into."""

    path: str
    start_line: int
    end_line: int
    code: str
    symbol: str
    chunk_id: str
    notes: list[str] = field(default_factory=list)  # parent header, sibling signatures
    cited: list[tuple[int, int]] = field(default_factory=list)

    def render(self) -> str:
        head = f"[{self.path}:{self.start_line}-{self.end_line}]"
        if self.symbol:
            head += f" {self.symbol}"
        parts = [head, *self.notes, _numbered(self.code, self.start_line)]
        return "\n".join(parts)


def expand(
    hits: list[Document], documents: list[Document], budget_chars: int
) -> list[ContextBlock]:
    """Blocks for `hits` (best first) with their context, until `budget_chars` is spent; the
    first hit always gets in, cut if it must be."""
    by_file: dict[str, list[Document]] = defaultdict(list)
    for document in documents:
        by_file[document.metadata.get("path", "")].append(document)
    for chunks in by_file.values():
        chunks.sort(key=lambda d: d.metadata.get("start_line", 0))
    blocks: list[ContextBlock] = []
    used = 0
    seen: set[str] = set()
    for hit in hits:
        if (hit.id or "") in seen:
            continue
        meta = hit.metadata
        code = _code_of(hit)
        if blocks and used + len(code) > budget_chars:
            break
        if not blocks and len(code) > budget_chars:
            code = code[:budget_chars]
        block = ContextBlock(
            path=meta.get("path", ""),
            start_line=int(meta.get("start_line", 1)),
            end_line=int(meta.get("start_line", 1)) + code.count("\n"),
            code=code,
            symbol=meta.get("symbol", ""),
            chunk_id=hit.id or "",
        )
        block.cited.append((block.start_line, block.end_line))
        used += len(code)
        seen.add(block.chunk_id)
        for note in _notes(meta, by_file[block.path]):
            if used + len(note) <= budget_chars:
                block.notes.append(note)
                used += len(note)
        following = _next_chunk(hit, by_file[block.path])
        if following is not None and following.id not in seen and _continues(meta, following):
            more = _code_of(following)
            if used + len(more) <= budget_chars:
                block = _joined(block, following, more)
                used += len(more)
                seen.add(following.id or "")
        blocks.append(block)
    return blocks


def _code_of(document: Document) -> str:
    """The chunk's code: its stored text after the header (a blank line ends the header)."""
    text = document.page_content
    return text.split("\n\n", 1)[1] if "\n\n" in text else text


def _numbered(code: str, first: int) -> str:
    return "\n".join(f"{first + i:>5}  {line}" for i, line in enumerate(code.split("\n")))


def _notes(meta: dict[str, Any], file_chunks: list[Document]) -> list[str]:
    parent = meta.get("parent") or ""
    if not parent:
        return []
    notes = []
    header = next((d for d in file_chunks if d.metadata.get("symbol") == parent), None)
    if header is not None and header.metadata.get("signature"):
        doc = header.metadata.get("docstring") or ""
        notes.append(f"(in {header.metadata['signature']}{': ' + doc if doc else ''})")
    siblings = sorted(
        {
            d.metadata.get("signature", "")
            for d in file_chunks
            if d.metadata.get("parent") == parent
            and d.metadata.get("symbol") != meta.get("symbol")
            and d.metadata.get("signature")
            and not str(d.metadata.get("kind", "")).startswith("part of")
        }
    )
    if siblings:
        notes.append("(other members: " + "; ".join(siblings) + ")")
    return notes


def _next_chunk(hit: Document, file_chunks: list[Document]) -> Document | None:
    end = hit.metadata.get("end_line", 0)
    return next((d for d in file_chunks if d.metadata.get("start_line") == end + 1), None)


def _continues(meta: dict[str, Any], following: Document) -> bool:
    """The next chunk goes on with the same definition (a large one split in parts)."""
    return (
        bool(meta.get("symbol"))
        and following.metadata.get("symbol") == meta.get("symbol")
        and str(following.metadata.get("kind", "")).startswith("part of")
    )


def _joined(block: ContextBlock, following: Document, more: str) -> ContextBlock:
    end = int(following.metadata.get("end_line", block.end_line))
    return ContextBlock(
        path=block.path,
        start_line=block.start_line,
        end_line=end,
        code=f"{block.code}\n{more}",
        symbol=block.symbol,
        chunk_id=block.chunk_id,
        notes=block.notes,
        cited=[(block.start_line, end)],
    )
