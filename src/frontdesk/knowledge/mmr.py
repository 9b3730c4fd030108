"""MMR retrieval with a NO_CONTEXT gate, for knowledge that must not be stretched (seed 004).

1. The query is embedded once; every chunk gets its cosine similarity (the best of its own
   vector and its views').
2. The `fetch_k` most similar chunks are re-ordered by maximal marginal relevance:
   argmax_d [lambda * sim(q, d) - (1 - lambda) * max_{s in selected} sim(d, s)], lambda 0.7,
   so the results cover several sections instead of repeating one.
3. One chunk per (doc_id, section_path) is kept (the MMR order is kept), then the first `top_k`.
4. NO_CONTEXT when fewer than `min_hits` chunks remain or the relevance is under `threshold`.
   Relevance is the mean similarity of the best `gate_hits` hits plus `coverage_weight` times
   the share of the query's terms (stemmed, stop words out) that occur anywhere in the
   knowledge base. The seed's gate, the mean of all eight hits with threshold 0.5, was set for
   OpenAI embeddings; with MiniLM the mean of eight (after MMR diversifies them) separates
   covered from uncovered questions poorly, the best hit alone better, the best hit with term
   coverage best (docs/telecom.md has the figures): coverage catches questions whose words the
   knowledge base never uses ("Jak ugotować rosół?"), which MiniLM, an English model, embeds
   close to the Polish documents. The threshold is calibrated on labelled questions
   (`frontdesk calibrate-gate`).

A question in a language the embedder does not know well can come with a `translate`
function (knowledge/glossary.py: the question in the documents' words): every chunk then
scores the better of its similarity to the question and to the translation, and the term
coverage is the better of the two, so a Polish question finds the English section that
answers it and passes the gate as its English twin does.

Documents may name their `audience` (front matter): with `audiences` set, only chunks of
those audiences are ever retrieved, and only their words count for coverage, so text written
for staff ("call transfer_to_human_agents") is indexed but never reaches a customer's answer.

`index_statistics` summarises the index's similarity distribution (saved beside the index at
ingestion) so a threshold can be read against what similarities look like in this index.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from frontdesk.guardrails.screening import screen_untrusted
from frontdesk.knowledge.index import KnowledgeIndex

STATS_FILE = "stats.json"
PERCENTILES = (10, 25, 50, 75, 90)


@dataclass(frozen=True)
class MMRSettings:
    top_k: int = 8
    fetch_k: int = 24
    lambda_mult: float = 0.7
    threshold: float = 0.5
    min_hits: int = 3
    gate_hits: int = 1
    coverage_weight: float = 0.5
    # The audiences whose chunks may be retrieved (metadata "audience"); empty: every chunk.
    audiences: tuple[str, ...] = ()


@dataclass
class Retrieval:
    """One retrieval: the hits (best first), and whether they are enough to answer from."""

    hits: list[dict[str, Any]]
    no_context: bool
    mean_score: float  # mean similarity of the hits
    threshold: float
    reason: str | None = None
    relevance: float = 0.0  # what the gate compares with the threshold
    candidates: int = 0
    extra: dict[str, Any] = field(default_factory=dict)

    def citations(self) -> list[dict[str, Any]]:
        return [citation_of(hit) for hit in self.hits]


def citation_of(hit: dict[str, Any]) -> dict[str, Any]:
    meta = hit["metadata"]
    title = str(meta.get("title", ""))
    return {
        "title": title,
        "section": section_under(title, str(meta.get("section_path", ""))),
        "file": Path(str(meta.get("path", ""))).name,
        "version": meta.get("version", ""),
        "score": hit.get("score"),
    }


def section_under(title: str, section_path: str) -> str:
    """The section path without the document's own title: a document's H1 is usually its
    title, and a citation "Title — Title > Section" says the title twice."""
    parts = [part.strip() for part in section_path.split(">")]
    if title and parts and parts[0].casefold() == title.strip().casefold():
        parts = parts[1:]
    return " > ".join(parts)


def mmr_order(
    query_scores: np.ndarray, vectors: np.ndarray, lambda_mult: float, k: int
) -> list[int]:
    """Positions (into `query_scores`/`vectors`) in MMR order, `k` of them at most."""
    count = len(query_scores)
    if count == 0:
        return []
    pairwise = vectors @ vectors.T
    selected: list[int] = []
    redundancy = np.full(count, -np.inf)
    remaining = np.ones(count, dtype=bool)
    for _ in range(min(k, count)):
        penalty = np.where(np.isfinite(redundancy), redundancy, 0.0)
        value = lambda_mult * query_scores - (1.0 - lambda_mult) * penalty
        value[~remaining] = -np.inf
        best = int(np.argmax(value))  # ties: the lower position, i.e. the more similar chunk
        selected.append(best)
        remaining[best] = False
        redundancy = np.maximum(redundancy, pairwise[best])
    return selected


class MMRRetriever:
    def __init__(
        self,
        index: KnowledgeIndex,
        corpus_id: str,
        settings: MMRSettings,
        translate: Callable[[str], str | None] | None = None,
    ):
        self.index = index
        self.corpus_id = corpus_id
        self.settings = settings
        # The question in the documents' words, or None when it has none to offer.
        self.translate = translate
        self._vocabulary: tuple[Any, frozenset[str]] | None = None
        self._allowed: tuple[Any, np.ndarray] | None = None

    def serves(self, metadata: dict[str, Any]) -> bool:
        """Whether a chunk with this metadata may be retrieved (its audience is served)."""
        audiences = self.settings.audiences
        return not audiences or str(metadata.get("audience", "")) in audiences

    def _allowed_rows(self, dense: Any) -> np.ndarray:
        """A mask over the dense index's rows: the chunks this retriever serves."""
        if self._allowed is None or self._allowed[0] is not dense:
            mask = np.array([self.serves(doc.metadata) for doc in dense.documents], dtype=bool)
            self._allowed = (dense, mask)
        return self._allowed[1]

    def vocabulary(self) -> frozenset[str]:
        """Every keyword-index term of the knowledge base (rebuilt when the index reloads)."""
        keyword = self.index.keyword_index(self.corpus_id)
        if self._vocabulary is None or self._vocabulary[0] is not keyword:
            terms = {
                t
                for doc in keyword.documents
                if self.serves(doc.metadata)
                for t in keyword.query_terms(doc.page_content)
            }
            self._vocabulary = (keyword, frozenset(terms))
        return self._vocabulary[1]

    def coverage(self, query: str) -> float:
        """Share of the query's terms that the knowledge base uses at all (0 with no terms)."""
        terms = self.index.keyword_index(self.corpus_id).query_terms(query)
        vocabulary = self.vocabulary()
        return sum(1 for t in terms if t in vocabulary) / len(terms) if terms else 0.0

    def retrieve(self, query: str, *, threshold: float | None = None) -> Retrieval:
        settings = self.settings
        gate = settings.threshold if threshold is None else threshold
        dense = self.index.dense_index(self.corpus_id)
        if not query.strip() or not dense.documents:
            return Retrieval([], True, 0.0, gate, reason="empty query or empty index")
        scores = dense.similarities(self.index.embeddings.embed_query(query))
        coverage = self.coverage(query)
        translated = self.translate(query) if self.translate is not None else None
        if translated and translated.strip() and translated != query:
            scores = np.maximum(
                scores, dense.similarities(self.index.embeddings.embed_query(translated))
            )
            coverage = max(coverage, self.coverage(translated))
        else:
            translated = None
        allowed = self._allowed_rows(dense)
        if not allowed.any():
            return Retrieval([], True, 0.0, gate, reason="no document for this audience")
        scores = np.where(allowed, scores, -np.inf)
        fetch = min(settings.fetch_k, int(allowed.sum()))
        candidates = np.argpartition(-scores, fetch - 1)[:fetch]
        candidates = candidates[np.lexsort((candidates, -scores[candidates]))]
        order = mmr_order(
            scores[candidates].astype(np.float64),
            dense.vectors[candidates].astype(np.float64),
            settings.lambda_mult,
            fetch,
        )
        hits: list[dict[str, Any]] = []
        seen: set[tuple[str, str]] = set()
        for position in order:
            row = int(candidates[position])
            doc = dense.documents[row]
            key = (str(doc.metadata.get("doc_id")), str(doc.metadata.get("section_path")))
            # MMR order is kept; of two chunks of one section the first in that order stays,
            # which is the more similar one unless diversity moved it (then it is close anyway).
            if key in seen:
                continue
            seen.add(key)
            hits.append(
                {
                    # Screened like every retriever's hits (knowledge/retriever.py): a planted
                    # instruction never reaches a prompt; cached per chunk text.
                    "content": screen_untrusted(doc.page_content).text,
                    "metadata": dict(doc.metadata),
                    "score": round(float(scores[row]), 4),
                }
            )
            if len(hits) == settings.top_k:
                break
        mean = float(np.mean([h["score"] for h in hits])) if hits else 0.0
        best = sorted((h["score"] for h in hits), reverse=True)[: settings.gate_hits]
        relevance = float(np.mean(best)) if best else 0.0
        relevance += settings.coverage_weight * coverage
        reason = None
        if len(hits) < settings.min_hits:
            reason = f"{len(hits)} hits, fewer than {settings.min_hits}"
        elif relevance < gate:
            reason = f"relevance {relevance:.3f} under the threshold {gate:.3f}"
        return Retrieval(
            hits,
            reason is not None,
            round(mean, 4),
            gate,
            reason=reason,
            relevance=round(relevance, 4),
            candidates=fetch,
            extra={"translated_query": translated} if translated else {},
        )

    def search(self, query: str, top_k: int | None = None) -> list[dict[str, Any]]:
        """The hits alone, gate or not (for the retrieval evaluation)."""
        hits = self.retrieve(query).hits
        return hits[: top_k or self.settings.top_k]


def index_statistics(vectors: np.ndarray) -> dict[str, Any]:
    """Percentiles of chunk-to-chunk cosine similarity, all pairs and nearest neighbours."""
    count = len(vectors)
    if count < 2:
        return {"chunks": count}
    unit = vectors / np.clip(np.linalg.norm(vectors, axis=1, keepdims=True), 1e-12, None)
    pairwise = unit @ unit.T
    upper = pairwise[np.triu_indices(count, k=1)]
    np.fill_diagonal(pairwise, -np.inf)
    nearest = pairwise.max(axis=1)

    def summary(values: np.ndarray) -> dict[str, float]:
        out = {f"p{p}": round(float(np.percentile(values, p)), 4) for p in PERCENTILES}
        out.update(min=round(float(values.min()), 4), max=round(float(values.max()), 4))
        out["mean"] = round(float(values.mean()), 4)
        return out

    return {"chunks": count, "pairwise": summary(upper), "nearest_neighbour": summary(nearest)}


def write_statistics(directory: Path, stats: dict[str, Any]) -> Path:
    path = Path(directory) / STATS_FILE
    path.write_text(json.dumps(stats, indent=2, sort_keys=True))
    return path


def read_statistics(directory: Path) -> dict[str, Any]:
    try:
        return json.loads((Path(directory) / STATS_FILE).read_text())
    except (OSError, json.JSONDecodeError):
        return {}
