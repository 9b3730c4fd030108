"""The knowledge index: a persistent vector store plus a BM25 keyword index beside it.

The vector store sits behind LangChain's `VectorStore` interface (Chroma by default), and it is
the single source of truth: the keyword index is rebuilt from its documents when the index
opens, which for knowledge bases of this size takes milliseconds.
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
        self._keyword: dict[str, KeywordIndex] = {}

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
        self._keyword.pop(property_id, None)
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
        got = self._collection.get(
            where={"property_id": property_id}, include=["documents", "metadatas"]
        )
        docs = [
            Document(page_content=text, metadata=meta or {}, id=cid)
            for cid, text, meta in zip(got["ids"], got["documents"], got["metadatas"], strict=True)
        ]
        # A stable order keeps BM25 tie-breaking deterministic across runs.
        return sorted(docs, key=lambda d: (d.metadata.get("item_name", ""), d.metadata.get("chunk_index", 0)))

    def vectors(self, property_id: str) -> np.ndarray:
        """Every chunk vector of a property, one row each (for domain-evidence features)."""
        got = self._collection.get(where={"property_id": property_id}, include=["embeddings"])
        return np.asarray(got["embeddings"], dtype=float).reshape(len(got["ids"]), -1)

    def keyword_index(self, property_id: str) -> KeywordIndex:
        if property_id not in self._keyword:
            self._keyword[property_id] = KeywordIndex(self.documents(property_id))
        return self._keyword[property_id]

    def dense_search(self, query: str, k: int, property_id: str) -> list[tuple[Document, float]]:
        """Nearest chunks with their cosine similarity (1 = same direction)."""
        hits = self.store.similarity_search_with_score(query, k=k, filter={"property_id": property_id})
        return [(doc, 1.0 - float(distance)) for doc, distance in hits]

    def keyword_search(self, query: str, k: int, property_id: str) -> list[tuple[Document, float]]:
        return self.keyword_index(property_id).search(query, k)
