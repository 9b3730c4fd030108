"""Rate limits (WP1 item 40, T14; seeds README), as sliding windows.

Inbound: 60 s windows per guest (10), per casino (100) and over every casino (1,000). A message
over any of them gets no reply and HTTP 200 (the provider must not retry it); STOP, HELP and
START are never held back by them, only by a window of their own (20 a minute per guest). Outbound: each sending number sends at most 1 SMS a second, and a
casino at most 50 a second over all its numbers (`OutboundSender` waits for a slot).

    limiter = RateLimiter.from_url("redis://127.0.0.1:6379/0")   # or RateLimiter() in process
    verdict = limiter.hit([("guest", "mohegan_sun:hmac…"), ("casino", "mohegan_sun")], now)

With Redis the windows are shared by every worker: one Lua script drops the expired entries,
counts, and only when every window has room adds the message to all of them, atomically.
When Redis goes away the limiter falls back to windows in this process (capped at 10,000 keys)
and logs one alert; it tries Redis again after a while.
"""

from __future__ import annotations

import asyncio
import logging
import threading
import time
import uuid
from collections import OrderedDict, deque
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

logger = logging.getLogger(__name__)

WINDOW_S = 60.0  # the inbound windows
# "keyword": STOP, HELP and START of one guest, which the guest window never holds back (T14);
# a window of their own still bounds how often one number can change its consent.
LIMITS = {"guest": 10, "keyword": 20, "casino": 100, "global": 1000, "number": 1, "burst": 50}
WINDOWS_S = {"number": 1.0, "burst": 1.0}  # per second; every other scope per WINDOW_S
MAX_KEYS = 10_000  # in process: the oldest windows are dropped beyond this
RETRY_REDIS_AFTER_S = 30.0

# KEYS: the windows; ARGV: now (ms), a unique member, then each key's limit and window (ms).
# Returns 0 when the message was counted in every window, else the 1-based index of the full one.
SLIDING_WINDOW = """
local now = tonumber(ARGV[1])
for i, key in ipairs(KEYS) do
  redis.call('ZREMRANGEBYSCORE', key, '-inf', now - tonumber(ARGV[2 + 2 * i]))
  if redis.call('ZCARD', key) >= tonumber(ARGV[1 + 2 * i]) then
    return i
  end
end
for i, key in ipairs(KEYS) do
  redis.call('ZADD', key, now, ARGV[2])
  redis.call('PEXPIRE', key, tonumber(ARGV[2 + 2 * i]))
end
return 0
"""


def _redis_errors() -> tuple[type[Exception], ...]:
    try:
        from redis import RedisError
    except ImportError:
        return (OSError,)
    return (RedisError, OSError)


Window = tuple[str, str, int, float]  # scope, key, limit, length in seconds


@dataclass(frozen=True)
class RateVerdict:
    allowed: bool
    limited_by: str | None = None  # the scope of the full window: guest, casino, global, …
    backend: str = "memory"


class MemoryWindows:
    """Sliding windows in this process."""

    def __init__(self, max_keys: int = MAX_KEYS):
        self._windows: OrderedDict[str, deque[float]] = OrderedDict()
        self._max_keys = max_keys
        self._lock = threading.Lock()

    def hit(self, keys: Sequence[Window], now: float) -> str | None:
        with self._lock:
            windows = []
            for scope, key, limit, length in keys:
                window = self._windows.setdefault(key, deque())
                self._windows.move_to_end(key)
                while window and window[0] <= now - length:
                    window.popleft()
                if len(window) >= limit:
                    return scope
                windows.append(window)
            for window in windows:
                window.append(now)
            while len(self._windows) > self._max_keys:
                self._windows.popitem(last=False)
            return None


@dataclass
class RateLimiter:
    redis: Any = None  # a redis.Redis client, or None: in process only
    limits: dict[str, int] = field(default_factory=dict)  # overrides of LIMITS, by scope
    prefix: str = "frontdesk:sms:rate:"
    memory: MemoryWindows = field(default_factory=MemoryWindows)
    _script: Any = None
    _redis_down_since: float | None = None

    def __post_init__(self) -> None:
        self.limits = {**LIMITS, **self.limits}

    @classmethod
    def from_url(cls, url: str | None) -> RateLimiter:
        if not url:
            return cls()
        import redis

        client = redis.Redis.from_url(url, socket_timeout=0.5, socket_connect_timeout=0.5)
        return cls(redis=client)

    async def ahit(self, windows: Sequence[tuple[str, str]]) -> RateVerdict:
        """`hit` from the event loop: off it when the windows are in Redis (a network call),
        in place when they are in this process (microseconds, no thread hop)."""
        if self.redis is None:
            return self.hit(windows)
        return await asyncio.to_thread(self.hit, windows)

    def hit(self, windows: Sequence[tuple[str, str]], now: float | None = None) -> RateVerdict:
        """Count one message in each (scope, key) window, unless one of them is full."""
        now = time.time() if now is None else now
        keys = [
            (scope, f"{self.prefix}{scope}:{key}", self.limits[scope],
             WINDOWS_S.get(scope, WINDOW_S))
            for scope, key in windows
        ]  # fmt: skip
        if self.redis is not None and self._redis_usable(now):
            try:
                return self._redis_hit(keys, now)
            except _redis_errors() as exc:  # the server is away or refuses
                self._fall_back(exc, now)
        limited = self.memory.hit(keys, now)
        return RateVerdict(limited is None, limited, "memory")

    def _redis_usable(self, now: float) -> bool:
        down = self._redis_down_since
        return down is None or now - down >= RETRY_REDIS_AFTER_S

    def _redis_hit(self, keys: list[Window], now: float) -> RateVerdict:
        if self._script is None:
            self._script = self.redis.register_script(SLIDING_WINDOW)
        sizes = [n for _, _, limit, length in keys for n in (limit, int(length * 1000))]
        full = int(self._script(
            keys=[key for _, key, _, _ in keys], args=[int(now * 1000), uuid.uuid4().hex, *sizes]
        ))  # fmt: skip
        if self._redis_down_since is not None:
            logger.warning("rate limits: Redis is back; windows are shared again")
            self._redis_down_since = None
        if full:
            return RateVerdict(False, keys[full - 1][0], "redis")
        return RateVerdict(True, None, "redis")

    def _fall_back(self, exc: Exception, now: float) -> None:
        if self._redis_down_since is None:
            # One alert per outage, not one per message.
            logger.error("ALERT rate limits: Redis unreachable (%s); counting in this process",
                         type(exc).__name__)  # fmt: skip
        self._redis_down_since = now
