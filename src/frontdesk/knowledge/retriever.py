"""Hybrid retrieval: dense and BM25 rankings fused with reciprocal rank fusion.

Dense search finds paraphrases ("somewhere to get a burger"); BM25 finds exact names and rare
words ("Todd English", "Momentum Soar") that embeddings blur. RRF (Cormack et al. 2009, k=60)
merges the two rankings without having to calibrate their scores against each other.

Every search is filtered on `property_id`. Dense search ranks a chunk by the best of its own
vector and its sentences' (knowledge/chunking.py). A relevance threshold on the best whole-chunk
similarity decides whether the knowledge base has anything to say at all: below it, retrieval returns
nothing and the assistant says it does not know instead of answering from noise, unless one
document holds every keyword of the query (short keyword queries embed poorly).

Results are whole items, not chunks: when a long item was split, its retrieved chunks are
merged into one result, so two chunks of one item never take two of the top-k places.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from langchain_core.documents import Document

from frontdesk.guardrails.screening import screen_untrusted
from frontdesk.knowledge.index import KnowledgeIndex


@dataclass(frozen=True)
class RetrievalSettings:
    top_k: int = 5
    rrf_k: int = 60
    min_similarity: float = 0.20
    # How deep each ranking goes before fusion.
    candidates: int = 20
    # BM25 hits scoring under this fraction of the best BM25 score are dropped before fusion:
    # RRF credits rank, not score, so a weak one-word match ("room", "book") at rank 8 would
    # otherwise count as much as a strong one. 0.35-0.45 all do as well on the concierge's set
    # (tuned on one half of it, confirmed on the other; docs/retrieval.md).
    keyword_min_ratio: float = 0.4
    # Metadata keys naming the item a chunk belongs to; chunks of one item merge into a result.
    group_by: tuple[str, ...] = ("category", "item_name")


def reciprocal_rank_fusion(
    rankings: list[list[str]], k: int = 60, weights: Sequence[float] | None = None
) -> dict[str, float]:
    """RRF score per id: the sum over rankings of weight / (k + rank), rank starting at 1
    (every weight 1 unless `weights`, one per ranking, are given)."""
    if weights is not None and len(weights) != len(rankings):
        raise ValueError(f"{len(rankings)} rankings but {len(weights)} weights")
    scores: dict[str, float] = {}
    for ranking, weight in zip(rankings, weights or [1.0] * len(rankings), strict=True):
        for rank, key in enumerate(ranking, start=1):
            scores[key] = scores.get(key, 0.0) + weight / (k + rank)
    return scores


class HybridRetriever:
    def __init__(self, index: KnowledgeIndex, property_id: str, settings: RetrievalSettings):
        self.index = index
        self.property_id = property_id
        self.settings = settings

    def search(self, query: str, top_k: int | None = None) -> list[dict[str, Any]]:
        """Best chunks for `query` as `{content, metadata, score}` dicts, best first.

        `score` is the best dense cosine similarity of the item's chunks and their sentences
        (None when only BM25 found it); `rrf` is the item's fused score, which sets the order.
        `metadata` is the item's first retrieved chunk's.
        """
        top_k = top_k or self.settings.top_k
        depth = max(self.settings.candidates, top_k * 4)
        dense = self.index.dense_search(query, depth, self.property_id)
        if not dense:
            return []
        relevance = self.index.relevance(query, self.property_id)
        if relevance < self.settings.min_similarity and not self.index.keyword_index(
            self.property_id
        ).has_full_match(query):
            return []
        keyword = self.index.keyword_search(query, depth, self.property_id)
        if keyword:
            floor = keyword[0][1] * self.settings.keyword_min_ratio
            keyword = [(doc, score) for doc, score in keyword if score >= floor]

        # Fuse items, not chunks: each ranking lists an item once, at its best chunk's rank, so
        # the second chunk of a long item neither takes a place nor pushes other items down.
        chunks: dict[Any, dict[str, Document]] = {}
        similarity: dict[Any, float] = {}
        rankings: list[list[Any]] = []
        for hits in (dense, keyword):
            ranking: list[Any] = []
            for doc, _ in hits:
                item = self._item_of(doc)
                chunks.setdefault(item, {})[_key(doc)] = doc
                if item not in ranking:
                    ranking.append(item)
            rankings.append(ranking)
        for doc, sim in dense:
            item = self._item_of(doc)
            similarity[item] = max(sim, similarity.get(item, sim))
        fused = reciprocal_rank_fusion(rankings, k=self.settings.rrf_k)
        ranked = sorted(fused, key=lambda item: fused[item], reverse=True)[:top_k]

        results = []
        for item in ranked:
            parts = sorted(chunks[item].values(), key=lambda d: d.metadata.get("chunk_index", 0))
            sim = similarity.get(item)
            results.append(
                {
                    # Screened: a sentence planted in a document to instruct the model
                    # never reaches a prompt (cached per chunk text, so repeats cost nothing).
                    "content": screen_untrusted("\n".join(d.page_content for d in parts)).text,
                    "metadata": dict(parts[0].metadata),
                    "score": None if sim is None else round(sim, 4),
                    "rrf": round(fused[item], 6),
                }
            )
        return results

    def _item_of(self, doc: Document) -> Any:
        """The item a chunk belongs to; a chunk without the `group_by` keys stands alone."""
        values = tuple(doc.metadata.get(name) for name in self.settings.group_by)
        return values if values and all(v is not None for v in values) else _key(doc)


def _key(doc: Document) -> str:
    return doc.id or f"{doc.metadata.get('source')}:{doc.page_content}"
