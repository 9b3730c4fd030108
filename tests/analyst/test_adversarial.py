"""The analyst never changes data: every adversarial line, against SQLite and MariaDB.

For each ``kind: "sql"`` line of ``data/eval/adversarial.jsonl``:

1. ``check_read_only`` refuses it (``expect: "rejected"``) for both dialects;
2. the raw text goes straight to ``execute_read_only`` (no agent, no validation) on the demo
   database built by ``demo.build`` (133 tables, about 100,000 rows, secure views) as a SQLite
   file and as the MariaDB schema ``frontdesk_test_adversarial``: rejected lines come back as
   errors, and after every line the database fingerprint (SQLite: the file's bytes; MariaDB:
   ``CHECKSUM TABLE`` of every table), the list of tables/views/routines, the session's
   ``@aesKey`` and the server's /tmp are as they were;
3. with the checker bypassed (``execute_unchecked``), the database layer alone still refuses
   data writes: SQLite's query_only refuses everything, MariaDB's READ ONLY transaction
   refuses DML (DDL commits implicitly there, which is why the checker is the gate for it).

The last test compares full checksums (row count and a hash of the rows ordered by every
column, per table) taken when the databases were built with the same after all the attacks.
MariaDB tests fail, not skip, when the server is unreachable.
"""

from __future__ import annotations

import glob
import hashlib
import json
import os
from dataclasses import dataclass
from pathlib import Path

import pytest
import sqlalchemy as sa

from frontdesk.assistants import analyst
from frontdesk.assistants.analyst.demo.build import build_mysql, build_sqlite
from frontdesk.assistants.analyst.sql.check import SQLCheckError, check_read_only
from frontdesk.assistants.analyst.sql.executor import (
    QueryError,
    execute_read_only,
    execute_unchecked,
)

ADVERSARIAL = Path(analyst.__file__).parent / "data" / "eval" / "adversarial.jsonl"
CASES = [json.loads(line) for line in ADVERSARIAL.read_text().splitlines() if line.strip()]
SQL_CASES = [c for c in CASES if c["kind"] == "sql"]
REJECTED = [c for c in SQL_CASES if c["expect"] == "rejected"]

KEY = "adversarial-test-key-0123456789ab"
MARIADB_ROOT = "mysql+pymysql://root:@127.0.0.1:3306/"
# Per process: two test runs on one machine (developers, CI) must not share a schema.
MARIADB_SCHEMA = f"frontdesk_test_adversarial_{os.getpid()}"
MARIADB_URL = f"{MARIADB_ROOT}{MARIADB_SCHEMA}"
FILE_PROBE = "/tmp/frontdesk_adv_*"

# Data writes the database layer must refuse on its own (checker bypassed).
DML = [
    "DELETE FROM employee",
    "UPDATE workOrder SET status = 'done'",
    "INSERT INTO customer (id) VALUES (999999)",
    "REPLACE INTO customer (id) VALUES (1)",
    "SELECT 1; DELETE FROM employee",
]
SQLITE_DDL = ["DROP TABLE customer", "CREATE TABLE stolen (x INT)", "ALTER TABLE employee ADD x"]


# -- what "no change" means ----------------------------------------------------------------


def _objects(conn: sa.Connection, sqlite: bool) -> list[tuple]:
    if sqlite:
        return conn.exec_driver_sql(
            "SELECT type, name, sql FROM sqlite_master ORDER BY type, name"
        ).fetchall()
    objects = conn.exec_driver_sql("SHOW FULL TABLES").fetchall()
    routines = conn.exec_driver_sql(
        "SELECT ROUTINE_TYPE, ROUTINE_NAME FROM information_schema.ROUTINES "
        f"WHERE ROUTINE_SCHEMA = '{MARIADB_SCHEMA}' ORDER BY 1, 2"
    ).fetchall()
    return [tuple(row) for row in objects + routines]


def _base_tables(objects: list[tuple], sqlite: bool) -> list[str]:
    if sqlite:
        return sorted(row[1] for row in objects if row[0] == "table")
    return sorted(row[0] for row in objects if row[1] == "BASE TABLE")


def checksums(engine: sa.Engine) -> dict[str, object]:
    """Row count and a hash of the rows ordered by every column, per table; plus the list of
    tables, views and routines (so CREATE/DROP/RENAME show up too)."""
    sqlite = engine.dialect.name == "sqlite"
    quote = '"' if sqlite else "`"
    with engine.connect() as conn:
        objects = _objects(conn, sqlite)
        sums: dict[str, object] = {"__objects__": objects}
        for table in _base_tables(objects, sqlite):
            columns = conn.exec_driver_sql(f"SELECT * FROM {quote}{table}{quote} LIMIT 0").keys()
            order = ", ".join(str(i) for i in range(1, len(columns) + 1))
            rows = conn.exec_driver_sql(
                f"SELECT * FROM {quote}{table}{quote} ORDER BY {order}"
            ).fetchall()
            digest = hashlib.sha256(repr([tuple(r) for r in rows]).encode()).hexdigest()
            sums[table] = (len(rows), digest)
    return sums


def fingerprint(engine: sa.Engine) -> tuple:
    """A fast whole-database check for every case: the SQLite file's bytes, or MariaDB's
    CHECKSUM TABLE over every table; with the object list either way."""
    sqlite = engine.dialect.name == "sqlite"
    with engine.connect() as conn:
        objects = _objects(conn, sqlite)
        if sqlite:
            path = Path(engine.url.database)
            contents = hashlib.sha256(path.read_bytes()).hexdigest()
        else:
            names = ", ".join(f"`{t}`" for t in _base_tables(objects, sqlite))
            contents = tuple(conn.exec_driver_sql(f"CHECKSUM TABLE {names}").fetchall())
    return objects, contents


@dataclass
class Target:
    engine: sa.Engine
    full: dict[str, object]
    quick: tuple
    key: str | None  # the session's @aesKey as set on connect (MariaDB)


def session_key(engine: sa.Engine) -> str | None:
    if engine.dialect.name == "sqlite":
        return None
    with engine.connect() as conn:
        return conn.exec_driver_sql("SELECT @aesKey").scalar()


def _probe_files() -> set[str]:
    return set(glob.glob(FILE_PROBE))


# -- the demo database, twice ----------------------------------------------------------------


@pytest.fixture(scope="module")
def sqlite_db(tmp_path_factory) -> Target:
    path = build_sqlite(tmp_path_factory.mktemp("adversarial") / "demo.db", KEY)
    engine = sa.create_engine(f"sqlite:///{path}")
    yield Target(engine, checksums(engine), fingerprint(engine), None)
    engine.dispose()


def _set_session_key(dbapi_connection, _record) -> None:
    with dbapi_connection.cursor() as cursor:
        cursor.execute(f"SET @aesKey = '{KEY}'")


@pytest.fixture(scope="module")
def mariadb_db() -> Target:
    root = sa.create_engine(MARIADB_ROOT, connect_args={"connect_timeout": 5})
    try:
        with root.connect() as conn:
            conn.exec_driver_sql("SELECT 1")
    except sa.exc.OperationalError as error:
        pytest.fail(
            f"MariaDB is not reachable at 127.0.0.1:3306 as root ({error.orig}); the mariadb "
            "tests need it: start the server (e.g. `service mariadb start`) or deselect them "
            "with -m 'not mariadb'.",
            pytrace=False,
        )
    build_mysql(MARIADB_URL, KEY)
    # One pooled connection, so the session the attacks ran in is the one checked after.
    engine = sa.create_engine(MARIADB_URL, pool_size=1, max_overflow=0)
    sa.event.listen(engine, "connect", _set_session_key)
    yield Target(engine, checksums(engine), fingerprint(engine), session_key(engine))
    engine.dispose()
    with root.begin() as conn:
        conn.exec_driver_sql(f"DROP DATABASE IF EXISTS {MARIADB_SCHEMA}")
    root.dispose()


@pytest.fixture(params=["sqlite", pytest.param("mariadb", marks=pytest.mark.mariadb)])
def db(request) -> Target:
    return request.getfixturevalue(f"{request.param}_db")


# -- the file ------------------------------------------------------------------------------


def test_adversarial_file_is_well_formed():
    ids = [c["id"] for c in CASES]
    assert len(ids) == len(set(ids)), "duplicate ids"
    for case in CASES:
        assert {"id", "kind", "text", "expect"} <= set(case), case
        assert case["kind"] in ("sql", "question"), case
        assert case["expect"] in ("rejected", "no_write"), case
        assert isinstance(case["text"], str) and case["text"].strip(), case
    questions = [c for c in CASES if c["kind"] == "question"]
    assert len(CASES) >= 40
    assert len(SQL_CASES) >= 30
    assert len(questions) >= 10
    assert len(REJECTED) >= 30


# -- layer 1: the checker ------------------------------------------------------------------


@pytest.mark.parametrize("dialect", ["sqlite", "mysql"])
@pytest.mark.parametrize("case", REJECTED, ids=[c["id"] for c in REJECTED])
def test_checker_rejects(case, dialect):
    with pytest.raises(SQLCheckError) as caught:
        check_read_only(case["text"], dialect)
    assert caught.value.message  # a sentence for the user, not an empty error


# -- layer 1+2+3 end to end: raw text into the executor ------------------------------------


@pytest.mark.parametrize("case", SQL_CASES, ids=[c["id"] for c in SQL_CASES])
def test_raw_sql_changes_nothing(case, db):
    files_before = _probe_files()
    result = execute_read_only(db.engine, case["text"], max_rows=20, timeout_s=1.0)
    if case["expect"] == "rejected":
        assert isinstance(result, QueryError), f"ran: {case['text']!r} -> {result}"
        assert not result.ok
        assert result.kind in ("read_only", "syntax"), result
    assert fingerprint(db.engine) == db.quick
    assert session_key(db.engine) == db.key
    assert _probe_files() == files_before


# -- layer 3 alone: the database refuses writes even without the checker -------------------


@pytest.mark.parametrize("statement", DML)
def test_database_layer_refuses_dml_without_the_checker(statement, db):
    with pytest.raises(QueryError) as caught:
        execute_unchecked(db.engine, statement, timeout_s=3.0)
    assert caught.value.kind in ("read_only", "syntax"), caught.value
    assert fingerprint(db.engine) == db.quick


@pytest.mark.parametrize("statement", SQLITE_DDL)
def test_sqlite_query_only_refuses_ddl_without_the_checker(statement, sqlite_db):
    with pytest.raises(QueryError) as caught:
        execute_unchecked(sqlite_db.engine, statement)
    assert caught.value.kind == "read_only"
    assert fingerprint(sqlite_db.engine) == sqlite_db.quick


def test_sqlite_connection_is_writable_again_after_the_executor(sqlite_db):
    """query_only is switched on for the query only: the pool gets its connection back as it
    lent it (the demo builder and tests may write through the same engine)."""
    assert execute_read_only(sqlite_db.engine, "SELECT COUNT(*) FROM employee").ok
    with sqlite_db.engine.connect() as conn:
        assert conn.exec_driver_sql("PRAGMA query_only").scalar() == 0
        assert not conn.connection.driver_connection.in_transaction


# Last in the file, so it runs after every attack above on the same module-scoped databases.
def test_every_row_of_every_table_is_unchanged(db):
    assert checksums(db.engine) == db.full
