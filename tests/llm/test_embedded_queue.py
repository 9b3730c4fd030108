"""The embedded model behind its queue, driven by a stand-in llama.cpp server (no weights):
a call's time limit starts when it runs, and a waiting turn streams its place."""

from __future__ import annotations

import asyncio
import threading
import time
from pathlib import Path

from langchain_core.messages import HumanMessage
from langgraph.checkpoint.memory import InMemorySaver
from langgraph.graph import START, MessagesState, StateGraph

from frontdesk.agentkit.streaming import stream_turn
from frontdesk.llm.embedded import EmbeddedChatModel
from frontdesk.llm.llama_server import LlamaServerRuntime, RuntimeKey
from frontdesk.llm.scheduling import Priority, caller_scope
from frontdesk.llm.turn_clock import turn_clock_scope


def chunk(text: str | None = None, finish: str | None = None) -> dict:
    delta = {"content": text} if text is not None else {"role": "assistant", "content": None}
    return {"choices": [{"delta": delta, "finish_reason": finish}]}


class FakeLlamaServer:
    """xllamacpp's in-process server: answers "ok" at once."""

    def handle_chat_completions(self, payload, callback):
        for item in (chunk("ok"), chunk(finish="stop")):
            if callback(item):
                return


def model_on(tmp_path: Path, **fields) -> EmbeddedChatModel:
    runtime = LlamaServerRuntime(RuntimeKey(tmp_path / "fake.gguf", 1024, 1), parallel_calls=1)
    runtime._server = FakeLlamaServer()
    model = EmbeddedChatModel(model_path=tmp_path / "fake.gguf", **fields)
    model._runtime = runtime
    return model


async def test_time_waiting_in_the_queue_does_not_count_against_a_call(tmp_path):
    model = model_on(tmp_path, timeout_s=0.1)
    busy = model.runtime.scheduler.acquire_blocking()  # another call holds the model
    call = asyncio.create_task(model.ainvoke("hi"))
    await asyncio.sleep(0.4)  # four time limits spent waiting
    assert not call.done()
    busy.release()
    assert (await call).content == "ok"
    assert model.runtime.scheduler.stats().running == 0


def test_a_blocking_call_also_starts_its_clock_when_it_runs(tmp_path):
    model = model_on(tmp_path, timeout_s=0.1)
    busy = model.runtime.scheduler.acquire_blocking()
    results: list[str] = []
    worker = threading.Thread(target=lambda: results.append(model.invoke("hi").content))
    worker.start()
    time.sleep(0.3)
    busy.release()
    worker.join(5)
    assert results == ["ok"]


def answer_graph(model: EmbeddedChatModel):
    async def answer(state: MessagesState) -> dict:
        return {"messages": [await model.ainvoke(state["messages"])]}

    return (
        StateGraph(MessagesState)
        .add_node("answer", answer)
        .add_edge(START, "answer")
        .compile(checkpointer=InMemorySaver())
    )


async def test_a_waiting_turn_streams_its_place_and_still_answers_within_its_budget(tmp_path):
    model = model_on(tmp_path)
    graph = answer_graph(model)
    scheduler = model.runtime.scheduler
    busy = scheduler.acquire_blocking()
    with caller_scope("someone-else", Priority.INTERACTIVE):
        ahead = asyncio.create_task(scheduler.acquire())  # one more call waits before ours
    await asyncio.sleep(0.05)

    async def turn() -> list:
        # A 1 s budget, and the turn waits 1.25 s: waiting does not use it up. (With 0.2 s
        # the turn's own start-up could spend the budget on a loaded machine, CI showed.)
        with caller_scope("guest", Priority.INTERACTIVE), turn_clock_scope(1.0):
            return [
                e
                async for e in stream_turn(
                    graph,
                    {"messages": [HumanMessage("hi")]},
                    {"configurable": {"thread_id": "q1"}},
                    thread_id="q1",
                    token_nodes={"answer"},
                    sources_of=lambda state: {"sources": []},
                    durability="exit",
                )
            ]

    task = asyncio.create_task(turn())
    await asyncio.sleep(1.25)
    busy.release()
    (await ahead).release()
    await asyncio.sleep(1.25)
    events = await task
    queue = [e.data for e in events if e.event == "progress" and e.data.get("stage") == "queue"]
    assert queue[0] == {"stage": "queue", "position": 2, "waiting": 2}
    assert {"stage": "queue", "position": 1, "waiting": 1} in queue
    assert queue[-1]["position"] == 0  # its turn came
    assert [e.event for e in events][-3:] == ["token", "sources", "done"]
    assert "".join(e.data["content"] for e in events if e.event == "token") == "ok"
