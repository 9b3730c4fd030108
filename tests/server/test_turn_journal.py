"""A question survives the server dying mid-turn: a real server process, killed with SIGKILL
while the (scripted, slowed) model writes the answer, then restarted on the same data dir."""

from __future__ import annotations

import json
import os
import signal
import socket
import subprocess
import sys
import time
import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import httpx
import pytest

LAUNCHER = Path(__file__).with_name("scripted_server.py")
SRC = Path(__file__).resolve().parents[2] / "src"
QUESTION = "What time does the indoor pool open on weekends?"
THREAD = "6f1c2f6e-5a4b-4c1d-9e8f-0a1b2c3d4e5f"


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@contextmanager
def scripted_server(data_dir: Path, *, token_delay_s: float) -> Iterator[tuple[str, subprocess.Popen]]:
    port = _free_port()
    env = {
        **os.environ,
        "PYTHONPATH": os.pathsep.join([str(SRC), os.environ.get("PYTHONPATH", "")]),
        "FRONTDESK_DATA_DIR": str(data_dir),
        "FRONTDESK_PORT": str(port),
        "FRONTDESK_ASSISTANT": "concierge",
        "FRONTDESK_ASSISTANTS": '["concierge"]',
        "FRONTDESK_LLM_PROVIDER": "scripted",
        "FRONTDESK_EMBEDDINGS_PROVIDER": "hash",
        "FRONTDESK_ROUTER_LLM": "never",
        "FRONTDESK_SSE_TIMEOUT_S": "120",
        "FRONTDESK_LOG_LEVEL": "WARNING",
        "FRONTDESK_TEST_TOKEN_DELAY_S": str(token_delay_s),
    }
    process = subprocess.Popen(
        [sys.executable, str(LAUNCHER)], env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE
    )
    url = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 120
        while True:
            if process.poll() is not None:
                raise AssertionError(f"the server exited: {process.stderr.read().decode()[-2000:]}")
            try:
                if httpx.get(f"{url}/health/ready", timeout=2).status_code == 200:
                    break
            except httpx.HTTPError:
                pass
            if time.monotonic() > deadline:
                raise AssertionError("the server did not become ready in 120 s")
            time.sleep(0.2)
        yield url, process
    finally:
        if process.poll() is None:
            process.terminate()
            try:
                process.wait(10)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait()


@pytest.mark.skipif(sys.platform == "win32", reason="SIGKILL")
def test_a_question_asked_when_the_server_died_shows_unanswered_after_a_restart(tmp_path):
    thread = str(uuid.uuid4())
    with scripted_server(tmp_path, token_delay_s=1.0) as (url, process):
        with httpx.Client(base_url=url, timeout=30) as client:
            with client.stream(
                "POST", "/chat", json={"message": QUESTION, "thread_id": thread}
            ) as response:
                assert response.status_code == 200
                # The first event: the turn has begun, and the model writes one word a second.
                for line in response.iter_lines():
                    if line.startswith("event:"):
                        break
                process.send_signal(signal.SIGKILL)
                process.wait(10)

    with scripted_server(tmp_path, token_delay_s=0) as (url, _process):
        with httpx.Client(base_url=url, timeout=30) as client:
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
