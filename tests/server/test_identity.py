"""Callers own their conversations: cookies, API keys, 404 for another caller's thread."""

from __future__ import annotations

import asyncio
import json
import time
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

import httpx
from itsdangerous import TimestampSigner
from tests.server.test_telecom_api import FakeTelecom

from frontdesk.assistants.base import ChatEvent
from frontdesk.config import NotifyLevel
from frontdesk.server.app import create_app, serving
from frontdesk.server.identity import COOKIE_NAME

THREAD = "6f1c2f6e-5a4b-4c1d-9e8f-0a1b2c3d4e5f"
KEY = "crm-key-0123456789abcdef"
OTHER_KEY = "erp-key-0123456789abcdef"


def with_keys(settings):
    settings.api_keys = {
        "crm": {"key": KEY},
        "erp": {"key": OTHER_KEY, "assistants": ["telecom"]},
    }
    return settings


@asynccontextmanager
async def browser(app) -> AsyncIterator[httpx.AsyncClient]:
    """A browser: it keeps the cookie GET /session sets."""
    transport = httpx.ASGITransport(app=app)
    async with httpx.AsyncClient(transport=transport, base_url="http://testserver") as client:
        session = await client.get("/session")
        assert session.status_code == 200 and COOKIE_NAME in session.cookies
        yield client


def bearer(key: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {key}"}


async def test_another_callers_thread_is_404_with_no_detail(settings, service):
    app = create_app(with_keys(settings), service_factory=lambda _s: _one(service))
    async with serving(app):
        anonymous = httpx.AsyncClient(
            transport=httpx.ASGITransport(app=app), base_url="http://testserver"
        )
        async with browser(app) as alice, browser(app) as bob, anonymous:
            first = await alice.post("/chat", json={"message": "hi", "thread_id": THREAD})
            again = await alice.post("/chat", json={"message": "more", "thread_id": THREAD})
            stolen = await bob.post("/chat", json={"message": "hi", "thread_id": THREAD})
            local = await anonymous.post("/chat", json={"message": "hi", "thread_id": THREAD})
            keyed = await anonymous.post(
                "/chat", json={"message": "hi", "thread_id": THREAD}, headers=bearer(KEY)
            )
            read = await bob.get(f"/conversations/concierge/{THREAD}")
            listed_bob = await bob.get("/conversations", params={"assistant": "concierge"})
            listed_alice = await alice.get("/conversations", params={"assistant": "concierge"})

    assert first.status_code == 200 and again.status_code == 200
    for refused in (stolen, local, keyed, read):
        assert refused.status_code == 404
        assert refused.json()["error"] == "Conversation not found."
    assert listed_bob.json() == {"conversations": []}
    assert [c["thread_id"] for c in listed_alice.json()["conversations"]] == [THREAD]
    assert listed_alice.json()["conversations"][0]["title"] == "hi"
    # Only Alice's two turns reached the assistant.
    assert [thread for _message, thread in service.calls] == [THREAD, THREAD]


async def test_forged_and_expired_cookies_and_unknown_keys_are_401(
    settings, service, monkeypatch
):
    settings.session_max_age_days = 1 / 24  # an hour
    app = create_app(with_keys(settings), service_factory=lambda _s: _one(service))
    async with serving(app), browser(app) as client:
        cookie = client.cookies[COOKIE_NAME]
        transport = httpx.ASGITransport(app=app)
        async with httpx.AsyncClient(transport=transport, base_url="http://t") as forger:
            forged = await forger.post(
                "/chat",
                json={"message": "hi"},
                headers={"Cookie": f"{COOKIE_NAME}={cookie[:-4]}AAAA"},
            )
        # A cookie the server itself signed two hours ago.
        identity = app.state.identity
        monkeypatch.setattr(
            TimestampSigner, "get_timestamp", lambda _self: int(time.time()) - 7200
        )
        old = identity.encode(identity.new_session())
        monkeypatch.undo()
        async with httpx.AsyncClient(transport=transport, base_url="http://t") as stale:
            expired = await stale.post(
                "/chat", json={"message": "hi"}, headers={"Cookie": f"{COOKIE_NAME}={old}"}
            )
        renewed = await client.get("/session")  # the page recovers with a new cookie
        after = await client.post("/chat", json={"message": "hi"})
        unknown = await client.post(
            "/chat", json={"message": "hi"}, headers=bearer("not-a-key-at-all-0000")
        )
        not_allowed = await client.post(
            "/chat", json={"message": "hi"}, headers=bearer(OTHER_KEY)
        )

    for response in (forged, expired, unknown):
        assert response.status_code == 401
        body = response.json()
        assert set(body) <= {"error", "request_id"}
        assert "signature" not in body["error"].lower()
    assert unknown.headers["www-authenticate"] == "Bearer"
    assert renewed.status_code == 200 and after.status_code == 200
    assert not_allowed.status_code == 403
    assert service.calls and all(message == "hi" for message, _ in service.calls)
    assert len(service.calls) == 1  # only the renewed session's turn ran


async def test_required_mode_refuses_callers_without_credentials(settings, service):
    # Required mode as a production server runs it: no demo sign-in, the casino host's own
    # pepper (the server refuses to start otherwise: test_startup_checks.py).
    settings.auth_mode = "required"
    settings.demo_sign_in = False
    settings.plugin_settings = {"casino_host": {"phone_pepper": "a-pepper-of-this-deployment"}}
    settings.notify_chain = [NotifyLevel(email=["host-desk@casino.example"])]
    settings.notify_smtp_host = "smtp.casino.example"
    app = create_app(with_keys(settings), service_factory=lambda _s: _one(service))
    async with serving(app):
        transport = httpx.ASGITransport(app=app)
        async with httpx.AsyncClient(transport=transport, base_url="http://t") as client:
            bare = await client.post("/chat", json={"message": "hi"})
            keyed = await client.post("/chat", json={"message": "hi"}, headers=bearer(KEY))
    assert bare.status_code == 401 and "API key" in bare.json()["error"]
    assert keyed.status_code == 200


async def test_a_key_holders_end_users_have_threads_of_their_own(settings, service):
    app = create_app(with_keys(settings), service_factory=lambda _s: _one(service))
    async with serving(app):
        transport = httpx.ASGITransport(app=app)
        async with httpx.AsyncClient(transport=transport, base_url="http://t") as client:
            for user in ("u1", "u2", "u1"):
                response = await client.post(
                    "/chat",
                    json={"message": "hi", "thread_id": THREAD, "user_id": user},
                    headers=bearer(KEY),
                )
                assert response.status_code == 200
                metadata = json.loads(response.text.split("data: ", 1)[1].split("\r\n", 1)[0])
                assert metadata["thread_id"] == THREAD  # the caller's id, not the storage key
    assert [thread for _m, thread in service.calls] == [
        f"crm/u1/{THREAD}",
        f"crm/u2/{THREAD}",
        f"crm/u1/{THREAD}",
    ]
    assert service.user_ids == ["u1", "u2", "u1"]


async def test_telecom_customer_comes_from_the_signed_in_session(settings):
    telecom = FakeTelecom()
    app = create_app(settings, service_factory=lambda _s: _one(telecom))
    async with serving(app), browser(app) as client:
        before = await client.post(
            "/telecom/chat", json={"session_id": "s1", "message": "my plan?", "user_id": "u1"}
        )
        signed = await client.post(
            "/session/sign-in", json={"assistant": "telecom", "user_id": "u456"}
        )
        unknown_user = await client.post(
            "/session/sign-in", json={"assistant": "telecom", "user_id": "u000"}
        )
        after = await client.post(
            "/telecom/chat", json={"session_id": "s2", "message": "my plan?"}
        )
    assert before.status_code == 200 and signed.status_code == 200
    assert signed.json()["caller"]["signed_in"] == {"telecom": "u456"}
    assert unknown_user.status_code == 404 and "demo user" in unknown_user.json()["error"]
    assert after.status_code == 200
    # The body's user_id of a browser is ignored; the signed-in customer is used.
    assert [user for _m, _t, user in telecom.calls] == [None, "u456"]


async def test_feedback_is_stored_for_the_callers_own_answer(settings, service, tmp_path):
    from frontdesk.memory.threads import ThreadStore

    app = create_app(settings, service_factory=lambda _s: _one(service))
    async with serving(app), browser(app) as alice, browser(app) as bob:
        await alice.post("/chat", json={"message": "hi", "thread_id": THREAD})
        vote = {"assistant": "concierge", "thread_id": THREAD, "turn": 0, "rating": "down"}
        liked = await alice.post("/feedback", json={**vote, "comment": " wrong hours "})
        foreign = await bob.post("/feedback", json=vote)
        bad = await alice.post("/feedback", json={**vote, "rating": "meh"})
    assert liked.status_code == 201 and isinstance(liked.json()["id"], int)
    assert foreign.status_code == 404 and bad.status_code == 422
    store = ThreadStore(settings.threads_path)
    [count] = store.feedback_counts_sync()
    store.close()
    assert (count.assistant, count.up, count.down) == ("concierge", 0, 1)
    assert count.comments == [("down", "wrong hours")]


async def test_stop_cancels_the_running_turn_on_the_server(settings, service):
    started, finished = asyncio.Event(), asyncio.Event()

    async def slow_stream(message, thread_id, *, user_id=None):
        yield ChatEvent("metadata", {"thread_id": thread_id})
        yield ChatEvent("token", {"content": "Let me"})
        started.set()
        try:
            await asyncio.sleep(30)
            yield ChatEvent("done", {"done": True})
        finally:
            finished.set()

    service.stream = slow_stream
    app = create_app(settings, service_factory=lambda _s: _one(service))
    async with serving(app), browser(app) as client:
        chat = asyncio.create_task(
            client.post("/chat", json={"message": "hi", "thread_id": THREAD})
        )
        await asyncio.wait_for(started.wait(), 10)
        stop = await client.post(
            "/chat/cancel", json={"assistant": "concierge", "thread_id": THREAD}
        )
        response = await asyncio.wait_for(chat, 10)
        idle = await client.post(
            "/chat/cancel", json={"assistant": "concierge", "thread_id": THREAD}
        )
    assert stop.json() == {"cancelled": True}
    assert finished.is_set()  # the assistant's stream was closed, not left running
    assert '"cancelled": true' in response.text
    assert idle.json() == {"cancelled": False}


async def _one(service):
    return {service.name: service}
