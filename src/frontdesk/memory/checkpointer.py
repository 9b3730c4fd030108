"""Conversation memory: LangGraph checkpointers.

SQLite on disk by default, so a restarted server still knows every thread; in memory for tests
and throw-away runs. Both are async context managers so connections close cleanly.
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Literal

from langgraph.checkpoint.base import BaseCheckpointSaver
from langgraph.checkpoint.memory import InMemorySaver


@asynccontextmanager
async def open_checkpointer(
    kind: Literal["sqlite", "memory"], path: Path | None = None
) -> AsyncIterator[BaseCheckpointSaver]:
    if kind == "memory":
        yield InMemorySaver()
        return
    if path is None:
        raise ValueError("a sqlite checkpointer needs a file path")
    from langgraph.checkpoint.sqlite.aio import AsyncSqliteSaver

    path.parent.mkdir(parents=True, exist_ok=True)
    async with AsyncSqliteSaver.from_conn_string(str(path)) as saver:
        await saver.setup()
        yield saver
