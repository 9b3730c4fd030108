"""EmbeddedChatModel and its llama.cpp runtime wrapper, driven by stand-in runtimes (no model).

The real model is exercised in test_embedded_model.py (marked `model`); these tests pin down
the plumbing: worker thread + queue streaming, cancellation, errors, slots, request options.
"""

from __future__ import annotations

import asyncio
import json
import threading
import time
from pathlib import Path

import pytest
from langchain_core.messages import HumanMessage, SystemMessage
from langgraph.graph import START, MessagesState, StateGraph
from pydantic import BaseModel

from frontdesk.llm.embedded import EmbeddedChatModel
from frontdesk.llm.llama_server import LlamaRuntimeError, LlamaServerRuntime, RuntimeKey
from frontdesk.llm.scheduling import CallScheduler


def chunk(text: str | None = None, finish: str | None = None, **extra) -> dict:
    delta = {"content": text} if text is not None else {"role": "assistant", "content": None}
    return {"choices": [{"delta": delta, "finish_reason": finish}], **extra}


class FakeRuntime:
    """Answers like LlamaServerRuntime.chat: blocking, pushing chunks into `on_chunk`."""

    def __init__(self, pieces: list[str], delay_s: float = 0.0, error: Exception | None = None):
        self.pieces, self.delay_s, self.error = pieces, delay_s, error
        self.requests: list[tuple[dict, str | None]] = []
        self.stopped_early = threading.Event()
        self.thread_names: list[str] = []
        self.scheduler = CallScheduler(4)

    def spawn(self, work, cancelled, name):
        threading.Thread(target=work, name=name, daemon=True).start()

    def chat(self, request, *, slot, on_chunk, cancelled, deadline):
        self.requests.append((request, slot))
        self.thread_names.append(threading.current_thread().name)
        if self.error:
            raise self.error
        on_chunk(chunk())
        for piece in self.pieces:
            if cancelled.is_set():
                self.stopped_early.set()
                return
            time.sleep(self.delay_s)  # blocking, like llama.cpp decoding a token
            on_chunk(chunk(piece))
        timings = {"prompt_n": 7, "cache_n": 5, "predicted_n": len(self.pieces)}
        on_chunk(chunk(finish="stop", timings=timings))


def model_with(runtime, tmp_path: Path, **fields) -> EmbeddedChatModel:
    model = EmbeddedChatModel(model_path=tmp_path / "fake.gguf", **fields)
    model._runtime = runtime
    return model


async def test_tokens_stream_through_langgraph_events(tmp_path):
    runtime = FakeRuntime(["The ", "pool ", "opens ", "at ", "eight."])
    model = model_with(runtime, tmp_path)

    async def answer(state: MessagesState) -> dict:
        return {"messages": [await model.ainvoke(state["messages"])]}

    graph = StateGraph(MessagesState).add_node("answer", answer).add_edge(START, "answer").compile()
    tokens = [
        event["data"]["chunk"].content
        async for event in graph.astream_events({"messages": [HumanMessage("pool?")]}, version="v2")
        if event["event"] == "on_chat_model_stream"
    ]
    assert [t for t in tokens if t] == runtime.pieces
    assert runtime.thread_names[0].startswith("frontdesk-llm")  # ran in a worker thread


async def test_generation_does_not_block_the_event_loop(tmp_path):
    model = model_with(FakeRuntime(["x "] * 10, delay_s=0.02), tmp_path)
    ticks = 0

    async def ticker():
        nonlocal ticks
        while True:
            await asyncio.sleep(0.005)
            ticks += 1

    task = asyncio.create_task(ticker())
    reply = await model.ainvoke("go")
    task.cancel()
    assert reply.content == "x " * 10
    # ~200 ms of blocking decode: a blocked loop would have ticked at most once or twice.
    assert ticks >= 10


async def test_usage_and_cache_hits_are_reported(tmp_path):
    model = model_with(FakeRuntime(["a", "b"]), tmp_path)
    reply = await model.ainvoke("hi")
    assert reply.usage_metadata["input_tokens"] == 12  # evaluated 7 + cached 5
    assert reply.usage_metadata["output_tokens"] == 2
    assert reply.response_metadata["timings"]["cache_n"] == 5
    assert reply.response_metadata["finish_reason"] == "stop"


async def test_stopping_early_cancels_the_generation(tmp_path):
    runtime = FakeRuntime(["tok "] * 200, delay_s=0.005)
    model = model_with(runtime, tmp_path)
    stream = model.astream("long answer please")
    async for first in stream:
        assert first.content
        break
    await stream.aclose()
    assert await asyncio.to_thread(runtime.stopped_early.wait, 2.0)


def test_sync_stream_cancels_too(tmp_path):
    runtime = FakeRuntime(["tok "] * 200, delay_s=0.005)
    stream = model_with(runtime, tmp_path).stream("long")
    next(stream)
    stream.close()
    assert runtime.stopped_early.wait(2.0)


async def test_runtime_errors_reach_the_caller(tmp_path):
    error = LlamaRuntimeError("request (5000 tokens) exceeds the available context size")
    model = model_with(FakeRuntime([], error=error), tmp_path)
    with pytest.raises(LlamaRuntimeError, match="exceeds the available context"):
        await model.ainvoke("hi")
    with pytest.raises(LlamaRuntimeError):
        model.invoke("hi")


async def test_settings_and_messages_go_into_the_request(tmp_path):
    runtime = FakeRuntime(["ok"])
    model = model_with(runtime, tmp_path, temperature=0.1, max_tokens=50, seed=3)
    await model.ainvoke([SystemMessage("You are terse."), HumanMessage("Hi")], stop=["\n\n"])
    request, slot = runtime.requests[0]
    assert request["messages"] == [
        {"role": "system", "content": "You are terse."},
        {"role": "user", "content": "Hi"},
    ]
    assert (request["temperature"], request["max_tokens"], request["seed"]) == (0.1, 50, 3)
    assert request["stop"] == ["\n\n"] and request["cache_prompt"] is True
    assert slot is None  # llama.cpp picks the slot by prompt prefix


async def test_cache_slots_can_be_pinned(tmp_path):
    runtime = FakeRuntime(["ok"])
    model = model_with(runtime, tmp_path)
    await model.with_cache_slot("router").ainvoke("a")
    await model.ainvoke("b", cache_slot="validator")
    assert [slot for _, slot in runtime.requests] == ["router", "validator"]
    assert model.cache_slot is None  # with_cache_slot made a copy
    with pytest.raises(ValueError, match="unknown cache slot"):
        model.with_cache_slot("nonsense")


class Room(BaseModel):
    number: int
    view: str


async def test_structured_output_sends_the_json_schema_and_parses(tmp_path):
    runtime = FakeRuntime([json.dumps({"number": 12, "view": "sea"})])
    result = await model_with(runtime, tmp_path).with_structured_output(Room).ainvoke("room?")
    assert result == Room(number=12, view="sea")
    response_format = runtime.requests[0][0]["response_format"]
    assert response_format["type"] == "json_schema"
    assert response_format["json_schema"]["schema"] == Room.model_json_schema()


def test_structured_output_refuses_other_methods(tmp_path):
    with pytest.raises(ValueError, match="json_schema"):
        model_with(FakeRuntime([]), tmp_path).with_structured_output(
            Room, method="function_calling"
        )


# ---------------------------------------------------------------- LlamaServerRuntime.chat


class FakeServer:
    def __init__(self, chunks: list[dict], delay_s: float = 0.0):
        self.chunks, self.delay_s = chunks, delay_s
        self.payloads: list[dict] = []

    def handle_chat_completions(self, payload, callback):
        self.payloads.append(payload)
        for item in self.chunks:
            time.sleep(self.delay_s)
            if callback(item):  # True: stop, as llama.cpp does
                return


def runtime_with(server: FakeServer, tmp_path: Path) -> LlamaServerRuntime:
    runtime = LlamaServerRuntime(RuntimeKey(tmp_path / "fake.gguf", 1024, 1))
    runtime._server = server
    return runtime


def call(runtime, slot=None, timeout_s=5.0, cancelled=None):
    received: list[dict] = []
    runtime.chat(
        {"messages": []},
        slot=slot,
        on_chunk=received.append,
        cancelled=cancelled or threading.Event(),
        deadline=time.monotonic() + timeout_s,
    )
    return received


def test_runtime_maps_slots_and_forces_streaming(tmp_path):
    server = FakeServer([chunk("a"), chunk(finish="stop")])
    runtime = runtime_with(server, tmp_path)
    assert len(call(runtime, slot="router")) == 2
    call(runtime)
    assert [p["id_slot"] for p in server.payloads] == [runtime.slots.index("router"), -1]
    assert all(p["stream"] for p in server.payloads)


def test_runtime_turns_llama_errors_into_exceptions(tmp_path):
    error = {"error": {"code": 400, "message": "request exceeds the available context size"}}
    with pytest.raises(LlamaRuntimeError, match="exceeds the available context size"):
        call(runtime_with(FakeServer([error]), tmp_path))


def test_runtime_stops_at_the_deadline(tmp_path):
    server = FakeServer([chunk("x")] * 50, delay_s=0.02)
    with pytest.raises(TimeoutError):
        call(runtime_with(server, tmp_path), timeout_s=0.1)


def test_runtime_reraises_errors_from_the_consumer(tmp_path):
    runtime = runtime_with(FakeServer([chunk("a"), chunk(finish="stop")]), tmp_path)

    def explode(_chunk):
        raise KeyError("consumer broke")

    with pytest.raises(KeyError, match="consumer broke"):
        runtime.chat(
            {},
            slot=None,
            on_chunk=explode,
            cancelled=threading.Event(),
            deadline=time.monotonic() + 5,
        )


def test_close_cancels_in_flight_requests_and_unloads(tmp_path):
    server = FakeServer([chunk("x")] * 500, delay_s=0.01)
    runtime = runtime_with(server, tmp_path)
    cancelled = threading.Event()
    received: list[dict] = []
    runtime.spawn(
        lambda: runtime.chat(
            {},
            slot=None,
            on_chunk=received.append,
            cancelled=cancelled,
            deadline=time.monotonic() + 30,
        ),
        cancelled,
        name="test-worker",
    )
    time.sleep(0.05)
    started = time.monotonic()
    runtime.close()
    assert time.monotonic() - started < 2 and cancelled.is_set()
    assert 0 < len(received) < 500
    assert not runtime.loaded and not runtime._active


def test_runtime_refuses_nonsense_settings(tmp_path):
    with pytest.raises(ValueError, match="llm_context_tokens"):
        LlamaServerRuntime(RuntimeKey(tmp_path / "m.gguf", 10, 1))
    with pytest.raises(ValueError, match="llm_threads"):
        LlamaServerRuntime(RuntimeKey(tmp_path / "m.gguf", 1024, 0))


class StalledRuntime(FakeRuntime):
    """Never produces a token (think: a huge prompt on a slow machine)."""

    def chat(self, request, *, slot, on_chunk, cancelled, deadline):
        cancelled.wait(2.0)
        self.stopped_early.set()


async def test_a_stalled_runtime_times_out_and_is_cancelled(tmp_path, monkeypatch):
    monkeypatch.setattr("frontdesk.llm.embedded._CONSUMER_GRACE_S", 0.0)
    runtime = StalledRuntime([])
    model = model_with(runtime, tmp_path, timeout_s=0.1)
    started = time.monotonic()
    with pytest.raises(TimeoutError, match="did not answer within 0.1 s"):
        await model.ainvoke("hi")
    assert time.monotonic() - started < 1.5
    assert await asyncio.to_thread(runtime.stopped_early.wait, 2.0)
    with pytest.raises(TimeoutError):
        model.invoke("hi")
