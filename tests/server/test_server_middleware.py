"""The four ASGI middleware classes, through the app and on their own."""

from __future__ import annotations

import asyncio
import json
import logging
import re

import httpx
import pytest

from frontdesk.server.app import create_app, serving
from frontdesk.server.middleware import (
    ErrorHandlingMiddleware,
    RateLimitMiddleware,
    SecurityHeadersMiddleware,
)

SECURITY = {
    "x-content-type-options": "nosniff",
    "x-frame-options": "DENY",
    "referrer-policy": "strict-origin-when-cross-origin",
}


def assert_security_headers(response: httpx.Response) -> None:
    for name, value in SECURITY.items():
        assert response.headers.get(name) == value, (name, response.request.url)
    csp = response.headers["content-security-policy"]
    assert "default-src 'self'" in csp
    assert "unsafe-inline" not in csp and "unsafe-eval" not in csp


async def test_security_headers_on_every_kind_of_response(settings, make_service, start):
    settings.rate_limit_chat_per_minute = 1
    async with start(settings, make_service()) as client:
        responses = [
            await client.get("/"),
            await client.get("/static/css/base.css"),
            await client.get("/health"),
            await client.post("/chat", json={"message": "hi"}),  # SSE stream
            await client.post("/chat", json={"message": "hi"}),  # 429
            await client.get("/missing"),  # 404
            await client.get("/property", params={"assistant": ""}),  # 422
        ]

    assert [r.status_code for r in responses] == [200, 200, 200, 200, 429, 404, 422]
    for response in responses:
        assert_security_headers(response)


async def test_request_id_is_echoed_or_generated(client):
    echoed = await client.get("/health", headers={"X-Request-ID": "abc-123.def"})
    generated = await client.get("/health")
    injected = await client.get("/health", headers={"X-Request-ID": "bad id\twith spaces"})

    assert echoed.headers["x-request-id"] == "abc-123.def"
    assert re.fullmatch(r"[0-9a-f]{32}", generated.headers["x-request-id"])
    # An id that could corrupt a log line is replaced, not echoed.
    assert re.fullmatch(r"[0-9a-f]{32}", injected.headers["x-request-id"])
    assert float(echoed.headers["x-response-time-ms"]) >= 0


async def test_stream_carries_request_id_and_timing_headers(client):
    response = await client.post(
        "/chat", json={"message": "hi"}, headers={"X-Request-ID": "stream-1"}
    )

    assert response.headers["x-request-id"] == "stream-1"
    assert float(response.headers["x-response-time-ms"]) >= 0


async def test_one_json_access_log_line_per_request(client, caplog):
    with caplog.at_level(logging.INFO, logger="frontdesk.access"):
        await client.get("/health", headers={"X-Request-ID": "log-me"})
        await client.post("/chat", json={"message": ""})

    lines = [json.loads(r.getMessage()) for r in caplog.records if r.name == "frontdesk.access"]
    assert len(lines) == 2
    health, chat = lines
    assert health["method"] == "GET" and health["path"] == "/health" and health["status"] == 200
    assert health["request_id"] == "log-me" and health["client_ip"] == "127.0.0.1"
    assert isinstance(health["duration_ms"], float) and health["duration_ms"] >= 0
    assert chat["method"] == "POST" and chat["status"] == 422


async def test_rate_limit_on_chat_only_per_client_ip(settings, make_service, factory_for):
    settings.rate_limit_chat_per_minute = 3
    app = create_app(settings, service_factory=factory_for(make_service()))

    def client_from(ip: str) -> httpx.AsyncClient:
        transport = httpx.ASGITransport(app=app, client=(ip, 1234))
        return httpx.AsyncClient(transport=transport, base_url="http://testserver")

    async with (
        serving(app),
        client_from("10.0.0.1") as first,
        client_from("10.0.0.2") as second,
    ):
        allowed = [await first.post("/chat", json={"message": "hi"}) for _ in range(3)]
        limited = await first.post("/chat", json={"message": "hi"})
        other_paths = [await first.get("/health") for _ in range(5)]
        other_client = await second.post("/chat", json={"message": "hi"})

    assert [r.status_code for r in allowed] == [200, 200, 200]
    assert limited.status_code == 429
    # 3 per minute refills one token every 20 s.
    assert limited.headers["retry-after"] == "20"
    body = limited.json()
    assert "limit is 3 per minute" in body["error"] and body["retry_after_s"] == 20
    assert body["request_id"] == limited.headers["x-request-id"]
    assert all(r.status_code == 200 for r in other_paths)
    assert other_client.status_code == 200


class FakeClock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


async def _ok_app(scope, receive, send):  # pragma: no cover - never reached when limited
    await send({"type": "http.response.start", "status": 200, "headers": []})
    await send({"type": "http.response.body", "body": b"ok"})


def test_token_bucket_refills_over_time():
    clock = FakeClock()
    limiter = RateLimitMiddleware(_ok_app, per_minute=6, clock=clock)  # one token per 10 s

    assert [limiter.take("a") for _ in range(6)] == [0.0] * 6
    assert limiter.take("a") == pytest.approx(10.0)
    clock.now += 5
    assert limiter.take("a") == pytest.approx(5.0)  # half a token back, not enough
    clock.now += 5
    assert limiter.take("a") == 0.0
    clock.now += 600  # long idle: the bucket is full again, but never beyond capacity
    assert [limiter.take("a") for _ in range(6)] == [0.0] * 6
    assert limiter.take("a") > 0


def test_rate_limit_memory_is_bounded():
    clock = FakeClock()
    limiter = RateLimitMiddleware(_ok_app, per_minute=20, max_clients=100, clock=clock)

    for i in range(1000):
        limiter.take(f"10.0.{i // 256}.{i % 256}")
    assert limiter.tracked_clients == 100

    clock.now += 61  # every bucket is idle long enough to be full again
    limiter.take("192.168.1.1")
    assert limiter.tracked_clients == 1


def test_rate_limit_disabled_with_zero():
    limiter = RateLimitMiddleware(_ok_app, per_minute=0)
    scope = {"type": "http", "method": "POST", "path": "/chat"}
    assert limiter._limited(scope) is False


async def _call(app, path="/boom"):
    sent = []
    scope = {
        "type": "http",
        "method": "GET",
        "path": path,
        "headers": [],
        "state": {"request_id": "r-1"},
    }

    async def receive():
        return {"type": "http.request", "body": b""}

    async def send(message):
        sent.append(message)

    await app(scope, receive, send)
    return sent


async def test_error_handling_turns_exceptions_into_500_json(caplog):
    async def crashing(scope, receive, send):
        raise ValueError("database password is hunter2")

    sent = await _call(SecurityHeadersMiddleware(ErrorHandlingMiddleware(crashing)))

    assert sent[0]["status"] == 500
    headers = {k.decode(): v.decode() for k, v in sent[0]["headers"]}
    assert headers["content-type"] == "application/json"
    assert headers["x-frame-options"] == "DENY"
    assert json.loads(sent[1]["body"]) == {"error": "internal error", "request_id": "r-1"}
    assert [r.levelname for r in caplog.records if "unhandled error" in r.getMessage()] == ["ERROR"]


async def test_error_after_response_started_does_not_send_a_second_start(caplog):
    async def half_sent(scope, receive, send):
        await send({"type": "http.response.start", "status": 200, "headers": []})
        raise RuntimeError("stream broke")

    sent = await _call(ErrorHandlingMiddleware(half_sent))

    assert [m["type"] for m in sent] == ["http.response.start"]
    assert any(r.levelname == "ERROR" for r in caplog.records)


async def test_cancellation_is_logged_at_info_and_propagates(caplog):
    async def cancelled(scope, receive, send):
        raise asyncio.CancelledError()

    with (
        caplog.at_level(logging.INFO, logger="frontdesk.server"),
        pytest.raises(asyncio.CancelledError),
    ):
        await _call(ErrorHandlingMiddleware(cancelled))

    levels = [r.levelname for r in caplog.records if r.name == "frontdesk.server"]
    assert levels == ["INFO"]


async def test_cors_allows_only_configured_origins(settings, make_service, start):
    settings.allowed_origins = ["http://localhost:8080"]
    preflight = {"Access-Control-Request-Method": "POST"}
    async with start(settings, make_service()) as client:
        allowed = await client.options(
            "/chat", headers={"Origin": "http://localhost:8080", **preflight}
        )
        refused = await client.options(
            "/chat", headers={"Origin": "https://evil.example", **preflight}
        )

    assert allowed.status_code == 200
    assert allowed.headers["access-control-allow-origin"] == "http://localhost:8080"
    assert "access-control-allow-origin" not in refused.headers


async def test_forwarded_for_is_believed_only_from_configured_proxies(settings, service):
    """From a loopback client, a rotating X-Forwarded-For must not give a fresh rate-limit
    bucket (nor forge the logged address) unless that client is a configured proxy."""
    import socket

    import uvicorn

    from frontdesk.server.app import create_app, uvicorn_options

    async def factory(_settings):
        return {service.name: service}

    async def three_requests(proxies: list[str]) -> list[int]:
        settings.rate_limit_chat_per_minute = 2
        settings.trusted_proxies = proxies
        with socket.socket() as probe:
            probe.bind(("127.0.0.1", 0))
            settings.port = probe.getsockname()[1]
        settings.host = "127.0.0.1"
        options = uvicorn_options(settings)
        server = uvicorn.Server(uvicorn.Config(create_app(settings, service_factory=factory),
                                               **{**options, "log_level": "warning"}))
        task = asyncio.create_task(server.serve())
        try:
            while not server.started:
                await asyncio.sleep(0.05)
            async with httpx.AsyncClient(base_url=f"http://127.0.0.1:{settings.port}") as client:
                codes = []
                for n in range(3):
                    response = await client.post(
                        "/chat",
                        json={"message": "hi"},
                        headers={"X-Forwarded-For": f"203.0.113.{n}"},
                    )
                    codes.append(response.status_code)
                return codes
        finally:
            server.should_exit = True
            await task

    assert uvicorn_options(settings)["proxy_headers"] is False
    assert await three_requests([]) == [200, 200, 429]
    assert await three_requests(["127.0.0.1"]) == [200, 200, 200]
