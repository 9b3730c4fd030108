"""Hybrid search over one repository's chunks, inside the router's filters.

BM25 (code-aware terms) and dense cosine each rank the chunks the filter lets through, to a
depth of 50 or fewer; weighted reciprocal rank fusion orders the union. A filter that leaves
nothing is relaxed in the seed's order (L639): drop the file patterns, then the folders, then
the source types. The result says which filter it ran under, so a reply can say "nothing in
tests/; here is what the rest of the repository has".
"""

from __future__ import annotations

from dataclasses import dataclass, field
from fnmatch import fnmatch
from typing import Any

import numpy as np
from langchain_core.documents import Document

from frontdesk.knowledge.index import DenseIndex, KeywordIndex
from frontdesk.knowledge.retriever import reciprocal_rank_fusion

__all__ = ["Hit", "RetrievalRequest", "SearchResult", "SearchSettings", "hybrid_search"]

RELAXATION = ("strict", "without file patterns", "without folders", "everything")


@dataclass(frozen=True)
class RetrievalRequest:
    """One search the router asks for (the seed's RetrievalRequest, L546-551, with the file
    patterns its relaxation table names and the symbols the fast path found)."""

    query: str
    source_types: tuple[str, ...] = ()  # code, test, doc, config, data; empty: all but data
    folders: tuple[str, ...] = ()  # repository-relative prefixes ("src/retrieval/")
    file_patterns: tuple[str, ...] = ()  # globs on the path ("*_client.py")
    symbols: tuple[str, ...] = ()
    reasoning: str = ""


@dataclass(frozen=True)
class SearchSettings:
    depth: int = 50  # candidates from each ranking (the seed's top 50)
    rrf_k: int = 60
    bm25_weight: float = 0.4  # the seed's weights (L561); a setting, measured in the README
    dense_weight: float = 1.0


CODE_TYPES = frozenset({"code", "test"})


@dataclass(frozen=True)
class Hit:
    document: Document
    rrf: float
    bm25_rank: int | None
    dense_rank: int | None
    similarity: float

    @property
    def metadata(self) -> dict[str, Any]:
        return self.document.metadata


@dataclass(frozen=True)
class SearchResult:
    hits: list[Hit]
    filter_used: str  # one of RELAXATION
    candidates: int  # chunks the filter let through
    bm25_count: int
    dense_count: int
    best_similarity: float  # the nearest chunk's cosine, within the filter
    best_code_similarity: float = -1.0  # the same, over code and test chunks only
    metadata: dict[str, Any] = field(default_factory=dict)


def hybrid_search(
    request: RetrievalRequest,
    keyword: KeywordIndex,
    dense: DenseIndex,
    query_vector: np.ndarray | list[float],
    k: int,
    settings: SearchSettings = SearchSettings(),
) -> SearchResult:
    documents = dense.documents
    if not documents:
        return SearchResult([], RELAXATION[0], 0, 0, 0, -1.0)
    for level, name in enumerate(RELAXATION):
        mask = _filter_mask(documents, request, level)
        if mask.any():
            break
    bm25_scores = keyword.scores(request.query)
    similarities = dense.similarities(query_vector)
    candidates = np.flatnonzero(mask)
    depth = min(settings.depth, len(candidates))
    bm25_order = _top(candidates, bm25_scores, depth, positive_only=True)
    dense_order = _top(candidates, similarities, depth, positive_only=False)
    ids = [documents[i].id or str(i) for i in range(len(documents))]
    fused = reciprocal_rank_fusion(
        [[ids[i] for i in bm25_order], [ids[i] for i in dense_order]],
        k=settings.rrf_k,
        weights=[settings.bm25_weight, settings.dense_weight],
    )
    position = {ids[i]: i for i in (*bm25_order, *dense_order)}
    code = [i for i in candidates if documents[i].metadata.get("source_type") in CODE_TYPES]
    bm25_rank = {i: r for r, i in enumerate(bm25_order, 1)}
    dense_rank = {i: r for r, i in enumerate(dense_order, 1)}
    # Ties (equal fused scores) by document order, so results are the same run to run.
    ordered = sorted(fused, key=lambda key: (-fused[key], position[key]))[:k]
    hits = [
        Hit(
            document=documents[position[key]],
            rrf=fused[key],
            bm25_rank=bm25_rank.get(position[key]),
            dense_rank=dense_rank.get(position[key]),
            similarity=float(similarities[position[key]]),
        )
        for key in ordered
    ]
    return SearchResult(
        hits=hits,
        filter_used=name,
        candidates=len(candidates),
        bm25_count=len(bm25_order),
        dense_count=len(dense_order),
        best_similarity=float(similarities[candidates].max()),
        best_code_similarity=float(similarities[code].max()) if len(code) else -1.0,
    )


def _top(candidates: np.ndarray, scores: np.ndarray, depth: int, *, positive_only: bool):
    if depth <= 0:
        return []
    chosen = candidates[scores[candidates] > 0] if positive_only else candidates
    if len(chosen) == 0:
        return []
    depth = min(depth, len(chosen))
    top = chosen[np.argpartition(-scores[chosen], depth - 1)[:depth]]
    return [int(i) for i in top[np.lexsort((top, -scores[top]))]]


def _filter_mask(documents: list[Document], request: RetrievalRequest, level: int) -> np.ndarray:
    """Which chunks the request's filters let through at relaxation `level` (0: all of them;
    1: without file patterns; 2: without folders either; 3: only the repository)."""
    types = set(request.source_types) if level < 3 else set()
    folders = (
        tuple(f.strip("/") + "/" for f in request.folders if f.strip("/")) if level < 2 else ()
    )
    patterns = request.file_patterns if level < 1 else ()
    mask = np.ones(len(documents), dtype=bool)
    for i, document in enumerate(documents):
        meta = document.metadata
        mask[i] = _passes(str(meta.get("path", "")), meta.get("source_type", "code"),
                          types, folders, patterns, level)  # fmt: skip
    return mask


def _passes(
    path: str, kind: str, types: set[str], folders: tuple[str, ...], patterns: tuple[str, ...],
    level: int,
) -> bool:  # fmt: skip
    if types and kind not in types:
        return False
    if not types and kind == "data" and level < 3:
        return False  # records (JSONL, CSV) only when asked for
    if folders and not path.startswith(folders):
        return False
    name = path.rsplit("/", 1)[-1]
    return not patterns or any(fnmatch(path, p) or fnmatch(name, p) for p in patterns)
