"""The model-call circuit breaker: a stepped clock instead of sleeps, counted calls."""

from __future__ import annotations

import asyncio
import logging

import pytest

from frontdesk.errors import FrontdeskError
from frontdesk.llm.breaker import BreakerSettings, CircuitBreaker, CircuitOpen


class Clock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now

    def advance(self, seconds: float) -> None:
        self.now += seconds


class Model:
    """A model call that counts how often it really ran."""

    def __init__(self) -> None:
        self.calls = 0

    async def ok(self) -> str:
        self.calls += 1
        return "answer"

    async def fail(self) -> str:
        self.calls += 1
        raise TimeoutError("model timed out")


@pytest.fixture
def clock() -> Clock:
    return Clock()


@pytest.fixture
def transitions() -> list[tuple[str, str, str]]:
    return []


@pytest.fixture
def breaker(clock, transitions) -> CircuitBreaker:
    return CircuitBreaker("local", clock=clock, on_transition=lambda *t: transitions.append(t))


async def fail_times(breaker: CircuitBreaker, model: Model, n: int, step: tuple = ()) -> None:
    """`n` failing calls; `step=(clock, seconds)` moves time on after each one."""
    for _ in range(n):
        with pytest.raises(TimeoutError):
            await breaker.call(model.fail)
        if step:
            step[0].advance(step[1])


async def open_breaker(breaker: CircuitBreaker) -> None:
    await fail_times(breaker, Model(), 5)
    assert breaker.state == "open"


async def test_five_failures_in_the_window_open_it_and_the_sixth_call_never_runs(breaker, clock):
    model = Model()
    await fail_times(breaker, model, 4, step=(clock, 10))
    assert breaker.state == "closed"
    await fail_times(breaker, model, 1)
    assert breaker.state == "open" and not breaker.allow()
    with pytest.raises(CircuitOpen) as refused:
        await breaker.call(model.ok)
    assert model.calls == 5
    assert refused.value.breaker == "local"
    assert isinstance(refused.value, FrontdeskError)


async def test_failures_spread_over_more_than_the_window_do_not_open_it(breaker, clock):
    model = Model()
    await fail_times(breaker, model, 4, step=(clock, 15.25))  # the first is 61 s old at the fifth
    await fail_times(breaker, model, 1)
    assert breaker.state == "closed"
    assert breaker.snapshot()["failures_in_window"] == 4
    assert await breaker.call(model.ok) == "answer"


async def test_successes_do_not_reset_the_window(breaker):
    model = Model()
    for _ in range(4):
        await fail_times(breaker, model, 1)
        assert await breaker.call(model.ok) == "answer"
    await fail_times(breaker, model, 1)
    assert breaker.state == "open"


async def test_open_refuses_for_the_cooldown_then_lets_exactly_one_probe_through(breaker, clock):
    await open_breaker(breaker)
    model = Model()
    waits = []
    for _ in range(3):
        with pytest.raises(CircuitOpen) as refused:
            await breaker.call(model.ok)
        waits.append(refused.value.retry_after_s)
        clock.advance(10)
    assert waits == [30.0, 20.0, 10.0] and model.calls == 0
    assert breaker.state == "half_open" and breaker.allow()

    release = asyncio.Event()

    async def slow_probe() -> str:
        model.calls += 1
        await release.wait()
        return "probe"

    probe = asyncio.create_task(breaker.call(slow_probe))
    await asyncio.sleep(0)
    assert not breaker.allow()
    with pytest.raises(CircuitOpen) as refused:
        await breaker.call(model.ok)
    assert refused.value.retry_after_s >= 0
    release.set()
    assert await probe == "probe"
    assert model.calls == 1


async def test_two_consecutive_successful_probes_close_it(breaker, clock, transitions):
    await open_breaker(breaker)
    clock.advance(30)
    model = Model()
    await breaker.call(model.ok)
    assert breaker.state == "half_open" and breaker.snapshot()["consecutive_successes"] == 1
    assert breaker.allow()  # the first probe is done: a second single probe may go
    await breaker.call(model.ok)
    assert breaker.state == "closed"
    assert [t[:2] for t in transitions] == [
        ("closed", "open"),
        ("open", "half_open"),
        ("half_open", "closed"),
    ]
    assert breaker.snapshot() == {
        "name": "local",
        "state": "closed",
        "failures_in_window": 0,
        "opened_at": None,
        "consecutive_successes": 0,
    }


async def test_a_success_then_a_failed_probe_opens_it_again(breaker, clock):
    await open_breaker(breaker)
    clock.advance(30)
    model = Model()
    await breaker.call(model.ok)
    with pytest.raises(TimeoutError):
        await breaker.call(model.fail)
    assert breaker.state == "open"
    assert breaker.snapshot()["consecutive_successes"] == 0


async def test_a_failed_probe_opens_it_with_a_fresh_cooldown(breaker, clock, transitions):
    await open_breaker(breaker)
    clock.advance(45)  # later than the cooldown: the fresh one starts at the probe
    model = Model()
    with pytest.raises(TimeoutError):
        await breaker.call(model.fail)
    assert transitions[-1][:2] == ("half_open", "open")
    assert breaker.snapshot()["opened_at"] == clock.now
    clock.advance(29)
    with pytest.raises(CircuitOpen) as refused:
        await breaker.call(model.ok)
    assert refused.value.retry_after_s == pytest.approx(1.0)
    clock.advance(1)
    assert await breaker.call(model.ok) == "answer"
    assert model.calls == 2


async def test_a_cancelled_probe_releases_the_slot_and_counts_nothing(breaker, clock):
    await open_breaker(breaker)
    clock.advance(30)
    started = asyncio.Event()

    async def hanging() -> str:
        started.set()
        await asyncio.Event().wait()
        return "never"

    probe = asyncio.create_task(breaker.call(hanging))
    await asyncio.sleep(0)
    assert started.is_set()  # not awaited: a refused probe would hang the test
    assert not breaker.allow()
    probe.cancel()
    with pytest.raises(asyncio.CancelledError):
        await probe
    assert breaker.state == "half_open" and breaker.allow()
    assert breaker.snapshot()["consecutive_successes"] == 0
    assert await breaker.call(Model().ok) == "answer"


async def test_cancelled_calls_are_not_failures(breaker):
    for _ in range(6):
        task = asyncio.create_task(breaker.call(asyncio.Event().wait))
        await asyncio.sleep(0)
        task.cancel()
        with pytest.raises(asyncio.CancelledError):
            await task
    assert breaker.state == "closed"
    assert breaker.snapshot()["failures_in_window"] == 0


@pytest.mark.parametrize("outcome", ["success", "failure"])
async def test_a_slow_call_admitted_before_the_opening_is_not_the_probe(breaker, clock, outcome):
    release = asyncio.Event()

    async def slow() -> str:
        await release.wait()
        if outcome == "failure":
            raise TimeoutError("late failure")
        return "late"

    late = asyncio.create_task(breaker.call(slow))
    await asyncio.sleep(0)
    await open_breaker(breaker)
    clock.advance(30)
    assert breaker.state == "half_open"
    release.set()
    await asyncio.gather(late, return_exceptions=True)
    assert breaker.state == "half_open"
    assert breaker.snapshot()["consecutive_successes"] == 0


async def test_the_hook_hears_each_transition_with_a_reason(breaker, clock, transitions):
    await open_breaker(breaker)
    old, new, reason = transitions[0]
    assert (old, new) == ("closed", "open") and "5 failures" in reason
    clock.advance(30)
    assert breaker.state == "half_open"
    assert transitions[1][:2] == ("open", "half_open")


async def test_a_raising_hook_is_logged_and_ignored(clock, caplog):
    def broken(old: str, new: str, reason: str) -> None:
        raise RuntimeError("audit down")

    breaker = CircuitBreaker("local", clock=clock, on_transition=broken)
    with caplog.at_level(logging.ERROR, logger="frontdesk.llm"):
        await open_breaker(breaker)
    assert "on_transition hook failed" in caplog.text
    clock.advance(30)
    model = Model()
    assert await breaker.call(model.ok) == "answer"
    assert await breaker.call(model.ok) == "answer"
    assert breaker.state == "closed"


async def test_record_success_and_failure_drive_it_without_wrapping(breaker, clock):
    for _ in range(5):
        breaker.record_failure()
    assert breaker.state == "open"
    clock.advance(10)
    for _ in range(5):
        breaker.record_failure()  # while open: does not push the cooldown back
    clock.advance(20)
    assert breaker.state == "half_open"
    breaker.record_success()
    breaker.record_success()
    assert breaker.state == "closed"


async def test_custom_thresholds(clock):
    settings = BreakerSettings(failure_threshold=1, cooldown_s=0, success_threshold=1)
    breaker = CircuitBreaker("hosted", settings, clock=clock)
    await fail_times(breaker, Model(), 1)
    assert breaker.snapshot()["state"] == "half_open"  # a zero cooldown probes at once
    await breaker.call(Model().ok)
    assert breaker.state == "closed"


@pytest.mark.parametrize(
    "bad",
    [
        {"failure_threshold": 0},
        {"success_threshold": 0},
        {"window_s": -1.0},
        {"window_s": 0.0},
        {"cooldown_s": -0.5},
        {"cooldown_s": float("nan")},
    ],
)
def test_invalid_settings_are_refused(bad):
    with pytest.raises(ValueError):
        BreakerSettings(**bad)
