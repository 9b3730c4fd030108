"""Inbound rate limits (WP1 item 40, T14): sliding windows per guest, casino and overall, in
process and in the local Redis (127.0.0.1:6379), and the fall back with one alert when Redis
goes away."""

from __future__ import annotations

import logging
import uuid

import pytest

from frontdesk.assistants.casino_host.channel.rate_limits import RateLimiter

T0 = 1_800_000_000.0


def windows(guest: str = "g1", casino: str = "mohegan_sun"):
    return [("guest", f"{casino}:{guest}"), ("casino", casino), ("global", "all")]


def redis_limiter() -> RateLimiter:
    redis = pytest.importorskip("redis")
    client = redis.Redis.from_url("redis://127.0.0.1:6379/15", socket_timeout=0.5)
    try:
        client.ping()
    except redis.RedisError:
        pytest.skip("no Redis at 127.0.0.1:6379")
    return RateLimiter(redis=client, prefix=f"test:{uuid.uuid4().hex}:")


@pytest.fixture(params=["memory", "redis"])
def limiter(request) -> RateLimiter:
    return RateLimiter() if request.param == "memory" else redis_limiter()


def test_the_eleventh_message_in_a_minute_is_limited(limiter):  # T14
    verdicts = [limiter.hit(windows(), T0 + i) for i in range(11)]
    assert [v.allowed for v in verdicts] == [True] * 10 + [False]
    assert verdicts[-1].limited_by == "guest"
    assert limiter.hit(windows("g2"), T0 + 11).allowed  # another guest is not


def test_the_window_slides(limiter):
    for i in range(10):
        limiter.hit(windows(), T0 + i)
    assert not limiter.hit(windows(), T0 + 59.5).allowed
    assert limiter.hit(windows(), T0 + 60.5).allowed  # the first message left the window


def test_a_refused_message_is_not_counted(limiter):
    limiter.limits["casino"] = 3
    for i in range(3):
        assert limiter.hit(windows(f"g{i}"), T0).allowed
    refused = limiter.hit(windows("g9"), T0)
    assert (refused.allowed, refused.limited_by) == (False, "casino")
    # g9's own window did not count the refused message.
    limiter.limits["casino"] = 100
    assert all(limiter.hit(windows("g9"), T0 + 1).allowed for _ in range(10))


def test_redis_going_away_falls_back_in_process_with_one_alert(caplog):
    class Down:
        def register_script(self, _script):
            def call(**_kwargs):
                raise ConnectionError("connection refused")

            return call

    limiter = RateLimiter(redis=Down())
    with caplog.at_level(logging.ERROR):
        verdicts = [limiter.hit(windows(), T0 + i) for i in range(11)]
    assert [v.backend for v in verdicts] == ["memory"] * 11
    assert [v.allowed for v in verdicts] == [True] * 10 + [False]
    assert [r.message for r in caplog.records].count(
        "ALERT rate limits: Redis unreachable (ConnectionError); counting in this process"
    ) == 1


def test_the_in_process_windows_are_capped():
    limiter = RateLimiter()
    limiter.memory._max_keys = 5
    for i in range(20):
        limiter.hit([("guest", f"g{i}")], T0)
    assert len(limiter.memory._windows) == 5


def test_a_sending_number_sends_one_sms_a_second(limiter):  # item 40
    number = [("number", "mohegan_sun:+18605550150"), ("burst", "mohegan_sun")]
    assert limiter.hit(number, T0).allowed
    refused = limiter.hit(number, T0 + 0.5)
    assert (refused.allowed, refused.limited_by) == (False, "number")
    assert limiter.hit(number, T0 + 1.01).allowed  # the second has passed
    # The casino's burst: 50 a second over all its numbers.
    numbers = [[("number", f"mohegan_sun:+1860555{i:04d}"), ("burst", "mohegan_sun")]
               for i in range(51)]  # fmt: skip
    verdicts = [limiter.hit(n, T0 + 10) for n in numbers]
    assert [v.allowed for v in verdicts] == [True] * 50 + [False]
    assert verdicts[-1].limited_by == "burst"
    # The inbound windows keep their minute beside them.
    for i in range(10):
        assert limiter.hit(windows("g-sending"), T0 + 10 + i * 0.01).allowed
    assert not limiter.hit(windows("g-sending"), T0 + 30).allowed
