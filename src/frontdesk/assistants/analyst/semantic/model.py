"""The semantic file's format, and reading it against the database it describes.

```yaml
tables:
  workOrder:
    description: Jobs done for customers, from request to invoice.
    columns:
      status: "open | scheduled | in_progress | on_hold | completed | cancelled"
  user:
    no_transit: true      # join paths must not pass through it
  audit_log:
    hidden: true          # never offered to the SQL writer
joins:
  add:
    - {from: workOrder.assignedToId, to: employee.id, confidence: 0.8}
  remove:
    - {from: invoice.createdBy, to: user.id}
examples:
  - question: How many technicians are active?
    sql: SELECT COUNT(*) AS technicians FROM employee WHERE isTechnician = 1 AND isActive = 1
```

`load_semantic` checks every name against the database's catalog and every example's SQL
with the same checks as the model's SQL, and reports all problems at once, with where they
are, as one `SemanticFileError` (a message for the person editing the file).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path

import yaml
from pydantic import BaseModel, ConfigDict, Field, ValidationError

from frontdesk.assistants.analyst.joins.build import ManualOverrides
from frontdesk.assistants.analyst.joins.graph import Relationship
from frontdesk.assistants.analyst.sql import check as sqlcheck
from frontdesk.errors import FrontdeskError

MAX_SHOWN_PROBLEMS = 10


class SemanticFileError(FrontdeskError):
    """The semantic file cannot be used; the message lists what to fix, and where."""


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", populate_by_name=True)


class TableNote(_Strict):
    description: str = ""
    columns: dict[str, str] = Field(default_factory=dict)
    hidden: bool = False
    no_transit: bool = False


class JoinNote(_Strict):
    from_: str = Field(alias="from", pattern=r"^[^.\s]+\.[^.\s]+$")
    to: str = Field(pattern=r"^[^.\s]+\.[^.\s]+$")
    confidence: float = Field(0.9, ge=0.0, le=1.0)


class JoinsNote(_Strict):
    add: list[JoinNote] = Field(default_factory=list)
    remove: list[JoinNote] = Field(default_factory=list)


class Example(_Strict):
    question: str = Field(min_length=3)
    sql: str = Field(min_length=6)


class SemanticFile(_Strict):
    version: int = 1
    tables: dict[str, TableNote] = Field(default_factory=dict)
    joins: JoinsNote = Field(default_factory=JoinsNote)
    examples: list[Example] = Field(default_factory=list)


@dataclass(frozen=True)
class SemanticLayer:
    """A checked semantic file, in the database's own spelling of every name."""

    descriptions: dict[str, str] = field(default_factory=dict)
    column_notes: dict[str, dict[str, str]] = field(default_factory=dict)
    overrides: ManualOverrides = field(default_factory=ManualOverrides)
    examples: tuple[Example, ...] = ()
    path: Path | None = None


def read_semantic(path: Path) -> SemanticFile:
    """Parse the file's YAML and shape, or SemanticFileError saying where it is wrong."""
    try:
        data = yaml.safe_load(path.read_text(encoding="utf-8")) or {}
    except OSError as exc:
        raise SemanticFileError(f"{path}: cannot be read ({exc.strerror})") from None
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        where = f"line {mark.line + 1}, column {mark.column + 1}: " if mark else ""
        problem = getattr(exc, "problem", None) or str(exc).splitlines()[0]
        raise SemanticFileError(f"{path}: not valid YAML ({where}{problem})") from None
    if not isinstance(data, dict):
        raise SemanticFileError(f"{path}: expected a mapping with tables, joins and examples")
    try:
        return SemanticFile.model_validate(data)
    except ValidationError as exc:
        problems = [
            f"{'.'.join(str(p) for p in error['loc'])}: {error['msg']}" for error in exc.errors()
        ]
        raise SemanticFileError(_listing(path, problems)) from None


def load_semantic(
    path: Path,
    catalog: sqlcheck.SchemaCatalog,
    dialect: sqlcheck.Dialect,
    secure_map: Mapping[str, str] | None = None,
) -> SemanticLayer:
    """Read and check the file against the database; every problem in one SemanticFileError."""
    parsed = read_semantic(path)
    problems: list[str] = []
    descriptions: dict[str, str] = {}
    notes: dict[str, dict[str, str]] = {}
    hidden, no_transit = set(), set()
    for name, note in parsed.tables.items():
        table = _table(catalog, name, f"tables.{name}", problems)
        if table is None:
            continue
        if note.description.strip():
            descriptions[table] = note.description.strip()
        for column, text in note.columns.items():
            real = catalog.column(table, column)
            if real is None:
                problems.append(f"tables.{name}.columns.{column}: {table} has no such column")
            elif text.strip():
                notes.setdefault(table, {})[real] = text.strip()
        if note.hidden:
            hidden.add(table)
        if note.no_transit:
            no_transit.add(table)
    add = [
        rel
        for i, join in enumerate(parsed.joins.add)
        if (rel := _relationship(catalog, join, f"joins.add[{i}]", problems)) is not None
    ]
    remove = [
        dict(zip(("from_table", "from_column", "to_table", "to_column"), rel.key, strict=True))
        for i, join in enumerate(parsed.joins.remove)
        if (rel := _relationship(catalog, join, f"joins.remove[{i}]", problems)) is not None
    ]
    for i, example in enumerate(parsed.examples):
        checked = sqlcheck.validate(example.sql, catalog, dialect, secure_map=secure_map)
        if not checked.ok:
            problems.append(f"examples[{i}] ({example.question[:60]}): {checked.errors[0]}")
    if problems:
        raise SemanticFileError(_listing(path, problems))
    return SemanticLayer(
        descriptions=descriptions,
        column_notes=notes,
        overrides=ManualOverrides(
            tuple(add), tuple(remove), frozenset(hidden), frozenset(no_transit)
        ),
        examples=tuple(parsed.examples),
        path=path,
    )


def _table(catalog, name: str, where: str, problems: list[str]) -> str | None:
    table = catalog.table(name)
    if table is None:
        close = catalog.suggest_table(name)
        hint = f" (did you mean {close[0]}?)" if close else ""
        problems.append(f"{where}: the database has no table '{name}'{hint}")
    return table


def _endpoint(catalog, text: str, where: str, problems: list[str]) -> tuple[str, str] | None:
    name, column = text.split(".", 1)
    table = _table(catalog, name, where, problems)
    if table is None:
        return None
    real = catalog.column(table, column)
    if real is None:
        problems.append(f"{where}: {table} has no column '{column}'")
        return None
    return table, real


def _relationship(catalog, join: JoinNote, where: str, problems: list[str]) -> Relationship | None:
    start = _endpoint(catalog, join.from_, f"{where}.from", problems)
    end = _endpoint(catalog, join.to, f"{where}.to", problems)
    if start is None or end is None:
        return None
    return Relationship.from_dict(
        {
            "from_table": start[0],
            "from_column": start[1],
            "to_table": end[0],
            "to_column": end[1],
            "confidence": join.confidence,
            "type": "manual",
            "cardinality": "",
        }
    )


def _listing(path: Path, problems: list[str]) -> str:
    shown = problems[:MAX_SHOWN_PROBLEMS]
    more = len(problems) - len(shown)
    tail = f"\n  ... and {more} more" if more > 0 else ""
    return f"{path}: {len(problems)} problem(s) to fix:\n  " + "\n  ".join(shown) + tail
