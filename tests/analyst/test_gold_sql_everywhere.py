"""The SQL checks never change what a valid query means, on any database the analyst serves.

Every gold query of the public sets (nycflights13, vendored; Chinook, when the shared
datasets are beside the checkout) runs unchecked on SQLite, the dialect it was written for,
and through the checks (`sql.check.prepare`: names respelled and quoted, limits, dialect
translation) on SQLite, MariaDB and PostgreSQL. The rows must be the same multiset. The three
databases hold the same sample of the data: every table copied whole, capped at SAMPLE_ROWS
rows, with the tables' own mixed-case names (Chinook's "Album", "InvoiceLine").

A gold query that uses SQLite's own functions (strftime, julianday, ||) is not valid SQL on
the other two: it is checked on SQLite only (`portable`).
"""

from __future__ import annotations

import os
import sqlite3
from pathlib import Path

import pytest
import sqlalchemy as sa

from frontdesk.assistants.analyst.sample_databases import build_nycflights13
from frontdesk.assistants.analyst.sql import check as sqlcheck
from frontdesk.eval.sql_suite import results_match

from .test_gold_sql import CHINOOK, CHINOOK_DB, NOT_PORTABLE, NYCFLIGHTS13

SAMPLE_ROWS = 3000
MAX_ROWS = 1000
SUFFIX = f"gold_{os.getpid()}"
SERVERS = {
    "postgres": "postgresql+psycopg://postgres@127.0.0.1:5432",
    "mysql": "mysql+pymysql://root:@127.0.0.1:3306",
}


def sample(source: Path, target: Path) -> None:
    """The first SAMPLE_ROWS rows of every table of `source`, into a new SQLite file."""
    with sqlite3.connect(source) as read, sqlite3.connect(target) as write:
        tables = [r[0] for r in read.execute(
            "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'")]  # fmt: skip
        for table in tables:
            (ddl,) = read.execute("SELECT sql FROM sqlite_master WHERE name = ?", (table,)).fetchone()
            write.execute(ddl)
            rows = read.execute(f'SELECT * FROM "{table}" LIMIT {SAMPLE_ROWS}').fetchall()
            if rows:
                marks = ", ".join("?" * len(rows[0]))
                write.executemany(f'INSERT INTO "{table}" VALUES ({marks})', rows)


def copy_to(lite: sa.Engine, url: str) -> None:
    """The SQLite sample's tables, names and rows as they are, into the server's database
    (no keys: the gold queries only read)."""
    meta = sa.MetaData()
    meta.reflect(lite)
    for table in meta.tables.values():
        table.constraints = {c for c in table.constraints if isinstance(c, sa.PrimaryKeyConstraint)}
        for column in table.columns:
            column.server_default = None
            if isinstance(column.type, sa.String | sa.Text) or repr(column.type) == "NVARCHAR()":
                # SQLite's unbounded text; MariaDB keys want a length.
                column.type = sa.String(191) if column.primary_key else sa.Text()
            elif isinstance(column.type, sa.DateTime):
                column.type = sa.DateTime()  # SQLite's DATETIME is PostgreSQL's TIMESTAMP
            elif isinstance(column.type, sa.Numeric) and not isinstance(column.type, sa.Float):
                column.type = sa.Numeric(20, 6)
    server = sa.create_engine(url)
    try:
        meta.create_all(server)
        with lite.connect() as read, server.begin() as write:
            for table in meta.sorted_tables:
                rows = [dict(r._mapping) for r in read.execute(sa.select(table))]
                if rows:
                    write.execute(table.insert(), rows)
    finally:
        server.dispose()


@pytest.fixture(scope="module")
def servers():
    """A database of our own on each server, dropped at the end."""
    made: dict[str, str] = {}
    for dialect, server in SERVERS.items():
        admin_url = f"{server}/postgres" if dialect == "postgres" else server
        admin = sa.create_engine(admin_url, isolation_level="AUTOCOMMIT",
                                 connect_args={"connect_timeout": 3})  # fmt: skip
        try:
            with admin.connect() as conn:
                for name in ("nycflights13", "chinook"):
                    db = f"{name}_{SUFFIX}"
                    conn.execute(sa.text(f"DROP DATABASE IF EXISTS {db}"))
                    conn.execute(sa.text(f"CREATE DATABASE {db}"))
                    made[f"{dialect}:{name}"] = f"{server}/{db}"
        except sa.exc.OperationalError as exc:
            pytest.fail(f"{dialect} at {server} is unreachable: {exc.orig}", pytrace=False)
        finally:
            admin.dispose()
    yield made
    for dialect, server in SERVERS.items():
        admin_url = f"{server}/postgres" if dialect == "postgres" else server
        admin = sa.create_engine(admin_url, isolation_level="AUTOCOMMIT")
        with admin.connect() as conn:
            for name in ("nycflights13", "chinook"):
                force = " WITH (FORCE)" if dialect == "postgres" else ""
                conn.execute(sa.text(f"DROP DATABASE IF EXISTS {name}_{SUFFIX}{force}"))
        admin.dispose()


def databases(name: str, source: Path, tmp: Path, servers: dict[str, str]) -> dict[str, sa.Engine]:
    path = tmp / f"{name}.sqlite"
    sample(source, path)
    engines = {"sqlite": sa.create_engine(f"sqlite:///{path}")}
    for dialect in SERVERS:
        copy_to(engines["sqlite"], servers[f"{dialect}:{name}"])
        engines[dialect] = sa.create_engine(servers[f"{dialect}:{name}"])
    return engines


@pytest.fixture(scope="module")
def nycflights13(tmp_path_factory, servers):
    tmp = tmp_path_factory.mktemp("everywhere")
    engines = databases("nycflights13", build_nycflights13(tmp / "full.sqlite"), tmp, servers)
    yield engines
    for engine in engines.values():
        engine.dispose()


@pytest.fixture(scope="module")
def chinook(tmp_path_factory, servers):
    if not CHINOOK_DB.exists():
        pytest.skip(f"the Chinook sample is not beside the checkout ({CHINOOK_DB})")
    engines = databases("chinook", CHINOOK_DB, tmp_path_factory.mktemp("everywhere"), servers)
    yield engines
    for engine in engines.values():
        engine.dispose()


def catalog_of(engine: sa.Engine) -> sqlcheck.SchemaCatalog:
    inspector = sa.inspect(engine)
    return sqlcheck.SchemaCatalog({name: [c["name"] for c in inspector.get_columns(name)]
                                   for name in inspector.get_table_names()})  # fmt: skip


def rows(engine: sa.Engine, sql: str) -> list[tuple]:
    with engine.connect() as conn:
        return [tuple(row) for row in conn.execute(sa.text(sql.replace(":", r"\:")))]


def same_everywhere(engines: dict[str, sa.Engine], gold: str) -> None:
    expected = rows(engines["sqlite"], gold)
    dialects = ("sqlite", *SERVERS) if not NOT_PORTABLE.search(gold) else ("sqlite",)
    for dialect in dialects:
        engine = engines[dialect]
        checked = sqlcheck.prepare(gold, dialect=dialect, catalog=catalog_of(engine),
                                   max_rows=MAX_ROWS)  # fmt: skip
        got = rows(engine, checked)
        assert results_match(got, expected, ordered=False), (dialect, checked, got[:3], expected[:3])


@pytest.mark.postgres
@pytest.mark.mariadb
@pytest.mark.parametrize("row", NYCFLIGHTS13, ids=[r["id"] for r in NYCFLIGHTS13])
def test_nycflights13_gold_means_the_same_checked_on_every_database(row, nycflights13):
    same_everywhere(nycflights13, row["gold_sql"])


@pytest.mark.postgres
@pytest.mark.mariadb
@pytest.mark.parametrize("row", CHINOOK, ids=[r["id"] for r in CHINOOK])
def test_chinook_gold_means_the_same_checked_on_every_database(row, chinook):
    same_everywhere(chinook, row["gold_sql"])
