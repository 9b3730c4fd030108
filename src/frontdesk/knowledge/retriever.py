"""Hybrid retrieval: dense and BM25 rankings fused with reciprocal rank fusion.

Dense search finds paraphrases ("somewhere to get a burger"); BM25 finds exact names and rare
words ("Todd English", "Momentum Soar") that embeddings blur. RRF (Cormack et al. 2009, k=60)
merges the two rankings without having to calibrate their scores against each other.

Every search is filtered on `property_id`. A relevance threshold on the best dense similarity
decides whether the knowledge base has anything to say at all: below it, retrieval returns
nothing and the assistant says it does not know instead of answering from noise, unless one
document holds every keyword of the query (short keyword queries embed poorly).

Results are whole items, not chunks: when a long item was split, its retrieved chunks are
merged into one result, so two chunks of one item never take two of the top-k places.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from langchain_core.documents import Document

from frontdesk.knowledge.index import KnowledgeIndex


@dataclass(frozen=True)
class RetrievalSettings:
    top_k: int = 5
    rrf_k: int = 60
    min_similarity: float = 0.20
    # How deep each ranking goes before fusion.
    candidates: int = 20
    # Metadata keys naming the item a chunk belongs to; chunks of one item merge into a result.
    group_by: tuple[str, ...] = ("category", "item_name")


def reciprocal_rank_fusion(rankings: list[list[str]], k: int = 60) -> dict[str, float]:
    """RRF score per id: the sum over rankings of 1 / (k + rank), rank starting at 1."""
    scores: dict[str, float] = {}
    for ranking in rankings:
        for rank, key in enumerate(ranking, start=1):
            scores[key] = scores.get(key, 0.0) + 1.0 / (k + rank)
    return scores


class HybridRetriever:
    def __init__(self, index: KnowledgeIndex, property_id: str, settings: RetrievalSettings):
        self.index = index
        self.property_id = property_id
        self.settings = settings

    def search(self, query: str, top_k: int | None = None) -> list[dict[str, Any]]:
        """Best chunks for `query` as `{content, metadata, score}` dicts, best first.

        `score` is the best dense cosine similarity of the item's chunks (None when only BM25
        found it); `rrf` is the fused score of its best chunk, which sets the order.
        """
        top_k = top_k or self.settings.top_k
        depth = max(self.settings.candidates, top_k * 4)
        dense = self.index.dense_search(query, depth, self.property_id)
        if not dense:
            return []
        if dense[0][1] < self.settings.min_similarity and not self.index.keyword_index(
            self.property_id
        ).has_full_match(query):
            return []
        keyword = self.index.keyword_search(query, depth, self.property_id)

        docs: dict[str, Document] = {}
        similarity: dict[str, float] = {}
        for doc, sim in dense:
            docs[_key(doc)] = doc
            similarity[_key(doc)] = sim
        for doc, _ in keyword:
            docs.setdefault(_key(doc), doc)
        fused = reciprocal_rank_fusion(
            [[_key(d) for d, _ in dense], [_key(d) for d, _ in keyword]], k=self.settings.rrf_k
        )
        ranked = sorted(fused, key=lambda key: fused[key], reverse=True)

        # Group the ranked chunks by item, keeping the order of each item's best chunk.
        groups: dict[Any, list[str]] = {}
        for key in ranked:
            groups.setdefault(self._item_of(docs[key], key), []).append(key)
        results = []
        for keys in list(groups.values())[:top_k]:
            best = keys[0]
            chunks = sorted(keys, key=lambda key: docs[key].metadata.get("chunk_index", 0))
            sims = [similarity[key] for key in keys if key in similarity]
            results.append(
                {
                    "content": "\n".join(docs[key].page_content for key in chunks),
                    "metadata": dict(docs[best].metadata),
                    "score": round(max(sims), 4) if sims else None,
                    "rrf": round(fused[best], 6),
                }
            )
        return results

    def _item_of(self, doc: Document, key: str) -> Any:
        values = tuple(doc.metadata.get(name) for name in self.settings.group_by)
        return values if values and all(v is not None for v in values) else key


def _key(doc: Document) -> str:
    return doc.id or f"{doc.metadata.get('source')}:{doc.page_content}"
