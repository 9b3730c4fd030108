"""Conversation memory: LangGraph checkpointers.

SQLite on disk by default, so a restarted server still knows every thread; in memory for tests
and throw-away runs. Both are async context managers so connections close cleanly.

The SQLite store is opened the way a busy server needs it (seed 002's conversation memory):
one persistent aiosqlite connection in WAL mode (readers never wait for the writer) with a
5-second busy timeout, checkpoint reads and writes retried with exponential backoff while the
file is locked, and a store that fails degrades to stateless turns instead of failing them:
a checkpoint that cannot be read starts the conversation afresh, one that cannot be written
is dropped (the guest still gets the answer; that turn is not remembered).
"""

from __future__ import annotations

import asyncio
import logging
import sqlite3
from collections.abc import AsyncIterator, Awaitable, Callable, Sequence
from contextlib import asynccontextmanager
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any, Literal, TypeVar

from langchain_core.messages import BaseMessage
from langgraph.checkpoint.base import BaseCheckpointSaver
from langgraph.checkpoint.memory import InMemorySaver
from langgraph.checkpoint.sqlite.aio import AsyncSqliteSaver

logger = logging.getLogger(__name__)

BUSY_TIMEOUT_MS = 5000
T = TypeVar("T")


def recent_messages(messages: Sequence[BaseMessage], limit: int) -> list[BaseMessage]:
    """The last `limit` messages: what an LLM call sees. The stored history keeps them all."""
    if limit <= 0:
        return []
    return list(messages[-limit:])


class ResilientSqliteSaver(AsyncSqliteSaver):
    """AsyncSqliteSaver that retries a locked database and never fails a turn over memory."""

    def __init__(self, conn: Any, *, retry_attempts: int = 3, retry_delay_s: float = 0.1):
        super().__init__(conn)
        self.retry_attempts = max(1, retry_attempts)
        self.retry_delay_s = retry_delay_s

    async def _retry(self, what: str, call: Callable[[], Awaitable[T]]) -> T:
        delay = self.retry_delay_s
        for attempt in range(1, self.retry_attempts + 1):
            try:
                return await call()
            except sqlite3.OperationalError as exc:
                if "locked" not in str(exc).lower() or attempt == self.retry_attempts:
                    raise
                logger.warning("conversation store locked during %s; retry %d", what, attempt)
                await asyncio.sleep(delay)
                delay *= 2
        raise AssertionError("unreachable")

    async def aget_tuple(self, config: Any) -> Any:
        load = super().aget_tuple
        try:
            return await self._retry("load", lambda: load(config))
        except Exception:
            # Unreadable or corrupt: the conversation starts afresh rather than failing.
            logger.warning(
                "could not load conversation %s; starting fresh", _thread(config), exc_info=True
            )
            return None

    async def aput(self, config: Any, checkpoint: Any, metadata: Any, new_versions: Any) -> Any:
        save = super().aput
        try:
            return await self._retry(
                "save", lambda: save(config, checkpoint, metadata, new_versions)
            )
        except Exception:
            # Stateless fallback: the answer still reaches the guest; this turn is not saved.
            logger.exception(
                "could not save conversation %s; continuing without memory", _thread(config)
            )
            return config

    async def aput_writes(
        self, config: Any, writes: Any, task_id: str, task_path: str = ""
    ) -> None:
        save = super().aput_writes
        try:
            await self._retry("save writes", lambda: save(config, writes, task_id, task_path))
        except Exception:
            logger.exception("could not save pending writes of %s", _thread(config))


def _thread(config: Any) -> str:
    return str((config or {}).get("configurable", {}).get("thread_id", "?"))


async def delete_threads_older_than(saver: BaseCheckpointSaver, max_age: timedelta) -> int:
    """Deletes every conversation whose latest checkpoint is older than `max_age`.

    A checkpoint's time lives inside its blob (`checkpoint["ts"]`), so each thread's latest
    checkpoint is loaded to read it. Returns how many threads were deleted."""
    cutoff = datetime.now(UTC) - max_age
    deleted = 0
    for thread_id in await _thread_ids(saver):
        latest = await saver.aget_tuple({"configurable": {"thread_id": thread_id}})
        if latest is None:
            continue
        stamp = datetime.fromisoformat(str(latest.checkpoint["ts"]))
        if stamp.tzinfo is None:
            stamp = stamp.replace(tzinfo=UTC)
        if stamp < cutoff:
            await saver.adelete_thread(thread_id)
            deleted += 1
    return deleted


async def _thread_ids(saver: BaseCheckpointSaver) -> list[str]:
    if isinstance(saver, AsyncSqliteSaver):
        async with saver.conn.execute("SELECT DISTINCT thread_id FROM checkpoints") as cursor:
            return [str(row[0]) for row in await cursor.fetchall()]
    seen: dict[str, None] = {}
    async for item in saver.alist(None):
        seen[str(item.config["configurable"]["thread_id"])] = None
    return list(seen)


@asynccontextmanager
async def periodic_cleanup(
    saver: BaseCheckpointSaver, *, max_age: timedelta, interval: timedelta
) -> AsyncIterator[asyncio.Task[None]]:
    """A background task that deletes old conversations now and then every `interval`.

    A failed sweep is logged and the next one runs as planned: cleanup is never critical."""

    async def sweep_forever() -> None:
        while True:
            try:
                count = await delete_threads_older_than(saver, max_age)
                if count:
                    logger.info("deleted %d conversations older than %s", count, max_age)
            except Exception:
                logger.exception("conversation cleanup failed; will retry")
            await asyncio.sleep(interval.total_seconds())

    task = asyncio.create_task(sweep_forever(), name="conversation-cleanup")
    try:
        yield task
    finally:
        task.cancel()
        try:
            await task
        except asyncio.CancelledError:
            pass


@asynccontextmanager
async def open_checkpointer(
    kind: Literal["sqlite", "memory"],
    path: Path | None = None,
    *,
    retry_attempts: int = 3,
    retry_delay_s: float = 0.1,
) -> AsyncIterator[BaseCheckpointSaver]:
    if kind == "memory":
        yield InMemorySaver()
        return
    if path is None:
        raise ValueError("a sqlite checkpointer needs a file path")
    import aiosqlite

    path.parent.mkdir(parents=True, exist_ok=True)
    conn = await aiosqlite.connect(str(path))
    try:
        await conn.execute("PRAGMA journal_mode=WAL")
        await conn.execute(f"PRAGMA busy_timeout={BUSY_TIMEOUT_MS}")
        saver = ResilientSqliteSaver(
            conn, retry_attempts=retry_attempts, retry_delay_s=retry_delay_s
        )
        await saver.setup()
        yield saver
    finally:
        await conn.close()
