"""Who owns each conversation, what it is called, what people thought of its answers, and the
question a turn in progress is answering.

The checkpointer keeps a conversation's messages; this store keeps what the server needs to
decide who may see them: a thread belongs to the caller that created it (any other caller gets
404), callers list their own conversations per assistant, and each answer may get a thumbs up
or down with a comment (`frontdesk eval feedback` counts them).

The turn journal (table `turns`) holds each turn's question from before the assistant runs
until the turn ends: an assistant's graph saves its checkpoint only at the end of a turn, so a
server killed mid-turn would otherwise keep no trace of the question. A journal row left by an
earlier server run is a question asked but never answered (`unanswered`).

The tables are made with `create_all` (there are no migrations): a new table, like `turns`,
appears in an existing file on the next start; a changed column would need a migration.

SQLAlchemy on a SQLite file in the data dir (any SQLAlchemy URL works). The calls are short
and run in a worker thread so the event loop never waits on the disk.
"""

from __future__ import annotations

import asyncio
import uuid
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Literal

from sqlalchemy import (
    DateTime,
    Index,
    Integer,
    String,
    Text,
    create_engine,
    delete,
    event,
    func,
    select,
)
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import DeclarativeBase, Mapped, Session, mapped_column

from frontdesk.db_url import database_url, make_sqlite_folder
from frontdesk.memory.records import public_record

Rating = Literal["up", "down"]
TITLE_CHARS = 80


class _Base(DeclarativeBase):
    pass


class ThreadRow(_Base):
    __tablename__ = "threads"

    assistant: Mapped[str] = mapped_column(String(64), primary_key=True)
    thread_key: Mapped[str] = mapped_column(String(400), primary_key=True)
    thread_id: Mapped[str] = mapped_column(String(128))
    owner: Mapped[str] = mapped_column(String(200), index=True)
    title: Mapped[str] = mapped_column(String(TITLE_CHARS))
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    updated_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), index=True)


class FeedbackRow(_Base):
    __tablename__ = "feedback"

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    assistant: Mapped[str] = mapped_column(String(64), index=True)
    thread_key: Mapped[str] = mapped_column(String(400))
    owner: Mapped[str] = mapped_column(String(200))
    turn: Mapped[int] = mapped_column(Integer)
    rating: Mapped[str] = mapped_column(String(8))
    comment: Mapped[str | None] = mapped_column(Text, nullable=True)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))


class TurnRow(_Base):
    """A turn in progress: its question, written before the assistant runs, deleted when the
    turn ends (however it ends). Each thread has at most one: a new turn supersedes it."""

    __tablename__ = "turns"
    __table_args__ = (Index("ix_turns_thread", "assistant", "thread_key"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    assistant: Mapped[str] = mapped_column(String(64))
    thread_key: Mapped[str] = mapped_column(String(400))
    message: Mapped[str] = mapped_column(Text)
    # Which server run wrote it (ThreadStore.run_id): a row from another run was cut off.
    server_run: Mapped[str] = mapped_column(String(32))
    asked_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))


@dataclass(frozen=True)
class ThreadInfo:
    assistant: str
    thread_id: str
    title: str
    updated_at: datetime

    def public(self) -> dict[str, str]:
        return public_record(self)


@dataclass(frozen=True)
class FeedbackCount:
    assistant: str
    up: int
    down: int
    comments: list[tuple[str, str]]  # (rating, comment), newest first


class ThreadStore:
    def __init__(self, url_or_path: str | Path):
        url = database_url(url_or_path)
        make_sqlite_folder(url)
        self.engine = create_engine(url)
        # This run's journal rows; one left by any other run is a turn that never ended.
        self.run_id = uuid.uuid4().hex
        if self.engine.dialect.name == "sqlite":
            event.listen(self.engine, "connect", _sqlite_pragmas)
        _Base.metadata.create_all(self.engine)

    def close(self) -> None:
        self.engine.dispose()

    # -- ownership ----------------------------------------------------------------------------

    def claim_sync(
        self, assistant: str, thread_key: str, thread_id: str, owner: str, title: str
    ) -> bool:
        """Record `owner` as the thread's owner if it is new; True if `owner` owns it now."""
        now = datetime.now(UTC)
        with Session(self.engine) as session:
            row = session.get(ThreadRow, (assistant, thread_key))
            if row is None:
                session.add(
                    ThreadRow(
                        assistant=assistant,
                        thread_key=thread_key,
                        thread_id=thread_id,
                        owner=owner,
                        title=_title(title),
                        created_at=now,
                        updated_at=now,
                    )
                )
                try:
                    session.commit()
                    return True
                except IntegrityError:  # created by a concurrent request: who won?
                    session.rollback()
                    row = session.get(ThreadRow, (assistant, thread_key))
                    return row is not None and row.owner == owner
            if row.owner != owner:
                return False
            row.updated_at = now
            session.commit()
            return True

    def owner_sync(self, assistant: str, thread_key: str) -> str | None:
        with Session(self.engine) as session:
            row = session.get(ThreadRow, (assistant, thread_key))
            return row.owner if row is not None else None

    def threads_sync(self, owner: str, assistant: str, limit: int = 50) -> list[ThreadInfo]:
        query = (
            select(ThreadRow)
            .where(ThreadRow.owner == owner, ThreadRow.assistant == assistant)
            .order_by(ThreadRow.updated_at.desc())
            .limit(limit)
        )
        with Session(self.engine) as session:
            return [
                ThreadInfo(r.assistant, r.thread_id, r.title, _aware(r.updated_at))
                for r in session.scalars(query)
            ]

    # -- feedback -----------------------------------------------------------------------------

    def add_feedback_sync(
        self,
        assistant: str,
        thread_key: str,
        owner: str,
        turn: int,
        rating: Rating,
        comment: str | None,
    ) -> int:
        with Session(self.engine) as session:
            row = FeedbackRow(
                assistant=assistant,
                thread_key=thread_key,
                owner=owner,
                turn=turn,
                rating=rating,
                comment=comment or None,
                created_at=datetime.now(UTC),
            )
            session.add(row)
            session.commit()
            return row.id

    def feedback_counts_sync(self, comments: int = 10) -> list[FeedbackCount]:
        with Session(self.engine) as session:
            totals = session.execute(
                select(FeedbackRow.assistant, FeedbackRow.rating, func.count()).group_by(
                    FeedbackRow.assistant, FeedbackRow.rating
                )
            ).all()
            counts: dict[str, dict[str, int]] = {}
            for assistant, rating, count in totals:
                counts.setdefault(assistant, {"up": 0, "down": 0})[rating] = count
            result = []
            for assistant in sorted(counts):
                recent = session.execute(
                    select(FeedbackRow.rating, FeedbackRow.comment)
                    .where(FeedbackRow.assistant == assistant, FeedbackRow.comment.is_not(None))
                    .order_by(FeedbackRow.id.desc())
                    .limit(comments)
                ).all()
                result.append(
                    FeedbackCount(
                        assistant,
                        counts[assistant]["up"],
                        counts[assistant]["down"],
                        [(rating, text) for rating, text in recent],
                    )
                )
            return result

    # -- turn journal -------------------------------------------------------------------------

    def begin_turn_sync(self, assistant: str, thread_key: str, message: str) -> int:
        """Journal a turn's question before the assistant runs (committed when this returns);
        the thread's earlier row, if any, is superseded. Returns the row's id for `end_turn`."""
        with Session(self.engine) as session:
            session.execute(
                delete(TurnRow).where(
                    TurnRow.assistant == assistant, TurnRow.thread_key == thread_key
                )
            )
            row = TurnRow(
                assistant=assistant,
                thread_key=thread_key,
                message=message,
                server_run=self.run_id,
                asked_at=datetime.now(UTC),
            )
            session.add(row)
            session.commit()
            return row.id

    def end_turn_sync(self, turn_id: int) -> None:
        """The turn ended (answered, failed or stopped: its outcome is the assistant's)."""
        with Session(self.engine) as session:
            session.execute(delete(TurnRow).where(TurnRow.id == turn_id))
            session.commit()

    def unanswered_sync(self, assistant: str, thread_key: str) -> str | None:
        """The thread's question that an earlier server run never finished answering (it
        stopped mid-turn), or None. A turn in progress in this run is not unanswered."""
        query = select(TurnRow).where(
            TurnRow.assistant == assistant,
            TurnRow.thread_key == thread_key,
            TurnRow.server_run != self.run_id,
        )
        with Session(self.engine) as session:
            row = session.scalars(query.order_by(TurnRow.id.desc()).limit(1)).first()
            return row.message if row is not None else None

    # -- async wrappers for the server --------------------------------------------------------

    async def claim(self, *args: str) -> bool:
        return await asyncio.to_thread(self.claim_sync, *args)

    async def owner(self, assistant: str, thread_key: str) -> str | None:
        return await asyncio.to_thread(self.owner_sync, assistant, thread_key)

    async def threads(self, owner: str, assistant: str, limit: int = 50) -> list[ThreadInfo]:
        return await asyncio.to_thread(self.threads_sync, owner, assistant, limit)

    async def add_feedback(self, *args) -> int:
        return await asyncio.to_thread(self.add_feedback_sync, *args)

    async def begin_turn(self, assistant: str, thread_key: str, message: str) -> int:
        return await asyncio.to_thread(self.begin_turn_sync, assistant, thread_key, message)

    async def end_turn(self, turn_id: int) -> None:
        await asyncio.to_thread(self.end_turn_sync, turn_id)

    async def unanswered(self, assistant: str, thread_key: str) -> str | None:
        return await asyncio.to_thread(self.unanswered_sync, assistant, thread_key)


def _title(text: str) -> str:
    line = " ".join(text.split())
    return line if len(line) <= TITLE_CHARS else line[: TITLE_CHARS - 1] + "…"


def _aware(moment: datetime) -> datetime:
    # SQLite hands back naive datetimes for what was stored as UTC.
    return moment if moment.tzinfo else moment.replace(tzinfo=UTC)


def _sqlite_pragmas(connection, _record) -> None:
    cursor = connection.cursor()
    cursor.execute("PRAGMA journal_mode=WAL")
    cursor.execute("PRAGMA busy_timeout=5000")
    cursor.close()
