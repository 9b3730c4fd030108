"""Names in a question that the index knows: symbols and files, found without a model."""

from __future__ import annotations

import pytest

from frontdesk.assistants.codeqa.retrieval.fast_path import ask_kind, missing_name, named_targets
from frontdesk.assistants.codeqa.retrieval.symbol_index import SymbolIndex

from .conftest import manifest_entries


@pytest.fixture
def index(small_repo) -> SymbolIndex:
    return SymbolIndex(*manifest_entries(small_repo))


def test_definitions_usages_and_files_by_name(index):
    (hit,) = index.definitions("get_json")
    assert (hit.path, hit.qualified, hit.kind, hit.start_line) == (
        "pkg/client.py", "HTTPClient.get_json", "method", 13,
    )  # fmt: skip
    assert index.definitions("HTTPClient.get_json") == [hit]
    assert index.definitions("httpclient")[0].qualified == "HTTPClient"
    assert {(u.path, u.line) for u in index.usages("make_client")} == {("tests/test_client.py", 5)}
    assert index.files_named("config.toml") == ["config.toml"]
    assert index.files_named("pkg/client.py") == index.files_named("client.py") == ["pkg/client.py"]
    assert index.definitions("nonexistent") == [] and index.files_named("nope.py") == []


@pytest.mark.parametrize(
    ("question", "symbols", "files"),
    [
        ("where is `get_json` defined?", {"get_json"}, set()),
        ("Where is make_client defined?", {"make_client"}, set()),
        ("HTTPClient", {"HTTPClient"}, set()),
        ("load_settings", {"load_settings"}, set()),
        ("what is in config.toml?", set(), {"config.toml"}),
        ("explain pkg/client.py", set(), {"pkg/client.py"}),
        ("How does HTTPClient.get_json decode the body?", {"HTTPClient.get_json"}, set()),
        ("what does client.get_json() return?", {"client.get_json"}, set()),
        # Prose is not a name, and a name the index lacks is not a target.
        ("how does the client retry?", set(), set()),
        ("hello", set(), set()),
        ("where is parse_args defined?", set(), set()),
    ],
)
def test_a_question_names_what_the_index_has(index, question, symbols, files):
    targets = named_targets(question, index)
    assert set(targets.symbols) == symbols
    assert set(targets.files) == files
    assert bool(targets) == bool(symbols or files)


@pytest.mark.parametrize(
    ("question", "kind"),
    [
        ("where is get_json defined?", "locate"),
        ("Where's the definition of HTTPClient", "locate"),
        ("what calls make_client?", "usages"),
        ("where is make_client used?", "usages"),
        ("show me the callers of transport_get", "usages"),
        ("how does HTTPClient retry?", "explain"),
        ("HTTPClient", "explain"),
    ],
)
def test_what_the_question_asks_for(question, kind):
    assert ask_kind(question) == kind


@pytest.mark.parametrize(
    "question, kinds",
    [
        ("What is in the TOML config file?", ["config"]),
        ("How are the settings read from the TOML file?", []),
        ("Which code parses the YAML settings?", []),
        ("Which test checks the retries?", ["test"]),
        ("Where do the docs explain retries?", ["doc"]),
    ],
)
def test_a_question_about_handling_config_is_not_filtered_to_config(index, question, kinds):
    from frontdesk.assistants.codeqa.retrieval.pipeline import route_question

    class Repo:
        symbols = index
        folders = ()

        @staticmethod
        def words() -> frozenset[str]:
            return frozenset()

        @staticmethod
        def has_term(term: str) -> bool:
            return True

    request = route_question(question, Repo())["retrieval_requests"][0]
    assert request["source_types"] == kinds


def test_a_usage_knows_the_definition_it_sits_in(index):
    (usage,) = index.usages("make_client")
    assert usage.caller == "test_make_client_keeps_the_url"
    # A method's call is the method's, not its class's: the innermost definition wins.
    assert {u.caller for u in index.usages("transport_get")} == {"HTTPClient._fetch"}


PLAIN_WORDS = {
    "pkg/run.py": {
        "definitions": [
            {"name": "invoke", "qualified": "invoke", "kind": "function", "start_line": 1,
             "end_line": 2, "parent": None, "signature": "def invoke():", "docstring": ""},
            {"name": "main", "qualified": "main", "kind": "function", "start_line": 4,
             "end_line": 5, "parent": None, "signature": "def main():", "docstring": ""},
        ],
        "references": [["invoke", 5]],
    }
}  # fmt: skip


@pytest.mark.parametrize(
    ("question", "named", "missing"),
    [
        # The word a usages or locate question asks about is a name even when plain.
        ("who calls invoke?", {"invoke"}, None),
        ("where is invoke defined", {"invoke"}, None),
        ("usages of invoke", {"invoke"}, None),
        # A code-shaped name the index lacks is answered as missing, not searched for.
        ("what calls build_graph?", set(), "build_graph"),
        ("where is `Runner` defined?", set(), "Runner"),
        # Prose after the verb is not a name; nor is a plain word the index lacks.
        ("what uses the cache?", set(), None),
        ("what uses caching?", set(), None),
        ("how does invoke work?", set(), None),
    ],
)
def test_the_name_a_usages_question_asks_about(question, named, missing):
    index = SymbolIndex(PLAIN_WORDS, {"pkg/run.py": "code"})
    targets = named_targets(question, index)
    assert set(targets.symbols) == named
    assert missing_name(question, targets) == missing
    if named:
        assert [u.caller for u in index.usages("invoke")] == ["main"]
