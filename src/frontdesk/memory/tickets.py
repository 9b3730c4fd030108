"""Tickets: a conversation handed to a person, and what was written on it since.

A ticket is opened for one conversation (assistant + the thread key the server stores it
under) with the transcript as it was then. While it is open or answered the assistant stays
silent on that thread: the customer's new messages are added to the ticket. A person answers
(the ticket is then `answered`; a new customer message makes it `open` again) and closes it;
only then does the assistant answer again.

Nothing acknowledged is lost or done twice: at most one ticket per thread is active (a unique
key that is NULL once closed, so any number may be closed), opening again while one is active
returns it, and a message carrying a request key (a replayed turn, a retried answer) is
recorded once.

Kept in the same database as the threads (`threads.sqlite`), whose owner a ticket records.
"""

from __future__ import annotations

import asyncio
import json
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, Literal

from sqlalchemy import (
    DateTime,
    ForeignKey,
    Integer,
    String,
    Text,
    UniqueConstraint,
    create_engine,
    event,
    select,
)
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import DeclarativeBase, Mapped, Session, mapped_column

from frontdesk.db_url import database_url, make_sqlite_folder
from frontdesk.memory.records import public_record
from frontdesk.memory.threads import ThreadRow, _sqlite_pragmas

Status = Literal["open", "answered", "closed"]
Sender = Literal["customer", "person"]
STATUSES: tuple[Status, ...] = ("open", "answered", "closed")
ACTIVE: tuple[Status, ...] = ("open", "answered")
# Whose conversation it is when nobody claimed the thread (the CLI's own conversations).
LOCAL_OWNER = "local:operator"


class TicketClosed(Exception):
    """The ticket is closed: nothing more can be written on it."""


class _Base(DeclarativeBase):
    pass


class TicketRow(_Base):
    __tablename__ = "tickets"
    __table_args__ = (UniqueConstraint("assistant", "active_thread"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    assistant: Mapped[str] = mapped_column(String(64), index=True)
    thread_key: Mapped[str] = mapped_column(String(400), index=True)
    # The thread key while the ticket is open or answered; NULL once closed.
    active_thread: Mapped[str | None] = mapped_column(String(400), nullable=True)
    owner: Mapped[str] = mapped_column(String(200))
    status: Mapped[str] = mapped_column(String(16), index=True)
    transcript: Mapped[str] = mapped_column(Text)  # JSON [{"role", "content", ...}]
    closed_by: Mapped[str | None] = mapped_column(String(200), nullable=True)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    updated_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))


class TicketMessageRow(_Base):
    __tablename__ = "ticket_messages"
    __table_args__ = (UniqueConstraint("ticket_id", "request_key"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    ticket_id: Mapped[int] = mapped_column(ForeignKey("tickets.id"), index=True)
    sender: Mapped[str] = mapped_column(String(16))
    author: Mapped[str] = mapped_column(String(200))
    text: Mapped[str] = mapped_column(Text)
    # Set for writes that may be replayed; NULLs never collide, so unkeyed writes all count.
    request_key: Mapped[str | None] = mapped_column(String(200), nullable=True)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))


@dataclass(frozen=True)
class TicketMessage:
    id: int
    ticket_id: int
    sender: Sender
    author: str
    text: str
    created_at: datetime

    def public(self) -> dict[str, Any]:
        return public_record(self)


@dataclass(frozen=True)
class Ticket:
    id: int
    assistant: str
    thread_key: str
    owner: str
    status: Status
    transcript: list[dict[str, Any]]
    created_at: datetime
    updated_at: datetime
    closed_by: str | None = None
    messages: tuple[TicketMessage, ...] = field(default=())

    @property
    def active(self) -> bool:
        return self.status in ACTIVE

    def public(self) -> dict[str, Any]:
        return public_record(self)


class TicketStore:
    """SQLAlchemy on the threads' database; `*_sync` methods, and async ones for the server
    and the graphs (run in a worker thread so the event loop never waits on the disk)."""

    def __init__(self, url_or_path: str | Path):
        url = database_url(url_or_path)
        make_sqlite_folder(url)
        self.engine = create_engine(url)
        if self.engine.dialect.name == "sqlite":
            event.listen(self.engine, "connect", _sqlite_pragmas)
        ThreadRow.metadata.create_all(self.engine)
        _Base.metadata.create_all(self.engine)

    def close(self) -> None:
        self.engine.dispose()

    # -- the conversation's side ---------------------------------------------------------------

    def open_sync(
        self, assistant: str, thread_key: str, transcript: list[dict[str, Any]]
    ) -> tuple[Ticket, bool]:
        """Open a ticket for the thread: (ticket, True), or (the active one, False)."""
        with Session(self.engine) as session:
            found = _active_row(session, assistant, thread_key)
            if found is not None:
                return _ticket(session, found), False
            now = datetime.now(UTC)
            row = TicketRow(
                assistant=assistant,
                thread_key=thread_key,
                active_thread=thread_key,
                owner=_thread_owner(session, assistant, thread_key),
                status="open",
                transcript=json.dumps(transcript, ensure_ascii=False),
                created_at=now,
                updated_at=now,
            )
            session.add(row)
            try:
                session.commit()
            except IntegrityError:  # opened by a concurrent turn: that one is the ticket
                session.rollback()
                found = _active_row(session, assistant, thread_key)
                if found is None:
                    raise
                return _ticket(session, found), False
            return _ticket(session, row), True

    def active_sync(self, assistant: str, thread_key: str) -> Ticket | None:
        with Session(self.engine) as session:
            row = _active_row(session, assistant, thread_key)
            return _ticket(session, row) if row is not None else None

    def hold_sync(
        self, assistant: str, thread_key: str, text: str, request_key: str | None = None
    ) -> Ticket | None:
        """Add the customer's message to the thread's active ticket (which is then `open`,
        waiting for a person); None when the thread has no active ticket."""
        with Session(self.engine) as session:
            row = _active_row(session, assistant, thread_key)
            if row is None:
                return None
            _add_message(session, row, "customer", row.owner, text, request_key)
            row.status = "open"
            return _commit(session, row)

    def person_replies_sync(self, assistant: str, thread_key: str) -> list[TicketMessage]:
        """What people wrote on the thread's tickets, oldest first."""
        query = (
            select(TicketMessageRow)
            .join(TicketRow, TicketRow.id == TicketMessageRow.ticket_id)
            .where(
                TicketRow.assistant == assistant,
                TicketRow.thread_key == thread_key,
                TicketMessageRow.sender == "person",
            )
            .order_by(TicketMessageRow.id)
        )
        with Session(self.engine) as session:
            return [_message(m) for m in session.scalars(query)]

    # -- the people's side ---------------------------------------------------------------------

    def get_sync(self, ticket_id: int) -> Ticket | None:
        with Session(self.engine) as session:
            row = session.get(TicketRow, ticket_id)
            return _ticket(session, row) if row is not None else None

    def find_sync(
        self,
        assistants: list[str] | None = None,
        statuses: tuple[Status, ...] = ACTIVE,
        limit: int = 100,
    ) -> list[Ticket]:
        """Tickets in those statuses (of those assistants; None: all), oldest change first:
        who has waited longest comes first. Without their messages."""
        query = select(TicketRow).where(TicketRow.status.in_(statuses))
        if assistants is not None:
            query = query.where(TicketRow.assistant.in_(assistants))
        query = query.order_by(TicketRow.updated_at, TicketRow.id).limit(limit)
        with Session(self.engine) as session:
            return [_ticket(session, row, messages=False) for row in session.scalars(query)]

    def answer_sync(
        self, ticket_id: int, author: str, text: str, request_key: str | None = None
    ) -> Ticket | None:
        """A person's reply; the ticket is then `answered`. None: no such ticket; raises
        TicketClosed when it is closed (a replayed reply is still answered with the ticket)."""
        with Session(self.engine) as session:
            row = session.get(TicketRow, ticket_id)
            if row is None:
                return None
            if request_key is not None and _keyed(session, row.id, request_key):
                return _ticket(session, row)
            if row.status == "closed":
                raise TicketClosed(f"Ticket {ticket_id} is closed.")
            _add_message(session, row, "person", author, text, request_key)
            row.status = "answered"
            return _commit(session, row)

    def close_ticket_sync(self, ticket_id: int, closed_by: str) -> Ticket | None:
        """Close it (the assistant answers on the thread again); closing twice is a no-op."""
        with Session(self.engine) as session:
            row = session.get(TicketRow, ticket_id)
            if row is None:
                return None
            if row.status == "closed":
                return _ticket(session, row)
            row.status = "closed"
            row.active_thread = None
            row.closed_by = closed_by
            return _commit(session, row)

    # -- async wrappers ------------------------------------------------------------------------

    async def open(self, *args: Any) -> tuple[Ticket, bool]:
        return await asyncio.to_thread(self.open_sync, *args)

    async def active(self, assistant: str, thread_key: str) -> Ticket | None:
        return await asyncio.to_thread(self.active_sync, assistant, thread_key)

    async def hold(self, *args: Any) -> Ticket | None:
        return await asyncio.to_thread(self.hold_sync, *args)

    async def person_replies(self, assistant: str, thread_key: str) -> list[TicketMessage]:
        return await asyncio.to_thread(self.person_replies_sync, assistant, thread_key)

    async def get(self, ticket_id: int) -> Ticket | None:
        return await asyncio.to_thread(self.get_sync, ticket_id)

    async def find(self, *args: Any) -> list[Ticket]:
        return await asyncio.to_thread(self.find_sync, *args)

    async def answer(self, *args: Any) -> Ticket | None:
        return await asyncio.to_thread(self.answer_sync, *args)

    async def close_ticket(self, ticket_id: int, closed_by: str) -> Ticket | None:
        return await asyncio.to_thread(self.close_ticket_sync, ticket_id, closed_by)


def _active_row(session: Session, assistant: str, thread_key: str) -> TicketRow | None:
    query = select(TicketRow).where(
        TicketRow.assistant == assistant, TicketRow.active_thread == thread_key
    )
    return session.scalars(query).first()


def _thread_owner(session: Session, assistant: str, thread_key: str) -> str:
    row = session.get(ThreadRow, (assistant, thread_key))
    return row.owner if row is not None else LOCAL_OWNER


def _keyed(session: Session, ticket_id: int, request_key: str) -> bool:
    query = select(TicketMessageRow.id).where(
        TicketMessageRow.ticket_id == ticket_id, TicketMessageRow.request_key == request_key
    )
    return session.scalars(query).first() is not None


def _add_message(
    session: Session,
    row: TicketRow,
    sender: Sender,
    author: str,
    text: str,
    request_key: str | None,
) -> None:
    if request_key is not None and _keyed(session, row.id, request_key):
        return
    now = datetime.now(UTC)
    session.add(
        TicketMessageRow(
            ticket_id=row.id,
            sender=sender,
            author=author,
            text=text,
            request_key=request_key,
            created_at=now,
        )
    )
    row.updated_at = now


def _commit(session: Session, row: TicketRow) -> Ticket:
    session.commit()
    return _ticket(session, row)


def _message(row: TicketMessageRow) -> TicketMessage:
    sender: Sender = "person" if row.sender == "person" else "customer"
    created = _aware(row.created_at)
    return TicketMessage(row.id, row.ticket_id, sender, row.author, row.text, created)


def _ticket(session: Session, row: TicketRow, *, messages: bool = True) -> Ticket:
    found: tuple[TicketMessage, ...] = ()
    if messages:
        query = (
            select(TicketMessageRow)
            .where(TicketMessageRow.ticket_id == row.id)
            .order_by(TicketMessageRow.id)
        )
        found = tuple(_message(m) for m in session.scalars(query))
    return Ticket(
        id=row.id,
        assistant=row.assistant,
        thread_key=row.thread_key,
        owner=row.owner,
        status=row.status,  # type: ignore[arg-type]
        transcript=json.loads(row.transcript),
        created_at=_aware(row.created_at),
        updated_at=_aware(row.updated_at),
        closed_by=row.closed_by,
        messages=found,
    )


def _aware(moment: datetime) -> datetime:
    # SQLite hands back naive datetimes for what was stored as UTC.
    return moment if moment.tzinfo else moment.replace(tzinfo=UTC)
