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

import functools
import hashlib
import json
import logging
import re
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import bm25s
import numpy as np
import Stemmer
from bm25s.stopwords import STOPWORDS_EN
from langchain_core.documents import Document
from langchain_core.embeddings import Embeddings

from frontdesk.knowledge.chunking import Chunk

logger = logging.getLogger(__name__)
# bm25s sets its own logger to DEBUG at import; its per-call chatter is not ours to show.
logging.getLogger("bm25s").setLevel(logging.WARNING)

EMBED_BATCH = 32
# bm25s.tokenize's defaults, which the index is built with.
_BM25_TOKEN = re.compile(r"(?u)\b\w\w+\b")
_BM25_STOPWORDS = frozenset(STOPWORDS_EN)

ProgressCallback = Callable[[int, int], None]  # (done, total)
Tokenizer = Callable[[str], list[str]]  # text -> BM25 terms


@dataclass(frozen=True)
class SyncReport:
    added: int
    removed: int
    unchanged: int
    relabelled: int = 0  # kept chunks whose metadata changed

    @property
    def changed(self) -> bool:
        return bool(self.added or self.removed or self.relabelled)


def view_id(chunk_id: str, view: str) -> str:
    """A view's id: its text and its chunk's, hashed (the same view of two chunks is two)."""
    return hashlib.sha256(f"{chunk_id}\n{view}".encode()).hexdigest()


def collection_name(embeddings_id: str) -> str:
    """A Chroma-valid collection name per embedding model: vectors of two models never mix."""
    slug = re.sub(r"[^a-zA-Z0-9_-]+", "-", embeddings_id).strip("-_")[:48]
    return f"knowledge-{slug}" if slug else "knowledge"


class KeywordIndex:
    """BM25 over one property's chunks (stemmed, English stop words removed).

    A chunk's title (the metadata fields `title_keys` name, e.g. its item's name) is indexed
    once more beside its text, a light form of BM25F's field weighting: a query naming a venue
    ("a table at pepes") ranks the venue's own entry above the short entries that merely
    mention it, which plain BM25's length normalisation would favour.
    """

    def __init__(
        self,
        documents: Sequence[Document],
        title_keys: Sequence[str] = (),
        tokenizer: Tokenizer | None = None,
    ):
        self.documents = list(documents)
        self._stemmer = Stemmer.Stemmer("english")
        # Another corpus's words (code identifiers): one function for documents and queries.
        self._tokenizer = tokenizer
        self._bm25 = bm25s.BM25()
        tokens = self._tokenize([_titled(d, title_keys) for d in self.documents])
        if tokens:
            self._bm25.index(tokens, show_progress=False)
        # Each document's stemmed terms, to tell an exact keyword match from a partial one.
        self._terms = [frozenset(doc_tokens) for doc_tokens in tokens]

    def _tokenize(self, texts: list[str]) -> list[list[str]]:
        if not texts:
            return []
        if self._tokenizer is not None:
            return [self._tokenizer(text) for text in texts]
        return bm25s.tokenize(
            texts, stopwords="en", stemmer=self._stemmer, return_ids=False, show_progress=False
        )

    def query_terms(self, query: str) -> list[str]:
        """`query` tokenized as the documents were (bm25s.tokenize's steps: lower-case, split,
        drop stop words, stem), without its per-call set-up, which cost more than a search."""
        if self._tokenizer is not None:
            return self._tokenizer(query)
        words = [w for w in _BM25_TOKEN.findall(query.lower()) if w not in _BM25_STOPWORDS]
        return self._stemmer.stemWords(words)

    @functools.cached_property
    def vocabulary(self) -> frozenset[str]:
        """Every term some document holds: whether a word appears anywhere at all."""
        return frozenset().union(*self._terms)

    def has_full_match(self, query: str) -> bool:
        """Whether some document holds every (stemmed, non-stop-word) term of `query`.

        Short keyword queries ("soaking tub", "pai gow and sic bo") can sit below the dense
        relevance threshold while naming exactly what a document says; this is their evidence.
        """
        return bool(self.full_matches(query, limit=1))

    def full_matches(self, query: str, *, limit: int | None = None) -> list[Document]:
        """The documents that hold every term of `query` (at most `limit`), in index order:
        what `has_full_match` found, for a caller that weighs where the words are."""
        terms = set(self.query_terms(query))
        if not terms:
            return []
        found = []
        for document, doc_terms in zip(self.documents, self._terms, strict=True):
            if terms <= doc_terms:
                found.append(document)
                if limit is not None and len(found) >= limit:
                    break
        return found

    def scores(self, query: str) -> np.ndarray:
        """Every document's BM25 score for `query`, in document order (zeros when no term
        of the query is indexed): for a search over a subset of the documents."""
        terms = self.query_terms(query) if self.documents else []
        if not terms:
            return np.zeros(len(self.documents), dtype=np.float32)
        return np.asarray(self._bm25.get_scores(terms), dtype=np.float32)

    def search(self, query: str, k: int) -> list[tuple[Document, float]]:
        if not self.documents:
            return []
        terms = self.query_terms(query)
        if not terms:
            return []
        scores = self._bm25.get_scores(terms)
        k = min(k, len(self.documents))
        top = np.argpartition(-scores, k - 1)[:k]
        # Ties broken by position (the stable document order) so results are deterministic.
        top = top[np.lexsort((top, -scores[top]))]
        return [(self.documents[i], float(scores[i])) for i in top if scores[i] > 0]


def _titled(document: Document, title_keys: Sequence[str]) -> str:
    titles = [document.metadata.get(key) for key in title_keys]
    return "\n".join([*(t for t in titles if isinstance(t, str) and t), document.page_content])


class DenseIndex:
    """Exact cosine search over one property's chunk vectors, held in memory.

    A chunk may have extra view vectors (its sentences): a chunk's similarity to a query is
    the best of its own and its views'. `relevance` looks at whole chunks only, so the
    threshold that decides whether the knowledge covers a question keeps its calibration.
    """

    def __init__(
        self,
        documents: Sequence[Document],
        vectors: np.ndarray,
        view_vectors: np.ndarray | None = None,
        view_owners: Sequence[int] = (),
    ):
        if len(documents) != len(vectors):
            raise ValueError(f"{len(documents)} documents but {len(vectors)} vectors")
        self.documents = list(documents)
        self.vectors = _unit_rows(vectors, len(self.documents))
        views = _unit_rows(view_vectors if view_vectors is not None else [], len(view_owners))
        if len(view_owners) and views.shape[1] != self.vectors.shape[1]:
            raise ValueError("view vectors and chunk vectors differ in dimension")
        self._rows = np.vstack([self.vectors, views]) if len(view_owners) else self.vectors
        self._owners = np.concatenate(
            [np.arange(len(self.documents)), np.asarray(view_owners, dtype=np.int64)]
        ).astype(np.int64)

    def search(self, query_vector: Sequence[float], k: int) -> list[tuple[Document, float]]:
        """The `k` nearest documents with their best cosine similarity, nearest first."""
        if not self.documents or k <= 0:
            return []
        best = self.similarities(query_vector)
        k = min(k, len(self.documents))
        top = np.argpartition(-best, k - 1)[:k]
        # Ties broken by position (the stable document order) so results are deterministic.
        top = top[np.lexsort((top, -best[top]))]
        return [(self.documents[i], float(best[i])) for i in top]

    def similarities(self, query_vector: Sequence[float]) -> np.ndarray:
        """Each document's cosine similarity to the query: the best of its own and its views'."""
        best = np.full(len(self.documents), -np.inf, dtype=np.float32)
        if self.documents:
            np.maximum.at(best, self._owners, self._rows @ _unit(query_vector))
        return best

    def relevance(self, query_vector: Sequence[float]) -> float:
        """The best cosine similarity of a whole chunk to the query (-1 with no chunks)."""
        if not self.documents:
            return -1.0
        return float(np.max(self.vectors @ _unit(query_vector)))


def _order_name(metadata: dict[str, Any]) -> str:
    """What orders a chunk among its property's: its item (structured data) or its file."""
    return str(metadata.get("item_name") or metadata.get("path") or "")


def _unit(vector: Sequence[float]) -> np.ndarray:
    array = np.asarray(vector, dtype=np.float32)
    return array / max(float(np.linalg.norm(array)), 1e-12)


def _unit_rows(vectors: Any, rows: int) -> np.ndarray:
    matrix = np.asarray(vectors, dtype=np.float32)
    if matrix.ndim != 2:  # nothing stored: an empty (0, 0) matrix
        matrix = matrix.reshape(rows, 0)
    norms = np.linalg.norm(matrix, axis=1, keepdims=True)
    return matrix / np.clip(norms, 1e-12, None)


@dataclass(frozen=True)
class _PropertySearch:
    """One property's in-memory search indexes, built together from one read of the store."""

    dense: DenseIndex
    keyword: KeywordIndex


class KnowledgeIndex:
    """Vector store + keyword index for one assistant's knowledge, persisted in `directory`."""

    def __init__(
        self,
        directory: Path,
        embeddings: Embeddings,
        embeddings_id: str,
        *,
        title_keys: Sequence[str] = ("item_name",),
        tokenizer: Tokenizer | None = None,
    ):
        self.directory = Path(directory)
        self.directory.mkdir(parents=True, exist_ok=True)
        self.embeddings_id = embeddings_id
        self.embeddings = embeddings
        self._connect()
        # Metadata fields that title a chunk, weighted up in keyword search (KeywordIndex).
        self.title_keys = tuple(title_keys)
        self.tokenizer = tokenizer
        self._search: dict[str, _PropertySearch] = {}

    def _connect(self) -> None:
        import chromadb
        from chromadb.config import Settings as ChromaSettings
        from langchain_chroma import Chroma

        self.connected_ns = time.time_ns()  # what another process writes after, this misses
        self._client = chromadb.PersistentClient(
            path=str(self.directory / "chroma"),
            settings=ChromaSettings(anonymized_telemetry=False),
        )
        self.store = Chroma(
            collection_name=collection_name(self.embeddings_id),
            embedding_function=self.embeddings,
            client=self._client,
            collection_metadata={"hnsw:space": "cosine"},
        )
        # The chunks' sentence views, in a collection of their own: they are search keys only,
        # never content, so the chunk collection (what BM25 and the model read) holds chunks.
        self.views = Chroma(
            collection_name=collection_name(self.embeddings_id) + "-views",
            embedding_function=self.embeddings,
            client=self._client,
            collection_metadata={"hnsw:space": "cosine"},
        )

    def reconnect(self) -> None:
        """Open the store afresh, forgetting every in-memory search. Another process wrote to
        it (a `frontdesk codeqa index` run beside the server), and Chroma's client goes on
        reading what it had loaded before: every read then fails with "Error finding id".
        Not while this process writes to the same store: that write would lose its client."""
        self._client.close()
        self._connect()
        self._search.clear()

    # -- ingestion -------------------------------------------------------------------------

    def sync(
        self, chunks: Sequence[Chunk], property_id: str, progress: ProgressCallback | None = None
    ) -> SyncReport:
        """Make the index hold exactly `chunks` (and their views) for `property_id`: add new,
        remove stale."""
        where = {"property_id": property_id}
        wanted = {c.id: c for c in chunks}
        stored = self._collection.get(where=where, include=["metadatas"])
        existing = set(stored["ids"])
        to_add = [c for cid, c in wanted.items() if cid not in existing]
        # A chunk's id hashes its text only: a front matter change (a document's audience, its
        # version) leaves the text and the vector as they were but must reach the metadata.
        relabelled = [
            wanted[cid]
            for cid, meta in zip(stored["ids"], stored["metadatas"], strict=True)
            if cid in wanted and dict(meta or {}) != wanted[cid].metadata
        ]
        if relabelled:
            self._collection.update(
                ids=[c.id for c in relabelled], metadatas=[c.metadata for c in relabelled]
            )
        to_remove = sorted(existing - wanted.keys())
        wanted_views = {
            view_id(c.id, view): (view, {"property_id": property_id, "chunk_id": c.id})
            for c in chunks
            for view in c.views
        }
        existing_views = set(self.views._collection.get(where=where, include=[])["ids"])
        views_to_add = [
            (vid, *wanted_views[vid]) for vid in wanted_views if vid not in existing_views
        ]

        total = len(to_add) + len(views_to_add)
        done = 0
        if progress:
            progress(0, total)
        # Shortest first: each batch then holds texts of about one length, and the embedding
        # model pads a batch to its longest.
        to_add.sort(key=lambda c: len(c.embedded_text))
        for i in range(0, len(to_add), EMBED_BATCH):
            batch = to_add[i : i + EMBED_BATCH]
            vectors = self.embeddings.embed_documents([c.embedded_text for c in batch])
            self._collection.add(
                ids=[c.id for c in batch],
                documents=[c.content for c in batch],
                metadatas=[c.metadata for c in batch],
                embeddings=vectors,
            )
            done += len(batch)
            if progress:
                progress(done, total)
        for i in range(0, len(views_to_add), EMBED_BATCH):
            ids, texts, metadatas = zip(*views_to_add[i : i + EMBED_BATCH], strict=True)
            self.views.add_texts(texts=list(texts), metadatas=list(metadatas), ids=list(ids))
            done += len(ids)
            if progress:
                progress(done, total)
        # Stale chunks go last: a search that loads the index while new ones are embedded
        # (a repository re-indexed in the background) still finds the old ones.
        if to_remove:
            self.store.delete(ids=to_remove)
        if stale_views := sorted(existing_views - wanted_views.keys()):
            self.views.delete(ids=stale_views)
        self.forget(property_id)  # rebuilt from the store on the next search
        return SyncReport(
            added=len(to_add),
            removed=len(to_remove),
            unchanged=len(existing) - len(to_remove),
            relabelled=len(relabelled),
        )

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

    def forget(self, property_id: str) -> None:
        """Drop the in-memory search of `property_id`, so the next search reads the store
        again (another process, such as a re-index, wrote to it)."""
        self._search.pop(property_id, None)

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

    def dense_index(self, property_id: str) -> DenseIndex:
        return self._property(property_id).dense

    def dense_search(self, query: str, k: int, property_id: str) -> list[tuple[Document, float]]:
        """Nearest chunks with the cosine similarity (1 = same direction) of their best view."""
        return self._property(property_id).dense.search(self.embeddings.embed_query(query), k)

    def relevance(self, query: str, property_id: str) -> float:
        """How close the nearest whole chunk is to `query` (cosine): is the question covered?"""
        return self._property(property_id).dense.relevance(self.embeddings.embed_query(query))

    def keyword_search(self, query: str, k: int, property_id: str) -> list[tuple[Document, float]]:
        return self.keyword_index(property_id).search(query, k)

    def searches(self, property_id: str) -> tuple[KeywordIndex, DenseIndex]:
        """The keyword and dense indexes of one load, which rank the same documents in the
        same order (two separate calls could straddle a reload)."""
        loaded = self._property(property_id)
        return loaded.keyword, loaded.dense

    def _property(self, property_id: str) -> _PropertySearch:
        # One lookup: `forget` may run in another thread (an index synced in the background).
        loaded = self._search.get(property_id)
        if loaded is None:
            loaded = self._search[property_id] = self._load_property(property_id)
        return loaded

    def _load_property(self, property_id: str) -> _PropertySearch:
        got = self._collection.get(
            where={"property_id": property_id}, include=["documents", "metadatas", "embeddings"]
        )
        rows = sorted(
            zip(got["ids"], got["documents"], got["metadatas"], got["embeddings"], strict=True),
            # A stable order keeps tie-breaking deterministic across runs.
            key=lambda row: (
                _order_name(row[2] or {}),
                (row[2] or {}).get("chunk_index", 0),
                row[0],
            ),
        )
        documents = [
            Document(page_content=text, metadata=meta or {}, id=cid) for cid, text, meta, _ in rows
        ]
        vectors = np.asarray([vector for *_, vector in rows], dtype=np.float32)
        position = {doc.id: i for i, doc in enumerate(documents)}
        views = self.views._collection.get(
            where={"property_id": property_id}, include=["metadatas", "embeddings"]
        )
        owned = [
            (position[meta["chunk_id"]], vector)
            for meta, vector in zip(views["metadatas"], views["embeddings"], strict=True)
            if meta and meta.get("chunk_id") in position
        ]
        dense = DenseIndex(
            documents,
            vectors,
            np.asarray([vector for _, vector in owned], dtype=np.float32),
            [owner for owner, _ in owned],
        )
        return _PropertySearch(
            dense=dense, keyword=KeywordIndex(documents, self.title_keys, self.tokenizer)
        )
