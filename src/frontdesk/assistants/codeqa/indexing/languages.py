"""What each file is: its language (and tree-sitter grammar, if we ship one) and its source
type, from the path alone.

Grammars come from the official per-language wheels (`tree-sitter-python`, ...), each of which
bundles its `queries/tags.scm`; nothing is downloaded at run time. A language without a grammar
is still indexed, in line windows."""

from __future__ import annotations

import importlib
import re
from dataclasses import dataclass
from functools import cache
from importlib.resources import files
from pathlib import PurePosixPath

from tree_sitter import Language

__all__ = ["Grammar", "SourceType", "grammar", "language_of", "source_type_of"]

# "code" | "test" | "doc" | "config" | "data" (JSONL, CSV: records, not something to explain)
SourceType = str


@dataclass(frozen=True)
class Grammar:
    """A tree-sitter grammar and its tag query (definitions and references)."""

    name: str
    language: Language
    tags_query: str


# language -> (module, function giving the grammar, module holding queries/tags.scm)
_GRAMMARS = {
    "python": ("tree_sitter_python", "language"),
    "javascript": ("tree_sitter_javascript", "language"),
    "typescript": ("tree_sitter_typescript", "language_typescript"),
    "tsx": ("tree_sitter_typescript", "language_tsx"),
    "go": ("tree_sitter_go", "language"),
    "rust": ("tree_sitter_rust", "language"),
    "java": ("tree_sitter_java", "language"),
    "c": ("tree_sitter_c", "language"),
    "cpp": ("tree_sitter_cpp", "language"),
}

_EXTENSIONS = {
    ".py": "python", ".pyi": "python",
    ".js": "javascript", ".mjs": "javascript", ".cjs": "javascript", ".jsx": "javascript",
    ".ts": "typescript", ".mts": "typescript", ".cts": "typescript", ".tsx": "tsx",
    ".go": "go", ".rs": "rust", ".java": "java",
    ".c": "c", ".h": "c",
    ".cc": "cpp", ".cpp": "cpp", ".cxx": "cpp", ".hh": "cpp", ".hpp": "cpp", ".hxx": "cpp",
    ".md": "markdown", ".markdown": "markdown", ".rst": "rst", ".txt": "text",
    ".toml": "toml", ".yaml": "yaml", ".yml": "yaml", ".json": "json", ".ini": "ini",
    ".cfg": "ini", ".sh": "shell", ".bash": "shell", ".rb": "ruby", ".php": "php",
    ".kt": "kotlin", ".swift": "swift", ".cs": "csharp", ".scala": "scala", ".lua": "lua",
    ".sql": "sql", ".html": "html", ".css": "css", ".scss": "css", ".vue": "vue",
    ".xml": "xml", ".jsonl": "data", ".ndjson": "data", ".csv": "data", ".tsv": "data",
    ".svg": "data",
}  # fmt: skip
_NAMES = {
    "Makefile": "make", "makefile": "make", "GNUmakefile": "make", "Dockerfile": "docker",
    "README": "text", "LICENSE": "text", "CHANGELOG": "text", "Justfile": "make",
    ".gitignore": "ignore", ".dockerignore": "ignore", ".gitattributes": "ignore",
    ".editorconfig": "ini",
}  # fmt: skip

_DOC_LANGUAGES = frozenset({"markdown", "rst", "text"})
_CONFIG_LANGUAGES = frozenset({"toml", "yaml", "json", "ini", "make", "docker", "xml", "ignore"})
_TEST_PATH = re.compile(
    r"(?:^|/)(?:tests?|__tests__|spec|testing)/"  # a tests folder
    r"|(?:^|/)test_[^/]+\.py$|_test\.(?:py|go)$"  # test_x.py, x_test.py, x_test.go
    r"|\.(?:test|spec)\.[jt]sx?$|(?:^|/)conftest\.py$"  # x.test.ts, x.spec.js, conftest.py
    r"|(?:^|/)src/test/|Tests?\.java$"  # Maven layout, FooTest.java
)


def language_of(path: str) -> str | None:
    """The language of a repository path (`src/app.py` -> "python"), None when unknown."""
    pure = PurePosixPath(path)
    return _EXTENSIONS.get(pure.suffix.lower()) or _NAMES.get(pure.name)


def source_type_of(path: str, language: str | None) -> SourceType:
    """code, test, doc, config or data, from where the file is and what it is."""
    if language in _DOC_LANGUAGES:
        return "doc"
    if language == "data":
        return "data"
    if language in _CONFIG_LANGUAGES:
        return "config"
    if _TEST_PATH.search(path):
        return "test"
    return "code"


@cache
def grammar(language: str | None) -> Grammar | None:
    """The shipped tree-sitter grammar for `language`, None when there is none."""
    if language not in _GRAMMARS:
        return None
    module_name, function = _GRAMMARS[language]
    module = importlib.import_module(module_name)
    tags = files(module_name) / "queries" / "tags.scm"
    return Grammar(
        name=language,
        language=Language(getattr(module, function)()),
        tags_query=tags.read_text(encoding="utf-8") if tags.is_file() else "",
    )
