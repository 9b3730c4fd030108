"""A repository indexed by another process while this one serves (`frontdesk codeqa index`
beside the server) is answerable at once: the store is read afresh, never through a client
that kept what it had loaded ("Error finding id" on every question)."""

from __future__ import annotations

import subprocess
import sys
import textwrap

from frontdesk.assistants.codeqa.indexing.indexer import CodeIndex
from frontdesk.assistants.codeqa.repository import Repositories
from frontdesk.assistants.codeqa.retrieval.search import RetrievalRequest, SearchSettings
from frontdesk.embeddings.hashing import HashEmbeddings

from .conftest import write_repo

OTHER_PROCESS = textwrap.dedent(
    """
    import sys
    from pathlib import Path
    from frontdesk.assistants.codeqa.indexing.indexer import CodeIndex
    from frontdesk.embeddings.hashing import HashEmbeddings
    CodeIndex(Path(sys.argv[1]), HashEmbeddings(), "hash-test").index(Path(sys.argv[2]),
                                                                       sys.argv[3])
    """
)


def index_elsewhere(directory, root, repo_id):
    subprocess.run([sys.executable, "-c", OTHER_PROCESS, str(directory), str(root), repo_id],
                   check=True, timeout=300)  # fmt: skip


def paths_found(repositories, repo_id, query):
    result = repositories(repo_id).search(RetrievalRequest(query=query), 3, SearchSettings())
    return {hit.document.metadata["path"] for hit in result.hits}


def test_a_repository_indexed_by_another_process_is_answerable_at_once(tmp_path):
    first = write_repo(tmp_path / "first", {"pkg/alpha.py": "def alpha_total(x):\n"
                                            "    '''Sum the alpha ledger.'''\n    return x\n"})  # fmt: skip
    second = write_repo(tmp_path / "second", {"pkg/beta.py": "def beta_route(y):\n"
                                              "    '''Route the beta parcel.'''\n    return y\n"})  # fmt: skip
    index = CodeIndex(tmp_path / "index", HashEmbeddings(), "hash-test")
    index.index(first, "first")
    repositories = Repositories(index, 64)
    assert paths_found(repositories, "first", "alpha ledger") == {"pkg/alpha.py"}

    # Another process adds a repository and indexes the first one again, changed.
    index_elsewhere(tmp_path / "index", second, "second")
    (first / "pkg/alpha.py").write_text("def alpha_total(x):\n    '''Count the gamma coins.'''\n"
                                        "    return 0\n")  # fmt: skip
    index_elsewhere(tmp_path / "index", first, "first")

    assert paths_found(repositories, "second", "beta parcel") == {"pkg/beta.py"}
    (hit,) = repositories("first").search(RetrievalRequest(query="gamma coins"), 1,
                                          SearchSettings()).hits  # fmt: skip
    assert "gamma coins" in hit.document.page_content


def test_an_index_this_process_writes_reads_on_without_reconnecting(tmp_path, monkeypatch):
    root = write_repo(tmp_path / "repo", {"a.py": "def one():\n    return 1\n"})
    index = CodeIndex(tmp_path / "index", HashEmbeddings(), "hash-test")
    index.index(root, "repo")
    repositories = Repositories(index, 64)
    repositories("repo")
    reconnected = []
    monkeypatch.setattr(index.knowledge, "reconnect", lambda: reconnected.append(True))
    (root / "a.py").write_text("def one():\n    return 2\n")
    index.index(root, "repo")
    repositories("repo")
    assert reconnected == []
