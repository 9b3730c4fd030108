"""What the SQL writer is shown of a table's content, beside its columns: the few values of
status-like columns ('completed', not 'done') and up to SQL_SAMPLE_ROWS sample rows.

Pure: the queries are run by the caller (`SQLToolkit.sample`, through the checker and the
read-only executor) and the samples cached there, per table, for every caller. That is why no
personal column is ever sampled, whoever asks: not the encrypted ones (`ENCRYPTED_COLUMNS`),
nor those personal, secret or free text by their names, which a database without secure views
keeps in clear; the model may copy what it reads into SQL the user sees.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from sqlglot import exp

from frontdesk.assistants.analyst.db.secure_views import ENCRYPTED_COLUMNS
from frontdesk.assistants.analyst.sql_agent.answers import screened_cell

# Columns whose few distinct values the SQL writer must spell exactly ('completed', not 'done').
ENUM_HINTS = ("status", "type", "priority", "category", "state", "role", "kind", "level")
MAX_ENUM_VALUES = 8
MAX_ENUM_CHARS = 30
# Sample rows: each value cut to this many characters, a row's line to SAMPLE_ROW_CHARS, all
# rows of one schema text to SAMPLE_PROMPT_CHARS (its first tables get theirs first).
SAMPLE_VALUE_CHARS = 24
SAMPLE_ROW_CHARS = 200
SAMPLE_PROMPT_CHARS = 1500
# Never sampled, even when status-like (`maritalStatus`): special categories of personal data.
_SENSITIVE_COLUMN = re.compile(
    r"gender|sex|marital|ethnic|race|religio|nationality|disabilit|medical|health|diagnos",
    re.IGNORECASE,
)
# Never sampled unless status-like (`emailType`): personal, secret or free text by the name.
_PERSONAL_COLUMN = re.compile(
    r"e-?mail|phone|mobile|fax|address|street|zip|postcode|postal|latitude|longitude|geo|gps"
    r"|birth|ssn|passport|licen[cs]e|salary|password|passwd|secret|token|credential|user_?agent"
    r"|note|comment|description|instruction|message|subject|body|remark"
    r"|(?:first|last|full|middle|given|family|sur|maiden|contact|user|display|nick)_?name",
    re.IGNORECASE,
)
# A table of people, by the last word of its name (`customerContact`, `tbl_users`): its `name`
# is a person's.
_PEOPLE = frozenset(
    re.findall(
        r"\w+",
        "customer client employee staff user person people contact member patient student driver "
        "technician worker",
    )
)
_NAME_WORD = re.compile(r"[A-Z]?[a-z]+|[A-Z]+(?![a-z])")

Rows = tuple[tuple[tuple[str, str], ...], ...]
# Runs one sample query: its column names and rows, or None when it failed.
Query = Callable[[str], tuple[list[str], list[tuple]] | None]


@dataclass(frozen=True)
class TableSample:
    """The values of a table's status-like columns (`status: 'open' | 'completed'`) and its
    sample rows as (column, value as shown) pairs, NULLs left out."""

    values: str = ""
    rows: Rows = ()


def may_sample(table: str, column: str) -> bool:
    """Not encrypted nor sensitive; status-like, or else not personal, secret or free text by
    its name and not the `name` of a table of people."""
    if column in ENCRYPTED_COLUMNS.get(table, ()) or _SENSITIVE_COLUMN.search(column):
        return False
    if is_enum_like(column):
        return True
    if _PERSONAL_COLUMN.search(column):
        return False
    return column.lower() != "name" or not _people_table(table)


def is_enum_like(column: str) -> bool:
    return any(word in column.lower() for word in ENUM_HINTS)


def take_sample(
    table: str, columns: Sequence[str], *, rows: int, width: int, dialect: str, query: Query
) -> TableSample:
    """The values of the status-like columns (one query each) and `rows` rows of the first
    `width` columns that may be sampled (one query); a query that fails leaves its part out."""
    hints = []
    for column in columns:
        if not is_enum_like(column) or column.lower().endswith("id"):
            continue
        if not may_sample(table, column):
            continue
        sql = f"SELECT DISTINCT {column} FROM {table} ORDER BY 1 LIMIT {MAX_ENUM_VALUES + 1}"
        found = query(sql)
        values = [str(row[0]) for row in found[1] if row[0] is not None] if found else []
        if 0 < len(values) <= MAX_ENUM_VALUES and all(len(v) <= MAX_ENUM_CHARS for v in values):
            hints.append(f"{column}: " + " | ".join(f"'{v}'" for v in values))
    sampled = [c for c in columns if may_sample(table, c)][:width]
    found = None
    if rows > 0 and sampled:
        select = exp.select(*(exp.column(c, quoted=True) for c in sampled))
        found = query(select.from_(exp.table_(table, quoted=True)).limit(rows).sql(dialect))
    shown: Rows = ()
    if found:
        names, values = found
        shown = tuple(
            tuple((c, s) for c, v in zip(names, row, strict=False) if (s := _shown(v)))
            for row in values[:rows]
        )
    return TableSample("; ".join(hints), shown)


def sample_lines(sample: TableSample, columns: Sequence[str], budget: int) -> tuple[list[str], int]:
    """The lines under a table's `table(col, ...)` line: its values, then its rows over
    `columns` while `budget` characters last; and the budget left."""
    lines = [f"  values: {sample.values}"] if sample.values else []
    shown = set(columns)
    for row in sample.rows:
        text = _row_text(row, shown)
        if len(text) > budget:
            return lines, 0
        if text:
            budget -= len(text)
            lines.append(f"  row: {text}")
    return lines, budget


def _people_table(table: str) -> bool:
    words = _NAME_WORD.findall(table)
    return bool(words) and words[-1].lower().removesuffix("s") in _PEOPLE


def _shown(value: Any) -> str:
    """A sample value as the SQL writer reads it: screened, on one line, cut to
    SAMPLE_VALUE_CHARS, strings quoted; "" for NULL and binary data (never shown)."""
    if value is None or (isinstance(value, str) and value.startswith("<binary ")):
        return ""
    text = " ".join(screened_cell(value).split())
    if len(text) > SAMPLE_VALUE_CHARS:
        text = text[: SAMPLE_VALUE_CHARS - 1].rstrip() + "…"
    return f"'{text}'" if isinstance(value, str) else text


def _row_text(row: tuple[tuple[str, str], ...], columns: set[str]) -> str:
    """`col=value, ...` for the columns shown, cut to SAMPLE_ROW_CHARS."""
    text = ""
    for column, value in row:
        if column not in columns:
            continue
        pair = f"{', ' if text else ''}{column}={value}"
        if len(text) + len(pair) > SAMPLE_ROW_CHARS:
            return text + ", …"
        text += pair
    return text
