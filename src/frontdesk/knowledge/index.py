"""The knowledge index: a persistent vector store plus in-memory search indexes built from it.

The vector store sits behind LangChain's `VectorStore` interface (Chroma by default), and it is
the single source of truth: ingestion writes to it, and nothing else is persisted. When a
property is first searched, its chunks and their vectors are read from the store once, and two
in-memory indexes answer queries: BM25 over the text, and exact cosine search over the vectors.
A property's knowledge is hundreds to a few thousand chunks; a matrix product over them takes
microseconds and is exact, where a query through the store costs about 2.5 ms of fixed overhead
(a third of a turn's own time) and searches an approximate (HNSW) graph.
"""

from __future__ import annotations

import json
import logging
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import bm25s
import numpy as np
import Stemmer
from langchain_core.documents import Document
from langchain_core.embeddings import Embeddings

from frontdesk.knowledge.chunking import Chunk

logger = logging.getLogger(__name__)
# bm25s sets its own logger to DEBUG at import; its per-call chatter is not ours to show.
logging.getLogger("bm25s").setLevel(logging.WARNING)

EMBED_BATCH = 32

ProgressCallback = Callable[[int, int], None]  # (done, total)


@dataclass(frozen=True)
class SyncReport:
    added: int
    removed: int
    unchanged: int

    @property
    def changed(self) -> bool:
        return bool(self.added or self.removed)


def collection_name(embeddings_id: str) -> str:
    """A Chroma-valid collection name per embedding model: vectors of two models never mix."""
    slug = re.sub(r"[^a-zA-Z0-9_-]+", "-", embeddings_id).strip("-_")[:48]
    return f"knowledge-{slug}" if slug else "knowledge"


class KeywordIndex:
    """BM25 over one property's chunks (stemmed, English stop words removed)."""

    def __init__(self, documents: Sequence[Document]):
        self.documents = list(documents)
        self._stemmer = Stemmer.Stemmer("english")
        self._bm25 = bm25s.BM25()
        tokens = self._tokenize([d.page_content for d in self.documents])
        if tokens:
            self._bm25.index(tokens, show_progress=False)
        # Each document's stemmed terms, to tell an exact keyword match from a partial one.
        self._terms = [frozenset(doc_tokens) for doc_tokens in tokens]

    def _tokenize(self, texts: list[str]) -> list[list[str]]:
        if not texts:
            return []
        return bm25s.tokenize(
            texts, stopwords="en", stemmer=self._stemmer, return_ids=False, show_progress=False
        )

    def has_full_match(self, query: str) -> bool:
        """Whether some document holds every (stemmed, non-stop-word) term of `query`.

        Short keyword queries ("soaking tub", "pai gow and sic bo") can sit below the dense
        relevance threshold while naming exactly what a document says; this is their evidence.
        """
        terms = set(self._tokenize([query])[0])
        return bool(terms) and any(terms <= doc_terms for doc_terms in self._terms)

    def search(self, query: str, k: int) -> list[tuple[Document, float]]:
        if not self.documents:
            return []
        query_tokens = self._tokenize([query])
        if not query_tokens[0]:
            return []
        k = min(k, len(self.documents))
        ids, scores = self._bm25.retrieve(query_tokens, k=k, show_progress=False)
        return [
            (self.documents[int(i)], float(s)) for i, s in zip(ids[0], scores[0], strict=True)
            if s > 0
        ]


class DenseIndex:
    """Exact cosine search over one property's chunk vectors, held in memory."""

    def __init__(self, documents: Sequence[Document], vectors: np.ndarray):
        if len(documents) != len(vectors):
            raise ValueError(f"{len(documents)} documents but {len(vectors)} vectors")
        self.documents = list(documents)
        matrix = np.asarray(vectors, dtype=np.float32)
        if matrix.ndim != 2:  # no documents: an empty (0, 0) matrix
            matrix = matrix.reshape(len(self.documents), 0)
        norms = np.linalg.norm(matrix, axis=1, keepdims=True)
        self.vectors = matrix / np.clip(norms, 1e-12, None)

    def search(self, query_vector: Sequence[float], k: int) -> list[tuple[Document, float]]:
        """The `k` nearest documents with their cosine similarity, nearest first."""
        if not self.documents or k <= 0:
            return []
        query = np.asarray(query_vector, dtype=np.float32)
        similarity = self.vectors @ (query / max(float(np.linalg.norm(query)), 1e-12))
        k = min(k, len(self.documents))
        top = np.argpartition(-similarity, k - 1)[:k]
        # Ties broken by position (the stable document order) so results are deterministic.
        top = top[np.lexsort((top, -similarity[top]))]
        return [(self.documents[i], float(similarity[i])) for i in top]


@dataclass(frozen=True)
class _PropertySearch:
    """One property's in-memory search indexes, built together from one read of the store."""

    dense: DenseIndex
    keyword: KeywordIndex


class KnowledgeIndex:
    """Vector store + keyword index for one assistant's knowledge, persisted in `directory`."""

    def __init__(self, directory: Path, embeddings: Embeddings, embeddings_id: str):
        import chromadb
        from chromadb.config import Settings as ChromaSettings
        from langchain_chroma import Chroma

        self.directory = Path(directory)
        self.directory.mkdir(parents=True, exist_ok=True)
        self.embeddings_id = embeddings_id
        client = chromadb.PersistentClient(
            path=str(self.directory / "chroma"),
            settings=ChromaSettings(anonymized_telemetry=False),
        )
        self.store = Chroma(
            collection_name=collection_name(embeddings_id),
            embedding_function=embeddings,
            client=client,
            collection_metadata={"hnsw:space": "cosine"},
        )
        self.embeddings = embeddings
        self._search: dict[str, _PropertySearch] = {}

    # -- ingestion -------------------------------------------------------------------------

    def sync(
        self, chunks: Sequence[Chunk], property_id: str, progress: ProgressCallback | None = None
    ) -> SyncReport:
        """Make the index hold exactly `chunks` for `property_id`: add new, remove stale."""
        wanted = {c.id: c for c in chunks}
        existing = set(self._collection.get(where={"property_id": property_id}, include=[])["ids"])
        to_add = [c for cid, c in wanted.items() if cid not in existing]
        to_remove = sorted(existing - wanted.keys())
        if to_remove:
            self.store.delete(ids=to_remove)
        total = len(to_add)
        if progress:
            progress(0, total)
        for start in range(0, total, EMBED_BATCH):
            batch = to_add[start : start + EMBED_BATCH]
            self.store.add_texts(
                texts=[c.content for c in batch],
                metadatas=[c.metadata for c in batch],
                ids=[c.id for c in batch],
            )
            if progress:
                progress(min(start + EMBED_BATCH, total), total)
        self._search.pop(property_id, None)  # rebuilt from the store on the next search
        return SyncReport(added=total, removed=len(to_remove), unchanged=len(existing) - len(to_remove))

    # -- manifest: what was ingested, so `make run` re-ingests only when something changed ---

    @property
    def _manifest_path(self) -> Path:
        return self.directory / "manifest.json"

    def manifest(self) -> dict[str, Any]:
        try:
            return json.loads(self._manifest_path.read_text())
        except (OSError, json.JSONDecodeError):
            return {}

    def write_manifest(self, entry: dict[str, Any]) -> None:
        self._manifest_path.write_text(json.dumps(entry, indent=2, sort_keys=True))

    # -- reading ---------------------------------------------------------------------------

    @property
    def _collection(self):
        return self.store._collection  # langchain-chroma exposes no public accessor

    def count(self, property_id: str | None = None) -> int:
        if property_id is None:
            return self._collection.count()
        return len(self._collection.get(where={"property_id": property_id}, include=[])["ids"])

    def documents(self, property_id: str) -> list[Document]:
        return list(self._property(property_id).dense.documents)

    def vectors(self, property_id: str) -> np.ndarray:
        """Every chunk vector of a property, one row each, unit length (for domain features)."""
        return self._property(property_id).dense.vectors

    def keyword_index(self, property_id: str) -> KeywordIndex:
        return self._property(property_id).keyword

    def dense_search(self, query: str, k: int, property_id: str) -> list[tuple[Document, float]]:
        """Nearest chunks with their cosine similarity (1 = same direction)."""
        return self._property(property_id).dense.search(self.embeddings.embed_query(query), k)

    def keyword_search(self, query: str, k: int, property_id: str) -> list[tuple[Document, float]]:
        return self.keyword_index(property_id).search(query, k)

    def _property(self, property_id: str) -> _PropertySearch:
        if property_id not in self._search:
            self._search[property_id] = self._load_property(property_id)
        return self._search[property_id]

    def _load_property(self, property_id: str) -> _PropertySearch:
        got = self._collection.get(
            where={"property_id": property_id}, include=["documents", "metadatas", "embeddings"]
        )
        rows = sorted(
            zip(got["ids"], got["documents"], got["metadatas"], got["embeddings"], strict=True),
            # A stable order keeps tie-breaking deterministic across runs.
            key=lambda row: ((row[2] or {}).get("item_name", ""), (row[2] or {}).get("chunk_index", 0), row[0]),
        )
        documents = [Document(page_content=text, metadata=meta or {}, id=cid) for cid, text, meta, _ in rows]
        vectors = np.asarray([vector for *_, vector in rows], dtype=np.float32)
        return _PropertySearch(dense=DenseIndex(documents, vectors), keyword=KeywordIndex(documents))
