"""The fair queue in front of the embedded model: who runs next, and what a waiting call hears.

No model and no timing: a test holds the only place (capacity 1), queues calls behind it, and
releases places one by one, recording who got in.
"""

from __future__ import annotations

import asyncio
import threading

import pytest

from frontdesk.llm import turn_clock
from frontdesk.llm.scheduling import (
    CallScheduler,
    Priority,
    caller_scope,
    current_caller,
    queue_stats,
)
from frontdesk.llm.turn_clock import current_turn_clock, turn_clock_scope


async def settle() -> None:
    """Let every queued task run until it blocks again."""
    for _ in range(5):
        await asyncio.sleep(0)


class Queue:
    """Calls queued behind one running call; `release_all` records the order they ran in."""

    def __init__(self, capacity: int = 1) -> None:
        self.scheduler = CallScheduler(capacity)
        self.ran: list[str] = []
        self.places: dict[str, list[tuple[int, int]]] = {}
        self.tasks: list[asyncio.Task] = []

    async def hold(self, caller: str = "holder", priority=Priority.INTERACTIVE):
        with caller_scope(caller, priority):
            return await self.scheduler.acquire()

    def queue(self, name: str, caller: str, priority=Priority.INTERACTIVE) -> asyncio.Task:
        places = self.places.setdefault(name, [])

        async def report(position: int, waiting: int) -> None:
            places.append((position, waiting))

        async def call() -> None:
            with caller_scope(caller, priority):
                grant = await self.scheduler.acquire(on_position=report)
            self.ran.append(name)
            # Hold the place until the test lets the next one in.
            await self.next_turn.wait()
            self.next_turn.clear()
            grant.release()

        task = asyncio.create_task(call())
        self.tasks.append(task)
        return task

    async def release_all(self, first) -> list[str]:
        first.release()
        while not all(t.done() for t in self.tasks):
            await settle()
            self.next_turn.set()
            await settle()
        return self.ran

    @property
    def next_turn(self) -> asyncio.Event:
        if not hasattr(self, "_next"):
            self._next = asyncio.Event()
        return self._next


async def test_interactive_calls_run_before_background_work():
    q = Queue()
    first = await q.hold()
    q.queue("eval-1", "eval", Priority.BACKGROUND)
    q.queue("eval-2", "eval", Priority.BACKGROUND)
    await settle()
    q.queue("guest", "10.0.0.5", Priority.INTERACTIVE)
    await settle()
    assert await q.release_all(first) == ["guest", "eval-1", "eval-2"]


async def test_a_flooding_caller_cannot_hold_back_another():
    q = Queue()
    first = await q.hold("flood")
    for i in range(6):
        q.queue(f"flood-{i}", "flood")
    await settle()
    q.queue("other-0", "other")
    q.queue("other-1", "other")
    await settle()
    # "other" has not been served yet, "flood" has: other goes first, then they alternate.
    order = await q.release_all(first)
    assert order[:4] == ["other-0", "flood-0", "other-1", "flood-1"]
    assert order[4:] == ["flood-2", "flood-3", "flood-4", "flood-5"]


async def test_a_waiting_call_hears_its_place_until_its_turn():
    q = Queue()
    first = await q.hold()
    for name in ("a", "b", "c"):
        q.queue(name, name)
        await settle()
    assert q.places["a"] == [(1, 1), (1, 2), (1, 3)]  # the queue grew behind it
    assert q.places["c"] == [(3, 3)]
    await q.release_all(first)
    # Each moved up as the ones ahead started; 0 says "your turn now".
    assert [p for p, _ in q.places["c"]] == [3, 2, 1, 0]
    assert q.places["c"][-2:] == [(1, 1), (0, 0)]


async def test_a_cancelled_waiter_leaves_the_queue_and_the_others_move_up():
    q = Queue()
    first = await q.hold()
    q.queue("a", "a")
    await settle()
    b = q.queue("b", "b")
    await settle()
    assert q.scheduler.stats().waiting == 2
    q.tasks[0].cancel()
    await settle()
    assert q.places["b"][-1] == (1, 1)
    assert q.scheduler.stats().waiting == 1
    first.release()
    await settle()
    q.next_turn.set()
    await b
    assert q.ran == ["b"]
    assert q.scheduler.stats().running == 0


async def test_stats_count_waiting_and_running_calls_by_priority():
    q = Queue(capacity=2)
    one, two = await q.hold("a"), await q.hold("b")
    q.queue("bg", "eval", Priority.BACKGROUND)
    q.queue("fg", "guest", Priority.INTERACTIVE)
    await settle()
    stats = q.scheduler.stats()
    assert (stats.waiting, stats.running, stats.capacity) == (2, 2, 2)
    assert stats.waiting_by_priority == {"background": 1, "interactive": 1}
    assert queue_stats().waiting >= 2  # the process-wide total includes this queue
    one.release()
    two.release()
    await settle()
    q.next_turn.set()
    await settle()
    q.next_turn.set()
    await asyncio.gather(*q.tasks)


async def test_a_named_slot_runs_one_call_at_a_time_and_others_pass_it():
    scheduler = CallScheduler(2)
    with caller_scope("a"):
        router = await scheduler.acquire("router")
    ran: list[str] = []

    async def call(name: str, slot: str | None) -> None:
        with caller_scope(name):
            async with asyncio.timeout(5):
                grant = await scheduler.acquire(slot)
        ran.append(name)
        grant.release()

    pinned = asyncio.create_task(call("pinned", "router"))
    await settle()
    free = asyncio.create_task(call("free", None))
    await settle()
    assert ran == ["free"]  # the busy slot does not block a call that can go elsewhere
    router.release()
    await asyncio.gather(pinned, free)
    assert ran == ["free", "pinned"]


def test_blocking_callers_share_the_queue_with_async_ones():
    scheduler = CallScheduler(1)
    first = scheduler.acquire_blocking()
    ran: list[str] = []

    def worker() -> None:
        with scheduler.acquire_blocking():
            ran.append("worker")

    thread = threading.Thread(target=worker)
    thread.start()
    while scheduler.stats().waiting == 0:
        threading.Event().wait(0.001)
    assert ran == []
    first.release()
    thread.join(5)
    assert ran == ["worker"] and scheduler.stats().running == 0


async def test_outside_any_scope_calls_are_local_background_work():
    assert current_caller() == ("local", Priority.BACKGROUND)
    with caller_scope("10.0.0.7"):
        assert current_caller() == ("10.0.0.7", Priority.INTERACTIVE)
    assert current_caller() == ("local", Priority.BACKGROUND)


async def test_waiting_pauses_the_turn_clock():
    now = [100.0]
    scheduler = CallScheduler(1)
    first = scheduler.acquire_blocking()
    with turn_clock_scope(10.0, clock=lambda: now[0]) as clock:
        now[0] += 2.0  # ran for 2 s (retrieval, say)
        task = asyncio.create_task(scheduler.acquire())
        await settle()
        assert clock.waiting and clock.remaining_s() is None
        now[0] += 300.0  # waited five minutes for the model
        first.release()
        grant = await task
        assert not clock.waiting
        assert clock.used_s() == pytest.approx(2.0)
        assert clock.waited_s == pytest.approx(300.0)
        now[0] += 3.0
        assert clock.remaining_s() == pytest.approx(5.0)
        grant.release()
    assert current_turn_clock() is None


async def test_the_clock_limit_does_not_expire_while_waiting():
    scheduler = CallScheduler(1)
    first = scheduler.acquire_blocking()
    with turn_clock_scope(0.05) as clock:
        async with clock.limit():
            task = asyncio.create_task(scheduler.acquire())
            await settle()
            await asyncio.sleep(0.2)  # four budgets spent waiting: no timeout
            first.release()
            grant = await task
            grant.release()
        with pytest.raises(TimeoutError):
            async with clock.limit():
                await asyncio.sleep(1.0)  # running: the budget runs out


async def test_a_callers_older_turn_goes_before_its_newer_ones():
    q = Queue()
    first = await q.hold("guest")
    with turn_clock_scope(60):  # turn 1 began first...
        older_turn = current_turn_clock()
    await asyncio.sleep(0.01)  # (monotonic clocks may tick coarsely)
    with turn_clock_scope(60):  # ...turn 2 after it, and asks the model first
        q.queue("turn-2", "guest")
        await settle()
    # Turn 1's next call (its validation, say) arrives later but its turn is older.
    token = turn_clock._turn_clock.set(older_turn)
    try:
        q.queue("turn-1", "guest")
        await settle()
    finally:
        turn_clock._turn_clock.reset(token)
    assert q.places["turn-1"][-1] == (1, 2)
    assert await q.release_all(first) == ["turn-1", "turn-2"]
