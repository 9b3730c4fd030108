"""Four pure ASGI middleware classes.

Pure ASGI rather than Starlette's `BaseHTTPMiddleware`, which buffers through a task and
breaks SSE streaming and client-disconnect handling. Recommended order, outermost first:

    RequestLogging -> SecurityHeaders -> ErrorHandling -> RateLimit -> app

so the access log sees the final status (including 500 and 429), and those responses carry the
security headers and the request id too.
"""

from __future__ import annotations

import asyncio
import json
import logging
import math
import re
import time
import uuid
from collections import OrderedDict
from collections.abc import Callable, Iterable
from dataclasses import dataclass

from starlette.datastructures import MutableHeaders
from starlette.requests import ClientDisconnect
from starlette.types import ASGIApp, Message, Receive, Scope, Send

access_logger = logging.getLogger("frontdesk.access")
error_logger = logging.getLogger("frontdesk.server")

REQUEST_ID_HEADER = "X-Request-ID"
# The access log's status for a request whose client left before any answer (nginx's 499):
# nothing was sent, and nothing failed on the server's side.
CLIENT_CLOSED_STATUS = 499
_CLIENT_LEFT = "client_disconnected"
RESPONSE_TIME_HEADER = "X-Response-Time-Ms"
# An incoming id is echoed only when it is short and plain, so it cannot inject into logs.
_SAFE_REQUEST_ID = re.compile(r"^[A-Za-z0-9._:-]{1,128}$")


def request_id_of(scope: Scope) -> str | None:
    """The id RequestLoggingMiddleware gave this request (also `request.state.request_id`)."""
    state = scope.get("state")
    return state.get("request_id") if isinstance(state, dict) else None


def client_ip_of(scope: Scope) -> str:
    client = scope.get("client")
    return client[0] if client else "unknown"


async def send_json(
    send: Send, status: int, body: dict, headers: Iterable[tuple[str, str]] = ()
) -> None:
    payload = json.dumps(body).encode()
    raw = [(b"content-type", b"application/json"), (b"content-length", str(len(payload)).encode())]
    raw += [(k.lower().encode("latin-1"), v.encode("latin-1")) for k, v in headers]
    await send({"type": "http.response.start", "status": status, "headers": raw})
    await send({"type": "http.response.body", "body": payload, "more_body": False})


class RequestLoggingMiddleware:
    """One JSON access-log line per request, plus `X-Request-ID` and `X-Response-Time-Ms`.

    The response-time header is the time to the first byte (headers must leave before a stream
    does); the log line's `duration_ms` is the time to the last byte.
    """

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return

        incoming = dict(scope.get("headers") or []).get(b"x-request-id", b"").decode("latin-1")
        request_id = incoming if _SAFE_REQUEST_ID.match(incoming) else uuid.uuid4().hex
        scope.setdefault("state", {})["request_id"] = request_id
        started = time.perf_counter()
        status = 500
        outcome = "completed"

        async def send_with_headers(message: Message) -> None:
            nonlocal status
            if message["type"] == "http.response.start":
                status = message["status"]
                headers = MutableHeaders(scope=message)
                headers[REQUEST_ID_HEADER] = request_id
                headers[RESPONSE_TIME_HEADER] = f"{(time.perf_counter() - started) * 1000:.1f}"
            await send(message)

        try:
            await self.app(scope, receive, send_with_headers)
        except asyncio.CancelledError:
            outcome = "cancelled"
            raise
        except Exception:
            outcome = "failed"
            raise
        finally:
            if scope["state"].get(_CLIENT_LEFT):
                outcome = "client_disconnected"
                status = CLIENT_CLOSED_STATUS if status == 500 else status
            access_logger.info(
                json.dumps(
                    {
                        "type": "access",
                        "method": scope.get("method"),
                        "path": scope.get("path"),
                        "status": status,
                        "duration_ms": round((time.perf_counter() - started) * 1000, 1),
                        "request_id": request_id,
                        "client_ip": client_ip_of(scope),
                        "outcome": outcome,
                    }
                )
            )


# No 'unsafe-inline' anywhere: the UI's script and styles are separate files.
CONTENT_SECURITY_POLICY = (
    "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
    "connect-src 'self'; object-src 'none'; base-uri 'self'; form-action 'self'; "
    "frame-ancestors 'none'"
)

SECURITY_HEADERS = {
    "X-Content-Type-Options": "nosniff",
    "X-Frame-Options": "DENY",
    "Content-Security-Policy": CONTENT_SECURITY_POLICY,
    "Referrer-Policy": "strict-origin-when-cross-origin",
    "Permissions-Policy": "camera=(), microphone=(), geolocation=()",
}


class SecurityHeadersMiddleware:
    """Adds the security headers to every HTTP response (a route may set its own first)."""

    def __init__(self, app: ASGIApp, headers: dict[str, str] | None = None) -> None:
        self.app = app
        self.headers = dict(SECURITY_HEADERS if headers is None else headers)

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return

        async def send_with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                headers = MutableHeaders(scope=message)
                for name, value in self.headers.items():
                    headers.setdefault(name, value)
            await send(message)

        await self.app(scope, receive, send_with_headers)


@dataclass
class _Bucket:
    tokens: float
    updated: float


class RateLimitMiddleware:
    """Token bucket per client IP on the endpoints that run a turn (`paths`: one bucket covers
    them all, since each costs model time); every other request passes untouched.

    A bucket holds `per_minute` tokens and refills continuously at `per_minute / 60` per second,
    so a client may burst up to the limit and then sustain the average. Buckets untouched long
    enough to be full again are dropped, and at most `max_clients` are kept (least recently used
    goes first), so memory stays bounded whatever the traffic.
    `per_minute <= 0` turns the limit off.
    """

    def __init__(
        self,
        app: ASGIApp,
        per_minute: int = 20,
        *,
        paths: Iterable[str] = ("/chat",),
        methods: Iterable[str] = ("POST",),
        max_clients: int = 10_000,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.app = app
        self.capacity = float(per_minute)
        self.refill_per_s = per_minute / 60.0
        self.paths = frozenset(paths)
        self.methods = frozenset(m.upper() for m in methods)
        self.max_clients = max_clients
        self.clock = clock
        self._buckets: OrderedDict[str, _Bucket] = OrderedDict()
        self._last_sweep = clock()

    @property
    def tracked_clients(self) -> int:
        return len(self._buckets)

    def _limited(self, scope: Scope) -> bool:
        return (
            self.capacity > 0
            and scope["type"] == "http"
            and scope.get("method", "").upper() in self.methods
            and scope.get("path") in self.paths
        )

    def _evict(self, now: float) -> None:
        while len(self._buckets) > self.max_clients:
            self._buckets.popitem(last=False)  # least recently used
        # A bucket idle for a full refill period is indistinguishable from a new one; sweep for
        # those at most once per such period, so the sweep's cost is spread thin.
        idle_after = self.capacity / self.refill_per_s
        if now - self._last_sweep < idle_after:
            return
        self._last_sweep = now
        for key in [k for k, b in self._buckets.items() if now - b.updated >= idle_after]:
            del self._buckets[key]

    def take(self, client: str) -> float:
        """Spend one token for `client`; 0.0 when allowed, else seconds until one is free."""
        now = self.clock()
        bucket = self._buckets.get(client)
        if bucket is None:
            bucket = self._buckets[client] = _Bucket(tokens=self.capacity, updated=now)
        else:
            bucket.tokens = min(
                self.capacity, bucket.tokens + (now - bucket.updated) * self.refill_per_s
            )
            bucket.updated = now
            self._buckets.move_to_end(client)
        self._evict(now)
        if bucket.tokens >= 1.0:
            bucket.tokens -= 1.0
            return 0.0
        return (1.0 - bucket.tokens) / self.refill_per_s

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if not self._limited(scope):
            await self.app(scope, receive, send)
            return
        wait_s = self.take(client_ip_of(scope))
        if wait_s <= 0:
            await self.app(scope, receive, send)
            return
        retry_after = max(1, math.ceil(wait_s))
        await send_json(
            send,
            429,
            {
                "error": (
                    f"Too many messages: the limit is {int(self.capacity)} per minute. "
                    f"Please wait {retry_after} s and try again."
                ),
                "retry_after_s": retry_after,
                "request_id": request_id_of(scope),
            },
            headers=[("Retry-After", str(retry_after))],
        )


class ErrorHandlingMiddleware:
    """Unhandled exceptions become a 500 JSON body; a client that went away is logged, not
    blamed.

    Cancellation (`asyncio.CancelledError`) means the client went away or the server is shutting
    down: it is logged at INFO and re-raised so the cancellation completes. A client that
    disconnects while it sends its request body (`ClientDisconnect`, raised where the body is
    read) gets no answer, since nobody is there to read it: one INFO line, no traceback, and the
    access log says 499.
    """

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return

        response_started = False

        async def tracking_send(message: Message) -> None:
            nonlocal response_started
            if message["type"] == "http.response.start":
                response_started = True
            await send(message)

        try:
            await self.app(scope, receive, tracking_send)
        except asyncio.CancelledError:
            error_logger.info(
                "request cancelled (client disconnected or server stopping): %s %s request_id=%s",
                scope.get("method"),
                scope.get("path"),
                request_id_of(scope),
            )
            raise
        except ClientDisconnect:
            scope.setdefault("state", {})[_CLIENT_LEFT] = True
            error_logger.info(
                "client disconnected before its request was read: %s %s request_id=%s",
                scope.get("method"),
                scope.get("path"),
                request_id_of(scope),
            )
        except Exception:
            request_id = request_id_of(scope)
            error_logger.exception(
                "unhandled error: %s %s request_id=%s",
                scope.get("method"),
                scope.get("path"),
                request_id,
            )
            if response_started:
                # Too late for a 500: the status already left. Ending here closes the
                # connection, which the client sees as a truncated response.
                return
            await send_json(send, 500, {"error": "internal error", "request_id": request_id})
