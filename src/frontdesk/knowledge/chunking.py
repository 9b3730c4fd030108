"""One chunk per knowledge item; only long items are split (recursively, 800/100 by default).

Splitting structured data with a text splitter would merge half of one restaurant with half of
the next, so items stay whole. A long item's continuation chunks repeat the item's name so each
chunk still says what it is about.

Each chunk also has sentence views: its sentences, each led by the item's name ("Sky Tower One-
Bedroom Suite: Amenities: ..., Soaking tub."). They are embedded beside the chunk so that a
short question ("soaking tub", "free concerts") can match the one sentence that answers it,
which the whole chunk's vector, an average over every field, places far away.
"""

from __future__ import annotations

import hashlib
import re
from dataclasses import dataclass, field
from typing import Any

from langchain_text_splitters import RecursiveCharacterTextSplitter

from frontdesk.knowledge.formatters import format_item
from frontdesk.knowledge.loader import KnowledgeSource

SEPARATORS = ["\n\n", "\n", ". ", " ", ""]
# A sentence ends at ". ", "! " or "? ", or at a line break (the day-hours note's line).
_SENTENCE_END = re.compile(r"(?<=[.!?])\s+|\n+")
MIN_VIEW_CHARS = 3


@dataclass(frozen=True)
class Chunk:
    id: str
    content: str
    metadata: dict[str, Any]
    # The chunk's sentences, each led by the item's name: extra vectors for dense search.
    views: tuple[str, ...] = field(default=())
    # What dense search embeds for the chunk when not all of its content (None: the content).
    # A long chunk's opening says what it is; embedding the rest costs time the model's
    # token limit would cut anyway.
    key: str | None = None

    @property
    def embedded_text(self) -> str:
        return self.content if self.key is None else self.key


def split_sentences(text: str) -> list[str]:
    """`text`'s sentences, stripped, empty ones left out."""
    return [s.strip() for s in _SENTENCE_END.split(text) if s.strip()]


def sentences_led_by(text: str, name: str) -> list[str]:
    """`text`'s sentences, each led by `name` ("Grand Arena: Capacity: 10,000 seats."), without
    repeats: a field sentence alone does not say whose field it is."""
    sentences: list[str] = []
    for sentence in split_sentences(text):
        if len(sentence) < MIN_VIEW_CHARS:
            continue
        led = sentence if sentence.startswith(name) else f"{name}: {sentence}"
        if led not in sentences:
            sentences.append(led)
    return sentences


def sentence_views(content: str, name: str) -> tuple[str, ...]:
    """A chunk's sentences led by its item's name; none for a one-sentence chunk (its own
    vector already is that sentence's)."""
    views = sentences_led_by(content, name)
    return tuple(views) if len(views) > 1 else ()


def chunk_id(content: str, source: str) -> str:
    """Same content from the same source -> same id, so re-ingesting is idempotent."""
    return hashlib.sha256((content + source).encode("utf-8")).hexdigest()


def chunk_source(source: KnowledgeSource, chunk_size: int = 800, overlap: int = 100) -> list[Chunk]:
    # keep_separator="end": a split after ". " leaves the full stop with its sentence instead
    # of starting the next piece with ". ".
    splitter = RecursiveCharacterTextSplitter(
        chunk_size=chunk_size, chunk_overlap=overlap, separators=SEPARATORS, keep_separator="end"
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
                    views=sentence_views(piece, item.name),
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
