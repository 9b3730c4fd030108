"""JSONL evaluation datasets: one JSON object per line, validated into typed cases.

A bad line stops loading with a `DatasetError` naming the file, the line number and what is
wrong, because a silently skipped row changes every metric without anyone noticing.
Blank lines and lines starting with `#` (after whitespace) are ignored so datasets can carry
comments. Unknown keys are allowed (ids, notes) and ignored.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal

SuiteName = Literal["retrieval", "routing", "guardrails", "answers", "no_context", "tools"]
GuardrailLabel = Literal["injection", "benign", "unsafe"]
GUARDRAIL_LABELS: tuple[str, ...] = ("injection", "benign", "unsafe")


class DatasetError(ValueError):
    """A dataset file is missing, empty or has a malformed line."""


@dataclass(frozen=True)
class RetrievalCase:
    query: str
    relevant: tuple[str, ...]
    line: int = 0


@dataclass(frozen=True)
class RoutingCase:
    text: str
    label: str
    line: int = 0


@dataclass(frozen=True)
class GuardrailCase:
    text: str
    label: GuardrailLabel
    source: str | None = None
    line: int = 0


@dataclass(frozen=True)
class AnswerCase:
    question: str
    must_include: tuple[str, ...] = ()
    must_not_include: tuple[str, ...] = ()
    thread: str | None = None
    # The question asks about something the knowledge lacks ("is there a bowling alley?"):
    # the reply passes only when it says so (`suites.states_absence`).
    absent: bool = False
    # The question's language ("en", "pl"); unset, the suite detects it (per-language figures).
    language: str | None = None
    line: int = 0


@dataclass(frozen=True)
class NoContextCase:
    """Is the question answerable from the knowledge base? (The gate should say no when not.)"""

    question: str
    answerable: bool
    language: str | None = None  # as in AnswerCase
    line: int = 0


@dataclass(frozen=True)
class ToolCase:
    """A conversation whose next step is `expected_tool` (None: ask, no tool) with these args."""

    messages: tuple[tuple[str, str], ...]  # (role, content); the last one is the user's
    user_id: str | None
    expected_tool: str | None
    expected_args: dict[str, Any]
    line: int = 0


@dataclass(frozen=True)
class SQLCase:
    """A question, the SQL that answers it, and the database both run on (`demo`, `chinook`,
    `nycflights13`)."""

    question: str
    gold_sql: str
    db: str
    tier: str | None = None
    id: str | None = None
    line: int = 0


Case = RetrievalCase | RoutingCase | GuardrailCase | AnswerCase | NoContextCase | ToolCase | SQLCase


class _RowError(ValueError):
    """What is wrong with one row; the loader adds file and line."""


def _text(row: dict[str, Any], key: str, *, required: bool = True) -> str | None:
    if key not in row or row[key] is None:
        if required:
            raise _RowError(f'missing required field "{key}"')
        return None
    value = row[key]
    if not isinstance(value, str):
        raise _RowError(f'field "{key}" must be a string, got {type(value).__name__}')
    if not value.strip():
        raise _RowError(f'field "{key}" must not be empty')
    return value


def _strings(row: dict[str, Any], key: str, *, required: bool) -> tuple[str, ...]:
    if key not in row or row[key] is None:
        if required:
            raise _RowError(f'missing required field "{key}"')
        return ()
    value = row[key]
    if not isinstance(value, list):
        raise _RowError(f'field "{key}" must be a list of strings, got {type(value).__name__}')
    for position, item in enumerate(value):
        if not isinstance(item, str) or not item.strip():
            raise _RowError(
                f'field "{key}" item {position} must be a non-empty string, got {item!r}'
            )
    return tuple(value)


def _retrieval(row: dict[str, Any], line: int) -> RetrievalCase:
    query = _text(row, "query")
    relevant = _strings(row, "relevant", required=True)
    if not relevant:
        raise _RowError('field "relevant" must name at least one item')
    return RetrievalCase(query=query or "", relevant=relevant, line=line)


def _routing(row: dict[str, Any], line: int) -> RoutingCase:
    return RoutingCase(text=_text(row, "text") or "", label=_text(row, "label") or "", line=line)


def _guardrails(row: dict[str, Any], line: int) -> GuardrailCase:
    text = _text(row, "text") or ""
    label = _text(row, "label") or ""
    if label not in GUARDRAIL_LABELS:
        raise _RowError(
            f'field "label" must be one of {", ".join(GUARDRAIL_LABELS)}; got {label!r}'
        )
    source = _text(row, "source", required=False)
    return GuardrailCase(text=text, label=label, source=source, line=line)  # type: ignore[arg-type]


def _answers(row: dict[str, Any], line: int) -> AnswerCase:
    question = _text(row, "question") or ""
    must_include = _strings(row, "must_include", required=False)
    must_not_include = _strings(row, "must_not_include", required=False)
    absent = row.get("absent", False)
    if not isinstance(absent, bool):
        raise _RowError(f'field "absent" must be true or false, got {absent!r}')
    if not must_include and not must_not_include and not absent:
        # Such a row would pass whatever the assistant says.
        raise _RowError(
            'row checks nothing: give "must_include" or "must_not_include" strings, or "absent"'
        )
    thread = row.get("thread")
    if thread is not None and (not isinstance(thread, str) or not thread.strip()):
        raise _RowError(f'field "thread" must be a non-empty string, got {thread!r}')
    return AnswerCase(
        question=question,
        must_include=must_include,
        must_not_include=must_not_include,
        thread=thread,
        absent=absent,
        language=_text(row, "language", required=False),
        line=line,
    )


def _no_context(row: dict[str, Any], line: int) -> NoContextCase:
    answerable = row.get("answerable")
    if not isinstance(answerable, bool):
        raise _RowError(f'field "answerable" must be true or false, got {answerable!r}')
    return NoContextCase(
        question=_text(row, "question") or "",
        answerable=answerable,
        language=_text(row, "language", required=False),
        line=line,
    )


def _tools(row: dict[str, Any], line: int) -> ToolCase:
    messages = row.get("messages")
    if not isinstance(messages, list) or not messages:
        raise _RowError('field "messages" must be a non-empty list of {"role", "content"}')
    pairs = []
    for message in messages:
        role = message.get("role") if isinstance(message, dict) else None
        content = message.get("content") if isinstance(message, dict) else None
        if role not in ("user", "assistant") or not isinstance(content, str) or not content:
            raise _RowError(f"each message needs role user|assistant and content: {message!r}")
        pairs.append((role, content))
    if pairs[-1][0] != "user":
        raise _RowError("the last message must be the user's")
    tool = row.get("expected_tool")
    if tool is not None and (not isinstance(tool, str) or not tool):
        raise _RowError(f'field "expected_tool" must be a tool name or null, got {tool!r}')
    args = row.get("expected_args", {})
    if not isinstance(args, dict):
        raise _RowError(f'field "expected_args" must be an object, got {args!r}')
    user_id = _text(row, "user_id", required=False)
    return ToolCase(tuple(pairs), user_id, tool, dict(args), line)


def _sql(row: dict[str, Any], line: int) -> SQLCase:
    return SQLCase(
        question=_text(row, "question") or "",
        gold_sql=_text(row, "gold_sql") or "",
        db=_text(row, "db") or "",
        tier=_text(row, "tier", required=False),
        id=_text(row, "id", required=False),
        line=line,
    )


PARSERS: dict[str, Callable[[dict[str, Any], int], Case]] = {
    "retrieval": _retrieval,
    "routing": _routing,
    "guardrails": _guardrails,
    "answers": _answers,
    "no_context": _no_context,
    "tools": _tools,
    "sql": _sql,
}


def load_dataset(suite: str, path: str | Path) -> list[Any]:
    """Read and validate the JSONL file for `suite`; returns its cases in file order."""
    if suite not in PARSERS:
        raise DatasetError(f"unknown suite {suite!r}; choose one of {', '.join(PARSERS)}")
    parse = PARSERS[suite]
    path = Path(path)
    if not path.is_file():
        raise DatasetError(f"{path}: dataset file not found")
    cases: list[Case] = []
    # Lines are decoded one by one so an encoding error can name its line; a UTF-8 BOM
    # (common from Windows editors) is dropped rather than reported as bad JSON.
    for line_number, raw in enumerate(path.read_bytes().splitlines(), start=1):
        try:
            text = raw.decode("utf-8-sig" if line_number == 1 else "utf-8")
        except UnicodeDecodeError as exc:
            raise DatasetError(f"{path}:{line_number}: not valid UTF-8 ({exc.reason})") from None
        stripped = text.strip()
        if not stripped or stripped.startswith("#"):
            continue
        try:
            row = json.loads(stripped)
        except json.JSONDecodeError as exc:
            raise DatasetError(
                f"{path}:{line_number}: invalid JSON at column {exc.colno} ({exc.msg})"
            ) from None
        if not isinstance(row, dict):
            raise DatasetError(
                f"{path}:{line_number}: expected a JSON object, got {type(row).__name__}"
            )
        try:
            cases.append(parse(row, line_number))
        except _RowError as exc:
            raise DatasetError(f"{path}:{line_number}: {exc}") from None
    if not cases:
        raise DatasetError(f"{path}: no {suite} rows (the file is empty or only comments)")
    return cases


def load_retrieval(path: str | Path) -> list[RetrievalCase]:
    return load_dataset("retrieval", path)


def load_routing(path: str | Path) -> list[RoutingCase]:
    return load_dataset("routing", path)


def load_guardrails(path: str | Path) -> list[GuardrailCase]:
    return load_dataset("guardrails", path)


def load_answers(path: str | Path) -> list[AnswerCase]:
    return load_dataset("answers", path)
