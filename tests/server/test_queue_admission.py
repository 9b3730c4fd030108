"""Turns under load: beyond the bound a new turn gets 503 + Retry-After while the admitted ones
are served; a turn's time limit does not run while it waits for the model; whose turn a request
is comes from its client address."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator

from frontdesk.assistants.base import Answer, ChatEvent
from frontdesk.llm.scheduling import CallScheduler, Priority, current_caller

TELECOM_TURN = {"message": "router?", "session_id": "s1", "user_id": "U1"}


class QueuedService:
    """Answers after a place in `scheduler` (the model's queue stand-in) and, if set, after
    `gate` opens; records whose turn each call was."""

    def __init__(self, name: str, scheduler: CallScheduler, gate: asyncio.Event | None = None):
        self.name = name
        self.scheduler = scheduler
        self.gate = gate
        self.started = 0
        self.callers: list[tuple[str, Priority]] = []

    @property
    def ready(self) -> bool:
        return True

    def info(self) -> dict:
        return {"name": self.name, "document_count": 1}

    async def _wait_turn(self) -> None:
        self.started += 1
        self.callers.append(current_caller())
        if self.gate is not None:
            await self.gate.wait()
        with await self.scheduler.acquire():
            pass

    async def stream(self, message, thread_id, *, user_id=None) -> AsyncIterator[ChatEvent]:
        yield ChatEvent("metadata", {"thread_id": thread_id})
        await self._wait_turn()
        yield ChatEvent("token", {"content": "answered"})
        yield ChatEvent("sources", {"sources": []})
        yield ChatEvent("done", {"done": True})

    async def ask(self, message, thread_id, *, user_id=None) -> Answer:
        await self._wait_turn()
        return Answer("answered", "technical", 1.0, [], None, thread_id)

    async def aclose(self) -> None:
        pass


async def until(condition, timeout_s: float = 5.0) -> None:
    async with asyncio.timeout(timeout_s):
        while not condition():
            await asyncio.sleep(0.01)


async def test_over_the_bound_a_turn_gets_503_while_the_others_are_served(
    settings, start, parse_sse
):
    settings.queue_max_turns = 2
    gate = asyncio.Event()
    service = QueuedService("concierge", CallScheduler(1), gate)
    async with start(settings, service) as client:
        admitted = [
            asyncio.create_task(client.post("/chat", json={"message": f"q{i}"})) for i in range(2)
        ]
        await until(lambda: service.started == 2)
        refused = await client.post("/chat", json={"message": "one too many"})
        telecom_refused = await client.post("/telecom/chat", json=TELECOM_TURN)
        ready = await client.get("/health/ready")
        other = await client.get("/assistants")
        gate.set()
        answers = await asyncio.gather(*admitted)
        after = await client.post("/chat", json={"message": "later"})

    assert refused.status_code == 503 and telecom_refused.status_code == 503
    retry_after = int(refused.headers["retry-after"])
    assert retry_after >= 1 and refused.json()["retry_after_s"] == retry_after
    assert "busy" in refused.json()["error"]
    assert refused.json()["request_id"] == refused.headers["x-request-id"]
    queue = ready.json()["queue"]
    assert queue["turns_in_progress"] == 2 and queue["max_turns"] == 2
    assert queue["turned_away"] == 2
    assert other.status_code == 200  # requests that are not turns pass
    for answer in answers:
        assert [name for name, _ in parse_sse(answer.text)][-1] == "done"
    assert after.status_code == 200 and parse_sse(after.text)[-1][0] == "done"


async def test_a_turn_is_queued_as_its_client_address_at_interactive_priority(
    settings, start
):
    service = QueuedService("concierge", CallScheduler(1))
    async with start(settings, service) as client:
        await client.post("/chat", json={"message": "hi"})
    assert service.callers == [("127.0.0.1", Priority.INTERACTIVE)]


async def test_a_signed_in_caller_is_queued_as_itself_not_its_address(settings, start):
    settings.api_keys = {"crm": {"key": "crm-key-0123456789abcdef"}}
    service = QueuedService("concierge", CallScheduler(1))
    bearer = {"Authorization": "Bearer crm-key-0123456789abcdef"}
    async with start(settings, service) as client:
        await client.post("/chat", json={"message": "hi", "user_id": "u1"}, headers=bearer)
        await client.post("/chat", json={"message": "hi"}, headers=bearer)
        await client.get("/session")  # the browser's cookie, kept by the client
        await client.post("/chat", json={"message": "hi"})
    callers = [caller for caller, _priority in service.callers]
    assert callers[:2] == ["key:crm/u1", "key:crm"]
    assert callers[2].startswith("web:") and callers[2] != "127.0.0.1"


async def test_health_ready_reports_the_model_queue(settings, start):
    scheduler = CallScheduler(1)
    busy = scheduler.acquire_blocking()
    waiting = asyncio.create_task(scheduler.acquire())
    async with start(settings, QueuedService("concierge", scheduler)) as client:
        await until(lambda: scheduler.stats().waiting == 1)
        queue = (await client.get("/health/ready")).json()["queue"]
    # Process-wide counts: at least this scheduler's (other tests' queues are idle or gone).
    assert queue["waiting"] >= 1 and queue["running"] >= 1
    busy.release()
    (await waiting).release()


async def test_waiting_for_the_model_does_not_use_up_a_streamed_turns_time(
    settings, start, parse_sse
):
    settings.sse_timeout_s = 0.2
    scheduler = CallScheduler(1)
    busy = scheduler.acquire_blocking()
    service = QueuedService("concierge", scheduler)
    async with start(settings, service) as client:
        turn = asyncio.create_task(client.post("/chat", json={"message": "hi"}))
        await until(lambda: scheduler.stats().waiting == 1)
        await asyncio.sleep(0.6)  # three time limits spent waiting
        busy.release()
        events = parse_sse((await turn).text)
    assert [name for name, _ in events] == ["metadata", "token", "sources", "done"]


async def test_waiting_for_the_model_does_not_use_up_a_telecom_turns_time(settings, start):
    settings.sse_timeout_s = 0.2
    scheduler = CallScheduler(1)
    busy = scheduler.acquire_blocking()
    async with start(settings, QueuedService("telecom", scheduler)) as client:
        turn = asyncio.create_task(client.post("/telecom/chat", json=TELECOM_TURN))
        await until(lambda: scheduler.stats().waiting == 1)
        await asyncio.sleep(0.6)
        busy.release()
        response = await turn
    assert response.status_code == 200 and response.json()["reply"] == "answered"
