"""POST /telecom/chat (one JSON answer) and the user_id that /chat passes to a stream.

A fake telecom service stands in for the real graph: these tests are about the HTTP contract
(shape, validation, failures, limits), not about the agents.
"""

from __future__ import annotations

import asyncio
from typing import Any

import pytest

from frontdesk.assistants.base import Answer, ChatEvent
from frontdesk.errors import FrontdeskError
from frontdesk.server.app import create_app
from frontdesk.server.streaming import FAILURE_MESSAGE

JSON = {"content-type": "application/json"}

CITATIONS = [
    {
        "title": "Router LED Indicators",
        "section": "Troubleshooting",
        "file": "02_router_wifi.md",
        "version": "2.1",
        "score": 0.82,
    },
    {
        "title": "Power and Connections",
        "section": "Setup > Cables",
        "file": "01_setup.md",
        "version": 1.0,  # front matter may give a number; the API answers a string
        "score": 0.71,
    },
]
REFUND_TOOL = {
    "name": "open_refund_case",
    "args": {"user_id": "u123", "invoice_id": "INV-20251001", "amount_pln": 20.0},
    "ok": True,
    "output": {"case_id": "RC-0001", "status": "open"},
    "error": None,
}
FAILED_TOOL = {
    "name": "get_invoice",
    "args": {"user_id": "u999", "invoice_id": "INV-1"},
    "ok": False,
    "output": None,
    "error": "No invoice INV-1 for customer u999.",
}

# A configured API key: only key holders may say which customer they act for.
KEY = "crm-key-0123456789abcdef"
BEARER = {"Authorization": f"Bearer {KEY}"}


class FakeTelecom:
    """`ask` answers by keyword: 'router' technical with citations, 'refund' a billing tool,
    'invoice' a failing tool, anything else the fallback. 'explode' raises, 'frontdesk' raises
    a user-facing FrontdeskError, and `delay_s` makes every turn slow."""

    name = "telecom"

    def __init__(self, *, ready: bool = True, delay_s: float = 0.0) -> None:
        self._ready = ready
        self.delay_s = delay_s
        self.calls: list[tuple[str, str, str | None]] = []
        self.history: dict[str, int] = {}

    @property
    def ready(self) -> bool:
        return self._ready

    def info(self) -> dict[str, Any]:
        return {
            "assistant": "telecom",
            "name": "Telecom support",
            "location": None,
            "categories": ["technical", "billing"],
            "document_count": 7,
            "takes_user_id": True,
        }

    async def stream(self, message: str, thread_id: str, *, user_id: str | None = None):
        answer = await self.ask(message, thread_id, user_id=user_id)
        yield ChatEvent("metadata", {"thread_id": thread_id})
        yield ChatEvent("replace", {"content": answer.answer})
        yield ChatEvent(
            "sources",
            {
                "sources": answer.sources,
                "citations": answer.extra["citations"],
                "used_tools": answer.extra["used_tools"],
                "route": answer.route,
            },
        )
        yield ChatEvent("done", {"done": True})

    async def ask(self, message: str, thread_id: str, *, user_id: str | None = None) -> Answer:
        self.calls.append((message, thread_id, user_id))
        if self.delay_s:
            await asyncio.sleep(self.delay_s)
        lowered = message.lower()
        if "explode" in lowered:
            raise RuntimeError("billing db at /secret/internal/path exploded")
        if "frontdesk" in lowered:
            raise FrontdeskError("The chat model is not installed: run `frontdesk models install`.")
        turns = self.history[thread_id] = self.history.get(thread_id, 0) + 2
        citations: list[dict[str, Any]] = []
        tools: list[dict[str, Any]] = []
        if "router" in lowered:
            route, reply, citations = "technical", "The PON LED blinking means ...", CITATIONS
        elif "refund" in lowered:
            route, reply, tools = (
                "billing",
                f"Refund case RC-0001 opened for {user_id}.",
                [REFUND_TOOL],
            )
        elif "invoice" in lowered:
            route, reply, tools = "billing", "I could not find that invoice.", [FAILED_TOOL]
        else:
            route, reply = "fallback", "I can help with technical or billing questions."
        return Answer(
            answer=reply,
            route=route,
            confidence=0.9,
            sources=[f"{c['title']} — {c['section']}" for c in citations],
            validation=None,
            thread_id=thread_id,
            extra={
                "last_agent": route,
                "citations": citations,
                "used_tools": tools,
                "state_excerpt": {"last_agent": route, "history_length": turns},
            },
        )

    async def aclose(self) -> None:
        pass


@pytest.fixture
def telecom() -> FakeTelecom:
    return FakeTelecom()


def turn(message: str, session_id: str = "session_abc123", **extra: Any) -> dict[str, Any]:
    return {"session_id": session_id, "message": message, **extra}


async def test_technical_turn_has_the_documented_shape(settings, service, telecom, start):
    async with start(settings, service, telecom) as client:
        response = await client.post(
            "/telecom/chat", json=turn("  My router PON LED is blinking red. What's wrong?  ")
        )

    assert response.status_code == 200
    assert response.headers["content-type"].startswith("application/json")
    body = response.json()
    assert set(body) == {"reply", "route", "last_agent", "sources", "used_tools", "state_excerpt"}
    assert body["reply"] == "The PON LED blinking means ..."
    assert body["route"] == "technical" and body["last_agent"] == "technical"
    assert body["sources"] == [CITATIONS[0], {**CITATIONS[1], "version": "1.0"}]
    assert body["used_tools"] == []
    assert body["state_excerpt"] == {"last_agent": "technical", "history_length": 2}
    # session_id is the thread; the message arrives stripped; no customer named.
    assert telecom.calls == [
        ("My router PON LED is blinking red. What's wrong?", "session_abc123", None)
    ]
    assert service.calls == []  # the concierge is not involved


async def test_user_id_reaches_billing_and_tools_come_back(settings, telecom, start):
    settings.api_keys = {"crm": {"key": KEY}}
    async with start(settings, telecom) as client:
        refund = await client.post(
            "/telecom/chat",
            json=turn("I want a refund for INV-20251001", "s-1", user_id="u123"),
            headers=BEARER,
        )
        again = await client.post(
            "/telecom/chat", json=turn("and my plan?", "s-1", user_id="u123"), headers=BEARER
        )
        failed = await client.post(
            "/telecom/chat", json=turn("show invoice INV-1", "s-1", user_id="u999"), headers=BEARER
        )

    assert refund.status_code == 200 and failed.status_code == 200
    body = refund.json()
    assert body["route"] == "billing" and body["reply"].endswith("for u123.")
    assert body["used_tools"] == [REFUND_TOOL]
    assert body["sources"] == []
    assert failed.json()["used_tools"] == [FAILED_TOOL]
    # The same session continues for the same customer; the key's end user namespaces the
    # session, so another customer's "s-1" is a conversation of its own.
    assert again.json()["state_excerpt"]["history_length"] == 4
    assert failed.json()["state_excerpt"]["history_length"] == 2
    assert [(c[1], c[2]) for c in telecom.calls] == [
        ("crm/u123/s-1", "u123"),
        ("crm/u123/s-1", "u123"),
        ("crm/u999/s-1", "u999"),
    ]


@pytest.mark.parametrize(
    ("session_id", "user_id"),
    [
        ("a", None),
        ("x" * 128, "u1"),
        ("tenant:42.session_9-b", "jan.kowalski@example-mail.pl"),
        ("s", "u" * 64),
    ],
    ids=["one-char-session", "longest-session", "all-allowed-chars", "longest-user"],
)
async def test_ids_at_the_limits_are_accepted(settings, telecom, start, session_id, user_id):
    settings.api_keys = {"crm": {"key": KEY}}
    async with start(settings, telecom) as client:
        response = await client.post(
            "/telecom/chat",
            json={"session_id": session_id, "user_id": user_id, "message": "hi"},
            headers=BEARER,
        )

    assert response.status_code == 200, response.text
    thread = f"crm/{user_id}/{session_id}" if user_id else session_id
    assert telecom.calls == [("hi", thread, user_id)]


async def test_message_at_the_limit_is_accepted_and_stripped(settings, telecom, start):
    # The limit holds for the message as sent (the OpenAPI schema's maxLength).
    message = "m" * 4091
    async with start(settings, telecom) as client:
        response = await client.post("/telecom/chat", json=turn(f"\n  {message}  "))
        padded_over = await client.post("/telecom/chat", json=turn(f" {message}{'m' * 5} "))

    assert response.status_code == 200
    assert telecom.calls[0][0] == message
    assert padded_over.status_code == 422 and "limit is 4096" in padded_over.json()["error"]


@pytest.mark.parametrize(
    ("request_kwargs", "field", "phrase"),
    [
        ({"json": {"message": "hi"}}, "session_id", "is required"),
        ({"json": turn("hi", "")}, "session_id", "1-128 characters"),
        ({"json": turn("hi", "   ")}, "session_id", "1-128 characters"),
        ({"json": turn("hi", "x" * 129)}, "session_id", "1-128 characters"),
        ({"json": turn("hi", "has space")}, "session_id", "1-128 characters"),
        ({"json": turn("hi", "../etc/passwd")}, "session_id", "1-128 characters"),
        ({"json": turn("hi", 12345)}, "session_id", "valid string"),
        ({"json": turn("hi", user_id="u")}, "user_id", "2-64 characters"),
        ({"json": turn("hi", user_id="u" * 65)}, "user_id", "2-64 characters"),
        ({"json": turn("hi", user_id="")}, "user_id", "2-64 characters"),
        ({"json": turn("hi", user_id="u 123")}, "user_id", "2-64 characters"),
        ({"json": turn("hi", user_id="u123;DROP")}, "user_id", "2-64 characters"),
        ({"json": turn("hi", user_id=123)}, "user_id", "valid string"),
        ({"json": {"session_id": "s"}}, "message", "is required"),
        ({"json": turn("")}, "message", "must not be empty"),
        ({"json": turn(" \n\t ")}, "message", "must not be empty"),
        ({"json": turn("x" * 4097)}, "message", "limit is 4096"),
        ({"json": turn(42)}, "message", "valid string"),
        ({"content": b'{"session_id": "s", "message', "headers": JSON}, "body", "not valid JSON"),
        ({"content": b"", "headers": JSON}, "body", "JSON object"),
        ({"json": ["session_id", "message"]}, "body", "JSON object"),
        (
            {
                "content": b'{"session_id": "s", "message": "hi"}',
                "headers": {"content-type": "text/plain"},
            },
            "body",
            "JSON object",
        ),
    ],
    ids=[
        "missing-session",
        "empty-session",
        "blank-session",
        "long-session",
        "session-with-space",
        "session-with-slash",
        "session-not-string",
        "short-user",
        "long-user",
        "empty-user",
        "user-with-space",
        "user-with-semicolon",
        "user-not-string",
        "missing-message",
        "empty-message",
        "blank-message",
        "long-message",
        "number-message",
        "malformed-json",
        "empty-body",
        "array-body",
        "not-json-content-type",
    ],
)
async def test_invalid_request_is_422_with_clear_message(
    settings, telecom, start, request_kwargs, field, phrase
):
    async with start(settings, telecom) as client:
        response = await client.post("/telecom/chat", **request_kwargs)

        assert response.status_code == 422
        body = response.json()
        assert body["error"].startswith("Invalid request: ")
        assert phrase in body["error"]
        assert any(d["field"] == field and phrase in d["message"] for d in body["details"]), body
        assert "input" not in str(body["details"])  # the rejected input is never echoed back
        assert telecom.calls == []  # nothing reached the assistant
        ok = await client.post("/telecom/chat", json=turn("still there?"))
        assert ok.status_code == 200


async def test_oversized_body_is_413(settings, telecom, start):
    async with start(settings, telecom) as client:
        response = await client.post(
            "/telecom/chat", json={**turn("hi"), "padding": "z" * (64 * 1024 + 1)}
        )

    assert response.status_code == 413
    assert "too large" in response.json()["error"]
    assert telecom.calls == []


async def test_telecom_not_loaded_is_404(settings, service, start):
    async with start(settings, service) as client:  # only the concierge
        response = await client.post("/telecom/chat", json=turn("hi"))

    assert response.status_code == 404
    body = response.json()
    assert body["error"] == "Unknown assistant 'telecom'. Available: concierge."
    assert body["available"] == ["concierge"]


async def test_telecom_not_ready_is_503(settings, start):
    async with start(settings, FakeTelecom(ready=False)) as client:
        response = await client.post("/telecom/chat", json=turn("hi"))

    assert response.status_code == 503
    assert "'telecom' is not ready" in response.json()["error"]
    assert response.headers["retry-after"] == "5"


async def test_degraded_server_is_503(settings, start):
    async def broken_factory(settings):
        raise FileNotFoundError("telecom index missing")

    async with start(settings, factory=broken_factory) as client:
        response = await client.post("/telecom/chat", json=turn("hi"))
        live = await client.get("/health/live")

    assert response.status_code == 503
    assert "failed to load" in response.json()["error"]
    assert "index missing" not in response.text
    assert live.status_code == 200


async def test_failing_turn_is_a_clear_500_and_the_server_keeps_serving(
    settings, telecom, start, caplog
):
    async with start(settings, telecom) as client:
        response = await client.post(
            "/telecom/chat", json=turn("please explode"), headers={"X-Request-ID": "req-42"}
        )
        after = await client.post("/telecom/chat", json=turn("my router is broken"))
        health = await client.get("/health/live")

    assert response.status_code == 500
    assert response.headers["content-type"].startswith("application/json")
    assert response.json() == {"error": FAILURE_MESSAGE, "request_id": "req-42"}
    assert "secret" not in response.text and "Traceback" not in response.text
    assert response.headers["x-content-type-options"] == "nosniff"
    # Logged with its traceback for the operator.
    assert any(r.levelname == "ERROR" and r.exc_info for r in caplog.records)
    assert after.status_code == 200 and after.json()["route"] == "technical"
    assert health.status_code == 200


async def test_user_facing_error_is_shown_as_written(settings, telecom, start):
    async with start(settings, telecom) as client:
        response = await client.post("/telecom/chat", json=turn("frontdesk error please"))

    assert response.status_code == 500
    assert response.json()["error"] == (
        "The chat model is not installed: run `frontdesk models install`."
    )


async def test_slow_turn_is_504_within_the_timeout(settings, start):
    settings.sse_timeout_s = 0.2
    slow = FakeTelecom(delay_s=5)
    async with start(settings, slow) as client:
        began = asyncio.get_running_loop().time()
        response = await client.post("/telecom/chat", json=turn("router?"))
        elapsed = asyncio.get_running_loop().time() - began
        slow.delay_s = 0
        after = await client.post("/telecom/chat", json=turn("router?"))

    assert elapsed < 2
    assert response.status_code == 504
    body = response.json()
    assert "took too long" in body["error"] and "0.2 s" in body["error"]
    assert body["request_id"] == response.headers["x-request-id"]
    assert after.status_code == 200


async def test_a_stopped_turn_is_409_and_its_work_ends(settings, start):
    """The whole-answer route runs the core's turn: POST /chat/cancel stops it as it stops a
    streamed one, and the assistant's work is cancelled, not left running."""
    slow = FakeTelecom(delay_s=30)
    async with start(settings, slow) as client:
        asked = asyncio.create_task(client.post("/telecom/chat", json=turn("router?")))
        for _ in range(200):  # until the turn is inside ask()
            if slow.calls:
                break
            await asyncio.sleep(0.05)
        stop = await client.post(
            "/chat/cancel", json={"assistant": "telecom", "thread_id": "session_abc123"}
        )
        response = await asyncio.wait_for(asked, 10)
        slow.delay_s = 0
        after = await client.post("/telecom/chat", json=turn("router?"))

    assert stop.json() == {"cancelled": True}
    assert response.status_code == 409
    assert "stopped" in response.json()["error"]
    assert response.json()["request_id"] == response.headers["x-request-id"]
    assert after.status_code == 200 and after.json()["route"] == "technical"


async def test_rate_limit_applies_and_is_shared_with_chat(settings, service, telecom, start):
    settings.rate_limit_chat_per_minute = 2
    async with start(settings, service, telecom) as client:
        first = await client.post("/telecom/chat", json=turn("hi"))
        second = await client.post("/chat", json={"message": "hi"})
        third = await client.post("/telecom/chat", json=turn("hi"))
        other = await client.get("/assistants")

    assert first.status_code == 200 and second.status_code == 200
    assert third.status_code == 429
    assert int(third.headers["retry-after"]) >= 1
    assert "Too many messages" in third.json()["error"]
    assert other.status_code == 200
    assert len(telecom.calls) == 1


async def test_openapi_documents_the_endpoint(settings, telecom, start):
    async with start(settings, telecom) as client:
        spec = (await client.get("/openapi.json")).json()

    post = spec["paths"]["/telecom/chat"]["post"]
    request = post["requestBody"]["content"]["application/json"]["schema"]
    assert set(request["properties"]) == {"session_id", "user_id", "message"}
    assert set(request["required"]) == {"session_id", "message"}
    assert {"200", "404", "422", "429", "500", "503", "504"} <= set(post["responses"])
    response = spec["components"]["schemas"]["TelecomChatResponse"]
    assert set(response["properties"]) == {
        "reply",
        "route",
        "last_agent",
        "sources",
        "used_tools",
        "state_excerpt",
    }
    chat = spec["paths"]["/chat"]["post"]["requestBody"]["content"]["application/json"]["schema"]
    assert "user_id" in chat["properties"]


# ---------------------------------------------------------------- /chat and user_id


async def test_chat_passes_a_key_holders_user_id_to_the_stream(
    settings, make_service, start, parse_sse
):
    settings.api_keys = {"crm": {"key": KEY}}
    concierge = make_service()
    async with start(settings, concierge) as client:
        with_user = await client.post(
            "/chat", json={"message": "hi", "user_id": "u123"}, headers=BEARER
        )
        # As the schema's pattern says: an id, not text to be trimmed.
        padded = await client.post(
            "/chat", json={"message": "hi", "user_id": " u123 "}, headers=BEARER
        )
        without = await client.post("/chat", json={"message": "hi"}, headers=BEARER)
        explicit_null = await client.post(
            "/chat", json={"message": "hi", "user_id": None}, headers=BEARER
        )
        # A caller without a key cannot say whom it acts for: the id is not passed on.
        anonymous = await client.post("/chat", json={"message": "hi", "user_id": "u123"})

    assert [r.status_code for r in (with_user, without, explicit_null, anonymous)] == [200] * 4
    assert padded.status_code == 422 and "2-64 characters" in padded.json()["error"]
    assert concierge.user_ids == ["u123", None, None, None]
    assert [name for name, _ in parse_sse(with_user.text)][-1] == "done"


async def test_chat_without_user_id_calls_a_stream_that_takes_none(
    settings, make_service, start, parse_sse
):
    """A service whose stream() predates user_id keeps working when no customer is named."""
    legacy = make_service()

    async def old_stream(message, thread_id):
        yield ChatEvent("metadata", {"thread_id": thread_id})
        yield ChatEvent("token", {"content": "ok"})
        yield ChatEvent("done", {"done": True})

    legacy.stream = old_stream
    async with start(settings, legacy) as client:
        events = parse_sse((await client.post("/chat", json={"message": "hi"})).text)

    assert [name for name, _ in events] == ["metadata", "token", "done"]


async def test_chat_to_telecom_streams_citations_and_tools(
    settings, service, telecom, start, parse_sse
):
    settings.api_keys = {"crm": {"key": KEY}}
    async with start(settings, service, telecom) as client:
        response = await client.post(
            "/chat",
            json={"message": "refund INV-20251001", "assistant": "telecom", "user_id": "u123"},
            headers=BEARER,
        )

    events = dict(parse_sse(response.text))
    assert telecom.calls[0][2] == "u123"
    assert events["sources"] == {
        "sources": [],
        "citations": [],
        "used_tools": [REFUND_TOOL],
        "route": "billing",
    }


@pytest.mark.parametrize("user_id", ["u", "u" * 65, "u 1", "", 7])
async def test_chat_rejects_a_bad_user_id(client, service, user_id):
    response = await client.post("/chat", json={"message": "hi", "user_id": user_id})

    assert response.status_code == 422
    assert any(d["field"] == "user_id" for d in response.json()["details"])
    assert service.calls == []


async def test_app_builds_without_loading_services(settings):
    # The new route is registered at build time; nothing is loaded until the lifespan runs.
    app = create_app(settings)
    assert "/telecom/chat" in app.openapi()["paths"]
