"""Engines for the analyst's databases, with the PII key wired into every connection.

`open_engine(url, aes_key)` returns a SQLAlchemy engine whose connections can read the
`secure_*` views (see `secure_views`):

- SQLite (`sqlite:///path`): each connection registers `aes_encrypt(value, key)`,
  `aes_decrypt(blob, key)` and `aes_key()` (the session key), byte-compatible with MariaDB's
  AES functions (`crypto`). Read-only engines open the file in SQLite's read-only URI mode and
  set `PRAGMA query_only`, so no statement can write, whatever the SQL says.
- MariaDB/MySQL (`mysql+pymysql://...`): each connection runs `SET @aesKey = ...`, which the
  views read through the stored function `frontdesk_aes_key()`. Read-only engines make every
  session's transactions READ ONLY.
- PostgreSQL (`postgresql://...`, driven by psycopg 3): each connection sets
  `frontdesk.aes_key` (the folded key, in hex), which the views' `frontdesk_aes_decrypt()`
  reads. Read-only engines make every transaction READ ONLY by default.
- Any other URL gets a plain engine; the analyst refuses it with a clear message
  (`sql.executor.engine_dialect`).

`checksums(engine)` fingerprints table contents so a test can prove a run wrote nothing.
"""

from __future__ import annotations

import hashlib
import sqlite3
from pathlib import Path
from typing import Any

from sqlalchemy import Engine, create_engine, event, inspect
from sqlalchemy.engine import URL

from frontdesk.assistants.analyst.db.crypto import aes_decrypt, aes_encrypt, mysql_aes_key
from frontdesk.assistants.analyst.db.secure_views import POSTGRES_KEY_SETTING
from frontdesk.db_url import database_url

__all__ = ["checksums", "open_engine"]

BUSY_TIMEOUT_MS = 5000
# A server that does not answer must give a clear error in seconds, not hang the start.
CONNECT_TIMEOUT_S = 5
SCHEMA_KEY = "<schema>"


def open_engine(url: str | URL, aes_key: str, *, read_only: bool = False) -> Engine:
    parsed = database_url(url)
    backend = parsed.get_backend_name()
    if backend == "sqlite":
        return _sqlite_engine(parsed, aes_key, read_only)
    if backend in ("mysql", "mariadb"):
        return _mysql_engine(parsed, aes_key, read_only)
    if backend == "postgresql":
        return _postgres_engine(parsed, aes_key, read_only)
    return create_engine(parsed)


def _postgres_engine(url: URL, aes_key: str, read_only: bool) -> Engine:
    connect_args: dict[str, Any] = {"connect_timeout": CONNECT_TIMEOUT_S}
    if read_only:
        connect_args["options"] = "-c default_transaction_read_only=on"
    engine = create_engine(url, pool_pre_ping=True, connect_args=connect_args)

    @event.listens_for(engine, "connect")
    def _on_connect(dbapi_conn: Any, _record: Any) -> None:
        cursor = dbapi_conn.cursor()
        try:
            # A parameter, never formatted into SQL; committed, or the rollback that ends this
            # first transaction would undo it.
            cursor.execute(
                "SELECT set_config(%s, %s, false)",
                (POSTGRES_KEY_SETTING, mysql_aes_key(aes_key).hex()),
            )
            dbapi_conn.commit()
        finally:
            cursor.close()

    return engine


def _register_functions(conn: sqlite3.Connection, aes_key: str) -> None:
    conn.create_function("aes_encrypt", 2, aes_encrypt, deterministic=True)
    conn.create_function("aes_decrypt", 2, aes_decrypt, deterministic=True)
    conn.create_function("aes_key", 0, lambda: aes_key)


def _sqlite_engine(url: URL, aes_key: str, read_only: bool) -> Engine:
    database = url.database or ""
    in_memory = database in ("", ":memory:") or database.startswith("file::memory:")
    if read_only and not in_memory and not url.query.get("uri"):
        # URI mode with mode=ro: SQLite itself refuses to write, and never creates the file.
        url = URL.create(
            "sqlite",
            database=Path(database).resolve().as_uri(),
            query={"mode": "ro", "uri": "true"},
        )
    engine = create_engine(url)

    @event.listens_for(engine, "connect")
    def _on_connect(dbapi_conn: sqlite3.Connection, _record: Any) -> None:
        _register_functions(dbapi_conn, aes_key)
        cursor = dbapi_conn.cursor()
        cursor.execute(f"PRAGMA busy_timeout = {BUSY_TIMEOUT_MS}")
        # The views call our functions; builds with SQLITE_TRUSTED_SCHEMA=0 would refuse that.
        cursor.execute("PRAGMA trusted_schema = ON")
        if read_only:
            cursor.execute("PRAGMA query_only = ON")
        cursor.close()

    return engine


def _mysql_engine(url: URL, aes_key: str, read_only: bool) -> Engine:
    query = dict(url.query)
    query.setdefault("charset", "utf8mb4")
    engine = create_engine(
        url.set(query=query),
        pool_pre_ping=True,
        pool_recycle=3600,
        pool_size=5,
        max_overflow=10,
        connect_args={"connect_timeout": CONNECT_TIMEOUT_S},
    )

    @event.listens_for(engine, "connect")
    def _on_connect(dbapi_conn: Any, _record: Any) -> None:
        cursor = dbapi_conn.cursor()
        try:
            # A parameter, not formatted into SQL by us, so any character in the key is safe.
            cursor.execute("SET @aesKey = %s", (aes_key,))
            if read_only:
                cursor.execute("SET SESSION TRANSACTION READ ONLY")
        finally:
            cursor.close()

    return engine


def checksums(engine: Engine, tables: list[str] | None = None) -> dict[str, str]:
    """Table -> "<row count>:<sha256 of all rows in primary key order>".

    With `tables=None` every base table is covered, plus a `<schema>` entry hashing the table
    and view names with their columns, so CREATE/DROP/ALTER show up as well as row changes.
    The values are only comparable with checksums of the same engine kind.
    """
    inspector = inspect(engine)
    names = sorted(inspector.get_table_names()) if tables is None else list(tables)
    quote = engine.dialect.identifier_preparer.quote
    result: dict[str, str] = {}
    with engine.connect() as conn:
        for name in names:
            columns = [c["name"] for c in inspector.get_columns(name)]
            order = "id" if "id" in columns else ", ".join(quote(c) for c in columns)
            digest = hashlib.sha256()
            count = 0
            cursor = conn.exec_driver_sql(f"SELECT * FROM {quote(name)} ORDER BY {order}")
            # repr() of whole row batches is stable for a given driver and fast in C.
            while batch := cursor.fetchmany(2000):
                digest.update(repr([tuple(row) for row in batch]).encode())
                count += len(batch)
            result[name] = f"{count}:{digest.hexdigest()}"
    if tables is None:
        digest = hashlib.sha256()
        for name in names:
            digest.update(f"T {name} {[c['name'] for c in inspector.get_columns(name)]}\n".encode())
        for name in sorted(inspector.get_view_names()):
            digest.update(f"V {name}\n".encode())
        result[SCHEMA_KEY] = digest.hexdigest()
    return result
