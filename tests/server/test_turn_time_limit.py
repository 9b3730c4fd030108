"""A turn's time limit: a service that keeps the turn clock answers out of time by itself, late
on a loaded machine, never as the server's "took too long"; one that ignores the clock is cut
off a little after the limit, told what to do."""

from __future__ import annotations

import asyncio
import time

from frontdesk.assistants.base import ChatEvent
from frontdesk.llm.turn_clock import TurnClock, current_turn_clock
from frontdesk.server.streaming import TIME_LIMIT_SETTING, out_of_time_grace_s, turn_backstop

OUT_OF_TIME_ANSWER = "I ran out of time; the spa opens at 9 am (from what I found)."


class ClockKeepingService:
    """Waits for its 'model' under the turn clock, as `GraphAssistant` does, and on running out
    of time spends `answer_s` writing its deterministic answer (a loaded machine)."""

    name = "concierge"
    ready = True

    def __init__(self, *, model_s: float, answer_s: float) -> None:
        self.model_s = model_s
        self.answer_s = answer_s

    def info(self):
        return {"name": "Hotel", "document_count": 1}

    async def stream(self, message, thread_id, *, user_id=None):
        yield ChatEvent("metadata", {"thread_id": thread_id})
        try:
            async with current_turn_clock().limit():
                await asyncio.sleep(self.model_s)
            yield ChatEvent("token", {"content": "The model answered."})
            sources = {"sources": ["spa"]}
        except TimeoutError:
            await asyncio.sleep(self.answer_s)  # closing the graph, reading its state...
            yield ChatEvent("replace", {"content": OUT_OF_TIME_ANSWER})
            sources = {"sources": ["spa"], "out_of_time": True}
        yield ChatEvent("sources", sources)
        yield ChatEvent("done", {"done": True})

    async def aclose(self):
        pass


async def test_a_slow_out_of_time_answer_arrives_late_not_as_an_error(settings, start, parse_sse):
    settings.sse_timeout_s = 0.4
    # Writing the answer takes six times the server's grace for a service ignoring the clock.
    service = ClockKeepingService(model_s=10, answer_s=6 * out_of_time_grace_s(0.4))
    async with start(settings, service) as client:
        began = time.perf_counter()
        events = parse_sse((await client.post("/chat", json={"message": "spa hours?"})).text)
        elapsed = time.perf_counter() - began

    assert [name for name, _ in events] == ["metadata", "replace", "sources", "done"]
    assert events[1][1] == {"content": OUT_OF_TIME_ANSWER}
    assert events[2][1]["out_of_time"] is True
    assert 0.4 + service.answer_s <= elapsed < 5


async def test_a_service_ignoring_the_clock_is_cut_off_and_told_what_to_do(
    settings, make_service, start, parse_sse
):
    settings.sse_timeout_s = 0.3
    async with start(settings, make_service(delay_s=2)) as client:
        began = time.perf_counter()
        events = parse_sse((await client.post("/chat", json={"message": "hi"})).text)
        elapsed = time.perf_counter() - began

    assert events[-1][0] == "error" and elapsed < 1.5
    text = events[-1][1]["error"]
    assert "0.3 s" in text and "ask again" in text and "shorter question" in text
    assert TIME_LIMIT_SETTING in text


async def test_the_backstop_moves_out_once_the_turn_keeps_the_clock():
    clock = TurnClock(0.2)

    async def backstop_fires_after() -> float:
        began = time.perf_counter()
        try:
            async with turn_backstop(clock, 0.2):
                await asyncio.sleep(1.0)
        except TimeoutError:
            return time.perf_counter() - began
        return -1.0

    ignored = await backstop_fires_after()
    assert 0.2 <= ignored < 0.5  # budget + a quarter of it

    async def keeps_the_clock():
        try:
            async with clock.limit():
                await asyncio.sleep(1.0)
        except TimeoutError:
            pass

    kept = TurnClock(0.2)
    clock = kept
    task = asyncio.create_task(backstop_fires_after())
    await asyncio.sleep(0.05)  # the backstop is waiting when the turn enters its own limit
    await keeps_the_clock()
    assert kept.kept
    assert await task == -1.0  # the one-second wait ended without the backstop firing
