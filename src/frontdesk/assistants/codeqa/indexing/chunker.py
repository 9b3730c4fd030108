"""Cutting a file into chunks that each say where they are and what they define.

Code with a grammar is cut along its syntax tree (cAST, arXiv 2506.15655): a node that fits the
budget is one piece, a larger one is split into its children, and adjacent small pieces are
merged back up to the budget, so a chunk is a whole function, a few small ones together, or a
part of a large one, never half a line. The budget counts non-whitespace characters, so
indentation costs nothing. Markdown is cut at its headings; anything else in line windows.

Every chunk carries its repository path, line range, the symbol it defines (`Class.method`),
kind, parent, signature and docstring, and its searchable text starts with a header (path,
symbol, signature): the embedding model reads only the first 256 tokens, and BM25 then finds a
chunk by the names that say what it is.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace

import numpy as np
from tree_sitter import Parser

from frontdesk.assistants.codeqa.indexing.languages import grammar
from frontdesk.assistants.codeqa.indexing.symbols import Definition, FileSymbols, file_symbols
from frontdesk.assistants.codeqa.indexing.walker import RepoFile

__all__ = ["DEFAULT_BUDGET", "CodeChunk", "FileChunks", "chunk_file"]

DEFAULT_BUDGET = 900  # non-whitespace characters: about 40 lines of code
_WHITESPACE = np.frombuffer(b" \t\n\r\f\v", dtype=np.uint8)
_HEADING = re.compile(r"^#{1,6}\s+\S")


@dataclass(frozen=True)
class CodeChunk:
    path: str
    language: str | None
    source_type: str
    start_line: int  # 1-based, inclusive
    end_line: int
    code: str  # the file's lines start_line..end_line
    symbol: str = ""  # the definition this chunk is (or is part of); a heading for docs
    symbols: tuple[str, ...] = ()  # every definition (or heading) that starts in it
    kind: str = ""  # function, method, class, ..., "section" for docs, "" for module code
    parent: str = ""
    signature: str = ""
    docstring: str = ""

    def header(self) -> str:
        # No line numbers: a chunk that only moved (lines added above it) keeps its text, so
        # its id and its vector stay, and only its metadata is updated.
        lines = [self.path]
        if self.symbol:
            lines.append(f"{self.kind or 'symbol'} {self.symbol}")
        if self.signature:
            lines.append(self.signature)
        if self.docstring:
            lines.append(self.docstring)
        return "\n".join(lines)

    def searchable(self) -> str:
        """What BM25 and the embedding model read: the header, then the code."""
        return f"{self.header()}\n\n{self.code}"


@dataclass(frozen=True)
class FileChunks:
    chunks: tuple[CodeChunk, ...]
    symbols: FileSymbols
    parsed: bool  # False: no grammar, or the syntax tree had errors (chunks are line windows
    # where it did not parse)


def chunk_file(file: RepoFile, text: str, budget: int = DEFAULT_BUDGET) -> FileChunks:
    # Lines as tree-sitter counts them: only "\n" ends one (splitlines also splits at \f,
    # \x1c, \u2028..., which would shift every line number after one).
    lines = [line.removesuffix("\r") for line in text.split("\n")]
    if lines and lines[-1] == "":
        lines.pop()
    if not lines:
        return FileChunks((), FileSymbols((), ()), parsed=False)
    found = grammar(file.language)
    if found is not None:
        source = text.encode("utf-8")
        tree = Parser(found.language).parse(source)
        symbols = file_symbols(tree, found, source)
        sizes = _LineSizes(source)
        starts = frozenset(d.start_line - 1 for d in symbols.definitions)
        spans = _cover(_split(tree.root_node, sizes, budget, starts), lines)
        chunks = [_code_chunk(file, lines, span, symbols.definitions) for span in spans]
        return FileChunks(tuple(chunks), symbols, parsed=not tree.root_node.has_error)
    if file.language == "markdown":
        spans = _markdown_spans(lines, budget)
        return FileChunks(
            tuple(_doc_chunk(file, lines, span) for span in spans),
            FileSymbols((), ()),
            parsed=True,
        )
    spans = _windows(0, len(lines) - 1, _LineSizes(text.encode("utf-8")), budget)
    return FileChunks(
        tuple(_plain_chunk(file, lines, span) for span in spans), FileSymbols((), ()), False
    )


class _LineSizes:
    """Non-whitespace characters (bytes) of any run of lines, in O(1)."""

    def __init__(self, source: bytes):
        data = np.frombuffer(source, dtype=np.uint8)
        counted = ~np.isin(data, _WHITESPACE)
        self._prefix = np.concatenate([[0], np.cumsum(counted)])
        starts = np.flatnonzero(data == ord("\n")) + 1
        self._line_start = np.concatenate([[0], starts, [len(data)]]).astype(np.int64)

    def of_bytes(self, start: int, end: int) -> int:
        return int(self._prefix[end] - self._prefix[start])

    def of_lines(self, first: int, last: int) -> int:
        """Lines `first`..`last`, 0-based and inclusive."""
        last = min(last + 1, len(self._line_start) - 1)
        return int(self._prefix[self._line_start[last]] - self._prefix[self._line_start[first]])


def _split(
    node, sizes: _LineSizes, budget: int, definition_rows: frozenset[int] = frozenset()
) -> list[tuple[int, int]]:
    """0-based inclusive line spans: a node within budget whole, else its children, adjacent
    small ones grouped up to the budget. The small children before a large one (a class's
    `class X(Base):` line, a decorator) open the large one's first piece, so a header is never
    alone, unless they hold a definition of their own (`definition_rows`: where definitions
    start): a small function is never glued to the head of the next one."""
    if sizes.of_bytes(node.start_byte, node.end_byte) <= budget:
        return [(node.start_point.row, node.end_point.row)]
    if node.child_count == 0:
        return _windows(node.start_point.row, node.end_point.row, sizes, budget)
    spans: list[tuple[int, int]] = []
    group: tuple[int, int] | None = None
    group_size = 0
    for child in node.children:
        size = sizes.of_bytes(child.start_byte, child.end_byte)
        if group is not None and group_size + size <= budget:
            group, group_size = (group[0], child.end_point.row), group_size + size
            continue
        header = group is not None and not any(
            group[0] <= row <= group[1] and row != node.start_point.row for row in definition_rows
        )
        inner = _split(child, sizes, budget, definition_rows) if size > budget else []
        # A header joins the piece after it, even past the budget when it is small: a
        # `def f(...):` line alone says nothing.
        if (
            group is not None
            and header
            and (
                group_size <= budget // 4
                or (inner and group_size + sizes.of_lines(*inner[0]) <= budget)
            )
        ):
            if inner:
                inner[0] = (group[0], inner[0][1])
                spans.extend(inner)
                group, group_size = None, 0
            else:
                group, group_size = (group[0], child.end_point.row), group_size + size
            continue
        if group:
            spans.append(group)
        if inner:
            spans.extend(inner)
            group, group_size = None, 0
        else:
            group, group_size = (child.start_point.row, child.end_point.row), size
    if group:
        spans.append(group)
    return spans


def _cover(spans: list[tuple[int, int]], lines: list[str]) -> list[tuple[int, int]]:
    """Spans that do not overlap and leave no line out: a line two nodes share goes to the
    first; between two pieces, blank lines stay with the piece before and comments go to the
    piece after, so a comment stays with the definition it describes."""
    last_line = len(lines) - 1
    covered: list[tuple[int, int]] = []
    next_line = 0
    for start, end in sorted(spans):
        end = min(end, last_line)
        if end < next_line:
            continue
        if covered:
            while next_line < start and not lines[next_line].strip():
                next_line += 1
            covered[-1] = (covered[-1][0], next_line - 1)
        covered.append((next_line, end))
        next_line = end + 1
    if next_line <= last_line:
        if covered:
            covered[-1] = (covered[-1][0], last_line)
        else:
            covered.append((0, last_line))
    return covered


def _merge(spans: list[tuple[int, int]], sizes: _LineSizes, budget: int) -> list[tuple[int, int]]:
    """Adjacent spans joined while the result stays within budget (a doc's short sections)."""
    merged: list[tuple[int, int]] = []
    for start, end in spans:
        if merged and sizes.of_lines(merged[-1][0], end) <= budget:
            merged[-1] = (merged[-1][0], end)
        else:
            merged.append((start, end))
    return merged


def _windows(first: int, last: int, sizes: _LineSizes, budget: int) -> list[tuple[int, int]]:
    """Lines `first`..`last` in runs within budget (a single longer line is a run of its own),
    as even as the lines allow: a docstring's last four lines are not a chunk of their own."""
    greedy = []
    start = first
    for line in range(first, last + 1):
        if line > start and sizes.of_lines(start, line) > budget:
            greedy.append((start, line - 1))
            start = line
    greedy.append((start, last))
    if len(greedy) < 2:
        return greedy
    target = sizes.of_lines(first, last) / len(greedy)
    even = []
    start = first
    for line in range(first, last + 1):
        if len(even) == len(greedy) - 1:
            break
        # Cut before `line` when the run without it is nearer the target than with it.
        if line > start and (sizes.of_lines(start, line) - target) > (
            target - sizes.of_lines(start, line - 1)
        ):
            even.append((start, line - 1))
            start = line
    even.append((start, last))
    return even if all(sizes.of_lines(a, b) <= budget or a == b for a, b in even) else greedy


def _markdown_spans(lines: list[str], budget: int) -> list[tuple[int, int]]:
    sizes = _LineSizes("\n".join(lines).encode("utf-8"))
    starts = [0] + [i for i, line in enumerate(lines) if i and _HEADING.match(line)]
    sections = [(s, e - 1) for s, e in zip(starts, [*starts[1:], len(lines)], strict=True)]
    spans: list[tuple[int, int]] = []
    for start, end in sections:
        spans.extend(_windows(start, end, sizes, budget))
    return _merge(spans, sizes, budget)


def _code_chunk(
    file: RepoFile, lines: list[str], span: tuple[int, int], definitions: tuple[Definition, ...]
) -> CodeChunk:
    first, last = span[0] + 1, span[1] + 1
    starting = [d for d in definitions if first <= d.start_line <= last]
    names = {d.qualified for d in starting}
    outermost = [d for d in starting if d.parent not in names]
    if outermost:
        main = outermost[0]
    else:  # a part of a definition larger than the budget: the innermost one around it
        around = [d for d in definitions if d.start_line < first and d.end_line >= first]
        main = max(around, key=lambda d: d.start_line) if around else None
    return CodeChunk(
        path=file.path,
        language=file.language,
        source_type=file.source_type,
        start_line=first,
        end_line=last,
        code="\n".join(lines[span[0] : span[1] + 1]),
        symbol=main.qualified if main else "",
        symbols=tuple(d.qualified for d in starting),
        kind=(main.kind if outermost or main is None else f"part of {main.kind}") if main else "",
        parent=(main.parent or "") if main else "",
        signature=main.signature if main else "",
        docstring=main.docstring if main and outermost else "",
    )


def _doc_chunk(file: RepoFile, lines: list[str], span: tuple[int, int]) -> CodeChunk:
    # The section the chunk starts in: the nearest heading at or above its first line.
    above = (i for i in range(span[0], -1, -1) if _HEADING.match(lines[i]))
    heading = next((lines[i].lstrip("#").strip() for i in above), "")
    headings = tuple(
        lines[i].lstrip("#").strip()
        for i in range(span[0], span[1] + 1)
        if _HEADING.match(lines[i])
    )
    return replace(
        _plain_chunk(file, lines, span),
        symbol=heading,
        symbols=headings,
        kind="section" if heading else "",
    )


def _plain_chunk(file: RepoFile, lines: list[str], span: tuple[int, int]) -> CodeChunk:
    return CodeChunk(
        path=file.path,
        language=file.language,
        source_type=file.source_type,
        start_line=span[0] + 1,
        end_line=span[1] + 1,
        code="\n".join(lines[span[0] : span[1] + 1]),
    )
