"""A turn's time limit that counts running time only, not time spent waiting for the model.

When the embedded model is busy, a turn's model calls wait their turn in the queue
(`scheduling.py`). That wait is bounded by the queue bound (new turns are turned away with a
503 when too many are waiting), not by the turn's time limit: otherwise a turn would run out of
time before it ever ran, and a busy machine would turn every late answer into an error.

`turn_clock_scope(budget_s)` starts a clock for the turn; the scheduler pauses it while one of
the turn's calls waits and resumes it when the call starts. `clock.limit()` is an
`asyncio.timeout` whose deadline moves with the clock: it raises `TimeoutError` once the turn
has *run* for its budget.

A server also puts a backstop around the whole turn (`limit(extra_s, kept_s=...)`), for a turn
that ignores the clock. A turn that keeps it (it waited under a `limit()` of its own) answers
out of time by itself, without the model; under heavy load that answer may take longer than
the backstop's small `extra_s`, so from the moment the turn shows it keeps the clock, the
backstop waits `kept_s` past the budget instead: the answer arrives late, never as an error.
"""

from __future__ import annotations

import asyncio
import threading
import time
from collections.abc import AsyncIterator, Callable, Iterator
from contextlib import asynccontextmanager, contextmanager
from contextvars import ContextVar
from dataclasses import dataclass


@dataclass(eq=False)
class _Limit:
    timeout: asyncio.Timeout
    loop: asyncio.AbstractEventLoop
    extra_s: float
    # A backstop's extra once the turn keeps the clock; None: the turn's own limit.
    kept_s: float | None = None

    def extra_for(self, kept: bool) -> float:
        return self.kept_s if kept and self.kept_s is not None else self.extra_s


class TurnClock:
    """Running time left for one turn; paused while any of its model calls waits."""

    def __init__(self, budget_s: float, *, clock: Callable[[], float] = time.monotonic) -> None:
        if budget_s <= 0:
            raise ValueError(f"a turn's time budget must be positive, got {budget_s}")
        self.budget_s = budget_s
        self._clock = clock
        # When the turn began (monotonic seconds): the queue serves a caller's older turns first.
        self.started_at = time.monotonic()
        self._lock = threading.Lock()
        self._used_s = 0.0
        self._running_since: float | None = clock()
        self._waiting_calls = 0
        self.waited_s = 0.0
        self._waiting_since: float | None = None
        self._limits: list[_Limit] = []
        # The turn has waited under a limit of its own: it answers out of time by itself.
        self.kept = False

    @property
    def waiting(self) -> bool:
        with self._lock:
            return self._waiting_calls > 0

    def used_s(self) -> float:
        with self._lock:
            return self._used_locked()

    def remaining_s(self) -> float | None:
        """Seconds of running time left; None while the turn waits (no deadline then)."""
        with self._lock:
            if self._waiting_calls:
                return None
            return self.budget_s - self._used_locked()

    def pause(self) -> None:
        """A call of this turn starts waiting (thread-safe; calls nest)."""
        with self._lock:
            self._waiting_calls += 1
            if self._waiting_calls == 1:
                now = self._clock()
                self._used_s = self._used_locked()
                self._running_since = None
                self._waiting_since = now
        self._reschedule()

    def resume(self) -> None:
        """That call starts running (or gave up waiting)."""
        with self._lock:
            self._waiting_calls -= 1
            if self._waiting_calls == 0:
                now = self._clock()
                self._running_since = now
                if self._waiting_since is not None:
                    self.waited_s += now - self._waiting_since
                self._waiting_since = None
        self._reschedule()

    @asynccontextmanager
    async def limit(
        self, extra_s: float = 0.0, *, kept_s: float | None = None
    ) -> AsyncIterator[None]:
        """Raise `TimeoutError` inside the block once the turn has run `budget_s + extra_s`.

        With `kept_s` this is a backstop: once the turn keeps the clock (it entered a limit
        without `kept_s`), `budget_s + kept_s` instead. Inside the block this is the current
        turn clock too: a server may drive each step of a streamed turn from a new task, whose
        context would not carry it otherwise."""
        token = _turn_clock.set(self)
        try:
            async with asyncio.timeout(None) as timeout:
                entry = _Limit(timeout, asyncio.get_running_loop(), extra_s, kept_s)
                with self._lock:
                    self._limits.append(entry)
                    newly_kept = kept_s is None and not self.kept
                    if kept_s is None:
                        self.kept = True
                try:
                    if newly_kept:
                        self._reschedule()  # the backstops already waiting move out
                    else:
                        self._apply(entry)
                    yield
                finally:
                    with self._lock:
                        self._limits.remove(entry)
        finally:
            _turn_clock.reset(token)

    def _used_locked(self) -> float:
        if self._running_since is None:
            return self._used_s
        return self._used_s + (self._clock() - self._running_since)

    def _reschedule(self) -> None:
        with self._lock:
            limits = list(self._limits)
        for entry in limits:
            try:
                on_loop = asyncio.get_running_loop() is entry.loop
            except RuntimeError:
                on_loop = False
            if on_loop:
                self._apply(entry)
            else:  # paused from a worker thread: asyncio objects belong to their loop
                try:
                    entry.loop.call_soon_threadsafe(self._apply, entry)
                except RuntimeError:
                    pass  # the loop is closed

    def _apply(self, entry: _Limit) -> None:
        remaining = self.remaining_s()
        extra_s = entry.extra_for(self.kept)
        # The timeout's clock is the loop's; the budget's is monotonic time: only the
        # remaining seconds cross over.
        when = None if remaining is None else entry.loop.time() + remaining + extra_s
        try:
            entry.timeout.reschedule(when)
        except RuntimeError:
            pass  # the block has already ended or expired


_turn_clock: ContextVar[TurnClock | None] = ContextVar("frontdesk_turn_clock", default=None)


def current_turn_clock() -> TurnClock | None:
    return _turn_clock.get()


@contextmanager
def turn_clock_scope(
    budget_s: float, *, clock: Callable[[], float] = time.monotonic
) -> Iterator[TurnClock]:
    """A clock for the turn run inside this block (and the tasks and threads it starts)."""
    turn = TurnClock(budget_s, clock=clock)
    token = _turn_clock.set(turn)
    try:
        yield turn
    finally:
        try:
            _turn_clock.reset(token)
        except ValueError:
            # Left from another context (an async generator closed by another task): the
            # variable dies with that context anyway.
            pass
