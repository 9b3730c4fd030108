"""Indexing a repository (incrementally) and searching it inside the router's filters.

Hash embeddings stand in for MiniLM: these tests are about the indexing and search code; the
real model runs in the end-to-end test."""

from __future__ import annotations

import pytest

from frontdesk.assistants.codeqa.indexing.indexer import CodeIndex, InvalidRepository
from frontdesk.assistants.codeqa.retrieval.search import RetrievalRequest, hybrid_search
from frontdesk.embeddings.hashing import HashEmbeddings

from .conftest import write_repo


@pytest.fixture
def code_index(tmp_path) -> CodeIndex:
    return CodeIndex(tmp_path / "index", HashEmbeddings(), "hash-test")


def search(index: CodeIndex, repo: str, request: RetrievalRequest, k: int = 3):
    knowledge = index.knowledge
    vector = knowledge.embeddings.embed_query(request.query)
    return hybrid_search(
        request, knowledge.keyword_index(repo), knowledge.dense_index(repo), vector, k
    )


def test_indexing_again_parses_and_embeds_only_what_changed(tmp_path, small_repo):
    # A small budget, so each function is a chunk of its own.
    code_index = CodeIndex(tmp_path / "index", HashEmbeddings(), "hash-test", budget=150)
    first = code_index.index(small_repo, "small")
    assert (first.files, first.parsed, first.removed) == (6, 6, 0)
    assert first.added == first.chunks > 0
    again = code_index.index(small_repo, "small")
    assert (again.parsed, again.added, again.removed, again.relabelled) == (0, 0, 0, 0)

    def functions() -> dict[str, tuple[str, int]]:
        """The function chunks' ids and first lines, by symbol."""
        documents = code_index.knowledge.documents("small")
        wanted = ("HTTPClient.get_json", "HTTPClient._fetch", "make_client")
        return {
            d.metadata["symbol"]: (d.id, d.metadata["start_line"])
            for d in documents
            if d.metadata["symbol"] in wanted
        }

    before = functions()
    # Lines added at the top move every function: same text, so the same chunk and vector,
    # with new line numbers; only the top of the file is embedded again.
    client = small_repo / "pkg" / "client.py"
    client.write_text("# Copyright.\n# Licensed.\n" + client.read_text())
    changed = code_index.index(small_repo, "small")
    assert changed.parsed == 1 and changed.relabelled >= 3
    after = functions()
    assert {s: (i, line - 2) for s, (i, line) in after.items()} == before
    assert changed.added < changed.chunks - 3
    (small_repo / "pkg" / "config.py").unlink()
    removed = code_index.index(small_repo, "small")
    assert removed.removed >= 1 and removed.files == 5
    assert code_index.repositories() == ["small"]


def test_two_repositories_side_by_side_never_mix(code_index, tmp_path, small_repo):
    other = write_repo(tmp_path / "other", {"lib/util.py": "def slugify(text):\n    return text\n"})
    code_index.index(small_repo, "small")
    code_index.index(other)  # the folder's name is its id
    assert code_index.repositories() == ["other", "small"]
    paths = {d.metadata["path"] for d in code_index.knowledge.documents("other")}
    assert paths == {"lib/util.py"}
    # The same file in two repositories is two chunks, one per repository.
    twin = write_repo(tmp_path / "twin", {"lib/util.py": "def slugify(text):\n    return text\n"})
    code_index.index(twin)
    assert len(code_index.knowledge.documents("other")) == 1
    assert len(code_index.knowledge.documents("twin")) == 1


def test_bad_repositories_are_clear_errors(code_index, tmp_path):
    (tmp_path / "a.py").write_text("x = 1\n")
    with pytest.raises(InvalidRepository, match="is not a folder"):
        code_index.index(tmp_path / "a.py")
    with pytest.raises(InvalidRepository, match="does not exist"):
        code_index.index(tmp_path / "missing")
    with pytest.raises(InvalidRepository, match="not usable"):
        code_index.index(tmp_path, "bad id!")
    empty = tmp_path / "empty"
    empty.mkdir()
    report = code_index.index(empty)
    assert (report.files, report.chunks) == (0, 0)


def test_search_finds_code_by_its_words_and_respects_filters(code_index, small_repo):
    code_index.index(small_repo, "small")
    result = search(code_index, "small", RetrievalRequest("retry failed requests http client"))
    assert result.filter_used == "strict"
    assert result.hits[0].metadata["path"] == "pkg/client.py"
    tests_only = search(
        code_index, "small", RetrievalRequest("make client", source_types=("test",))
    )
    assert {h.metadata["source_type"] for h in tests_only.hits} == {"test"}
    in_folder = search(code_index, "small", RetrievalRequest("settings", folders=("pkg",)))
    assert all(h.metadata["path"].startswith("pkg/") for h in in_folder.hits)


def test_a_filter_that_matches_nothing_is_relaxed_in_the_seeds_order(code_index, small_repo):
    code_index.index(small_repo, "small")
    no_pattern = search(
        code_index,
        "small",
        RetrievalRequest("load settings", folders=("pkg",), file_patterns=("*.rs",)),
    )
    assert no_pattern.filter_used == "without file patterns"
    assert no_pattern.hits[0].metadata["path"] == "pkg/config.py"
    no_folder = search(code_index, "small", RetrievalRequest("load settings", folders=("src",)))
    assert no_folder.filter_used == "without folders"
    everything = search(
        code_index, "small", RetrievalRequest("load settings", source_types=("data",))
    )
    assert everything.filter_used == "everything" and everything.hits


def test_data_files_are_found_by_name_but_not_embedded(code_index, tmp_path):
    rows = "".join(f'{{"question": "q{i}", "answer": "a{i}"}}\n' for i in range(500))
    repo = write_repo(tmp_path / "withdata", {"app.py": "def run():\n    return 1\n",
                                               "data/eval.jsonl": rows})  # fmt: skip
    report = code_index.index(repo)
    assert report.files == 2
    paths = {d.metadata["path"] for d in code_index.knowledge.documents("withdata")}
    assert paths == {"app.py"}
    assert "data/eval.jsonl" in code_index.manifest("withdata").entries


def test_code_is_embedded_whole_tests_and_docs_by_their_start(
    tmp_path, small_repo, recording_embeddings
):
    embeddings = recording_embeddings
    code_index = CodeIndex(tmp_path / "index", embeddings, "rec", outside_code_embed_chars=60)
    code_index.index(small_repo, "small")
    documents = code_index.knowledge.documents("small")
    embedded = set(embeddings.embedded)
    for document in documents:
        text = document.page_content
        if document.metadata["source_type"] == "code":
            assert text in embedded
        else:
            assert text[:60] in embedded and (len(text) <= 60 or text not in embedded)
    assert {d.metadata["source_type"] for d in documents} >= {"code", "test", "doc"}
    # A new limit is a new key: the chunks it changes are embedded again.
    again = CodeIndex(tmp_path / "index", embeddings, "rec", outside_code_embed_chars=80)
    report = again.index(small_repo, "small")
    assert 0 < report.added < report.chunks and report.removed == report.added


def test_words_found_only_outside_the_code_do_not_answer_a_question_asking_for_code(
    code_index, tmp_path
):
    from frontdesk.assistants.codeqa.repository import open_repository
    from frontdesk.assistants.codeqa.retrieval.pipeline import retrieve, route_question
    from frontdesk.assistants.codeqa.retrieval.search import SearchSettings

    from .conftest import SMALL_REPO

    tickets = "# Tickets\n\nTicket 7: the nightly payroll export to SAP failed again.\n"
    code_index.index(write_repo(tmp_path / "r", {**SMALL_REPO, "docs/tickets.md": tickets}), "r")
    repo = open_repository(code_index, "r")

    def ask(question: str):
        # A threshold no hash-embedding similarity reaches: only the words can open the gate.
        return retrieve(route_question(question, repo), repo, top_k=5,
                        search=SearchSettings(), min_similarity=2.0)  # fmt: skip

    asked_for_code = ask("Where is the payroll export to SAP implemented?")
    assert asked_for_code.chunks == []
    assert asked_for_code.metadata["mentioned_only_in"] == ["docs/tickets.md"]
    # Asked about the text itself, the same words are the evidence.
    asked_for_text = ask("the ticket on the nightly payroll export to SAP")
    assert [d.metadata["path"] for d in asked_for_text.chunks][:1] == ["docs/tickets.md"]
    # Words found in code still answer a question asking for code.
    in_code = ask("Where is the function that decodes the JSON body implemented?")
    assert in_code.chunks or in_code.metadata.get("mentioned_only_in") is None


def test_code_found_far_behind_docs_or_data_does_not_answer_a_question_asking_for_code():
    from types import SimpleNamespace

    from langchain_core.documents import Document

    from frontdesk.assistants.codeqa.retrieval.pipeline import retrieve
    from frontdesk.assistants.codeqa.retrieval.search import Hit, SearchResult, SearchSettings

    def hit(path, source_type, similarity):
        document = Document(page_content="the payroll export to SAP", id=path,
                            metadata={"path": path, "source_type": source_type})  # fmt: skip
        return Hit(document, 0.1, 1, 1, similarity)

    def ask(question, best_code):
        hits = [hit("data/demo.yaml", "config", 0.48), hit("pkg/client.py", "code", best_code)]
        repo = SimpleNamespace(
            search=lambda *a: SearchResult(hits, "none", 2, 2, 2, 0.48, best_code),
            full_keyword_matches=lambda *a, **k: [],
        )
        output = {"cleaned_query": question, "retrieval_requests": [{"query": question}]}
        return retrieve(output, repo, top_k=5, search=SearchSettings(), min_similarity=0.25)

    # Payroll to SAP: the demo data 0.48, the nearest code 0.31.
    far = ask("Where is the payroll export to SAP implemented?", best_code=0.31)
    assert far.chunks == [] and far.metadata["mentioned_only_in"] == ["data/demo.yaml"]
    # Code about as near as the rest answers.
    near = ask("Where is the payroll export to SAP implemented?", best_code=0.42)
    assert [d.metadata["path"] for d in near.chunks] == ["data/demo.yaml", "pkg/client.py"]
    # A question not asking for code is answered from whatever is nearest.
    plain = ask("What does the demo data say about payroll?", best_code=0.31)
    assert plain.chunks


def test_a_question_none_of_whose_words_the_repository_holds_is_not_found(code_index, small_repo):
    from frontdesk.assistants.codeqa.repository import open_repository
    from frontdesk.assistants.codeqa.retrieval.pipeline import retrieve, route_question
    from frontdesk.assistants.codeqa.retrieval.search import SearchSettings

    code_index.index(small_repo, "small")
    repo = open_repository(code_index, "small")

    def ask(question: str):
        # Any similarity (cosine > -0.99) passes: only the words decide.
        return retrieve(route_question(question, repo), repo, top_k=5,
                        search=SearchSettings(), min_similarity=-0.99)  # fmt: skip

    assert ask("Where is the wormhole stabilizer defined?").chunks == []
    assert ask("Which function decodes the JSON body of a response?").chunks
