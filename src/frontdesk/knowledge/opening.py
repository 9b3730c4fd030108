"""An assistant's knowledge, opened one way: its source, the index built from it, and the
retriever over that index (`Knowledge`), and, for a folder of markdown manuals (telecom's
manuals, the analyst's user manual), the whole opening: load, chunk by heading, (re)index as
`ingest_mode` says, save the index's similarity statistics, search with MMR behind a gate.

`open_knowledge` in each assistant's service says only what is its own: the folder, the gate,
and how a question is searched.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Generic, TypeVar

from frontdesk.knowledge.index import KnowledgeIndex, ProgressCallback
from frontdesk.knowledge.ingest import IngestMode, IngestReport, ingest_as_needed
from frontdesk.knowledge.markdown import MarkdownCorpus, load_markdown_folder
from frontdesk.knowledge.markdown_chunking import CHUNK_TOKENS, OVERLAP_TOKENS, chunk_corpus
from frontdesk.knowledge.mmr import MMRRetriever, MMRSettings, index_statistics, write_statistics

if TYPE_CHECKING:
    from frontdesk.config import Settings
    from frontdesk.runtime import Models

logger = logging.getLogger(__name__)

SourceT = TypeVar("SourceT")
RetrieverT = TypeVar("RetrieverT")


@dataclass
class Knowledge(Generic[SourceT, RetrieverT]):
    """What an assistant answers from: the source as loaded, its index, and the retriever."""

    source: SourceT
    index: KnowledgeIndex
    retriever: RetrieverT


MarkdownKnowledge = Knowledge[MarkdownCorpus, MMRRetriever]


def open_markdown_knowledge(
    settings: Settings,
    models: Models,
    name: str,
    docs_dir: Path,
    retrieval: MMRSettings,
    *,
    ingest_mode: IngestMode = "if_changed",
    progress: ProgressCallback | None = None,
    translate: Callable[[str], str | None] | None = None,
) -> tuple[MarkdownKnowledge, IngestReport | None]:
    """`name`'s manuals in `docs_dir`, indexed under the assistant's index folder; the ingest
    report when it ran. `translate`: question -> the words the manuals use, or None to search
    the question as written (telecom's Polish questions)."""
    corpus = load_markdown_folder(docs_dir, name)
    index = KnowledgeIndex(
        settings.index_dir(name), models.embeddings, models.embeddings_id, title_keys=("title",)
    )
    report = ingest_as_needed(
        corpus,
        index,
        ingest_mode,
        chunk_size=CHUNK_TOKENS,
        overlap=OVERLAP_TOKENS,
        progress=progress,
        chunker=chunk_corpus,
    )
    if report is not None:
        # What the gate's threshold is calibrated against (`frontdesk telecom calibrate-gate`).
        write_statistics(index.directory, index_statistics(index.vectors(name)))
        logger.info("ingested %s: %s", corpus.source, report)
    retriever = MMRRetriever(index, name, retrieval, translate=translate)
    return Knowledge(corpus, index, retriever), report
