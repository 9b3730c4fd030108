"""The join graph: which tables join on which columns, as handed to the SQL analyst.

A text-to-SQL agent over 120+ tables cannot guess joins reliably, so the joins are computed
ahead of time (`build.build_join_graph`) and handed to it (see
`paths.JoinPathFinder`). This module holds what that graph is: `TableInfo`,
`Relationship` (type `foreign_key`, `manual` or `inferred`, with a confidence) and `JoinGraph`,
with their JSON form, the seed's `join_graph_validated.json` format (`JoinGraph.to_dict`).
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

FORMAT_VERSION = 1
REL_TYPES = ("foreign_key", "manual", "inferred")
_REL_FIELDS = ("from_table", "from_column", "to_table", "to_column")


@dataclass(frozen=True)
class TableInfo:
    """A table's columns, its single-column unique keys and its primary key (in key order).

    `no_transit`: join paths may end at this table but never pass through it (an audit
    `user` table that every `createdBy` points at would otherwise join anything to anything).
    """

    columns: tuple[str, ...]
    unique_columns: tuple[str, ...] = ()
    primary_key: tuple[str, ...] = ()
    no_transit: bool = False

    def __post_init__(self) -> None:
        for name in ("columns", "unique_columns", "primary_key"):
            object.__setattr__(self, name, tuple(getattr(self, name)))

    def to_dict(self) -> dict[str, Any]:
        data: dict[str, Any] = {
            "columns": list(self.columns),
            "unique_columns": list(self.unique_columns),
        }
        if self.primary_key:
            data["primary_key"] = list(self.primary_key)
        if self.no_transit:
            data["no_transit"] = True
        return data

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> TableInfo:
        keys = data.get("unique_columns", ()), data.get("primary_key", ())
        return cls(data["columns"], *keys, bool(data.get("no_transit", False)))


@dataclass(frozen=True)
class Relationship:
    """`from_table.from_column = to_table.to_column`; joinable in either direction."""

    from_table: str
    from_column: str
    to_table: str
    to_column: str
    type: str = "foreign_key"
    confidence: float = 1.0
    cardinality: str = "N:1"

    def __post_init__(self) -> None:
        if self.type not in REL_TYPES:
            raise ValueError(f"relationship type must be one of {REL_TYPES}, got {self.type!r}")
        if not 0.0 < self.confidence <= 1.0:
            raise ValueError(f"confidence must be in (0, 1], got {self.confidence!r}")

    @property
    def key(self) -> tuple[str, str, str, str]:
        return (self.from_table, self.from_column, self.to_table, self.to_column)

    @property
    def pair_key(self) -> tuple[tuple[str, str], tuple[str, str]]:
        """The two column endpoints, orientation-free: `a = b` and `b = a` are one join."""
        a, b = (self.from_table, self.from_column), (self.to_table, self.to_column)
        return (a, b) if a <= b else (b, a)

    def describe(self) -> str:
        return f"{self.from_table}.{self.from_column} -> {self.to_table}.{self.to_column}"

    def to_dict(self) -> dict[str, Any]:
        return {
            "from_table": self.from_table,
            "from_column": self.from_column,
            "to_table": self.to_table,
            "to_column": self.to_column,
            "type": self.type,
            "confidence": round(self.confidence, 4),
            "cardinality": self.cardinality,
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Relationship:
        missing = [f for f in _REL_FIELDS if not data.get(f)]
        if missing:
            raise ValueError(f"relationship {dict(data)!r} lacks {', '.join(missing)}")
        return cls(
            *(str(data[f]) for f in _REL_FIELDS),
            type=data.get("type", "foreign_key"),
            confidence=float(data.get("confidence", 1.0)),
            cardinality=data.get("cardinality", "N:1"),
        )


@dataclass
class JoinGraph:
    """Tables (logical names) and the relationships between them; JSON round-trips."""

    tables: dict[str, TableInfo]
    relationships: list[Relationship]
    version: int = FORMAT_VERSION

    def columns_of(self, table: str) -> list[str]:
        try:
            return list(self.tables[table].columns)
        except KeyError:
            raise KeyError(f"unknown table {table!r} in the join graph") from None

    def relationships_of(self, table: str) -> list[Relationship]:
        return [r for r in self.relationships if table in (r.from_table, r.to_table)]

    def to_dict(self) -> dict[str, Any]:
        return {
            "version": self.version,
            "tables": {name: info.to_dict() for name, info in sorted(self.tables.items())},
            "relationships": [r.to_dict() for r in self.relationships],
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> JoinGraph:
        version = data.get("version", FORMAT_VERSION)
        if version != FORMAT_VERSION:
            raise ValueError(f"unsupported join graph version {version!r} (expected 1)")
        tables = {name: TableInfo.from_dict(t) for name, t in data.get("tables", {}).items()}
        rels = [Relationship.from_dict(r) for r in data.get("relationships", [])]
        return cls(tables, rels, version)

    def save(self, path: str | Path) -> Path:
        path = Path(path)
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(json.dumps(self.to_dict(), indent=2) + "\n", encoding="utf-8")
        return path

    @classmethod
    def load(cls, path: str | Path) -> JoinGraph:
        return cls.from_dict(json.loads(Path(path).read_text(encoding="utf-8")))


def cardinality(tables: Mapping[str, TableInfo], ft: str, fc: str, tt: str, tc: str) -> str:
    """`N:1` when only the target column is unique, `1:1` when both are, `N:M` when neither."""
    from_unique = fc in tables[ft].unique_columns if ft in tables else False
    to_unique = tc in tables[tt].unique_columns if tt in tables else False
    return {
        (True, True): "1:1",
        (False, True): "N:1",
        (True, False): "1:N",
        (False, False): "N:M",
    }[(from_unique, to_unique)]


def _sorted(rels: Iterable[Relationship]) -> list[Relationship]:
    return sorted(rels, key=lambda r: r.key)
