"""One chunk per knowledge item; only long items are split (recursively, 800/100 by default).

Splitting structured data with a text splitter would merge half of one restaurant with half of
the next, so items stay whole. A long item's continuation chunks repeat the item's name so each
chunk still says what it is about.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from typing import Any

from langchain_text_splitters import RecursiveCharacterTextSplitter

from frontdesk.knowledge.formatters import format_item
from frontdesk.knowledge.loader import KnowledgeSource

SEPARATORS = ["\n\n", "\n", ". ", " ", ""]


@dataclass(frozen=True)
class Chunk:
    id: str
    content: str
    metadata: dict[str, Any]


def chunk_id(content: str, source: str) -> str:
    """Same content from the same source -> same id, so re-ingesting is idempotent."""
    return hashlib.sha256((content + source).encode("utf-8")).hexdigest()


def chunk_source(source: KnowledgeSource, chunk_size: int = 800, overlap: int = 100) -> list[Chunk]:
    splitter = RecursiveCharacterTextSplitter(
        chunk_size=chunk_size, chunk_overlap=overlap, separators=SEPARATORS
    )
    chunks: list[Chunk] = []
    seen: set[str] = set()
    for item in source.items:
        text = format_item(item.category, item.name, item.fields)
        pieces = [text] if len(text) <= chunk_size else splitter.split_text(text)
        index = 0
        for piece in pieces:
            if index > 0 and not piece.startswith(item.name):
                piece = f"{item.name} (continued): {piece}"
            cid = chunk_id(piece, source.source)
            if cid in seen:  # identical text (two identical items, a repeated passage): keep one
                continue
            seen.add(cid)
            chunks.append(
                Chunk(
                    id=cid,
                    content=piece,
                    metadata={
                        "category": item.category,
                        "item_name": item.name,
                        "source": source.source,
                        "property_id": item.property_id,
                        "last_updated": item.last_updated,
                        "chunk_index": index,
                    },
                )
            )
            index += 1
    return chunks
