"""Run the analyst's SQL read-only, with a time limit, and return JSON-friendly rows.

Validation (``sql.check.validate``) should stop every write before it gets here, but this
function does not rely on it. Defence in depth, each layer enough on its own for DML:

1. ``check_read_only`` again, and the SQL that runs is rendered from the checked tree (so
   comments, stacked statements and text sqlglot did not understand never reach the server);
2. the outermost LIMIT is capped at ``max_rows + 1`` (the extra row tells us it was cut);
3. the database refuses writes: SQLite with ``PRAGMA query_only = ON`` inside a transaction
   that is always rolled back; MySQL/MariaDB inside ``START TRANSACTION READ ONLY`` that is
   always rolled back (pymysql is left without the multi-statement client flag); PostgreSQL
   inside ``BEGIN READ ONLY``, always rolled back, which refuses DDL as well;
4. limits: SQLite's progress handler aborts the statement after ``timeout_s`` and no string
   or blob may exceed 50 MB; MariaDB's ``max_statement_time`` (MySQL: ``max_execution_time``)
   and PostgreSQL's ``statement_timeout`` stop it on the server.

On MySQL/MariaDB a READ ONLY transaction does not stop DDL (DROP TABLE commits implicitly and
runs), so layer 1 is what stops DDL there; deploy with an account that has SELECT only.

Errors come back (are returned, or raised with ``raise_errors=True``) as
``QueryError(kind, message)``: the message is the database's own, cleaned of driver noise and
never carrying a URL or password, because the correction agent reads it.
"""

from __future__ import annotations

import datetime as dt
import logging
import math
import sqlite3
import time
import uuid
from dataclasses import dataclass, field
from decimal import Decimal
from typing import Any, Literal

from sqlalchemy.engine import Connection, Engine

from frontdesk.assistants.analyst.sql.check import (
    Dialect,
    SQLCheckError,
    UnsafeSQL,
    check_read_only,
    enforce_limit,
    outer_limit,
    render,
)
from frontdesk.assistants.analyst.sql.errors import classify_error

logger = logging.getLogger(__name__)

ErrorKind = Literal[
    "syntax", "unknown_table", "unknown_column", "timeout", "read_only", "connection", "other"
]

# How many SQLite virtual-machine instructions run between two looks at the clock.
_PROGRESS_STEPS = 4000
_BINARY_HEX_LIMIT = 32
_CLIENT_MULTI_STATEMENTS = 1 << 16  # pymysql.constants.CLIENT.MULTI_STATEMENTS
_SQLITE_MAX_VALUE_BYTES = 50_000_000


class QueryError(Exception):
    """A query that did not run; ``kind`` says why, ``message`` is for the correction agent.

    ``execute_read_only`` returns it (``ok`` is False) unless asked to raise it; ``error`` and
    ``error_kind`` mirror ``message`` and ``kind`` so callers can treat results uniformly.
    """

    ok = False
    columns: tuple[str, ...] = ()
    rows: tuple[tuple[Any, ...], ...] = ()
    row_count = 0
    truncated = False

    def __init__(self, kind: ErrorKind, message: str) -> None:
        super().__init__(f"{kind}: {message}")
        self.kind: ErrorKind = kind
        self.message = message

    def __str__(self) -> str:
        return f"{self.kind}: {self.message}"

    @property
    def error(self) -> str:
        return self.message

    @property
    def error_kind(self) -> ErrorKind:
        return self.kind


class DatabaseDown(QueryError):
    """The database cannot be reached (kind "connection")."""

    def __init__(self, message: str) -> None:
        super().__init__("connection", message)


@dataclass
class QueryResult:
    """Rows as tuples of JSON-friendly values; ``truncated`` when more rows were available."""

    columns: list[str]
    rows: list[tuple[Any, ...]]
    row_count: int
    truncated: bool
    elapsed_ms: float
    sql: str = field(default="", repr=False)

    ok = True
    error = None
    error_kind = None

    def as_dicts(self) -> list[dict[str, Any]]:
        return [dict(zip(self.columns, row, strict=False)) for row in self.rows]


_ENGINE_DIALECTS: dict[str, Dialect] = {
    "sqlite": "sqlite",
    "mysql": "mysql",
    "mariadb": "mysql",
    "postgresql": "postgres",
}
_DEFAULT_PORTS = {"mysql": 3306, "postgres": 5432}


class UnsupportedDatabase(ValueError):
    """A database the analyst cannot check SQL for (its dialect is not one of ours)."""


def engine_dialect(engine: Engine) -> Dialect:
    name = engine.dialect.name
    if name not in _ENGINE_DIALECTS:
        raise UnsupportedDatabase(
            f"the analyst runs on SQLite, MySQL/MariaDB or PostgreSQL, not {name}"
        )
    return _ENGINE_DIALECTS[name]


def _json_value(value: Any) -> Any:
    if value is None or isinstance(value, (bool, int, str)):
        return value
    if isinstance(value, float):
        return value if math.isfinite(value) else str(value)
    if isinstance(value, Decimal):
        if not value.is_finite():
            return str(value)
        as_float = float(value)
        # Keep the exact digits when a float would change them (big money totals).
        return as_float if Decimal(repr(as_float)) == value.normalize() else str(value)
    if isinstance(value, (dt.datetime, dt.date, dt.time)):
        return value.isoformat()
    if isinstance(value, dt.timedelta):  # MySQL TIME columns
        seconds = int(value.total_seconds())
        sign = "-" if seconds < 0 else ""
        hours, rest = divmod(abs(seconds), 3600)
        return f"{sign}{hours:02d}:{rest // 60:02d}:{rest % 60:02d}"
    if isinstance(value, uuid.UUID):
        return str(value)
    if isinstance(value, (bytes, bytearray, memoryview)):
        raw = bytes(value)
        try:
            text = raw.decode("utf-8")  # MySQL returns some text (AES_DECRYPT) as bytes
            if text.isprintable():
                return text
        except UnicodeDecodeError:
            pass
        if len(raw) <= _BINARY_HEX_LIMIT:
            return "0x" + raw.hex()
        return f"<binary {len(raw)} bytes>"
    return str(value)


def _connection_error(engine: Engine) -> DatabaseDown:
    url = engine.url
    if url.get_backend_name() == "sqlite":
        return DatabaseDown("the SQLite database file could not be opened")
    port = url.port or _DEFAULT_PORTS.get(_ENGINE_DIALECTS.get(engine.dialect.name, ""), "")
    where = f"{url.host or 'localhost'}:{port}"
    return DatabaseDown(f"the database at {where} is not reachable")


def _as_query_error(engine: Engine, error: BaseException) -> QueryError:
    original = getattr(error, "orig", None) or error
    kind, message = classify_error(original)
    if kind == "connection":
        down = _connection_error(engine)
        if message and "not reachable" not in message:
            down.message = f"{down.message} ({message})"
        return down
    return QueryError(kind, message)


def _run_sqlite(conn: Connection, sql: str, max_rows: int, timeout_s: float):
    raw: sqlite3.Connection = conn.connection.driver_connection
    deadline = time.monotonic() + timeout_s

    def past_deadline() -> int:
        return 1 if time.monotonic() > deadline else 0

    previous = int(raw.execute("PRAGMA query_only").fetchone()[0])
    raw.execute("PRAGMA query_only = ON")
    raw.set_progress_handler(past_deadline, _PROGRESS_STEPS)
    # One function call (printf('%.*c', 1e9, 'x'), replace(...)) can build a 1 GB string
    # between two progress callbacks: cap the size of any string or blob for this query.
    previous_length = raw.setlimit(sqlite3.SQLITE_LIMIT_LENGTH, _SQLITE_MAX_VALUE_BYTES)
    try:
        if raw.in_transaction:
            raw.rollback()
        raw.execute("BEGIN")
        cursor = raw.execute(sql)
        rows = cursor.fetchmany(max_rows + 1)
        columns = [d[0] for d in cursor.description or ()]
        cursor.close()
        return columns, rows
    finally:
        try:
            raw.set_progress_handler(None, 0)
            raw.setlimit(sqlite3.SQLITE_LIMIT_LENGTH, previous_length)
            raw.rollback()
            raw.execute(f"PRAGMA query_only = {previous}")
        except Exception:  # never hand an unknown state back to the pool
            logger.warning("could not reset the SQLite connection; discarding it", exc_info=True)
            conn.invalidate()


def _run_mysql(conn: Connection, sql: str, max_rows: int, timeout_s: float):
    raw = conn.connection.driver_connection
    server = str(getattr(raw, "get_server_info", lambda: "")()).lower()
    mariadb = bool(getattr(conn.dialect, "is_mariadb", False)) or "mariadb" in server
    if getattr(raw, "client_flag", 0) & _CLIENT_MULTI_STATEMENTS:
        # With this flag "SELECT 1; DROP TABLE t" would run both; pymysql leaves it off.
        raise QueryError(
            "other", "the database connection allows multiple statements; refusing to run"
        )
    variable = "max_statement_time" if mariadb else "max_execution_time"
    limit = f"{max(timeout_s, 0.001):.3f}" if mariadb else str(max(int(timeout_s * 1000), 1))
    cursor = raw.cursor()
    try:
        cursor.execute(f"SET SESSION {variable} = {limit}")
        cursor.execute("START TRANSACTION READ ONLY")
        cursor.execute(sql)  # no args: pymysql does no %-formatting of the text
        rows = cursor.fetchmany(max_rows + 1)
        columns = [d[0] for d in cursor.description or ()]
        return columns, rows
    finally:
        try:
            raw.rollback()
            cursor.execute(f"SET SESSION {variable} = DEFAULT")
            cursor.close()
        except Exception:  # a dead or confused connection: drop it
            logger.info("could not reset the MySQL connection; discarding it", exc_info=True)
            conn.invalidate()


def _run_postgres(conn: Connection, sql: str, max_rows: int, timeout_s: float):
    # A READ ONLY transaction refuses every write, DDL included, on the server; the
    # statement_timeout (SET LOCAL: this transaction only) stops a slow query there too.
    raw = conn.connection.driver_connection
    milliseconds = max(int(timeout_s * 1000), 1)
    try:
        raw.rollback()  # whatever the pool handed over, start clean
        cursor = raw.cursor()
        cursor.execute("BEGIN READ ONLY")
        cursor.execute(f"SET LOCAL statement_timeout = {milliseconds}")
        cursor.execute(sql)  # no parameters: psycopg does no %-formatting of the text
        rows = cursor.fetchmany(max_rows + 1)
        columns = [d[0] for d in cursor.description or ()]
        cursor.close()
        return columns, rows
    finally:
        try:
            raw.rollback()
        except Exception:  # a dead connection: drop it
            logger.info("could not reset the PostgreSQL connection; discarding it", exc_info=True)
            conn.invalidate()


_RUNNERS = {"sqlite": _run_sqlite, "mysql": _run_mysql, "postgres": _run_postgres}


def execute_unchecked(
    engine: Engine, sql: str, *, max_rows: int = 100, timeout_s: float = 10.0
) -> QueryResult:
    """Run ``sql`` as-is under the database-level guards only (read-only transaction, time
    limit, row cap on fetch). Skips ``check_read_only``: for tests that prove the database
    layer holds on its own, and for SQL already rendered by ``execute_read_only``.
    """
    dialect = engine_dialect(engine)
    start = time.perf_counter()
    try:
        with engine.connect() as conn:
            columns, rows = _RUNNERS[dialect](conn, sql, max_rows, timeout_s)
    except QueryError:
        raise
    except Exception as error:  # every other failure becomes a QueryError
        logger.debug("analyst query failed", exc_info=True)
        failure = _as_query_error(engine, error)
        if failure.kind == "timeout":
            failure.message = f"the query took longer than {timeout_s:g} s and was stopped"
        raise failure from None
    elapsed_ms = (time.perf_counter() - start) * 1000
    truncated = len(rows) > max_rows
    rows = rows[:max_rows]
    return QueryResult(
        columns=columns,
        rows=[tuple(_json_value(v) for v in row) for row in rows],
        row_count=len(rows),
        truncated=truncated,
        elapsed_ms=round(elapsed_ms, 2),
        sql=sql,
    )


def execute_read_only(
    engine: Engine,
    sql: str,
    *,
    max_rows: int = 100,
    timeout_s: float = 10.0,
    raise_errors: bool = False,
) -> QueryResult | QueryError:
    """Check and run one read-only query: a ``QueryResult``, or the ``QueryError`` saying why
    it did not run (raised instead when ``raise_errors``).

    Safe with SQL that was never validated: the checker runs again here, and what runs is
    the checked tree rendered for the engine's dialect with LIMIT at most ``max_rows + 1``.
    ``truncated`` is True when more than ``max_rows`` rows exist, or when the query's own
    LIMIT equals ``max_rows`` and came back full (there may be more).
    """
    if max_rows < 0:
        raise ValueError("max_rows must be >= 0")
    try:
        result = _check_and_run(engine, sql, max_rows, timeout_s)
    except QueryError as error:
        if raise_errors:
            raise
        return error
    return result


def _check_and_run(engine: Engine, sql: str, max_rows: int, timeout_s: float) -> QueryResult:
    dialect = engine_dialect(engine)
    try:
        checked = check_read_only(sql, dialect)
        own_limit = outer_limit(checked.expression)
        tree = enforce_limit(checked.expression, max_rows + 1, dialect, copy=False)
        final = render(tree, dialect, copy=False)
    except UnsafeSQL as error:
        raise QueryError("read_only", error.message) from None
    except SQLCheckError as error:  # InvalidSQL, UnsupportedSQL
        raise QueryError("syntax", error.message) from None
    result = execute_unchecked(engine, final, max_rows=max_rows, timeout_s=timeout_s)
    if own_limit is not None and own_limit == max_rows and result.row_count == max_rows:
        result.truncated = True
    return result
