"""One indexed repository, ready to answer from: its chunks, symbols and map, loaded once."""

from __future__ import annotations

import re
import threading
from collections.abc import Callable
from dataclasses import dataclass, field

from langchain_core.documents import Document

from frontdesk.assistants.codeqa.indexing.indexer import CodeIndex
from frontdesk.assistants.codeqa.retrieval.repo_map import rank_definitions, render_map
from frontdesk.assistants.codeqa.retrieval.search import (
    RetrievalRequest,
    SearchResult,
    SearchSettings,
    hybrid_search,
)
from frontdesk.assistants.codeqa.retrieval.symbol_index import SymbolHit, SymbolIndex
from frontdesk.errors import FrontdeskError

__all__ = [
    "Repositories",
    "Repository",
    "RepositoryIndexing",
    "RepositoryUnavailable",
    "UnknownRepository",
    "open_repository",
]


_LONG_WORD = re.compile(r"[a-z]{5,}")


class RepositoryUnavailable(FrontdeskError):
    """A repository a question cannot be answered about yet; the message says why."""


class RepositoryIndexing(RepositoryUnavailable):
    def __init__(self, repo_id: str, how_far: str):
        super().__init__(
            f"The repository {repo_id!r} is still being indexed ({how_far}). Ask again in a "
            "minute or two."
        )


class UnknownRepository(RepositoryUnavailable):
    def __init__(self, repo_id: str, known: list[str]):
        listed = ", ".join(known) if known else "none yet"
        super().__init__(
            f"no repository {repo_id!r} is indexed (indexed: {listed}); index it with "
            f"`frontdesk codeqa index PATH --id {repo_id}`"
        )


@dataclass
class Repository:
    repo_id: str
    root: str
    index: CodeIndex
    symbols: SymbolIndex
    codebase_tree: str
    folders: list[str] = field(default_factory=list)
    _by_path: dict[str, list[Document]] | None = field(default=None, repr=False)
    _grouped_from: object | None = field(default=None, repr=False)
    _words: frozenset[str] | None = field(default=None, repr=False)
    _words_from: object | None = field(default=None, repr=False)

    def documents(self) -> list[Document]:
        return self.index.knowledge.documents(self.repo_id)

    def search(self, request: RetrievalRequest, k: int, settings: SearchSettings) -> SearchResult:
        knowledge = self.index.knowledge
        vector = knowledge.embeddings.embed_query(request.query)
        keyword, dense = knowledge.searches(self.repo_id)
        return hybrid_search(request, keyword, dense, vector, k, settings)

    def full_keyword_matches(self, query: str, limit: int = 20) -> list[Document]:
        """Chunks holding every term of `query`."""
        return self.index.knowledge.keyword_index(self.repo_id).full_matches(query, limit=limit)

    def vocabulary(self) -> frozenset[str]:
        """Every term of the repository's files (code, tests, docs), as its search reads them."""
        return self.index.knowledge.keyword_index(self.repo_id).vocabulary

    def words(self) -> frozenset[str]:
        """Every word of five letters or more in its files, as written (lower-cased): what a
        misspelling is compared with ("diffrent": different; stems would not meet)."""
        loaded = self.index.knowledge.dense_index(self.repo_id)
        if self._words is None or self._words_from is not loaded:
            found: set[str] = set()
            for document in loaded.documents:
                found.update(_LONG_WORD.findall(document.page_content.lower()))
            self._words, self._words_from = frozenset(found), loaded
        return self._words

    def has_term(self, term: str) -> bool:
        return term in self.vocabulary()

    def chunks_defining(self, hit: SymbolHit) -> list[Document]:
        """The chunk that holds a definition's first line."""
        found = chunk_at(self, hit.path, hit.start_line)
        return [found] if found is not None else []

    def chunks_of_file(self, path: str) -> list[Document]:
        """A file's chunks in line order (grouped once per loaded index, not per lookup)."""
        # The loaded index object changes when the repository is indexed again.
        loaded = self.index.knowledge.dense_index(self.repo_id)
        if self._by_path is None or self._grouped_from is not loaded:
            grouped: dict[str, list[Document]] = {}
            for d in loaded.documents:
                grouped.setdefault(d.metadata.get("path", ""), []).append(d)
            for chunks in grouped.values():
                chunks.sort(key=lambda d: d.metadata.get("start_line", 0))
            self._by_path, self._grouped_from = grouped, loaded
        return list(self._by_path.get(path, []))

    def chunks_by_id(self, ids: list[str]) -> list[Document]:
        by_id = {d.id: d for d in self.documents()}
        return [by_id[i] for i in ids if i in by_id]


def open_repository(index: CodeIndex, repo_id: str, map_tokens: int = 256) -> Repository:
    if repo_id not in index.repositories():
        raise UnknownRepository(repo_id, index.repositories())
    manifest = index.manifest(repo_id)
    types = {
        d.metadata["path"]: d.metadata.get("source_type", "code")
        for d in index.knowledge.documents(repo_id)
    }
    symbols = SymbolIndex(manifest.entries, types)
    tree = render_map(rank_definitions(manifest.entries), map_tokens) if map_tokens else ""
    folders = sorted({p.rsplit("/", 1)[0] + "/" for p in manifest.entries if "/" in p})
    return Repository(repo_id, manifest.root, index, symbols, tree, folders)


def chunk_at(repo: Repository, path: str, line: int) -> Document | None:
    """The chunk of `path` that holds `line`."""
    return next(
        (
            d
            for d in repo.chunks_of_file(path)
            if d.metadata.get("start_line", 0) <= line <= d.metadata.get("end_line", 0)
        ),
        None,
    )


class Repositories:
    """Indexed repositories by id, each loaded on first use and again after it is indexed
    again (here or by `frontdesk codeqa index --watch` in another process).

    `indexing(repo_id)` says how far a first indexing run under way has got (None: none is),
    so a question about that repository is told to wait instead of that it does not exist."""

    def __init__(
        self,
        index: CodeIndex,
        map_tokens: int,
        indexing: Callable[[str], str | None] = lambda repo_id: None,
    ):
        self.index = index
        self.map_tokens = map_tokens
        self.indexing = indexing
        self._loaded: dict[str, tuple[int, Repository]] = {}
        self._lock = threading.Lock()

    def known(self) -> list[str]:
        return self.index.repositories()

    def check(self, repo_id: str) -> None:
        """Raise RepositoryUnavailable unless `repo_id` is indexed or being indexed."""
        if repo_id not in self.known() and self.indexing(repo_id) is None:
            raise UnknownRepository(repo_id, self.known())

    def _written_elsewhere(self, repo_id: str, stamp: int) -> bool:
        """A manifest written since this process opened the store, not by this process, and
        no indexing run here now (reconnecting would pull the store from under it)."""
        return (
            stamp > self.index.knowledge.connected_ns
            and not self.index.written_here(repo_id, stamp)
            and not self.index.writing
        )

    def __call__(self, repo_id: str) -> Repository:
        path = self.index.manifest_path(repo_id)
        if not path.exists() and (how_far := self.indexing(repo_id)) is not None:
            raise RepositoryIndexing(repo_id, how_far)
        stamp = path.stat().st_mtime_ns if path.exists() else -1
        with self._lock:
            loaded = self._loaded.get(repo_id)
            if loaded is None or loaded[0] != stamp:
                if self._written_elsewhere(repo_id, stamp):
                    self.index.knowledge.reconnect()
                    self._loaded.clear()  # every repository's search was read on the old client
                else:
                    self.index.knowledge.forget(repo_id)
                loaded = (stamp, open_repository(self.index, repo_id, self.map_tokens))
                self._loaded[repo_id] = loaded
            return loaded[1]
