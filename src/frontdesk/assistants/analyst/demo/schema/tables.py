"""The demo field-service database ("crewos"), described as data.

The analyst's tools need the schema without a database at hand: the embedding pre-filter
reads the descriptions, the join-path planner and its tests compare inferred relationships
with the truth recorded here, and `build.py` turns the same definitions into SQLite and
MariaDB DDL. Table and column names are camelCase, as in the system the demo imitates.

Relationship columns (`references`) point at `<table>.id`. Most carry a FOREIGN KEY; about a
quarter do not (`declared_fk=False`) and must be inferred from naming, as in real legacy
databases: plain `<entity>Id` columns, and role names naming alone cannot resolve
(`createdBy` -> user, `assignedToId` -> employee on workOrder but user on ticket,
`parentWorkOrderId` -> workOrder).

Encrypted PII columns keep their logical text type here; see `db.secure_views.ENCRYPTED_COLUMNS`.
"""

from __future__ import annotations

from frontdesk.assistants.analyst.db.secure_views import ENCRYPTED_COLUMNS, is_encrypted
from frontdesk.assistants.analyst.demo.schema import (
    assets,
    customers,
    finance,
    people,
    work,
)
from frontdesk.assistants.analyst.demo.schema.model import Column, Table

__all__ = [
    "TABLES",
    "TABLE_BY_NAME",
    "Column",
    "Table",
    "column_descriptions",
    "encrypted_columns",
    "is_encrypted",
    "relationship_truth",
    "table_descriptions",
]

TABLES: tuple[Table, ...] = (
    *people.TABLES,
    *customers.TABLES,
    *work.TABLES,
    *assets.TABLES,
    *finance.TABLES,
)
TABLE_BY_NAME: dict[str, Table] = {t.name: t for t in TABLES}


def table_descriptions() -> dict[str, str]:
    """Table name -> one-line English description, for every table."""
    return {t.name: t.description for t in TABLES}


def column_descriptions() -> dict[str, dict[str, str]]:
    """Table name -> {column: description} for the columns that have one."""
    return {t.name: {c.name: c.description for c in t.columns if c.description} for t in TABLES}


def encrypted_columns() -> dict[str, tuple[str, ...]]:
    return dict(ENCRYPTED_COLUMNS)


def relationship_truth() -> list[dict]:
    """Every relationship column with its true target and whether a FOREIGN KEY declares it."""
    return [
        {
            "from_table": t.name,
            "from_column": c.name,
            "to_table": c.references[0],
            "to_column": c.references[1],
            "declared": c.declared_fk,
        }
        for t in TABLES
        for c in t.columns
        if c.references is not None
    ]


def _validate() -> None:
    # Cheap import-time checks: a typo here would silently break DDL or the ground truth.
    if len(TABLE_BY_NAME) != len(TABLES):
        raise ValueError("duplicate table names in the demo schema")
    for t in TABLES:
        names = t.column_names
        if names[0] != "id" or len(set(names)) != len(names):
            raise ValueError(f"{t.name}: must start with id and have unique column names")
        for c in t.columns:
            if c.references and c.references[0] not in TABLE_BY_NAME:
                raise ValueError(f"{t.name}.{c.name} references unknown {c.references[0]}")
    for table_name, columns in ENCRYPTED_COLUMNS.items():
        missing = set(columns) - set(TABLE_BY_NAME[table_name].column_names)
        if missing:
            raise ValueError(f"{table_name}: encrypted columns {missing} not in the schema")


_validate()
