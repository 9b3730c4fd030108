"""The SQLite conversation store: WAL, retries on a locked file, stateless fallback, cleanup."""

from __future__ import annotations

import sqlite3
from datetime import UTC, datetime, timedelta

from langchain_core.messages import AIMessage, HumanMessage
from langgraph.graph import START, MessagesState, StateGraph

from frontdesk.memory.checkpointer import (
    ResilientSqliteSaver,
    delete_threads_older_than,
    open_checkpointer,
    recent_messages,
)


def _echo_graph(saver):
    def reply(state: MessagesState) -> dict:
        return {"messages": [AIMessage(content=f"seen {len(state['messages'])}")]}

    graph = StateGraph(MessagesState)
    graph.add_node("reply", reply)
    graph.add_edge(START, "reply")
    return graph.compile(checkpointer=saver)


def _config(thread: str) -> dict:
    return {"configurable": {"thread_id": thread}}


async def test_store_uses_wal_and_a_busy_timeout(tmp_path):
    async with open_checkpointer("sqlite", tmp_path / "c.sqlite") as saver:
        assert isinstance(saver, ResilientSqliteSaver)
        async with saver.conn.execute("PRAGMA journal_mode") as cursor:
            assert (await cursor.fetchone())[0] == "wal"
        async with saver.conn.execute("PRAGMA busy_timeout") as cursor:
            assert (await cursor.fetchone())[0] == 5000


async def test_history_survives_reopening_the_store(tmp_path):
    path = tmp_path / "c.sqlite"
    async with open_checkpointer("sqlite", path) as saver:
        await _echo_graph(saver).ainvoke({"messages": [HumanMessage("one")]}, _config("t"))
    async with open_checkpointer("sqlite", path) as saver:
        state = await _echo_graph(saver).ainvoke({"messages": [HumanMessage("two")]}, _config("t"))
    assert [m.content for m in state["messages"]] == ["one", "seen 1", "two", "seen 3"]


async def test_a_locked_store_is_retried_then_succeeds(tmp_path, monkeypatch):
    async with open_checkpointer("sqlite", tmp_path / "c.sqlite", retry_delay_s=0.001) as saver:
        calls = {"n": 0}
        real_aput = super(ResilientSqliteSaver, saver).aput

        async def flaky(config, checkpoint, metadata, versions):
            calls["n"] += 1
            if calls["n"] < 3:
                raise sqlite3.OperationalError("database is locked")
            return await real_aput(config, checkpoint, metadata, versions)

        monkeypatch.setattr(
            "langgraph.checkpoint.sqlite.aio.AsyncSqliteSaver.aput", lambda self, *a: flaky(*a)
        )
        await _echo_graph(saver).ainvoke({"messages": [HumanMessage("hi")]}, _config("t"))
        assert calls["n"] >= 3
        monkeypatch.undo()
        stored = await saver.aget_tuple(_config("t"))
        assert stored is not None


async def test_a_failing_store_falls_back_to_stateless_turns(tmp_path, monkeypatch):
    async with open_checkpointer("sqlite", tmp_path / "c.sqlite", retry_delay_s=0.001) as saver:

        async def broken(self, *args):
            raise sqlite3.OperationalError("disk I/O error")

        monkeypatch.setattr("langgraph.checkpoint.sqlite.aio.AsyncSqliteSaver.aput", broken)
        monkeypatch.setattr("langgraph.checkpoint.sqlite.aio.AsyncSqliteSaver.aget_tuple", broken)
        graph = _echo_graph(saver)
        first = await graph.ainvoke({"messages": [HumanMessage("one")]}, _config("t"))
        second = await graph.ainvoke({"messages": [HumanMessage("two")]}, _config("t"))
    # Both turns are answered; nothing was remembered between them.
    assert first["messages"][-1].content == "seen 1"
    assert second["messages"][-1].content == "seen 1"


async def test_cleanup_deletes_only_old_conversations(tmp_path):
    async with open_checkpointer("sqlite", tmp_path / "c.sqlite") as saver:
        graph = _echo_graph(saver)
        for thread in ("old", "new"):
            await graph.ainvoke({"messages": [HumanMessage("hi")]}, _config(thread))
        # Age the "old" thread by rewriting its checkpoints' timestamps.
        old = await saver.aget_tuple(_config("old"))
        aged = dict(old.checkpoint, ts=(datetime.now(UTC) - timedelta(hours=30)).isoformat())
        await super(ResilientSqliteSaver, saver).aput(old.config, aged, old.metadata, {})
        assert await delete_threads_older_than(saver, timedelta(hours=24)) == 1
        assert await saver.aget_tuple(_config("old")) is None
        assert await saver.aget_tuple(_config("new")) is not None


def test_recent_messages_keeps_the_last_n():
    messages = [HumanMessage(str(i)) for i in range(30)]
    assert [m.content for m in recent_messages(messages, 20)] == [str(i) for i in range(10, 30)]
    assert recent_messages(messages, 0) == []
