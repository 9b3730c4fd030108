"""Files cut along their syntax: whole definitions, named, every line in exactly one chunk."""

from __future__ import annotations

from pathlib import Path

import pytest

from frontdesk.assistants.codeqa.indexing.chunker import chunk_file
from frontdesk.assistants.codeqa.indexing.languages import language_of, source_type_of
from frontdesk.assistants.codeqa.indexing.walker import RepoFile

CLIENT = '''"""A tiny HTTP client."""

import json

TIMEOUT = 10


class HTTPClient:
    """Sends requests and decodes JSON."""

    def __init__(self, base_url):
        self.base_url = base_url

    def get_json(self, path):
        """GET `path` and decode the body."""
        return json.loads(self._fetch(path))

    def _fetch(self, path):
        raise NotImplementedError


def make_client(url):
    # The one place clients are built.
    return HTTPClient(url)
'''


def repo_file(path: str) -> RepoFile:
    language = language_of(path)
    return RepoFile(path, Path(path), language, source_type_of(path, language), 0)


def lines_covered(chunks) -> list[int]:
    return [n for c in chunks for n in range(c.start_line, c.end_line + 1)]


def test_a_small_file_is_one_chunk_that_names_its_definitions():
    result = chunk_file(repo_file("pkg/client.py"), CLIENT)
    assert result.parsed
    assert [(c.start_line, c.end_line) for c in result.chunks] == [(1, 24)]
    (chunk,) = result.chunks
    assert chunk.symbols == (
        "TIMEOUT",
        "HTTPClient",
        "HTTPClient.__init__",
        "HTTPClient.get_json",
        "HTTPClient._fetch",
        "make_client",
    )
    assert chunk.searchable().startswith("pkg/client.py\n")


def test_a_tight_budget_cuts_at_definitions_and_keeps_comments_with_them():
    result = chunk_file(repo_file("pkg/client.py"), CLIENT, budget=120)
    chunks = result.chunks
    assert lines_covered(chunks) == list(range(1, 25))  # every line once, in order
    by_symbol = {c.symbol: c for c in chunks}
    method = by_symbol["HTTPClient.get_json"]
    assert (method.kind, method.parent) == ("method", "HTTPClient")
    assert method.signature == "def get_json(self, path)"
    assert method.docstring == "GET `path` and decode the body."
    assert "return json.loads(self._fetch(path))" in method.code
    factory = by_symbol["make_client"]
    assert factory.code.startswith("def make_client(url):\n    # The one place")
    header = method.header().splitlines()
    assert header[1:3] == ["method HTTPClient.get_json", "def get_json(self, path)"]


def test_a_definition_over_the_budget_is_split_into_parts_that_say_whose():
    body = "\n".join(f"    total += compute_value_number_{i}(argument)" for i in range(60))
    text = f"def long_function(argument):\n    total = 0\n{body}\n    return total\n"
    chunks = chunk_file(repo_file("big.py"), text, budget=400).chunks
    assert len(chunks) > 2
    assert lines_covered(chunks) == list(range(1, 64))
    assert chunks[0].symbol == "long_function" and chunks[0].kind == "function"
    assert all(c.symbol == "long_function" and c.kind == "part of function" for c in chunks[1:])
    assert all(c.signature == "def long_function(argument)" for c in chunks)


@pytest.mark.parametrize(
    ("path", "text", "symbol"),
    [
        (
            "web/client.ts",
            "export class Api {\n  get(id: string): number { return 1; }\n}\n",
            "Api",
        ),
        ("src/lib.rs", "pub struct S;\nimpl S {\n    pub fn run(&self) -> u8 { 1 }\n}\n", "S"),
        ("main.go", "package main\n\nfunc Serve(addr string) error {\n\treturn nil\n}\n", "Serve"),
        ("A.java", "class A {\n  int size() { return 0; }\n}\n", "A"),
        ("x.c", "int add(int a, int b) {\n  return a + b;\n}\n", "add"),
        ("x.cpp", "namespace n {\nclass K { void f(); };\n}\n", "K"),
        ("app.js", "function boot() {\n  return 1;\n}\n", "boot"),
    ],
)
def test_each_shipped_grammar_names_what_a_file_defines(path, text, symbol):
    result = chunk_file(repo_file(path), text)
    assert result.parsed, path
    assert symbol in {s for c in result.chunks for s in c.symbols} | {
        d.name for d in result.symbols.definitions
    }


def test_code_that_does_not_parse_is_still_indexed_line_by_line():
    text = "def broken(:\n    return (\n\nclass Fine:\n    pass\n"
    result = chunk_file(repo_file("broken.py"), text)
    assert not result.parsed
    assert lines_covered(result.chunks) == [1, 2, 3, 4, 5]


def test_markdown_is_cut_at_headings_and_each_piece_named_by_its_section():
    text = (
        "# Guide\nIntro.\n\n## Install\n" + "Run the installer now.\n" * 40 + "## Use\nCall it.\n"
    )
    chunks = chunk_file(repo_file("docs/guide.md"), text, budget=300).chunks
    assert lines_covered(chunks) == list(range(1, 47))
    # The short last section joins the one before it, and is named among its headings.
    assert chunks[-1].kind == "section" and "Use" in chunks[-1].symbols
    assert chunks[0].symbol == "Guide" and any(c.symbol == "Install" for c in chunks[1:])


def test_a_language_without_a_grammar_goes_in_line_windows():
    text = "".join(f"key_{i} = value_{i}\n" for i in range(100))
    chunks = chunk_file(repo_file("settings.ini"), text, budget=200).chunks
    assert len(chunks) > 1 and lines_covered(chunks) == list(range(1, 101))
    assert all(c.source_type == "config" and c.symbol == "" for c in chunks)


def test_line_numbers_count_only_newlines():
    # A form feed would make str.splitlines see an extra line and shift every citation.
    text = "A = 1\n\x0c\ndef f():\n    return A\n"
    result = chunk_file(repo_file("ff.py"), text, budget=5)
    lines = text.split("\n")
    for chunk in result.chunks:
        assert chunk.code == "\n".join(lines[chunk.start_line - 1 : chunk.end_line])
    assert lines_covered(result.chunks) == [1, 2, 3, 4]
    (f,) = result.symbols.definitions[1:]
    assert (f.name, f.start_line, f.end_line) == ("f", 3, 4)


def test_a_long_docstring_is_cut_evenly_never_leaving_a_small_tail():
    body = "".join(
        f"Line {i} of the module's long explanation, kept in the docs.\n" for i in range(22)
    )
    text = f'"""{body}"""\n\nimport os\n'
    chunks = chunk_file(repo_file("mod.py"), text, budget=800).chunks
    doc = [c for c in chunks if c.start_line <= 23]
    sizes = [sum(len(line.replace(" ", "")) for line in c.code.splitlines()) for c in doc]
    assert len(doc) == 2 and all(size <= 800 for size in sizes)
    assert min(sizes) >= 0.8 * max(sizes), sizes  # greedy would leave 800 + 300
    assert lines_covered(chunks) == list(range(1, text.count("\n") + 1))
