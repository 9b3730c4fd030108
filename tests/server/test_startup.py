"""Start-up as an orchestrator and a new user see it: the server answers `/health/live` at once,
and builds the assistants after that, each answering 503 "starting" with Retry-After until it
is ready (an orchestrator's liveness probe must not kill a server that is still loading)."""

from __future__ import annotations

import asyncio

import httpx

from frontdesk.assistants.registry import load_services
from frontdesk.server.app import create_app


async def test_live_at_once_and_each_assistant_503_until_built(settings, service):
    release = asyncio.Event()

    async def slow_load(_settings):
        await release.wait()  # an assistant whose indexes take minutes to open
        return {service.name: service}

    app = create_app(settings, service_factory=slow_load)
    transport = httpx.ASGITransport(app=app)
    async with (
        app.router.lifespan_context(app),
        httpx.AsyncClient(transport=transport, base_url="http://test") as client,
    ):
        live = await client.get("/health/live")
        chat = await client.post("/chat", json={"message": "hi"})
        ready = await client.get("/health/ready")
        health = (await client.get("/health")).json()
        listed = (await client.get("/assistants")).json()["assistants"]
        release.set()
        await app.state.loaded.wait()
        after = await client.post("/chat", json={"message": "hi"})
        ready_after = await client.get("/health/ready")
        unknown = await client.post("/chat", json={"message": "hi", "assistant": "telecom"})

    assert live.status_code == 200
    assert chat.status_code == 503 and chat.headers["retry-after"] == "5"
    assert "is starting" in chat.json()["error"]
    assert ready.status_code == 503
    assert health["status"] == "degraded" and "starting" in health["reason"]
    assert {a["name"]: a["ready"] for a in listed}["concierge"] is False
    assert all(a["starting"] for a in listed)  # every served plug-in is still starting
    assert after.status_code == 200 and ready_after.status_code == 200
    # Once loading is over, an assistant that was not loaded is unknown, not starting.
    assert unknown.status_code == 404


async def test_stopping_while_still_starting_ends_cleanly(settings):
    began = asyncio.Event()

    async def never_done(_settings):
        began.set()
        await asyncio.Event().wait()

    app = create_app(settings, service_factory=never_done)
    async with asyncio.timeout(5):  # the shutdown does not wait for a build that never ends
        async with app.router.lifespan_context(app):
            await asyncio.wait_for(began.wait(), 5)
    assert app.state.services == {} and app.state.load_error is None


async def test_the_registry_hands_over_each_assistant_as_it_is_built(settings, monkeypatch):
    from frontdesk.assistants import registry

    built: list[str] = []

    class Found:
        def __init__(self, name: str) -> None:
            self.name = name

        async def build_service(self, _settings, _models):
            return type("Service", (), {"name": self.name, "aclose": _closed})()

    async def _closed(self) -> None:
        return None

    monkeypatch.setattr(registry, "plugin", lambda name: Found(name))
    handed: list[str] = []
    services = await load_services(
        settings,
        models=object(),
        names=["concierge", "telecom"],
        on_loaded=lambda name, _service: handed.append(name),
    )
    built.extend(services)
    assert handed == ["concierge", "telecom"] == built
