"""POST /chat: the SSE stream a client sees, including timeouts and failing assistants."""

from __future__ import annotations

import asyncio
import time
import uuid

from frontdesk.assistants.base import ChatEvent
from frontdesk.server.app import create_app, serving
from frontdesk.server.streaming import FAILURE_MESSAGE, chat_sse_stream

THREAD = "6f1c2f6e-5a4b-4c1d-9e8f-0a1b2c3d4e5f"


async def test_stream_passes_events_through_in_order(client, service, parse_sse):
    response = await client.post(
        "/chat", json={"message": "  Where can I eat?  ", "thread_id": THREAD}
    )

    assert response.status_code == 200
    assert response.headers["content-type"].startswith("text/event-stream")
    events = parse_sse(response.text)
    assert [name for name, _ in events] == [
        "metadata",
        "token",
        "token",
        "token",
        "sources",
        "done",
    ]
    assert events[0][1] == {"thread_id": THREAD, "turn": 0}
    # The message reaches the assistant stripped, and the tokens come back as sent.
    assert service.calls == [("Where can I eat?", THREAD)]
    assert "".join(data["content"] for name, data in events if name == "token") == (
        "You asked: Where can I eat?"
    )
    assert events[-2][1] == {"sources": ["restaurants", "spa"]}
    assert events[-1][1] == {"done": True}


async def test_missing_thread_id_gets_a_fresh_uuid4(client, service, parse_sse):
    first = parse_sse((await client.post("/chat", json={"message": "hi"})).text)
    second = parse_sse((await client.post("/chat", json={"message": "hi"})).text)

    ids = [first[0][1]["thread_id"], second[0][1]["thread_id"]]
    assert all(uuid.UUID(i).version == 4 for i in ids)
    assert ids[0] != ids[1]
    assert [call[1] for call in service.calls] == ids


async def test_thread_id_is_normalised(client, service):
    await client.post("/chat", json={"message": "hi", "thread_id": THREAD.upper()})
    assert service.calls[0][1] == THREAD


async def test_replace_event_is_passed_through(settings, make_service, start, parse_sse):
    greeter = make_service(replace="Welcome! How can I help?")
    async with start(settings, greeter) as client:
        events = parse_sse((await client.post("/chat", json={"message": "hello"})).text)

    assert [name for name, _ in events] == ["metadata", "replace", "sources", "done"]
    assert events[1][1] == {"content": "Welcome! How can I help?"}


async def test_named_assistant_answers(settings, make_service, start, parse_sse):
    concierge, spa = make_service("concierge"), make_service("spa-desk")
    async with start(settings, concierge, spa) as client:
        response = await client.post("/chat", json={"message": "massage?", "assistant": "spa-desk"})

    assert response.status_code == 200
    assert spa.calls and not concierge.calls


async def test_stream_timeout_ends_with_error_event(settings, make_service, start, parse_sse):
    settings.sse_timeout_s = 0.3
    slow = make_service(delay_s=0.2)  # three tokens: 0.6 s in all
    async with start(settings, slow) as client:
        began = time.perf_counter()
        response = await client.post("/chat", json={"message": "slow please"})
        elapsed = time.perf_counter() - began
        events = parse_sse(response.text)
        # The server keeps serving afterwards.
        assert (await client.get("/health/live")).status_code == 200

    assert elapsed < 2.0
    names = [name for name, _ in events]
    assert names[0] == "metadata" and names[-1] == "error"
    assert "done" not in names and 0 < names.count("token") < 3
    assert "too long" in events[-1][1]["error"]
    assert slow.streams_closed == 1  # the assistant's generator was closed, not leaked


async def test_service_failing_mid_stream_gives_error_event(
    settings, make_service, start, parse_sse
):
    broken = make_service(fail_at=2)
    async with start(settings, broken) as client:
        response = await client.post("/chat", json={"message": "break"})
        events = parse_sse(response.text)
        after = await client.post("/chat", json={"message": "again"})

    assert response.status_code == 200  # the stream had started; the failure is an event
    assert [name for name, _ in events] == ["metadata", "token", "token", "error"]
    error = events[-1][1]
    assert error["error"] == FAILURE_MESSAGE
    assert error["request_id"] == response.headers["x-request-id"]
    # Never leak the exception text or a traceback.
    assert "exploded" not in response.text and "Traceback" not in response.text
    assert after.status_code == 200


async def test_service_failing_before_first_event_still_sends_thread_id(
    settings, make_service, start, parse_sse
):
    broken = make_service(fail_at=0)

    async def no_metadata(message, thread_id):
        raise ConnectionError("index offline")
        yield  # pragma: no cover - makes this an async generator

    broken.stream = no_metadata
    async with start(settings, broken) as client:
        events = parse_sse(
            (await client.post("/chat", json={"message": "x", "thread_id": THREAD})).text
        )

    assert events == [
        ("metadata", {"thread_id": THREAD, "turn": 0}),
        ("error", {"error": FAILURE_MESSAGE, "request_id": events[1][1]["request_id"]}),
    ]


async def test_non_event_from_service_is_an_error(settings, make_service, start, parse_sse):
    odd = make_service()

    async def wrong_type(message, thread_id):
        yield ChatEvent("metadata", {"thread_id": thread_id})
        yield {"event": "token", "data": {"content": "raw dict"}}

    odd.stream = wrong_type
    async with start(settings, odd) as client:
        events = parse_sse((await client.post("/chat", json={"message": "x"})).text)

    assert [name for name, _ in events] == ["metadata", "error"]


async def test_disconnect_closes_the_service_stream(make_service, caplog):
    """A client leaving mid-answer: the generator closes the service's stream, logs at INFO."""
    slow = make_service(delay_s=0.05)
    stream = chat_sse_stream(slow, "hi", THREAD, timeout_s=5)
    first = await anext(stream)
    assert first["event"] == "metadata"

    with caplog.at_level("INFO", logger="frontdesk.server"):
        await stream.aclose()

    assert slow.streams_closed == 1
    records = [r for r in caplog.records if "disconnected" in r.getMessage()]
    assert records and all(r.levelname == "INFO" for r in records)
    assert not [r for r in caplog.records if r.levelno >= 40]


async def test_disconnect_through_the_asgi_app(settings, make_service, factory_for, caplog):
    """Drive the real app with an ASGI `receive` that reports a disconnect mid-stream."""
    slow = make_service(delay_s=0.3)
    app = create_app(settings, service_factory=factory_for(slow))
    first_chunk_sent = asyncio.Event()
    sent: list[dict] = []
    body = b'{"message": "tell me everything"}'

    async def receive():
        if not sent:
            return {"type": "http.request", "body": body, "more_body": False}
        await first_chunk_sent.wait()
        return {"type": "http.disconnect"}

    async def send(message):
        sent.append(message)
        if message["type"] == "http.response.body" and message.get("body"):
            first_chunk_sent.set()

    scope = {
        "type": "http",
        "asgi": {"version": "3.0"},
        "http_version": "1.1",
        "method": "POST",
        "scheme": "http",
        "path": "/chat",
        "raw_path": b"/chat",
        "query_string": b"",
        "root_path": "",
        "client": ("127.0.0.1", 1),
        "server": ("testserver", 80),
        "headers": [
            (b"content-type", b"application/json"),
            (b"content-length", str(len(body)).encode()),
        ],
    }
    async with serving(app):
        with caplog.at_level("INFO"):
            await asyncio.wait_for(app(scope, receive, send), timeout=5)

    assert sent[0]["status"] == 200
    streamed = b"".join(m.get("body", b"") for m in sent if m["type"] == "http.response.body")
    assert b"event: metadata" in streamed and b"event: done" not in streamed  # cut short
    assert slow.streams_closed == 1
    assert len(slow.calls) == 1
    assert not [r for r in caplog.records if r.levelno >= 40], [
        r.getMessage() for r in caplog.records
    ]


async def test_service_error_event_and_following_done_pass_through(
    settings, make_service, start, parse_sse
):
    """A service that reports its own failure (error, then done) is relayed as is."""
    polite = make_service()

    async def reports_failure(message, thread_id):
        yield ChatEvent("metadata", {"thread_id": thread_id})
        yield ChatEvent("token", {"content": "Partial"})
        yield ChatEvent("error", {"error": "The knowledge base is unavailable."})
        yield ChatEvent("done", {"done": True})
        yield ChatEvent("token", {"content": "never sent: nothing follows done"})

    polite.stream = reports_failure
    async with start(settings, polite) as client:
        events = parse_sse((await client.post("/chat", json={"message": "x"})).text)

    assert [name for name, _ in events] == ["metadata", "token", "error", "done"]
    assert events[2][1] == {"error": "The knowledge base is unavailable."}
