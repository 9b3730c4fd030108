"""The demo database and the analyst on a real PostgreSQL (127.0.0.1:5432, user postgres, trust).

Proves on the server what the SQLite tests cannot: the pgcrypto views decrypt Python's
ciphertext with the session key (and answer NULL, not an error, without it), every gold SQL of
the demo eval set gives the same rows as on SQLite once the checker respells names for
PostgreSQL's case rules, READ ONLY transactions and the statement timeout hold on their own,
and the agent answers through the secure views. Builds its own database, dropped at the end.
An unreachable server is a failure, not a skip.
"""

from __future__ import annotations

import json
import math
import os
from decimal import Decimal
from pathlib import Path

import pytest
from sqlalchemy import create_engine, text
from sqlalchemy.exc import OperationalError

from frontdesk.assistants.analyst.db.engine import checksums, open_engine
from frontdesk.assistants.analyst.db.secure_views import ENCRYPTED_COLUMNS, SECURE_VIEW_MAP
from frontdesk.assistants.analyst.demo.build import build_postgres, build_sqlite
from frontdesk.assistants.analyst.demo.data.generate import generate
from frontdesk.assistants.analyst.demo.schema.tables import TABLES
from frontdesk.assistants.analyst.sql import check as sqlcheck
from frontdesk.assistants.analyst.sql.executor import execute_read_only, execute_unchecked

pytestmark = pytest.mark.postgres

SERVER = "postgresql+psycopg://postgres@127.0.0.1:5432"
# Per process: two test runs on one machine (developers, CI) must not share a database.
DATABASE = f"frontdesk_test_demo_{os.getpid()}"
URL = f"{SERVER}/{DATABASE}"
KEY = "frontdesk-test-key-2024"
GOLD = Path(__file__).resolve().parents[2] / "src/frontdesk/assistants/analyst/data/eval/sql.jsonl"
CATALOG = sqlcheck.SchemaCatalog({t.name: list(t.column_names) for t in TABLES})


def _admin():
    return create_engine(
        f"{SERVER}/postgres", isolation_level="AUTOCOMMIT", connect_args={"connect_timeout": 3}
    )


@pytest.fixture(scope="module")
def built():
    admin = _admin()
    try:
        with admin.connect() as conn:
            conn.execute(text("SELECT 1"))
    except OperationalError as exc:
        pytest.fail(
            f"PostgreSQL at 127.0.0.1:5432 (user postgres) is unreachable: {exc.orig}. Start it, "
            "or deselect these tests with -m 'not postgres'.",
            pytrace=False,
        )
    build_postgres(URL, KEY)
    yield URL
    with admin.connect() as conn:
        conn.execute(text(f'DROP DATABASE IF EXISTS "{DATABASE}" WITH (FORCE)'))
    admin.dispose()


@pytest.fixture(scope="module")
def engine(built):
    engine = open_engine(built, KEY, read_only=True)
    yield engine
    engine.dispose()


@pytest.fixture(scope="module")
def sqlite_engine(tmp_path_factory):
    path = build_sqlite(tmp_path_factory.mktemp("pg") / "crewos.db", KEY)
    engine = open_engine(f"sqlite:///{path}", KEY, read_only=True)
    yield engine
    engine.dispose()


def test_secure_views_decrypt_python_ciphertext_with_the_session_key(engine):
    rows = generate()
    with engine.connect() as conn:
        for table, view in SECURE_VIEW_MAP.items():
            seen = [
                dict(r._mapping) for r in conn.execute(text(f"SELECT * FROM {view} ORDER BY id"))
            ]
            assert len(seen) == len(rows[table])
            for plain, row in zip(rows[table], seen, strict=True):
                for column in ENCRYPTED_COLUMNS[table]:
                    assert row[column] == plain[column], (table, column, plain["id"])


def test_views_without_or_with_a_wrong_key_read_null_not_an_error(built):
    plain = create_engine(built)  # no frontdesk.aes_key on these connections
    wrong = open_engine(built, "not-the-key", read_only=True)
    for engine in (plain, wrong):
        with engine.connect() as conn:
            emails = conn.execute(text("SELECT DISTINCT email FROM secure_user")).scalars().all()
        assert emails == [None]
        engine.dispose()


def _normal(value):
    if isinstance(value, (float, Decimal)) or (isinstance(value, str) and _is_number(value)):
        number = float(value)
        return round(number, 2) if math.isfinite(number) else str(value)
    return value


def _is_number(text_value: str) -> bool:
    try:
        float(text_value)
    except ValueError:
        return False
    return True


def _rows(engine, sql: str, dialect: str) -> list[tuple]:
    prepared = sqlcheck.prepare(sql, dialect=dialect, secure_map=SECURE_VIEW_MAP, catalog=CATALOG)
    result = execute_read_only(engine, prepared, max_rows=100)
    assert result.ok, f"{dialect}: {result.error}\n{prepared}"
    return [tuple(_normal(v) for v in row) for row in result.rows]


GOLD_ROWS = [json.loads(line) for line in GOLD.read_text(encoding="utf-8").splitlines() if line]


@pytest.mark.parametrize("row", GOLD_ROWS, ids=[r["id"] for r in GOLD_ROWS])
def test_every_demo_gold_query_gives_the_sqlite_rows_on_postgresql(row, engine, sqlite_engine):
    sql = row["gold_sql"]
    on_postgres = _rows(engine, sql, "postgres")
    on_sqlite = _rows(sqlite_engine, sql, "sqlite")
    if " ORDER BY " not in sql.upper():
        on_postgres, on_sqlite = sorted(on_postgres, key=repr), sorted(on_sqlite, key=repr)
    assert on_postgres == on_sqlite


@pytest.mark.parametrize(
    "sql",
    [
        'DELETE FROM "workOrder"',
        'UPDATE employee SET "hourlyRate" = 0',
        'DROP TABLE "workOrder"',
        "CREATE TABLE stolen (x int)",
    ],
)
def test_the_read_only_transaction_refuses_writes_on_its_own(engine, sql):
    before = checksums(engine, ["workOrder", "employee"])
    with pytest.raises(Exception) as caught:
        execute_unchecked(engine, sql)
    assert caught.value.kind == "read_only", caught.value
    assert checksums(engine, ["workOrder", "employee"]) == before


def test_a_setting_changed_by_a_query_is_rolled_back_with_it(engine):
    execute_unchecked(engine, "SELECT set_config('frontdesk.aes_key', '00', false)")
    emails = execute_read_only(engine, "SELECT COUNT(*) FROM secure_user WHERE email IS NOT NULL")
    assert emails.rows[0][0] > 0


def test_a_slow_query_is_stopped_by_the_server(engine):
    with pytest.raises(Exception) as caught:
        execute_unchecked(engine, "SELECT pg_sleep(5)", timeout_s=0.3)
    assert caught.value.kind == "timeout"
    # The pooled connection is usable afterwards, with the key still set.
    assert (
        execute_read_only(engine, "SELECT COUNT(*) FROM secure_user WHERE email IS NOT NULL").rows[
            0
        ][0]
        > 0
    )


@pytest.mark.parametrize(
    "sql",
    [
        "SELECT pg_sleep(1)",
        "SELECT pg_read_file('/etc/passwd')",
        "SELECT current_setting('frontdesk.aes_key')",
        "SELECT * FROM pg_settings",
        "SELECT * FROM pg_catalog.pg_authid",
        "SELECT query_to_xml('select 1', true, true, '')",
        'SELECT frontdesk_aes_decrypt(email) FROM "user"',
    ],
)
def test_the_checker_refuses_postgres_attacks_before_the_server(engine, sql):
    result = execute_read_only(engine, sql)
    assert not result.ok and result.kind == "read_only", (sql, result)
