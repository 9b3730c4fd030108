"""Every bad request gets a clear JSON error with the right status, and the server carries on."""

from __future__ import annotations

import pytest

from frontdesk.server.schemas import MAX_CHAT_BODY_BYTES, MAX_MESSAGE_CHARS

JSON = {"content-type": "application/json"}


async def assert_still_serving(client) -> None:
    assert (await client.get("/health")).json()["status"] == "healthy"
    ok = await client.post("/chat", json={"message": "still there?"})
    assert ok.status_code == 200 and "event: done" in ok.text


@pytest.mark.parametrize(
    ("request_kwargs", "field", "phrase"),
    [
        ({"json": {"message": ""}}, "message", "must not be empty"),
        ({"json": {"message": "   \n\t "}}, "message", "must not be empty"),
        ({"json": {"message": "x" * (MAX_MESSAGE_CHARS + 1)}}, "message", "limit is 4096"),
        ({"json": {"message": "hi", "thread_id": "not-a-uuid"}}, "thread_id", "must be a UUID"),
        ({"json": {"message": "hi", "thread_id": 12345}}, "thread_id", "valid string"),
        ({"json": {"message": 42}}, "message", "valid string"),
        ({"json": {"message": ["a", "b"]}}, "message", "valid string"),
        ({"json": {"message": "hi", "assistant": "  "}}, "assistant", "must not be empty"),
        ({"json": {"thread_id": "6f1c2f6e-5a4b-4c1d-9e8f-0a1b2c3d4e5f"}}, "message", "is required"),
        ({"content": b'{"message": "unterminated', "headers": JSON}, "body", "not valid JSON"),
        ({"content": b"", "headers": JSON}, "body", "JSON object"),
        ({"json": ["message", "hi"]}, "body", "JSON object"),
        (
            {"content": b'{"message": "hi"}', "headers": {"content-type": "text/plain"}},
            "body",
            "JSON object",
        ),
    ],
    ids=[
        "empty",
        "whitespace",
        "too-long",
        "bad-uuid",
        "uuid-not-string",
        "number-message",
        "list-message",
        "blank-assistant",
        "missing-message",
        "malformed-json",
        "empty-body",
        "array-body",
        "not-json-content-type",
    ],
)
async def test_invalid_chat_request_is_422_with_clear_message(
    client, service, request_kwargs, field, phrase
):
    response = await client.post("/chat", **request_kwargs)

    assert response.status_code == 422
    body = response.json()
    assert body["error"].startswith("Invalid request: ")
    assert phrase in body["error"]
    assert any(d["field"] == field and phrase in d["message"] for d in body["details"]), body
    assert "input" not in str(body["details"])  # the rejected input is never echoed back
    assert service.calls == []  # nothing reached the assistant
    await assert_still_serving(client)


async def test_message_at_the_limit_is_accepted_and_stripped(client, service):
    # The limit holds for the message as sent (the OpenAPI schema's maxLength).
    message = "y" * (MAX_MESSAGE_CHARS - 6)
    response = await client.post("/chat", json={"message": f"   {message}  \n"})
    padded_over = await client.post("/chat", json={"message": f" {'y' * MAX_MESSAGE_CHARS}"})

    assert response.status_code == 200
    assert service.calls[0][0] == message
    assert padded_over.status_code == 422
    assert "limit is 4096" in padded_over.json()["error"]


async def test_oversized_body_is_413(client, service):
    filler = "z" * (MAX_CHAT_BODY_BYTES + 10)
    response = await client.post("/chat", json={"message": "hi", "padding": filler})

    assert response.status_code == 413
    assert response.json()["error"] == "request body is too large (the limit is 64 KiB)"
    await assert_still_serving(client)


async def test_unknown_assistant_is_404_listing_known_ones(settings, make_service, start):
    async with start(settings, make_service("concierge"), make_service("spa-desk")) as client:
        response = await client.post("/chat", json={"message": "hi", "assistant": "pirate"})
        assert response.status_code == 404
        body = response.json()
        assert "pirate" in body["error"] and "concierge, spa-desk" in body["error"]
        assert body["available"] == ["concierge", "spa-desk"]

        prop = await client.get("/property", params={"assistant": "pirate"})
        assert prop.status_code == 404 and prop.json()["available"] == ["concierge", "spa-desk"]
        await assert_still_serving(client)


async def test_assistant_not_ready_is_503(settings, make_service, start):
    async with start(settings, make_service(ready=False)) as client:
        response = await client.post("/chat", json={"message": "hi"})

    assert response.status_code == 503
    assert (
        response.json()["error"]
        == "The assistant 'concierge' is not ready yet. Please try again shortly."
    )
    assert response.headers["retry-after"] == "5"


async def test_loading_failure_gives_503_not_a_crash(settings, start, caplog):
    async def broken_factory(settings):
        raise FileNotFoundError("index missing: run `frontdesk ingest` first")

    async with start(settings, factory=broken_factory) as client:
        chat = await client.post("/chat", json={"message": "hi"})
        live = await client.get("/health/live")

    assert chat.status_code == 503
    assert "failed to load" in chat.json()["error"]
    assert live.status_code == 200
    assert any("loading the assistants failed" in r.getMessage() for r in caplog.records)


async def test_unknown_route_and_wrong_method_are_json(client):
    missing = await client.get("/nope")
    wrong_method = await client.get("/chat")

    assert missing.status_code == 404
    assert missing.json() == {"error": "not found: GET /nope"}
    assert wrong_method.status_code == 405
    assert wrong_method.json() == {"error": "method GET is not allowed on /chat"}


async def test_unhandled_exception_is_500_json_with_request_id(
    settings, make_service, start, caplog
):
    class Exploding(type(make_service())):
        def info(self):
            raise KeyError("secret detail")

    async with start(settings, Exploding()) as client:
        response = await client.get("/property", headers={"X-Request-ID": "trace-123"})
        assert response.status_code == 500
        assert response.json() == {"error": "internal error", "request_id": "trace-123"}
        assert "secret" not in response.text
        assert response.headers["x-content-type-options"] == "nosniff"
        # The failure is logged at ERROR with the request id, and the server keeps going.
        assert any(r.levelname == "ERROR" and "trace-123" in r.getMessage() for r in caplog.records)
        assert (await client.get("/health/live")).status_code == 200


async def test_oversized_chunked_body_without_length_is_413(client):
    async def chunks():
        yield b'{"message": "'
        for _ in range(MAX_CHAT_BODY_BYTES // 1024 + 1):
            yield b"a" * 1024
        yield b'"}'

    response = await client.post("/chat", content=chunks(), headers=JSON)

    assert "content-length" not in response.request.headers
    assert response.status_code == 413
    await assert_still_serving(client)


async def test_a_lone_surrogate_is_a_clear_422_and_the_server_keeps_serving(
    settings, service, start
):
    """JSON may carry "\\ud800"; no tokenizer or database can encode it."""
    from tests.server.test_telecom_api import FakeTelecom

    from frontdesk.assistants.analyst.api import InternalInput

    telecom = FakeTelecom()
    headers = {"content-type": "application/json"}
    async with start(settings, service, telecom) as client:
        chat = await client.post("/chat", content='{"message": "a\\ud800b"}', headers=headers)
        support = await client.post(
            "/telecom/chat",
            content='{"session_id": "s1", "message": "a\\ud800b"}',
            headers=headers,
        )
        after = await client.post("/chat", json={"message": "still there?"})
    for refused in (chat, support):
        assert refused.status_code == 422, refused.text
        assert "surrogate" in refused.text
    assert service.calls == [("still there?", service.calls[0][1])] and not telecom.calls
    assert after.status_code == 200
    with pytest.raises(ValueError):  # pydantic refuses it for the analyst's body too
        InternalInput(message="a\udc00")


async def test_a_scope_the_assistant_lacks_is_a_clear_404_before_the_turn(client, service):
    # The test assistant answers about one collection: no scope exists for it.
    refused = await client.post("/chat", json={"message": "hi", "scope": "requests"})
    assert refused.status_code == 404
    assert "answers about one collection only" in refused.json()["error"]
    malformed = await client.post("/chat", json={"message": "hi", "scope": "no spaces allowed"})
    assert malformed.status_code == 422 and "scope" in str(malformed.json()["details"])
    assert service.calls == []  # nothing reached the assistant
    await assert_still_serving(client)
