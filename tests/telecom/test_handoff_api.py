"""The handoff over HTTP: a web customer asks for a person, staff with an API key answer and
close the ticket, the customer's conversation shows the answer; who may touch tickets."""

from __future__ import annotations

import json
import uuid

import httpx
import pytest

from frontdesk.config import Settings
from frontdesk.memory.tickets import TicketStore
from frontdesk.server.app import create_app, serving

DESK = "desk-key-0123456789abcdef"  # the support team: telecom only
SHOP = "shop-key-0123456789abcdef"  # another team: the concierge only
THREAD = str(uuid.uuid4())


def bearer(key: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {key}"}


def replies(sse: str) -> str:
    """The final text of a streamed turn (its last `replace`, else its tokens)."""
    events = []
    for block in sse.replace("\r\n", "\n").split("\n\n"):
        lines = block.split("\n")
        name = next((l[6:].strip() for l in lines if l.startswith("event:")), None)
        data = "\n".join(l[5:].removeprefix(" ") for l in lines if l.startswith("data:"))
        if name:
            events.append((name, json.loads(data)))
    replaced = [d["content"] for n, d in events if n == "replace"]
    return replaced[-1] if replaced else "".join(d["content"] for n, d in events if n == "token")


@pytest.fixture
def settings(tmp_path):
    return Settings(
        data_dir=tmp_path,
        assistant="telecom",
        rate_limit_chat_per_minute=1000,
        sse_timeout_s=10.0,
        allowed_origins=[],
        api_keys={
            "desk": {"key": DESK, "assistants": ["telecom"]},
            "shop": {"key": SHOP, "assistants": ["concierge"]},
        },
        _env_file=None,
    )


@pytest.fixture
async def app_with_telecom(settings, telecom):
    tickets = TicketStore(settings.threads_path)
    service, llm = telecom(["Restart the router."], tickets=tickets)

    async def load(_settings):
        return {"telecom": service}

    app = create_app(settings, service_factory=load)
    async with serving(app):
        yield app, llm
    tickets.close()


def client_of(app) -> httpx.AsyncClient:
    return httpx.AsyncClient(transport=httpx.ASGITransport(app=app), base_url="http://testserver")


async def test_web_customer_reaches_a_person_and_back(app_with_telecom):
    app, llm = app_with_telecom
    async with client_of(app) as customer, client_of(app) as staff:
        assert (await customer.get("/session")).status_code == 200  # the web UI's cookie

        async def say(text: str) -> str:
            sent = await customer.post(
                "/chat", json={"assistant": "telecom", "message": text, "thread_id": THREAD}
            )
            assert sent.status_code == 200
            return replies(sent.text)

        opened = await say("I want to talk to a person")
        listed = (await staff.get("/tickets", headers=bearer(DESK))).json()["tickets"]
        (ticket,) = listed
        assert f"ticket #{ticket['id']}" in opened
        assert ticket["status"] == "open" and ticket["owner"].startswith("web:")
        assert "transcript" not in ticket  # the list is a summary
        shown = (await staff.get(f"/tickets/{ticket['id']}", headers=bearer(DESK))).json()
        assert shown["transcript"] == [{"role": "user", "content": "I want to talk to a person"}]

        held = await say("my internet is down")
        assert "added your message" in held and llm.calls == []

        answer = {"text": "Hi, Alice from support: I see an outage in your area.",
                  "author": "Alice"}
        headers = {**bearer(DESK), "Idempotency-Key": "reply-1"}
        for _ in range(2):  # a retried answer is one answer
            answered = await staff.post(f"/tickets/{ticket['id']}/answer", json=answer,
                                        headers=headers)
            assert answered.status_code == 200 and answered.json()["status"] == "answered"
        assert [m["sender"] for m in answered.json()["messages"]] == ["customer", "person"]

        conversation = (await customer.get(f"/conversations/telecom/{THREAD}")).json()
        person = [m for m in conversation["messages"] if m.get("from") == "person"]
        assert person == [{"role": "assistant", "content": answer["text"], "from": "person",
                           "author": "Alice"}]

        closed = await staff.post(f"/tickets/{ticket['id']}/close", headers=bearer(DESK))
        assert closed.json()["status"] == "closed" and closed.json()["closed_by"] == "desk"
        late = await staff.post(f"/tickets/{ticket['id']}/answer", json={"text": "one more"},
                                headers=bearer(DESK))
        assert late.status_code == 409
        assert (await staff.get("/tickets", headers=bearer(DESK))).json()["tickets"] == []

        bot = await say("PON LED blinking red")
        assert bot.startswith("Restart the router.") and len(llm.calls) == 1


async def test_ticket_routes_need_a_key_allowed_the_assistant(app_with_telecom):
    app, _ = app_with_telecom
    async with client_of(app) as customer, client_of(app) as anonymous:
        await customer.get("/session")
        await customer.post(
            "/chat", json={"assistant": "telecom", "message": "agent please", "thread_id": THREAD}
        )
        listed = (await anonymous.get("/tickets", headers=bearer(DESK))).json()["tickets"]
        ticket_id = listed[0]["id"]
        answer = {"text": "hello"}
        # No key: neither the customer's web session nor an anonymous (local) caller.
        path = f"/tickets/{ticket_id}"
        for caller in (customer, anonymous):
            assert (await caller.get("/tickets")).status_code == 403
            assert (await caller.get(path)).status_code == 403
            assert (await caller.post(f"{path}/answer", json=answer)).status_code == 403
            assert (await caller.post(f"{path}/close")).status_code == 403
        bad = await anonymous.get("/tickets", headers=bearer("not-a-key-0123456789"))
        assert bad.status_code == 401
        # A key for another assistant sees no telecom ticket: 404, as for one that is not there.
        shop = bearer(SHOP)
        assert (await anonymous.get("/tickets", headers=shop)).json() == {"tickets": []}
        assert (await anonymous.get("/tickets?assistant=telecom", headers=shop)).status_code == 403
        assert (await anonymous.get(f"/tickets/{ticket_id}", headers=shop)).status_code == 404
        assert (await anonymous.get("/tickets/999", headers=bearer(DESK))).status_code == 404
        for action, body in (("answer", answer), ("close", None)):
            refused = await anonymous.post(f"{path}/{action}", json=body, headers=shop)
            assert refused.status_code == 404
        still = (await anonymous.get(f"/tickets/{ticket_id}", headers=bearer(DESK))).json()
        assert still["status"] == "open" and still["messages"] == []
        empty = await anonymous.post(f"/tickets/{ticket_id}/answer", json={"text": "  "},
                                     headers=bearer(DESK))
        assert empty.status_code == 422
