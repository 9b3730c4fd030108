"""Ingestion: knowledge file -> formatted chunks -> index, idempotent and incremental.

Chunk ids are content hashes, so re-ingesting unchanged data adds nothing, an edited item
replaces its old chunk, and an item removed from the file is removed from the index. The
manifest records what was ingested so callers can skip the work when nothing changed.
"""

from __future__ import annotations

import hashlib
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any, Literal

from frontdesk.knowledge.chunking import Chunk, chunk_source
from frontdesk.knowledge.index import KnowledgeIndex, ProgressCallback
from frontdesk.knowledge.loader import KnowledgeSource

# Turns a source (a `KnowledgeSource`, a `MarkdownCorpus`...) into chunks: (source, size, overlap).
Chunker = Callable[[Any, int, int], list[Chunk]]
# always: re-ingest; if_changed: only when the index does not hold this data; never: read only.
IngestMode = Literal["if_changed", "always", "never"]


@dataclass
class IngestReport:
    chunks: int
    added: int
    removed: int
    unchanged: int
    seconds: float
    skipped: list[str] = field(default_factory=list)
    relabelled: int = 0  # unchanged chunks whose metadata (front matter) changed

    @property
    def chunks_per_second(self) -> float:
        return self.added / self.seconds if self.seconds > 0 else 0.0


def fingerprint(
    source: KnowledgeSource | Any,
    index: KnowledgeIndex,
    chunks: Sequence[Chunk],
    chunk_size: int,
    overlap: int,
) -> dict:
    """What the manifest records for `chunks` of `source`, made with these settings."""
    # The chunk ids hash each chunk's text, so their digest changes with the data and with the
    # code that formats and splits it: an upgrade that writes items differently re-ingests.
    ids = sorted(str(chunk.id) for chunk in chunks)
    views = sorted(view for chunk in chunks for view in chunk.views)
    return {
        "chunks_sha256": hashlib.sha256("\n".join(ids).encode()).hexdigest(),
        "views_sha256": hashlib.sha256("\n".join(views).encode()).hexdigest(),
        "source": source.source,
        "source_sha256": source.fingerprint,
        "property_id": source.property_id,
        "embeddings": index.embeddings_id,
        "chunk_size": chunk_size,
        "chunk_overlap": overlap,
    }


def is_current(
    source: KnowledgeSource | Any,
    index: KnowledgeIndex,
    chunk_size: int,
    overlap: int,
    chunker: Chunker = chunk_source,
) -> bool:
    """True when the index already holds exactly this data, embedded the same way."""
    chunks = chunker(source, chunk_size, overlap)
    wanted = fingerprint(source, index, chunks, chunk_size, overlap)
    return index.manifest() == wanted and index.count(source.property_id) > 0


def ingest(
    source: KnowledgeSource | Any,
    index: KnowledgeIndex,
    *,
    chunk_size: int = 800,
    overlap: int = 100,
    progress: ProgressCallback | None = None,
    chunker: Chunker = chunk_source,
) -> IngestReport:
    """Make `index` hold `source`'s chunks, cut by `chunker` (structured items by default)."""
    started = time.perf_counter()
    chunks = chunker(source, chunk_size, overlap)
    sync = index.sync(chunks, source.property_id, progress=progress)
    index.write_manifest(fingerprint(source, index, chunks, chunk_size, overlap))
    return IngestReport(
        chunks=len(chunks),
        added=sync.added,
        removed=sync.removed,
        unchanged=sync.unchanged,
        seconds=time.perf_counter() - started,
        skipped=list(source.skipped),
        relabelled=sync.relabelled,
    )


def ingest_as_needed(
    source: KnowledgeSource | Any,
    index: KnowledgeIndex,
    mode: IngestMode,
    *,
    chunk_size: int,
    overlap: int,
    progress: ProgressCallback | None = None,
    chunker: Chunker = chunk_source,
) -> IngestReport | None:
    """Ingest `source` as `mode` says; the report when it ran, None when it did not."""
    stale = mode == "always" or (
        mode == "if_changed" and not is_current(source, index, chunk_size, overlap, chunker)
    )
    if not stale:
        return None
    return ingest(
        source, index, chunk_size=chunk_size, overlap=overlap, progress=progress, chunker=chunker
    )
