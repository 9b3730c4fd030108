"""A fair queue in front of the embedded model: who runs next when the model is busy.

The embedded model runs a few calls at once (one per KV-cache slot at most); every other call
waits here. The order is:

- by priority: interactive turns (a person is waiting) before background work (evaluations,
  ingestion-time checks, an assistant's start-up validation with the model);
- within a priority, round-robin between callers: the caller served longest ago (or never)
  goes first, so a caller with twenty calls waiting cannot hold back one with a single call;
- within a caller, the oldest turn first: a turn's second call (a validation after the answer)
  goes before a later turn's first, so started turns finish instead of all finishing late.

Who is calling comes from context variables, so no call site passes it along: the server
wraps each request in `caller_scope(client, Priority.INTERACTIVE)`; code outside any scope
(start-up work, the CLI's evaluations) runs as `local` at background priority.

A waiting call's place is reported to `on_position(position, waiting)` (1 = next; 0 once it
starts), and its turn's clock (`turn_clock.py`) is paused while it waits: waiting is not
running time.
"""

from __future__ import annotations

import asyncio
import threading
import time
import weakref
from collections import deque
from collections.abc import Awaitable, Callable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass, field
from enum import IntEnum
from itertools import count
from typing import Self

from frontdesk.llm.turn_clock import current_turn_clock


class Priority(IntEnum):
    """Lower runs first."""

    INTERACTIVE = 0
    BACKGROUND = 1


# The LangChain custom event that carries a waiting call's place to a streamed turn.
QUEUE_EVENT = "frontdesk_queue"

# The caller outside any scope: the process itself (start-up work, CLI commands).
LOCAL_CALLER = "local"

_caller: ContextVar[str] = ContextVar("frontdesk_llm_caller", default=LOCAL_CALLER)
_priority: ContextVar[Priority] = ContextVar("frontdesk_llm_priority", default=Priority.BACKGROUND)


@contextmanager
def caller_scope(caller_id: str, priority: Priority = Priority.INTERACTIVE) -> Iterator[None]:
    """Model calls made inside this block (and in tasks and threads it starts) are queued
    as `caller_id`'s, at `priority`."""
    caller_token = _caller.set(caller_id)
    priority_token = _priority.set(priority)
    try:
        yield
    finally:
        _priority.reset(priority_token)
        _caller.reset(caller_token)


def name_caller(caller_id: str) -> None:
    """From here to the end of the current `caller_scope` (the request), model calls are
    queued as `caller_id`'s: the server names the authenticated caller once it knows it."""
    _caller.set(caller_id)


def current_caller() -> tuple[str, Priority]:
    return _caller.get(), _priority.get()


PositionCallback = Callable[[int, int], Awaitable[None]]


@dataclass(eq=False)
class _Waiter:
    caller: str
    priority: Priority
    # A named KV-cache slot the call needs to itself, or None for any slot.
    slot: str | None
    # When the call's turn began (its turn clock's start), else when the call arrived.
    arrival: float
    seq: int
    wake: Callable[[], None]
    granted: bool = False
    position: int = 0
    waiting: int = 0


@dataclass(frozen=True)
class QueueStats:
    waiting: int
    running: int
    capacity: int
    waiting_by_priority: dict[str, int] = field(default_factory=dict)


class Grant:
    """A running call's place; `release()` (or leaving the `with`) lets the next one in."""

    def __init__(self, scheduler: CallScheduler, waiter: _Waiter, waited: bool) -> None:
        self._scheduler = scheduler
        self._waiter = waiter
        self._released = False
        # Whether the call had to wait (for a last "your turn" report).
        self.waited = waited

    def release(self) -> None:
        if not self._released:
            self._released = True
            self._scheduler._release(self._waiter)

    def __enter__(self) -> Self:
        return self

    def __exit__(self, *exc: object) -> None:
        self.release()


_SCHEDULERS: weakref.WeakSet[CallScheduler] = weakref.WeakSet()


class CallScheduler:
    """At most `capacity` calls run at once; the rest wait in the fair order above.

    Thread-safe: async callers (the server) and blocking ones (worker threads, the CLI) share
    one queue. A named slot runs one call at a time; a waiter for a busy slot lets the next
    eligible waiter go first.
    """

    def __init__(self, capacity: int) -> None:
        if capacity < 1:
            raise ValueError(f"the model must run at least one call at a time, got {capacity}")
        self.capacity = capacity
        self._lock = threading.Lock()
        self._waiters: dict[str, deque[_Waiter]] = {}  # caller -> their waiting calls, in order
        self._running_by_caller: dict[str, int] = {}
        self._busy_slots: set[str] = set()
        self._running = 0
        # When each caller was last served (a counter, not a time); callers with nothing
        # waiting or running are forgotten, so a returning caller counts as new.
        self._served_at: dict[str, int] = {}
        self._ticks = count(1)
        self._seq = count()
        _SCHEDULERS.add(self)

    # ------------------------------------------------------------------ waiting

    async def acquire(
        self, slot: str | None = None, on_position: PositionCallback | None = None
    ) -> Grant:
        """Wait for this call's turn (the caller and priority come from `caller_scope`)."""
        loop = asyncio.get_running_loop()
        changed = asyncio.Event()

        def wake() -> None:
            try:
                loop.call_soon_threadsafe(changed.set)
            except RuntimeError:  # the loop is closed: nobody is waiting any more
                pass

        waiter = self._enqueue(slot, wake)
        clock = current_turn_clock()
        paused = False
        reported: tuple[int, int] | None = None
        try:
            while True:
                changed.clear()
                with self._lock:
                    granted, place = waiter.granted, (waiter.position, waiter.waiting)
                if granted:
                    break
                if not paused and clock is not None:
                    clock.pause()
                    paused = True
                if on_position is not None and place != reported:
                    reported = place
                    await on_position(*place)
                await changed.wait()
            if on_position is not None and reported is not None:
                await on_position(0, self.stats().waiting)
        except BaseException:
            self._abandon(waiter)
            raise
        finally:
            if paused and clock is not None:
                clock.resume()
        return Grant(self, waiter, waited=paused)

    def acquire_blocking(self, slot: str | None = None) -> Grant:
        """`acquire` for a worker thread: blocks until this call's turn."""
        event = threading.Event()
        waiter = self._enqueue(slot, event.set)
        clock = current_turn_clock()
        paused = False
        try:
            while True:
                with self._lock:
                    if waiter.granted:
                        break
                    event.clear()
                if not paused and clock is not None:
                    clock.pause()
                    paused = True
                event.wait()
        except BaseException:
            self._abandon(waiter)
            raise
        finally:
            if paused and clock is not None:
                clock.resume()
        return Grant(self, waiter, waited=paused)

    # ------------------------------------------------------------------ state

    def stats(self) -> QueueStats:
        with self._lock:
            by_priority: dict[str, int] = {}
            for queue in self._waiters.values():
                for waiter in queue:
                    name = waiter.priority.name.lower()
                    by_priority[name] = by_priority.get(name, 0) + 1
            return QueueStats(
                waiting=sum(by_priority.values()),
                running=self._running,
                capacity=self.capacity,
                waiting_by_priority=by_priority,
            )

    def _enqueue(self, slot: str | None, wake: Callable[[], None]) -> _Waiter:
        caller, priority = current_caller()
        clock = current_turn_clock()
        arrival = clock.started_at if clock is not None else time.monotonic()
        waiter = _Waiter(caller, priority, slot, arrival, next(self._seq), wake)
        with self._lock:
            self._waiters.setdefault(caller, deque()).append(waiter)
            self._dispatch()
        return waiter

    def _abandon(self, waiter: _Waiter) -> None:
        """A waiting call was cancelled: leave the queue, or give back a place just granted."""
        with self._lock:
            if waiter.granted:
                self._finish(waiter)
            else:
                queue = self._waiters.get(waiter.caller)
                if queue is not None and waiter in queue:
                    queue.remove(waiter)
                    if not queue:
                        del self._waiters[waiter.caller]
                        self._forget_if_idle(waiter.caller)
            self._dispatch()

    def _release(self, waiter: _Waiter) -> None:
        with self._lock:
            self._finish(waiter)
            self._dispatch()

    def _finish(self, waiter: _Waiter) -> None:
        self._running -= 1
        if waiter.slot is not None:
            self._busy_slots.discard(waiter.slot)
        left = self._running_by_caller.get(waiter.caller, 1) - 1
        if left:
            self._running_by_caller[waiter.caller] = left
        else:
            self._running_by_caller.pop(waiter.caller, None)
            self._forget_if_idle(waiter.caller)

    def _forget_if_idle(self, caller: str) -> None:
        if caller not in self._waiters and caller not in self._running_by_caller:
            self._served_at.pop(caller, None)

    def _order(self) -> list[_Waiter]:
        """Every waiter in the order they would be served if no one else arrived: round
        k takes each caller's k-th call (oldest turn first), callers served longest ago first."""
        keyed = [
            (w.priority, k, self._served_at.get(w.caller, 0), w.seq, w)
            for queue in self._waiters.values()
            for k, w in enumerate(sorted(queue, key=lambda w: (w.arrival, w.seq)))
        ]
        keyed.sort(key=lambda item: item[:4])
        return [item[-1] for item in keyed]

    def _dispatch(self) -> None:
        """Start whoever may start, then tell the others their new places (lock held)."""
        order = self._order()
        for waiter in list(order):
            if self._running >= self.capacity:
                break
            if waiter.slot is not None and waiter.slot in self._busy_slots:
                continue
            self._start(waiter)
            order.remove(waiter)
        for position, waiter in enumerate(order, start=1):
            if (waiter.position, waiter.waiting) != (position, len(order)):
                waiter.position, waiter.waiting = position, len(order)
                waiter.wake()

    def _start(self, waiter: _Waiter) -> None:
        queue = self._waiters[waiter.caller]
        queue.remove(waiter)
        if not queue:
            del self._waiters[waiter.caller]
        self._running += 1
        self._running_by_caller[waiter.caller] = self._running_by_caller.get(waiter.caller, 0) + 1
        if waiter.slot is not None:
            self._busy_slots.add(waiter.slot)
        self._served_at[waiter.caller] = next(self._ticks)
        waiter.granted = True
        waiter.wake()


def queue_stats() -> QueueStats:
    """Every embedded model's queue in this process, added up (for `/health/ready`)."""
    schedulers = list(_SCHEDULERS)
    stats = [s.stats() for s in schedulers]
    by_priority: dict[str, int] = {}
    for item in stats:
        for name, waiting in item.waiting_by_priority.items():
            by_priority[name] = by_priority.get(name, 0) + waiting
    return QueueStats(
        waiting=sum(s.waiting for s in stats),
        running=sum(s.running for s in stats),
        capacity=sum(s.capacity for s in stats),
        waiting_by_priority=by_priority,
    )
