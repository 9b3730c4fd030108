"""A circuit breaker for model calls: stop calling a model that keeps failing.

When a hosted provider is down or the embedded server is wedged, every turn would otherwise
wait for its own timeout before failing, piling work onto something that cannot do it. The
breaker counts failures in a rolling window; past `failure_threshold` it opens and refuses
calls at once with `CircuitOpen` (a `FrontdeskError`, so the message can be shown), which lets
the caller fall back or answer "try again shortly" without spending a timeout.

After `cooldown_s` it lets a single probe through (half open). Only one probe is in flight at a
time, so a model that is still down costs one slow call, not one per waiting turn; it closes
again after `success_threshold` consecutive successful probes, and one failed probe re-opens it
with a fresh cooldown.

Time comes from an injectable clock, so tests step time instead of sleeping. Everything runs on
one event loop, so there are no locks: state changes happen between awaits.
"""

from __future__ import annotations

import logging
import math
import time
from collections import deque
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import TypeVar

from frontdesk.errors import FrontdeskError

logger = logging.getLogger("frontdesk.llm")

T = TypeVar("T")

CLOSED, OPEN, HALF_OPEN = "closed", "open", "half_open"


class CircuitOpen(FrontdeskError):
    """A call refused without running: the model behind `breaker` is failing."""

    def __init__(self, breaker: str, retry_after_s: float):
        self.breaker = breaker
        self.retry_after_s = max(0.0, retry_after_s)
        super().__init__(
            f"the model '{breaker}' is temporarily unavailable; "
            f"try again in {math.ceil(self.retry_after_s)} s"
        )


@dataclass(frozen=True)
class BreakerSettings:
    failure_threshold: int = 5
    window_s: float = 60.0
    cooldown_s: float = 30.0
    success_threshold: int = 2

    def __post_init__(self) -> None:
        # Checked here so a bad configuration fails at start-up, not on the first failing call.
        # `not x >= 0` also rejects NaN.
        if not self.failure_threshold >= 1 or not self.success_threshold >= 1:
            raise ValueError("breaker thresholds must be at least 1")
        if not self.window_s > 0:
            raise ValueError("breaker window_s must be positive")
        if not self.cooldown_s >= 0:
            raise ValueError("breaker cooldown_s must not be negative")


class CircuitBreaker:
    def __init__(
        self,
        name: str,
        settings: BreakerSettings | None = None,
        *,
        clock: Callable[[], float] = time.monotonic,
        on_transition: Callable[[str, str, str], None] | None = None,
    ):
        self.name = name
        self.settings = settings or BreakerSettings()
        self._clock = clock
        self._on_transition = on_transition
        self._state = CLOSED
        self._failures: deque[float] = deque()
        self._opened_at: float | None = None
        self._successes = 0
        self._probe_in_flight = False
        # Bumped on every transition: a call admitted under an earlier state reports a stale
        # outcome (a slow call from before the opening must not count as the probe's result).
        self._generation = 0

    @property
    def state(self) -> str:
        # Open turns half open lazily, when someone looks: no timer task to manage or cancel.
        if self._state == OPEN and self._retry_after() <= 0:
            self._transition(HALF_OPEN, "cooldown elapsed")
        return self._state

    def allow(self) -> bool:
        state = self.state
        return state == CLOSED or (state == HALF_OPEN and not self._probe_in_flight)

    async def call(self, fn: Callable[[], Awaitable[T]]) -> T:
        state = self.state
        if state == OPEN or (state == HALF_OPEN and self._probe_in_flight):
            raise CircuitOpen(self.name, self._retry_after())
        probe = state == HALF_OPEN
        if probe:
            self._probe_in_flight = True
        generation = self._generation
        try:
            result = await fn()
        except Exception:
            # Not BaseException: a cancelled call (a client hung up) says nothing about the
            # model's health, so CancelledError passes through uncounted.
            if generation == self._generation:
                self.record_failure()
            raise
        finally:
            # Released on every exit, cancellation included, or half open would refuse forever.
            if probe:
                self._probe_in_flight = False
        if generation == self._generation:
            self.record_success()
        return result

    # record_success/record_failure are for callers that cannot wrap the call (streaming): they
    # apply to the current state and reserve no probe slot, so such a caller checks allow() first.
    def record_success(self) -> None:
        if self.state == HALF_OPEN:
            self._successes += 1
            if self._successes >= self.settings.success_threshold:
                self._transition(CLOSED, f"{self._successes} consecutive successful probes")
        # In closed a success does not clear the window: a model failing every other call is
        # still unhealthy, and old failures age out by time anyway.

    def record_failure(self) -> None:
        state = self.state
        now = self._clock()
        if state == HALF_OPEN:
            self._open(now, "probe failed")
        elif state == CLOSED:
            self._failures.append(now)
            self._prune(now)
            if len(self._failures) >= self.settings.failure_threshold:
                s = self.settings
                self._open(now, f"{len(self._failures)} failures in {s.window_s:g} s")
        # In open a failure (a call admitted before the opening) must not extend the cooldown.

    def snapshot(self) -> dict:
        state = self.state
        self._prune(self._clock())
        return {
            "name": self.name,
            "state": state,
            "failures_in_window": len(self._failures),
            "opened_at": self._opened_at,
            "consecutive_successes": self._successes,
        }

    def _retry_after(self) -> float:
        if self._state != OPEN or self._opened_at is None:
            return 0.0
        return max(0.0, self._opened_at + self.settings.cooldown_s - self._clock())

    def _prune(self, now: float) -> None:
        while self._failures and now - self._failures[0] > self.settings.window_s:
            self._failures.popleft()

    def _open(self, now: float, reason: str) -> None:
        self._opened_at = now
        self._transition(OPEN, reason)

    def _transition(self, new: str, reason: str) -> None:
        old = self._state
        self._state = new
        self._generation += 1
        self._failures.clear()
        self._successes = 0
        if new == CLOSED:
            self._opened_at = None
        # The hook is for auditing and metrics; a broken one must not break model calls.
        if self._on_transition is not None:
            try:
                self._on_transition(old, new, reason)
            except Exception:
                logger.exception("breaker %s: on_transition hook failed", self.name)
