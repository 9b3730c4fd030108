"""`POST /internal/chat/stream`: seed 002's request and `data:` events, over the real graph."""

from __future__ import annotations

import json
from contextlib import asynccontextmanager

import httpx

from frontdesk.config import Settings
from frontdesk.server.app import create_app
from frontdesk.server.app import serving as started

from .test_analyst_graph import ACTIVE_TECHS, script


@asynccontextmanager
async def serving(service, tmp_path, **overrides):
    settings = Settings(
        data_dir=tmp_path, assistant="analyst", rate_limit_chat_per_minute=1000,
        sse_timeout_s=30.0, allowed_origins=[], _env_file=None, **overrides,
    )

    async def factory(_settings):
        return {"analyst": service}

    app = create_app(settings, service_factory=factory)
    async with started(app):
        transport = httpx.ASGITransport(app=app)
        async with httpx.AsyncClient(transport=transport, base_url="http://testserver") as client:
            yield client


def data_events(body: str) -> list[dict]:
    return [json.loads(line[5:]) for line in body.splitlines() if line.startswith("data:")]


def request(message: str, conversation: str = "conv-1") -> dict:
    return {
        "input": {"message": message},
        "conversation": {"id": conversation, "user_id": "user-456", "company_id": "company-789"},
    }


async def test_the_stream_has_the_seeds_events(analyst, tmp_path):
    service, _ = analyst(script(sql=[ACTIVE_TECHS]))
    async with serving(service, tmp_path) as client:
        response = await client.post(
            "/internal/chat/stream", json=request("how many technicians are active")
        )
    assert response.status_code == 200
    assert response.headers["content-type"].startswith("text/event-stream")
    events = data_events(response.text)
    names = [e["event"] for e in events]
    assert names[0] == "route_decision" and events[0]["route"] == "sql"
    assert {"event": "tool_start", "tool": "sql_agent"} in events
    tokens = [e for e in events if e["event"] == "token"]
    assert tokens and all(t["channel"] == "final" for t in tokens)
    assert "".join(t["content"] for t in tokens) == "21 technicians are active."
    assert names[-1] == "complete"
    complete = events[-1]
    assert complete["stats"]["tokens"] == len(tokens) and complete["stats"]["route"] == "sql"
    assert complete["final_structured_data"] == [{"technicians": 21}]
    assert "secure_employee" in complete["sql"]


async def test_conversation_id_is_the_thread(analyst, tmp_path):
    service, _ = analyst(script(general="ok"))
    async with serving(service, tmp_path) as client:
        for _ in range(2):
            await client.post("/internal/chat/stream", json=request("what is machine learning", "c9"))
    # Keyed by (company, user, conversation); without an API key the user is nobody's to
    # claim, so only the company and the conversation name the thread.
    state = await service.graph.aget_state(service.config("company-789:c9"))
    assert len(state.values["messages"]) == 4


async def test_bad_requests_get_clear_errors_and_the_server_keeps_serving(analyst, tmp_path):
    service, _ = analyst(script(general="still here"))
    async with serving(service, tmp_path) as client:
        missing = await client.post("/internal/chat/stream", json={"input": {"message": "hi"}})
        blank = await client.post("/internal/chat/stream", json=request("   "))
        extra = await client.post(
            "/internal/chat/stream", json={**request("hi"), "admin": True}
        )
        not_json = await client.post(
            "/internal/chat/stream", content=b"{", headers={"content-type": "application/json"}
        )
        ok = await client.post("/internal/chat/stream", json=request("what is machine learning"))
    assert [r.status_code for r in (missing, blank, extra, not_json)] == [422] * 4
    assert "conversation" in missing.text
    assert ok.status_code == 200 and data_events(ok.text)[-1]["event"] == "complete"


async def test_a_failing_turn_ends_with_one_error_event(analyst, tmp_path, monkeypatch):
    service, _ = analyst(script())

    async def broken(*args, **kwargs):
        raise RuntimeError("boom")

    monkeypatch.setattr(service.context.router, "route", broken)
    async with serving(service, tmp_path) as client:
        response = await client.post("/internal/chat/stream", json=request("how many?"))
    events = data_events(response.text)
    assert [e["event"] for e in events] == ["error"]
    assert "boom" not in events[0]["message"]


NAMES = "SELECT firstName, lastName FROM employee WHERE isTechnician = 1 LIMIT 3"
KEYS = {
    "bi": {"key": "bi-key-0123456789abcdef", "personal_data": True},
    "crm": {"key": "crm-key-0123456789abcdef"},
}


async def test_personal_data_only_for_a_key_granted_it(analyst, tmp_path):
    service, _ = analyst(script(sql=[NAMES, NAMES, NAMES], answer="Their names are listed."))
    async with serving(service, tmp_path, api_keys=KEYS) as client:
        anonymous = await client.post("/internal/chat/stream", json=request("technician names?", "p1"))
        plain_key = await client.post(
            "/internal/chat/stream",
            json=request("technician names?", "p2"),
            headers={"Authorization": "Bearer crm-key-0123456789abcdef"},
        )
        granted = await client.post(
            "/internal/chat/stream",
            json=request("technician names?", "p3"),
            headers={"Authorization": "Bearer bi-key-0123456789abcdef"},
        )
    for refused in (anonymous, plain_key):
        complete = data_events(refused.text)[-1]
        assert complete["event"] == "complete" and not complete["final_structured_data"]
        assert "personal data" in refused.text
    rows = data_events(granted.text)[-1]["final_structured_data"]
    assert rows and all(isinstance(row["firstName"], str) for row in rows)


def test_the_seed_stream_shows_the_queue_place():
    from frontdesk.assistants.analyst.api import SeedEventEncoder

    encode = SeedEventEncoder()
    message = encode("progress", {"stage": "queue", "position": 2, "waiting": 5})
    assert json.loads(message["data"]) == {"event": "queue", "position": 2, "waiting": 5}
    assert encode("progress", {"stage": "unknown"}) is None


def test_a_stopped_turn_ends_the_seed_stream_with_cancelled():
    from frontdesk.assistants.analyst.api import SeedEventEncoder
    from frontdesk.server.turns import cancelled_message

    message = cancelled_message(SeedEventEncoder())
    assert json.loads(message["data"]) == {"event": "cancelled"}


async def test_a_query_that_did_not_run_is_said_so_in_plain_words(analyst, tmp_path):
    misuse = "SELECT COUNT(COUNT(*)) AS n FROM workOrder"
    service, _ = analyst(script(sql=[misuse], fixes=[misuse] * 6))
    async with serving(service, tmp_path) as client:
        response = await client.post(
            "/internal/chat/stream", json=request("how many technicians are active")
        )
    events = data_events(response.text)
    complete = events[-1]
    answer = "".join(e["content"] for e in events if e["event"] in ("token", "replace"))
    assert "the database could not run the query as written" in answer
    assert "misuse" not in response.text  # the database's words stay in the report
    assert complete["sql_status"] == "failed" and "COUNT(COUNT(*))" in complete["sql"]
    assert complete["sql_problem"] == "the database could not run the query as written"
    assert complete["final_structured_data"] == [] and complete["columns"] == []
