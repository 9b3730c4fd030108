"""Search over a casino's content with the core's hybrid retrieval, one tenant at a time.

Each casino has an index of its own (`<index_dir>/<casino_id>/`, its chunks under
`property_id = casino_id`), and every search names the casino: per-tenant storage with a
mandatory filter (seed WP3 item 23), so one casino's documents cannot come back for another.
A result whose `property_id` is not the casino asked for would raise rather than be shown.

Ranking is the core's: BM25 and embeddings fused with reciprocal rank fusion
(`frontdesk.knowledge.retriever.HybridRetriever`). Results are filtered after ranking: by
category when one is asked for, and promotions outside their dates at `now` are left out, so
a host never reads an expired offer as a current one.
"""

from __future__ import annotations

import logging
import threading
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path

from langchain_core.embeddings import Embeddings

from frontdesk.assistants.casino_host.content.catalog import Catalog
from frontdesk.assistants.casino_host.content.documents import knowledge_items
from frontdesk.assistants.casino_host.content.models import (
    CATEGORIES,
    ContentItem,
    Promotion,
    item_category,
    item_name,
)
from frontdesk.assistants.casino_host.content.registry import CasinoContent, CasinoScopeError
from frontdesk.knowledge.index import KnowledgeIndex
from frontdesk.knowledge.ingest import IngestMode, IngestReport, ingest_as_needed
from frontdesk.knowledge.loader import KnowledgeSource
from frontdesk.knowledge.retriever import HybridRetriever, RetrievalSettings

logger = logging.getLogger(__name__)
CHUNK_SIZE = 800
CHUNK_OVERLAP = 100


@dataclass(frozen=True)
class SearchHit:
    casino_id: str
    item: ContentItem  # the structured item: facts in a reply are computed from it
    category: str
    name: str
    content: str  # the text that was searched, as a model may read it
    score: float | None  # best cosine similarity (None: found by keywords only)
    rrf: float  # the fused score that ordered the results


@dataclass
class _CasinoIndex:
    index: KnowledgeIndex
    retriever: HybridRetriever
    items: dict[tuple[str, str], ContentItem]
    size: int


def knowledge_source(catalog: Catalog) -> KnowledgeSource:
    """The casino's active items as the core's knowledge source (one chunk per item)."""
    casino = catalog.casino
    return KnowledgeSource(
        property={"property_id": casino.id, "name": casino.name, "timezone": casino.timezone},
        items=knowledge_items(catalog),
        source=f"casinos/{casino.id}",
        fingerprint=catalog.fingerprint,
    )


class ContentSearch:
    """Hybrid search over every loaded casino; each casino indexed on first use."""

    def __init__(
        self,
        content: CasinoContent,
        index_dir: str | Path,
        embeddings: Embeddings,
        embeddings_id: str,
        *,
        settings: RetrievalSettings | None = None,
        ingest_mode: IngestMode = "if_changed",
    ):
        self.content = content
        self.index_dir = Path(index_dir)
        self.embeddings = embeddings
        self.embeddings_id = embeddings_id
        self.settings = settings or RetrievalSettings()
        self.ingest_mode = ingest_mode
        self._open: dict[str, _CasinoIndex] = {}
        self._lock = threading.Lock()

    def ingest(self, casino_id: str | None) -> IngestReport | None:
        """Index the casino now (as `ingest_mode` says); the report when it ran."""
        return self._opened(self.content.catalog(casino_id))[1]

    def search(
        self,
        casino_id: str | None,
        query: str,
        *,
        category: str | None = None,
        k: int = 5,
        now: datetime | None = None,
    ) -> list[SearchHit]:
        """The `k` best items of casino `casino_id` for `query`, best first.

        `casino_id` is required (None or an unknown id raises `CasinoScopeError`); `category`
        keeps one category; promotions not valid at `now` (default: the current time) are
        left out."""
        catalog = self.content.catalog(casino_id)
        if category is not None and category not in CATEGORIES:
            raise ValueError(f"'{category}' is not a content category ({', '.join(CATEGORIES)})")
        if k < 1:
            raise ValueError(f"k must be at least 1, got {k}")
        today = catalog.local(now or datetime.now(UTC)).date()
        if not query.strip():
            return []
        opened, _ = self._opened(catalog)
        # Every item is ranked, then filtered: a category or the expired offers may leave
        # few of the top few, and one casino's content is a few hundred items.
        ranked = opened.retriever.search(query, top_k=opened.size)
        hits: list[SearchHit] = []
        for result in ranked:
            metadata = result["metadata"]
            if metadata.get("property_id") != catalog.casino_id:
                raise CasinoScopeError(
                    f"search for '{catalog.casino_id}' met a document of "
                    f"'{metadata.get('property_id')}': the index is not tenant-clean"
                )
            item = opened.items.get((metadata.get("category"), metadata.get("item_name")))
            if item is None:  # the index holds an item the content no longer has
                continue
            if category is not None and item_category(item) != category:
                continue
            if isinstance(item, Promotion) and not item.is_active_on(today):
                continue
            hits.append(
                SearchHit(
                    casino_id=catalog.casino_id,
                    item=item,
                    category=item_category(item),
                    name=item_name(item),
                    content=result["content"],
                    score=result["score"],
                    rrf=result["rrf"],
                )
            )
            if len(hits) == k:
                break
        return hits

    def _opened(self, catalog: Catalog) -> tuple[_CasinoIndex, IngestReport | None]:
        with self._lock:
            opened = self._open.get(catalog.casino_id)
            if opened is not None:
                return opened, None
            source = knowledge_source(catalog)
            index = KnowledgeIndex(
                self.index_dir / catalog.casino_id, self.embeddings, self.embeddings_id
            )
            report = ingest_as_needed(
                source, index, self.ingest_mode, chunk_size=CHUNK_SIZE, overlap=CHUNK_OVERLAP
            )
            if report is not None:
                logger.info("indexed casino %s: %s", catalog.casino_id, report)
            opened = _CasinoIndex(
                index=index,
                retriever=HybridRetriever(index, catalog.casino_id, self.settings),
                items={(item_category(i), item_name(i)): i for i in catalog.all_items()},
                size=max(index.count(catalog.casino_id), 1),
            )
            self._open[catalog.casino_id] = opened
            return opened, report
