"""Ten streamed turns at once through the real `/chat` API with the real embedded model: each
waits its turn in the model's queue and ends in `done`, none in `error`. Slow (minutes on two
cores), so marked `model`."""

from __future__ import annotations

import asyncio

import httpx
import pytest

from frontdesk.config import Settings, get_settings
from frontdesk.server.app import create_app, serving

pytestmark = pytest.mark.model

QUESTIONS = [
    "What time does Seasons Buffet open?",
    "Is there a steakhouse?",
    "How much does parking cost?",
    "Where can I get a massage?",
    "Do you have a pool?",
    "When is check-out?",
    "Where can I eat sushi?",
    "Is there a shuttle from the airport?",
    "What time does the casino close?",
    "What shows are at the arena?",
]


async def test_ten_concurrent_streamed_turns_all_end_in_done(tmp_path, parse_sse):
    settings = Settings(
        data_dir=tmp_path,
        models_dir=get_settings().models_dir,  # the installed models; all else in a temp dir
        assistant="concierge",
        assistants=["concierge"],
        checkpointer="memory",
        router_llm="never",
        rate_limit_chat_per_minute=1000,
        allowed_origins=[],
        _env_file=None,
    )
    app = create_app(settings)
    async with serving(app):
        transport = httpx.ASGITransport(app=app, client=("127.0.0.1", 50000))
        async with httpx.AsyncClient(
            transport=transport, base_url="http://testserver", timeout=None
        ) as client:
            responses = await asyncio.gather(
                *(client.post("/chat", json={"message": q}) for q in QUESTIONS)
            )
            queue = (await client.get("/health/ready")).json()["queue"]

    streams = [parse_sse(r.text) for r in responses]
    assert [r.status_code for r in responses] == [200] * 10
    for events in streams:
        names = [name for name, _ in events]
        assert "error" not in names
        assert names[0] == "metadata" and names[-1] == "done"
        answer = "".join(d.get("content", "") for n, d in events if n in ("token", "replace"))
        assert answer.strip()
    # More turns than the model runs at once: some waited, and were told their place.
    places = [
        data["position"]
        for events in streams
        for name, data in events
        if name == "progress" and data.get("stage") == "queue"
    ]
    assert max(places) >= 1
    assert queue["turns_in_progress"] == 0 and queue["waiting"] == 0
