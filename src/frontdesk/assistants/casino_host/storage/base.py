"""What every part of the store shares: the engine and sessions, the tenant check, the clock,
phone hashing and encryption, and de-identified audit rows written inside a caller's
transaction."""

from __future__ import annotations

import functools
import inspect
import json
from collections.abc import Callable, Iterator, Mapping
from contextlib import contextmanager
from contextvars import ContextVar
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, NamedTuple, Self, TypeVar

from sqlalchemy import Table, bindparam, select
from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.engine import URL, CursorResult
from sqlalchemy.exc import DBAPIError
from sqlalchemy.orm import Session, sessionmaker
from sqlalchemy.sql import Executable
from sqlalchemy.sql.dml import Insert

from frontdesk.assistants.casino_host.storage.engine import (
    describe,
    guarded,
    is_unavailable,
    make_engines,
    unavailable,
)
from frontdesk.assistants.casino_host.storage.errors import (
    AuditContentError,
    GuestNotFound,
    MissingCasinoId,
)
from frontdesk.assistants.casino_host.storage.migrate import upgrade_engine
from frontdesk.assistants.casino_host.storage.phone import (
    E164_IN_TEXT,
    PhoneCipher,
    PhoneHasher,
    log_hash,
)
from frontdesk.assistants.casino_host.storage.records import valid_casino_id
from frontdesk.assistants.casino_host.storage.settings import CasinoHostStorageSettings
from frontdesk.assistants.casino_host.storage.tables import AuditRow, GuestRow
from frontdesk.config import Settings, get_settings
from frontdesk.db_url import database_url

F = TypeVar("F", bound=Callable[..., Any])
R = TypeVar("R")


class StoredGuest(NamedTuple):
    """What the store reads of a guest's row (the number only encrypted)."""

    guest_uuid: str
    casino_id: str
    phone_hash: str
    phone_ciphertext: str


_GUESTS = GuestRow.__table__
_GUEST = select(*(_GUESTS.c[name] for name in StoredGuest._fields)).where(
    _GUESTS.c.guest_uuid == bindparam("guest_uuid")
)
_KNOWN_GUESTS = "casino_host_guests"  # session.info: the guests read in this transaction

# The store and session of the `Store.transaction()` block this context is in, if any. A
# context variable, not a thread-local: `asyncio.to_thread` runs each call in a copy of the
# caller's context, so two turns in two worker threads never share a session.
_OPEN_TRANSACTION: ContextVar[tuple[Any, Session] | None] = ContextVar(
    "casino_host_store_transaction", default=None
)

# Keys that would carry what a guest wrote (or their number) into the audit log.
FORBIDDEN_AUDIT_KEYS = frozenset(
    {
        "text",
        "message",
        "message_text",
        "body",
        "content",
        "raw_text",
        "opt_in_raw_text",
        "phone",
        "phone_number",
        "e164",
    }
)


def require_casino_id(casino_id: object) -> str:
    if casino_id is None or casino_id == "":
        raise MissingCasinoId("casino_id is required: every storage call is scoped to a casino")
    if not valid_casino_id(casino_id):
        raise MissingCasinoId(
            "casino_id must be 1-64 letters, digits, '_', '.' or '-' (no ':'), got "
            f"{type(casino_id).__name__}"
        )
    return casino_id  # type: ignore[return-value]


def public(method: F) -> F:
    """A store method callers use: its casino_id is checked before anything touches the
    database, and a lost database becomes StorageUnavailable."""
    signature = inspect.signature(method)
    scoped = "casino_id" in signature.parameters
    # Where casino_id comes among the positional arguments after self (a hot path: a turn
    # makes a dozen store calls, and binding the whole signature each time costs more than
    # most of their queries).
    position = list(signature.parameters).index("casino_id") - 1 if scoped else -1
    inner = guarded(method)

    @functools.wraps(method)
    def wrapper(self: Any, *args: Any, **kwargs: Any) -> Any:
        if scoped:
            if "casino_id" in kwargs:
                require_casino_id(kwargs["casino_id"])
            elif position < len(args):
                require_casino_id(args[position])
            else:
                require_casino_id(None)  # not given: refused like an empty one
        return inner(self, *args, **kwargs)

    wrapper.tenant_scoped = scoped  # type: ignore[attr-defined]
    return wrapper  # type: ignore[return-value]


def pinned(session: Session, row: R) -> R:
    """`row`, held by the session until it closes.

    Rows looked up by primary key (`session.get`) are answered from the session the second
    time, with no query: a turn's `transaction()` block looks up its guest and conversation
    in most calls. The session's identity map holds rows only weakly, so a row no caller
    still holds would be fetched again; this keeps it. The casino check stays with the
    caller, which keeps tenants apart."""
    if row is not None:
        session.info.setdefault("pinned", []).append(row)
    return row


def execute(session: Session, statement: Executable, params: Any = None) -> CursorResult[Any]:
    """A prebuilt statement (a module constant with bind parameters) in the session's
    transaction, after the session's pending ORM changes (what a query's autoflush does).

    The hot paths (a turn's intake, a keyword, a send) use these: building a statement cost
    more than running it, about 0.15 ms each, and an ORM insert three times a Core one. Rows
    written this way are not held by the session: read them with a query, not `session.get`."""
    session.flush()
    return session.connection().execute(statement, params)


@functools.cache
def _insert_new(table: Table, unique: tuple[str, ...], dialect: str,
                returning: tuple[str, ...]) -> Insert:  # fmt: skip
    dialects = {"sqlite": sqlite, "postgresql": postgresql}
    if dialect not in dialects:
        raise NotImplementedError(f"the casino host stores in SQLite or PostgreSQL, not {dialect}")
    statement = (
        dialects[dialect]
        .insert(table)
        .on_conflict_do_nothing(index_elements=[table.c[name] for name in unique])
    )
    return statement.returning(*(table.c[name] for name in returning)) if returning else statement


def insert_new(session: Session, table: Table, unique: tuple[str, ...],
               returning: tuple[str, ...] = ()) -> Insert:  # fmt: skip
    """INSERT … ON CONFLICT (unique) DO NOTHING: a row whose key exists already is not
    written, and the transaction goes on; ask for `returning` columns to learn which (no row
    back: it existed; rowcount is not reliable here on psycopg). The losing side of a race
    needs no savepoint to survive its IntegrityError."""
    return _insert_new(table, unique, session.get_bind().dialect.name, returning)


def moment(now: datetime | None) -> datetime:
    """`now`, or the current UTC time; a naive datetime is refused."""
    if now is None:
        return datetime.now(UTC)
    if now.tzinfo is None or now.tzinfo.utcoffset(now) is None:
        raise ValueError("now must be timezone-aware (use datetime.now(UTC))")
    return now


def check_audit_details(details: Mapping[str, Any]) -> dict[str, Any]:
    """Audit rows are de-identified at write time (X3): no message text, no phone number."""

    def visit(value: Any, path: str) -> None:
        if isinstance(value, Mapping):
            for key, inner in value.items():
                if str(key).lower() in FORBIDDEN_AUDIT_KEYS:
                    raise AuditContentError(f"audit details may not carry {path}{key}")
                visit(inner, f"{path}{key}.")
        elif isinstance(value, list | tuple):
            for index, inner in enumerate(value):
                visit(inner, f"{path}{index}.")
        elif isinstance(value, str) and E164_IN_TEXT.search(value):
            raise AuditContentError(f"audit details at {path.rstrip('.')} contain a phone number")

    visit(details, "")
    try:
        return json.loads(json.dumps(dict(details)))
    except (TypeError, ValueError) as exc:
        raise AuditContentError(f"audit details must be JSON: {exc}") from exc


class StoreBase:
    def __init__(
        self,
        url: str | Path | URL | None = None,
        *,
        phone_pepper: str | bytes | None = None,
        phone_keys: list[str] | tuple[str, ...] | None = None,
        settings: Settings | None = None,
        migrate: bool = True,
    ):
        """`url`: SQLAlchemy URL or SQLite path (default: the settings'). `migrate`: run the
        Alembic upgrade now (raises StorageUnavailable when the database is down)."""
        settings = settings or get_settings()
        storage = CasinoHostStorageSettings.of(settings)
        self.url = database_url(url) if url is not None else storage.url(settings)
        self.database = describe(self.url)
        self.engine, self._read_engine = make_engines(self.url)
        self._sessions = sessionmaker(self.engine, expire_on_commit=False)
        # Reads on their own: on SQLite a plain BEGIN on connections of their own, so a read
        # never waits for, nor holds off, a writer (WAL); elsewhere the same as any session.
        self._readers = sessionmaker(self._read_engine, expire_on_commit=False)
        pepper = phone_pepper if phone_pepper is not None else storage.pepper()
        self._hasher = PhoneHasher(pepper)
        configured = storage.encryption_keys() if storage.phone_keys else None
        keys: list[str | bytes] = list(phone_keys or configured or [pepper])
        self._cipher = PhoneCipher(keys)
        if migrate:
            self.upgrade()

    def __repr__(self) -> str:
        return f"{type(self).__name__}({self.database})"

    def __enter__(self) -> Self:
        return self

    def __exit__(self, *_exc: object) -> None:
        self.close()

    def close(self) -> None:
        self.engine.dispose()
        self._read_engine.dispose()

    @guarded
    def upgrade(self) -> None:
        """Apply pending migrations (idempotent)."""
        upgrade_engine(self.engine)

    @contextmanager
    def transaction(self) -> Iterator[None]:
        """Run every store call in the block in one transaction, committed at the end (or rolled
        back whole when the block raises).

        A turn reads and writes a dozen rows; one BEGIN/COMMIT for them all instead of one each
        is a third of its storage cost, and a turn's writes then land together or not at all. A
        call that catches a lost insert race (IntegrityError) and reads the winner runs in a
        savepoint (`_begin(savepoint=True)`), so it keeps working inside. Blocks nest: an inner
        one joins the outer transaction."""
        current = _OPEN_TRANSACTION.get()
        if current is not None and current[0] is self:
            yield
            return
        try:
            with self._sessions.begin() as session:
                token = _OPEN_TRANSACTION.set((self, session))
                try:
                    yield
                finally:
                    _OPEN_TRANSACTION.reset(token)
        except DBAPIError as exc:  # the commit itself can find the database gone
            if is_unavailable(exc):
                raise unavailable(self.database, exc) from exc
            raise

    @contextmanager
    def _begin(self, *, savepoint: bool = False, read_only: bool = False) -> Iterator[Session]:
        """The session of one store call: its own transaction, or the enclosing `transaction()`
        block's. `savepoint`: the call recovers from its own failure (an insert that lost a
        race reads the winner), so inside a block it runs in a savepoint that rolls back
        alone; any other failure ends the block's transaction, as it propagates. `read_only`:
        the call only reads (its own transaction then takes no write lock on SQLite)."""
        current = _OPEN_TRANSACTION.get()
        if current is not None and current[0] is self:
            session = current[1]
            if savepoint:
                with session.begin_nested():
                    yield session
            else:
                yield session
            return
        with (self._readers if read_only else self._sessions).begin() as session:
            yield session

    @staticmethod
    def _guest(session: Session, casino_id: str, guest_uuid: str) -> StoredGuest:
        """The guest's row, read once per transaction (most store calls of a turn check the
        guest first). A Core read, not the ORM's: loading a mapped row cost more than the
        query, and no store call changes these columns."""
        known: dict[str, StoredGuest] = session.info.setdefault(_KNOWN_GUESTS, {})
        guest = known.get(guest_uuid)
        if guest is None:
            row = execute(session, _GUEST, {"guest_uuid": guest_uuid}).first()
            if row is not None:
                guest = known[guest_uuid] = StoredGuest(*row)
        if guest is None or guest.casino_id != casino_id:
            raise GuestNotFound(f"no guest {guest_uuid} in casino {casino_id}")
        return guest

    @staticmethod
    def _know_guest(session: Session, guest: StoredGuest) -> None:
        """A guest this transaction has just written (its next `_guest` reads nothing)."""
        session.info.setdefault(_KNOWN_GUESTS, {})[guest.guest_uuid] = guest

    @staticmethod
    def _add_audit(
        session: Session,
        casino_id: str,
        event: str,
        *,
        phone_hash: str | None,
        details: Mapping[str, Any],
        now: datetime,
    ) -> int:
        """Write an audit row in the session's transaction; its id."""
        if not event or len(event) > 64:
            raise AuditContentError("audit event must be 1-64 characters")
        result = execute(session, _INSERT_AUDIT, {
            "casino_id": casino_id,
            "event": event,
            "guest_hash": log_hash(phone_hash) if phone_hash else None,
            "details": check_audit_details(details),
            "created_at": now,
        })  # fmt: skip
        return int(result.inserted_primary_key[0])


_INSERT_AUDIT = AuditRow.__table__.insert()


MAX_KEY_CHARS = 128  # a provider's message id or an outbound key


def external_key(value: str | None, what: str) -> str | None:
    """`value` when it may key a message: None, or a non-empty string of at most
    `MAX_KEY_CHARS` characters; else ValueError naming `what`."""
    if value is None:
        return None
    if not isinstance(value, str) or not value or len(value) > MAX_KEY_CHARS:
        raise ValueError(f"{what} must be a non-empty string of at most {MAX_KEY_CHARS} characters")
    return value
