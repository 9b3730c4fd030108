"""The vocabulary the demo schema is written in: `Column`, `Table` and small constructors.

Types are dialect-neutral strings (`INTEGER`, `VARCHAR(n)`, `TEXT`, `DECIMAL(p,s)`, `DATE`,
`DATETIME`, `TIME`, `BOOLEAN`); `build.py` maps them to SQLite and MariaDB. An encrypted column
keeps its logical (decrypted) type here: the secure view shows it that way, and the builder
stores it as BLOB/VARBINARY (see `db.secure_views.ENCRYPTED_COLUMNS`).

A relationship column names its true target in `references`; `declared_fk` says whether the
database carries a FOREIGN KEY constraint for it or the link can only be inferred from naming.
"""

from __future__ import annotations

from dataclasses import dataclass

INT = "INTEGER"
TEXT = "TEXT"
DATE = "DATE"
DATETIME = "DATETIME"
TIME = "TIME"
BOOL = "BOOLEAN"
MONEY = "DECIMAL(10,2)"


def vc(length: int) -> str:
    return f"VARCHAR({length})"


def dec(precision: int, scale: int) -> str:
    return f"DECIMAL({precision},{scale})"


@dataclass(frozen=True)
class Column:
    name: str
    type: str
    nullable: bool = True
    description: str = ""
    references: tuple[str, str] | None = None
    declared_fk: bool = False


@dataclass(frozen=True)
class Table:
    name: str
    columns: tuple[Column, ...]
    description: str

    @property
    def column_names(self) -> tuple[str, ...]:
        return tuple(column.name for column in self.columns)

    def column(self, name: str) -> Column:
        for column in self.columns:
            if column.name == name:
                return column
        raise KeyError(f"{self.name}.{name}")


def col(name: str, type_: str, description: str = "", *, nullable: bool = True) -> Column:
    return Column(name, type_, nullable, description)


def req(name: str, type_: str, description: str = "") -> Column:
    """A NOT NULL column."""
    return Column(name, type_, False, description)


def ref(
    name: str,
    target: str,
    description: str = "",
    *,
    declared: bool = True,
    nullable: bool = True,
) -> Column:
    """An integer column pointing at `target.id`, with or without a declared FOREIGN KEY."""
    return Column(name, INT, nullable, description, (target, "id"), declared)


def created(description: str = "When the row was created") -> Column:
    return Column("createdAt", DATETIME, False, description)


def table(name: str, description: str, *columns: Column) -> Table:
    """A table whose first column is the integer primary key `id`."""
    key = Column("id", INT, False, f"Primary key of {name}")
    return Table(name, (key, *columns), description)
