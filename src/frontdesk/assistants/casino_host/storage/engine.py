"""Engines, and turning a lost database into `StorageUnavailable`.

SQLite: every transaction starts with BEGIN IMMEDIATE. pysqlite's default deferred transaction
reads first and asks for the write lock later; in WAL mode that upgrade fails at once ("database
is locked", no busy wait) when another writer committed in between, which is exactly the
two-first-messages race. Taking the write lock up front makes writers queue instead. SQLite
therefore serialises this store's transactions: fine for one host process; PostgreSQL is the
production database.

Within the process, writers queue for the one write connection of the engine's pool, not on
SQLite's busy handler: that handler polls with growing sleeps (1, 2, 5 … 100 ms), so a writer
that came while another held the lock for a millisecond could wait 100 ms (an SMS reply's
sent mark held a STOP's acknowledgement back that long). Reads (`make_engines`) have their own
connections and never wait (WAL).
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from pathlib import Path
from typing import Any, TypeVar

from sqlalchemy import Engine, create_engine, event
from sqlalchemy.engine import URL
from sqlalchemy.exc import DBAPIError, InterfaceError, OperationalError
from sqlalchemy.exc import TimeoutError as PoolTimeout

from frontdesk.assistants.casino_host.storage.errors import StorageUnavailable

SQLITE_BUSY_MS = 30_000
CONNECT_TIMEOUT_S = 5
REASON_CHARS = 200

F = TypeVar("F", bound=Callable[..., Any])


def describe(url: URL) -> str:
    """The database as messages may name it: never with its password."""
    return url.render_as_string(hide_password=True)


def make_engines(url: URL) -> tuple[Engine, Engine]:
    """The store's engines: (for transactions that write, for those that only read)."""
    engine = make_engine(url)
    if url.get_backend_name() == "sqlite":
        readers = _sqlite_engine(url, writes=False)
    else:
        readers = engine
    return engine, readers.execution_options(**{READ_ONLY: True})


def make_engine(url: URL) -> Engine:
    if url.get_backend_name() == "sqlite":
        return _sqlite_engine(url, writes=True)
    connect_args: dict[str, Any] = {}
    if url.get_backend_name() == "postgresql":
        connect_args["connect_timeout"] = CONNECT_TIMEOUT_S
    # pre_ping: after a database restart the pool hands out a fresh connection, not a dead one.
    return create_engine(url, pool_pre_ping=True, connect_args=connect_args)


READ_ONLY = "casino_host_read_only"  # an execution option: the transaction only reads


def _sqlite_engine(url: URL, *, writes: bool) -> Engine:
    if url.database in (None, "", ":memory:"):
        # Each pooled connection would get its own empty database.
        raise ValueError("the casino host needs a SQLite file, not an in-memory database")
    try:
        Path(url.database).expanduser().parent.mkdir(parents=True, exist_ok=True)
    except OSError:
        pass  # the first connection reports it, as StorageUnavailable
    # Writers: one connection, handed over as soon as the last writer is done (see above).
    pool = {"pool_size": 1, "max_overflow": 0, "pool_timeout": SQLITE_BUSY_MS / 1000}
    engine = create_engine(url, connect_args={"timeout": SQLITE_BUSY_MS / 1000},
                           **(pool if writes else {}))  # fmt: skip
    event.listen(engine, "connect", _sqlite_connect)
    event.listen(engine, "begin", _sqlite_begin)
    return engine


def _sqlite_connect(dbapi_connection: Any, _record: Any) -> None:
    dbapi_connection.isolation_level = None  # SQLAlchemy's "begin" event issues BEGIN itself
    cursor = dbapi_connection.cursor()
    cursor.execute("PRAGMA foreign_keys=ON")
    cursor.execute(f"PRAGMA busy_timeout={SQLITE_BUSY_MS}")
    cursor.execute("PRAGMA journal_mode=WAL")
    # WAL + NORMAL: a commit survives the process crashing (only an OS crash or power cut may
    # lose the last ones); FULL's fsync per commit cost a turn 20 ms of its 30 in storage.
    # A deployment that must survive power cuts uses PostgreSQL.
    cursor.execute("PRAGMA synchronous=NORMAL")
    cursor.close()


def _sqlite_begin(connection: Any) -> None:
    # A store call that writes takes the write lock at once (two writers that both read
    # first would deadlock on the upgrade); one that only reads never takes it.
    read_only = connection.get_execution_options().get(READ_ONLY, False)
    connection.exec_driver_sql("BEGIN" if read_only else "BEGIN IMMEDIATE")


def unavailable(database: str, exc: BaseException) -> StorageUnavailable:
    cause = getattr(exc, "orig", None) or exc
    lines = str(cause).strip().splitlines() or [type(cause).__name__]
    return StorageUnavailable(database, lines[0][:REASON_CHARS])


def is_unavailable(exc: BaseException) -> bool:
    if isinstance(exc, OperationalError | InterfaceError | PoolTimeout):
        return True
    return isinstance(exc, DBAPIError) and exc.connection_invalidated


def guarded(method: F) -> F:
    """Raise StorageUnavailable (naming `self.database`) when the database cannot be reached."""

    @functools.wraps(method)
    def wrapper(self: Any, *args: Any, **kwargs: Any) -> Any:
        try:
            return method(self, *args, **kwargs)
        except DBAPIError as exc:
            if is_unavailable(exc):
                raise unavailable(self.database, exc) from exc
            raise
        except PoolTimeout as exc:
            raise unavailable(self.database, exc) from exc

    return wrapper  # type: ignore[return-value]
