"""Who owns each conversation, what it is called, and what people thought of its answers.

The checkpointer keeps a conversation's messages; this store keeps what the server needs to
decide who may see them: a thread belongs to the caller that created it (any other caller gets
404), callers list their own conversations per assistant, and each answer may get a thumbs up
or down with a comment (`frontdesk eval feedback` counts them).

SQLAlchemy on a SQLite file in the data dir (any SQLAlchemy URL works). The calls are short
and run in a worker thread so the event loop never waits on the disk.
"""

from __future__ import annotations

import asyncio
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Literal

from sqlalchemy import (
    DateTime,
    Integer,
    String,
    Text,
    create_engine,
    event,
    func,
    select,
)
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import DeclarativeBase, Mapped, Session, mapped_column

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


@dataclass(frozen=True)
class ThreadInfo:
    assistant: str
    thread_id: str
    title: str
    updated_at: datetime

    def public(self) -> dict[str, str]:
        return {
            "assistant": self.assistant,
            "thread_id": self.thread_id,
            "title": self.title,
            "updated_at": self.updated_at.isoformat(),
        }


@dataclass(frozen=True)
class FeedbackCount:
    assistant: str
    up: int
    down: int
    comments: list[tuple[str, str]]  # (rating, comment), newest first


class ThreadStore:
    def __init__(self, url_or_path: str | Path):
        url = str(url_or_path)
        if "://" not in url:
            Path(url).parent.mkdir(parents=True, exist_ok=True)
            url = f"sqlite:///{url}"
        self.engine = create_engine(url)
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
                select(FeedbackRow.assistant, FeedbackRow.rating, func.count())
                .group_by(FeedbackRow.assistant, FeedbackRow.rating)
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

    # -- async wrappers for the server --------------------------------------------------------

    async def claim(self, *args: str) -> bool:
        return await asyncio.to_thread(self.claim_sync, *args)

    async def owner(self, assistant: str, thread_key: str) -> str | None:
        return await asyncio.to_thread(self.owner_sync, assistant, thread_key)

    async def threads(self, owner: str, assistant: str, limit: int = 50) -> list[ThreadInfo]:
        return await asyncio.to_thread(self.threads_sync, owner, assistant, limit)

    async def add_feedback(self, *args) -> int:
        return await asyncio.to_thread(self.add_feedback_sync, *args)


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
