"""Definitions and references in one parsed file, from the grammar's own tag query.

Tag queries (`queries/tags.scm`, shipped in each grammar's wheel) mark definitions
(`@definition.function`, `@definition.class`, ...) and references (`@reference.call`, ...),
each with its `@name`: the same data aider's repo map and GitHub's code navigation use.
A definition's qualified name follows its enclosing definitions (`HTTPClient.get`)."""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache

from tree_sitter import Node, Query, QueryCursor, QueryError, Tree

from frontdesk.assistants.codeqa.indexing.languages import Grammar, grammar

__all__ = ["Definition", "FileSymbols", "Reference", "file_symbols", "tags_query"]

SIGNATURE_CHARS = 200
_COMMENT_STARTS = ("#", "//", "/*", "*")
_WRAPPERS = frozenset({"export_statement", "decorated_definition"})
DOCSTRING_CHARS = 300


@dataclass(frozen=True)
class Definition:
    name: str
    qualified: str  # "HTTPClient.get"
    kind: str  # function, method, class, interface, type, module, constant, macro
    start_line: int  # 1-based, inclusive
    end_line: int
    parent: str | None  # the enclosing definition's qualified name
    signature: str
    docstring: str


@dataclass(frozen=True)
class Reference:
    name: str
    line: int


@dataclass(frozen=True)
class FileSymbols:
    definitions: tuple[Definition, ...]
    references: tuple[Reference, ...]


@cache
def tags_query(language: str) -> Query | None:
    """The compiled tag query of `language`; TypeScript's own file only adds to JavaScript's."""
    found = grammar(language)
    if found is None or not found.tags_query:
        return None
    source = found.tags_query
    if language in ("typescript", "tsx"):
        javascript = grammar("javascript")
        source = (javascript.tags_query if javascript else "") + "\n" + source
    try:
        return Query(found.language, source)
    except QueryError:  # a pattern this grammar version lacks: fall back to its own file
        return Query(found.language, found.tags_query)


def file_symbols(tree: Tree, found: Grammar, source: bytes) -> FileSymbols:
    query = tags_query(found.name)
    if query is None:
        return FileSymbols((), ())
    raw: list[tuple[Node, str, str]] = []  # (definition node, name, kind)
    references: list[Reference] = []
    for _, captures in QueryCursor(query).matches(tree.root_node):
        names = captures.get("name") or []
        if not names:
            continue
        name = _text(names[0], source)
        for capture, nodes in captures.items():
            if capture.startswith("definition."):
                raw.append((nodes[0], name, capture.removeprefix("definition.")))
            elif capture.startswith("reference."):
                references.append(Reference(name, names[0].start_point.row + 1))
    return FileSymbols(_qualified(raw, source), tuple(references))


def _qualified(raw: list[tuple[Node, str, str]], source: bytes) -> tuple[Definition, ...]:
    # Outer definitions first, so each one's parents are known when it is reached.
    ordered = sorted(
        ((n.start_byte, -n.end_byte, name, kind, n) for n, name, kind in raw),
        key=lambda row: row[:2],
    )
    definitions: list[Definition] = []
    open_spans: list[tuple[int, int, str]] = []  # (start, end, qualified) of enclosing ones
    seen: set[tuple[int, int]] = set()
    for start, negative_end, name, kind, node in ordered:
        end = -negative_end
        if (start, end) in seen:  # two patterns matched one node
            continue
        seen.add((start, end))
        while open_spans and not (open_spans[-1][0] <= start and end <= open_spans[-1][1]):
            open_spans.pop()
        parent = open_spans[-1][2] if open_spans else None
        qualified = f"{parent}.{name}" if parent else name
        if kind == "function" and parent and _is_class_like(definitions, parent):
            kind = "method"
        definitions.append(
            Definition(
                name=name,
                qualified=qualified,
                kind=kind,
                start_line=node.start_point.row + 1,
                end_line=node.end_point.row + 1,
                parent=parent,
                signature=_signature(node, source),
                docstring=_docstring(node, source),
            )
        )
        open_spans.append((start, end, qualified))
    return tuple(definitions)


def _is_class_like(definitions: list[Definition], qualified: str) -> bool:
    return any(d.qualified == qualified and d.kind in ("class", "interface") for d in definitions)


def _text(node: Node, source: bytes) -> str:
    return source[node.start_byte : node.end_byte].decode("utf-8", "replace")


def _signature(node: Node, source: bytes) -> str:
    """The definition's head: its text up to the body, on one line."""
    body = node.child_by_field_name("body")
    end = body.start_byte if body is not None else node.end_byte
    head = source[node.start_byte : end].decode("utf-8", "replace")
    if body is None:
        head = head.split("\n", 1)[0]
    # A comment between the head and the body ("def f():\n    # why") is not the signature.
    head = "\n".join(
        line for line in head.split("\n") if not line.strip().startswith(_COMMENT_STARTS)
    )
    head = " ".join(head.split()).rstrip(" :{")
    return head[:SIGNATURE_CHARS]


def _docstring(node: Node, source: bytes) -> str:
    """Python's docstring (the body's first string), else the comment lines just above."""
    body = node.child_by_field_name("body")
    if body is not None and body.named_child_count:
        first = body.named_children[0]
        if first.type == "expression_statement" and first.named_child_count:
            literal = first.named_children[0]
            if literal.type == "string":
                text = _text(literal, source).strip("\"' \n\r\t")
                return " ".join(text.split())[:DOCSTRING_CHARS]
    comments = []
    # The comment sits above `export class ...` or a decorator, not the definition itself.
    while node.parent is not None and node.parent.type in _WRAPPERS:
        node = node.parent
    sibling = node.prev_named_sibling
    line = node.start_point.row
    while sibling is not None and sibling.type == "comment" and sibling.end_point.row >= line - 1:
        comments.append(_text(sibling, source))
        line = sibling.start_point.row
        sibling = sibling.prev_named_sibling
    text = " ".join(c.strip().lstrip("/*#!").rstrip("*/").strip() for c in reversed(comments))
    return " ".join(text.split())[:DOCSTRING_CHARS]
