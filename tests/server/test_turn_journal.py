"""A question survives the server dying mid-turn: a real server process, killed with SIGKILL
while the (scripted, slowed) model writes the answer, then restarted on the same data dir."""

from __future__ import annotations

import json
import signal
import sys
import uuid

import httpx
import pytest
from tests.server.scripted_server import scripted_server

QUESTION = "What time does the indoor pool open on weekends?"
THREAD = "6f1c2f6e-5a4b-4c1d-9e8f-0a1b2c3d4e5f"
CONCIERGE_ONLY = {"assistant": "concierge", "assistants": '["concierge"]', "log_level": "WARNING"}


@pytest.mark.skipif(sys.platform == "win32", reason="SIGKILL")
def test_a_question_asked_when_the_server_died_shows_unanswered_after_a_restart(tmp_path):
    thread = str(uuid.uuid4())
    with (
        scripted_server(tmp_path, token_delay_s=1.0, **CONCIERGE_ONLY) as (url, process, _log),
        httpx.Client(base_url=url, timeout=30) as client,
        client.stream("POST", "/chat", json={"message": QUESTION, "thread_id": thread}) as response,
    ):
        assert response.status_code == 200
        # The first event: the turn has begun, and the model writes one word a second.
        for line in response.iter_lines():
            if line.startswith("event:"):
                break
        process.send_signal(signal.SIGKILL)
        process.wait(10)

    with (
        scripted_server(tmp_path, **CONCIERGE_ONLY) as (url, _process, _log),
        httpx.Client(base_url=url, timeout=30) as client,
    ):
        listed = client.get("/conversations", params={"assistant": "concierge"}).json()
        assert [c["thread_id"] for c in listed["conversations"]] == [thread]
        shown = client.get(f"/conversations/concierge/{thread}").json()
        assert shown["messages"] == [{"role": "user", "content": QUESTION, "answered": False}]

        # Asked again (the web UI's Regenerate): answered, and nothing is shown twice.
        again = client.post(
            "/chat", json={"message": QUESTION, "thread_id": thread, "regenerate": True}
        )
        events = [
            json.loads(line[len("data:") :])
            for line in again.text.splitlines()
            if line.startswith("data:")
        ]
        assert events[-1] == {"done": True}
        assert not any("error" in e for e in events)
        messages = client.get(f"/conversations/concierge/{thread}").json()["messages"]
        assert [m["role"] for m in messages] == ["user", "assistant"]
        assert messages[0] == {"role": "user", "content": QUESTION}
        assert "answered" not in messages[1]


@pytest.mark.parametrize("fail_at", [None, 1])
async def test_a_turn_that_ends_answered_or_failed_leaves_no_unanswered_question(
    settings, make_service, start, fail_at
):
    from frontdesk.memory.threads import ThreadStore

    async with start(settings, make_service(fail_at=fail_at)) as client:
        response = await client.post("/chat", json={"message": QUESTION, "thread_id": THREAD})
        assert response.status_code == 200
        assert ("event: error" in response.text) == (fail_at is not None)
    # As the next server run would see the journal.
    assert ThreadStore(settings.threads_path).unanswered_sync("concierge", THREAD) is None


async def test_a_turn_in_progress_is_journalled_before_the_assistant_answers(
    settings, make_service, start
):
    import asyncio

    from frontdesk.memory.threads import ThreadStore

    slow = make_service(delay_s=0.5)
    async with start(settings, slow) as client:
        turn = asyncio.create_task(
            client.post("/chat", json={"message": QUESTION, "thread_id": THREAD})
        )
        while not slow.calls:  # the assistant has started on the turn
            await asyncio.sleep(0.01)
        # Mid-turn, another run (a restarted server) would find the question.
        journal = ThreadStore(settings.threads_path)
        assert journal.unanswered_sync("concierge", THREAD) == QUESTION
        assert (await turn).status_code == 200
        assert journal.unanswered_sync("concierge", THREAD) is None
