"""The read-only executor: results, row caps, error kinds, time limits, unreachable databases."""

from __future__ import annotations

import datetime as dt
import os
import sqlite3
import time
from decimal import Decimal

import pytest
import sqlalchemy as sa
from pymysql.constants import CLIENT

from frontdesk.assistants.analyst.sql.executor import (
    DatabaseDown,
    QueryError,
    QueryResult,
    _json_value,
    execute_read_only,
    execute_unchecked,
)

MARIADB_ROOT = "mysql+pymysql://root:@127.0.0.1:3306/"
# Per process: two test runs on one machine (developers, CI) must not share a schema.
MARIADB_SCHEMA = f"frontdesk_test_executor_{os.getpid()}"
SECRET = "s3cr3t-Pa55word"
# Run for minutes unless stopped; the time limit must stop them. (MariaDB caps recursive CTEs
# at 1000 iterations by default, so it gets a cross join of ten-row tables instead.)
ENDLESS = (
    "WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c WHERE x < 1000000000) "
    "SELECT COUNT(*) FROM c"
)
_DIGITS = "(SELECT 0 AS d " + " ".join(f"UNION ALL SELECT {i}" for i in range(1, 10)) + ")"
HEAVY_JOIN = "SELECT COUNT(*) FROM " + " CROSS JOIN ".join(f"{_DIGITS} AS t{i}" for i in range(9))


@pytest.fixture
def sqlite_engine(tmp_path) -> sa.Engine:
    engine = sa.create_engine(f"sqlite:///{tmp_path / 'executor.db'}")
    with engine.begin() as conn:
        conn.exec_driver_sql(
            "CREATE TABLE item (id INTEGER PRIMARY KEY, name TEXT, price NUMERIC, "
            "photo BLOB, added DATE)"
        )
        for i in range(1, 31):
            conn.exec_driver_sql(
                f"INSERT INTO item VALUES ({i}, 'item {i}', {i}.25, x'00ff{i:02x}', "
                f"'2025-01-{i:02d}')"
            )
    yield engine
    engine.dispose()


@pytest.fixture(scope="module")
def mariadb_engine() -> sa.Engine:
    root = sa.create_engine(MARIADB_ROOT, connect_args={"connect_timeout": 5})
    try:
        with root.begin() as conn:
            conn.exec_driver_sql(f"DROP DATABASE IF EXISTS {MARIADB_SCHEMA}")
            conn.exec_driver_sql(f"CREATE DATABASE {MARIADB_SCHEMA}")
    except sa.exc.OperationalError as error:
        pytest.fail(
            f"MariaDB is not reachable at 127.0.0.1:3306 as root ({error.orig}); start it "
            "(e.g. `service mariadb start`) or deselect with -m 'not mariadb'.",
            pytrace=False,
        )
    engine = sa.create_engine(f"{MARIADB_ROOT}{MARIADB_SCHEMA}", pool_size=1, max_overflow=0)
    with engine.begin() as conn:
        conn.exec_driver_sql(
            "CREATE TABLE item (id INT PRIMARY KEY, name VARCHAR(40), price DECIMAL(10,2), "
            "big DECIMAL(30,10), added DATE, seen DATETIME, dur TIME, raw VARBINARY(64), "
            "txt VARBINARY(64))"
        )
        conn.exec_driver_sql(
            "INSERT INTO item VALUES (1, 'drill', 12.50, 12345678901234567890.1234567891, "
            "'2025-01-02', '2025-01-02 03:04:05', '01:30:00', 0x00ff, 'plain text')"
        )
    yield engine
    engine.dispose()
    with root.begin() as conn:
        conn.exec_driver_sql(f"DROP DATABASE IF EXISTS {MARIADB_SCHEMA}")
    root.dispose()


# -- SQLite ------------------------------------------------------------------------------


def test_rows_are_json_friendly(sqlite_engine):
    result = execute_read_only(sqlite_engine, "SELECT id, name, price, photo, added FROM item")
    assert isinstance(result, QueryResult) and result.ok
    assert result.columns == ["id", "name", "price", "photo", "added"]
    assert result.rows[0] == (1, "item 1", 1.25, "0x00ff01", "2025-01-01")
    assert result.as_dicts()[1]["name"] == "item 2"
    assert result.elapsed_ms >= 0


def test_row_cap_and_truncation(sqlite_engine):
    capped = execute_read_only(sqlite_engine, "SELECT id FROM item", max_rows=10)
    assert capped.row_count == 10 and capped.truncated
    assert "LIMIT 11" in capped.sql  # one extra row tells whether there were more
    exact = execute_read_only(sqlite_engine, "SELECT id FROM item LIMIT 10", max_rows=10)
    assert exact.row_count == 10 and exact.truncated  # a full page may hide more rows
    small = execute_read_only(sqlite_engine, "SELECT id FROM item LIMIT 5", max_rows=10)
    assert small.row_count == 5 and not small.truncated
    everything = execute_read_only(sqlite_engine, "SELECT id FROM item", max_rows=100)
    assert everything.row_count == 30 and not everything.truncated


@pytest.mark.parametrize(
    ("sql", "kind", "fragment"),
    [
        ("SELECT nope FROM item", "unknown_column", "no such column: nope"),
        ("SELECT * FROM nowhere", "unknown_table", "no such table: nowhere"),
        ("SELECT FROM WHERE", "syntax", "could not parse the SQL near 'WHERE'"),
        ("DELETE FROM item", "read_only", "only SELECT queries are allowed"),
        ("SELECT * FROM item FULL OUTER JOIN item b ON 1 = 1 WHERE 1 = 0", None, None),
    ],
)
def test_sqlite_errors_have_kinds(sqlite_engine, sql, kind, fragment):
    result = execute_read_only(sqlite_engine, sql)
    if kind is None:
        assert result.ok or sqlite3.sqlite_version_info < (3, 39)
        return
    assert isinstance(result, QueryError) and not result.ok
    assert result.kind == kind and result.error_kind == kind
    assert fragment in result.message and result.error == result.message


def test_raise_errors_raises(sqlite_engine):
    with pytest.raises(QueryError) as caught:
        execute_read_only(sqlite_engine, "SELECT * FROM nowhere", raise_errors=True)
    assert caught.value.kind == "unknown_table"


def test_sqlite_timeout_stops_a_long_query(sqlite_engine):
    start = time.monotonic()
    result = execute_read_only(sqlite_engine, ENDLESS, timeout_s=0.3)
    elapsed = time.monotonic() - start
    assert isinstance(result, QueryError) and result.kind == "timeout", result
    assert "0.3 s" in result.message
    assert elapsed < 3.0
    # The connection is usable and back to normal afterwards.
    assert execute_read_only(sqlite_engine, "SELECT COUNT(*) FROM item").rows == [(30,)]
    with sqlite_engine.connect() as conn:
        assert conn.exec_driver_sql("PRAGMA query_only").scalar() == 0


def test_sqlite_file_that_cannot_open_is_a_connection_error(tmp_path):
    engine = sa.create_engine(f"sqlite:///{tmp_path / 'missing' / 'dir' / 'x.db'}")
    result = execute_read_only(engine, "SELECT 1")
    assert isinstance(result, DatabaseDown) and result.kind == "connection"
    assert str(tmp_path) not in result.message


def test_json_value_conversions():
    assert _json_value(Decimal("12.50")) == 12.5
    assert _json_value(Decimal("12345678901234567890.1234567891")) == (
        "12345678901234567890.1234567891"
    )
    assert _json_value(Decimal("NaN")) == "NaN"
    assert _json_value(float("inf")) == "inf"
    assert _json_value(dt.datetime(2025, 1, 2, 3, 4, 5)) == "2025-01-02T03:04:05"
    assert _json_value(dt.timedelta(hours=1, minutes=30)) == "01:30:00"
    assert _json_value(b"hello") == "hello"
    assert _json_value(b"\x00\xff") == "0x00ff"
    assert _json_value(bytes(range(200))) == "<binary 200 bytes>"


# -- unreachable servers -------------------------------------------------------------------


@pytest.mark.parametrize(
    ("host", "port"), [("127.0.0.1", 1), ("frontdesk-no-such-host.invalid", 3306)]
)
def test_unreachable_mysql_is_a_connection_error_without_credentials(host, port):
    engine = sa.create_engine(
        f"mysql+pymysql://analyst:{SECRET}@{host}:{port}/crewos",
        connect_args={"connect_timeout": 3},
    )
    result = execute_read_only(engine, "SELECT 1")
    assert isinstance(result, DatabaseDown) and result.kind == "connection"
    assert result.message.startswith(f"the database at {host}:{port} is not reachable")
    for leaked in (SECRET, "analyst", "mysql+pymysql"):
        assert leaked not in result.message and leaked not in str(result)
    engine.dispose()


# -- MariaDB -------------------------------------------------------------------------------


@pytest.mark.mariadb
def test_mariadb_values(mariadb_engine):
    result = execute_read_only(mariadb_engine, "SELECT * FROM item")
    assert result.ok, result
    assert result.rows == [
        (
            1,
            "drill",
            12.5,
            "12345678901234567890.1234567891",
            "2025-01-02",
            "2025-01-02T03:04:05",
            "01:30:00",
            "0x00ff",
            "plain text",
        )
    ]


@pytest.mark.mariadb
@pytest.mark.parametrize(
    ("sql", "kind", "fragment"),
    [
        ("SELECT nope FROM item", "unknown_column", "Unknown column 'nope'"),
        ("SELECT * FROM nowhere", "unknown_table", "Table 'nowhere' doesn't exist"),
        ("UPDATE item SET name = 'x'", "read_only", "only SELECT queries are allowed"),
    ],
)
def test_mariadb_errors_have_kinds_and_clean_messages(mariadb_engine, sql, kind, fragment):
    result = execute_read_only(mariadb_engine, sql)
    assert isinstance(result, QueryError) and result.kind == kind, result
    assert fragment in result.message
    assert "(10" not in result.message  # no "(1054, ..." driver tuples


@pytest.mark.mariadb
def test_mariadb_server_syntax_errors_are_cleaned(mariadb_engine):
    with pytest.raises(QueryError) as caught:
        execute_unchecked(mariadb_engine, "SELECT FROM item WHERE")
    assert caught.value.kind == "syntax"
    assert caught.value.message.startswith("syntax error near 'FROM item WHERE'")
    assert "manual" not in caught.value.message


@pytest.mark.mariadb
def test_mariadb_statement_time_limit(mariadb_engine):
    start = time.monotonic()
    result = execute_read_only(mariadb_engine, HEAVY_JOIN, timeout_s=0.5)
    assert isinstance(result, QueryError) and result.kind == "timeout", result
    assert time.monotonic() - start < 5.0
    with pytest.raises(QueryError) as caught:  # SLEEP is refused by the checker: go around it
        execute_unchecked(mariadb_engine, "SELECT SLEEP(5)", timeout_s=0.5)
    assert caught.value.kind == "timeout"
    # The session is handed back as it was lent: default limit, no open transaction.
    with mariadb_engine.connect() as conn:
        session, default, in_trx = conn.exec_driver_sql(
            "SELECT @@SESSION.max_statement_time, @@GLOBAL.max_statement_time, @@in_transaction"
        ).one()
        assert session == default and in_trx == 0
    assert execute_read_only(mariadb_engine, "SELECT COUNT(*) FROM item").rows == [(1,)]


@pytest.mark.mariadb
def test_mariadb_wrong_login_is_a_connection_error_without_the_password(mariadb_engine):
    engine = sa.create_engine(
        f"mysql+pymysql://frontdesk_nobody:{SECRET}@127.0.0.1:3306/{MARIADB_SCHEMA}"
    )
    result = execute_read_only(engine, "SELECT 1")
    assert isinstance(result, DatabaseDown), result
    assert "access denied" in result.message and SECRET not in str(result)
    engine.dispose()


@pytest.mark.mariadb
def test_multi_statement_connections_are_refused(mariadb_engine):
    engine = sa.create_engine(
        f"{MARIADB_ROOT}{MARIADB_SCHEMA}",
        connect_args={"client_flag": CLIENT.MULTI_STATEMENTS},
    )
    result = execute_read_only(engine, "SELECT 1")
    assert isinstance(result, QueryError) and "multiple statements" in result.message
    engine.dispose()
