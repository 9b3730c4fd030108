"""Loading assistants: one that fails to start does not take the others down."""

from __future__ import annotations

import httpx
import pytest

from frontdesk.assistants import registry
from frontdesk.assistants.plugin import AssistantPlugin
from frontdesk.config import Settings
from frontdesk.server.app import create_app, serving


class Fine:
    name = "concierge"
    ready = True

    def info(self):
        return {"name": "fine"}

    async def aclose(self):
        return None


def installed(monkeypatch, **builders) -> None:
    """Pretend these plug-ins (name -> build_service) are the installed ones."""
    plugins = {
        name: AssistantPlugin(name=name, title=name, build_service=build, order=i)
        for i, (name, build) in enumerate(builders.items())
    }
    monkeypatch.setattr(registry, "plugins", lambda: plugins)


async def test_a_failing_assistant_is_replaced_by_an_unavailable_one(monkeypatch, tmp_path):
    async def good(settings, models):
        return Fine()

    async def broken(settings, models):
        raise ConnectionError("mysql://admin:secret@db:3306 refused")

    installed(monkeypatch, concierge=good, analyst=broken)
    settings = Settings(data_dir=tmp_path, assistant="concierge", assistants=["analyst"],
                        _env_file=None)
    services = await registry.load_services(settings, models=object())
    assert services["concierge"].ready
    assert not services["analyst"].ready
    assert "secret" not in str(services["analyst"].info())

    async def factory(_settings):
        return services

    app = create_app(settings, service_factory=factory)
    async with serving(app):
        transport = httpx.ASGITransport(app=app)
        async with httpx.AsyncClient(transport=transport, base_url="http://t") as client:
            down = await client.post("/chat", json={"message": "hi", "assistant": "analyst"})
            health = await client.get("/health/live")
    assert down.status_code == 503 and "failed to start" in down.json()["error"]
    assert "secret" not in down.text
    assert health.status_code == 200


async def test_the_default_assistant_failing_still_fails_loading(monkeypatch, tmp_path):
    async def broken(settings, models):
        raise ConnectionError("down")

    installed(monkeypatch, concierge=broken)
    settings = Settings(data_dir=tmp_path, assistant="concierge", assistants=[], _env_file=None)
    with pytest.raises(ConnectionError):
        await registry.load_services(settings, models=object())
