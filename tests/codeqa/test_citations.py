"""Context around the hits, and citations held inside what the model was shown."""

from __future__ import annotations

import pytest

from frontdesk.assistants.codeqa.answers.citations import check_citations
from frontdesk.assistants.codeqa.indexing.indexer import CodeIndex
from frontdesk.assistants.codeqa.retrieval.expansion import ContextBlock, expand
from frontdesk.embeddings.hashing import HashEmbeddings


def block(path, start, end, symbol=""):
    return ContextBlock(path, start, end, "x\n" * (end - start), symbol, f"{path}:{start}",
                        cited=[(start, end)])  # fmt: skip


BLOCKS = [block("pkg/client.py", 13, 16, "HTTPClient.get_json"), block("pkg/config.py", 6, 11)]


@pytest.mark.parametrize(
    ("answer", "fixed", "cited"),
    [
        # Inside a shown block: kept as written.
        ("It decodes JSON (pkg/client.py:14-15).", "It decodes JSON (pkg/client.py:14-15).",
         ["pkg/client.py:14-15"]),
        # A shown file, other lines: moved to the shown block.
        ("See pkg/client.py:40.", "See pkg/client.py:13-16.", ["pkg/client.py:13-16"]),
        # The file's name alone is completed to its path.
        ("In client.py:13 it calls _fetch.", "In pkg/client.py:13 it calls _fetch.",
         ["pkg/client.py:13"]),
        # A file it was not shown: removed, with its brackets.
        ("Settings load in app/settings.py:3 (src/other.py:1-9).", "Settings load in app/settings.py:3.".replace(
            " app/settings.py:3", ""), []),
        # Each citation once, in the order given.
        ("pkg/config.py:6-11 and pkg/config.py:6-11, then pkg/client.py:13-16",
         "pkg/config.py:6-11 and pkg/config.py:6-11, then pkg/client.py:13-16",
         ["pkg/config.py:6-11", "pkg/client.py:13-16"]),
    ],
)  # fmt: skip
def test_every_citation_ends_inside_the_shown_blocks(answer, fixed, cited):
    text, citations = check_citations(answer, BLOCKS)
    assert text == fixed
    assert [str(c) for c in citations] == cited
    for citation in citations:
        assert any(
            b.path == citation.path and b.start_line <= citation.start_line
            and citation.end_line <= b.end_line for b in BLOCKS
        )  # fmt: skip


def test_a_method_comes_with_its_class_header_and_its_siblings(tmp_path, small_repo):
    index = CodeIndex(tmp_path / "index", HashEmbeddings(), "hash-test", budget=150)
    index.index(small_repo, "small")
    documents = index.knowledge.documents("small")
    method = next(d for d in documents if d.metadata["symbol"] == "HTTPClient.get_json")
    (first, *_) = expand([method], documents, budget_chars=2000)
    assert first.path == "pkg/client.py" and first.symbol == "HTTPClient.get_json"
    assert first.notes[0].startswith("(in class HTTPClient: Sends requests")
    assert "def _fetch(self, path)" in first.notes[1]
    rendered = first.render()
    assert rendered.startswith("[pkg/client.py:13-16] HTTPClient.get_json")
    assert '   14          """GET `path` and decode the body."""' in rendered
    # A tight budget still lets the best hit in, and nothing after it.
    blocks = expand([method, *documents], documents, budget_chars=40)
    assert len(blocks) == 1 and len(blocks[0].code) <= 40


def test_mentioned_paths_finds_paths_and_bare_file_names_but_not_calls_or_products():
    from frontdesk.assistants.codeqa.answers.citations import mentioned_paths

    text = (
        "The add function in sources.js renders it (see web/static/js/app.js). "
        "Install Node.js, call response.json() or read session.json. Version 2.34, e.g. this. "
        "Edit config.toml and README.md; pkg/client.py:13-16 is a citation."
    )
    assert mentioned_paths(text) == [
        "web/static/js/app.js", "sources.js", "session.json", "config.toml", "README.md",
    ]  # fmt: skip
    # `json` is a name the code defines: `session.json` is then an attribute, not a file.
    assert "session.json" not in mentioned_paths(text, is_attribute=lambda name: name == "json")
