"""An assistant defined outside the repository is found through its entry point and gets
everything an assistant gets: the chat API, its own routes, its UI module, its commands."""

from __future__ import annotations

import os
import subprocess
import sys

import httpx
import pytest
from tests.plugins.echo_package import write_echo_package

from frontdesk.assistants import registry
from frontdesk.config import Settings
from frontdesk.server.app import create_app, serving


@pytest.fixture
def echo_installed(tmp_path, monkeypatch):
    root = write_echo_package(tmp_path / "site")
    monkeypatch.syspath_prepend(str(root))
    registry.plugins.cache_clear()
    yield root
    registry.plugins.cache_clear()


def test_the_registry_finds_the_package_through_its_entry_point(echo_installed):
    found = registry.plugins()
    assert "echo" in found
    # Its order puts it first, before the repository's own assistants.
    assert registry.known()[0] == "echo"
    assert registry.default_name(Settings(_env_file=None)) == "echo"
    assert found["echo"].title == "Echo desk"


def test_without_the_package_it_is_unknown():
    registry.plugins.cache_clear()
    assert "echo" not in registry.known()


async def test_the_server_serves_it_with_its_own_route_and_ui(echo_installed, tmp_path):
    settings = Settings(data_dir=tmp_path / "data", assistants=["echo"], _env_file=None)
    app = create_app(settings)  # the registry loads the services: nothing is faked
    async with serving(app):
        transport = httpx.ASGITransport(app=app)
        async with httpx.AsyncClient(transport=transport, base_url="http://t") as client:
            chat = await client.post("/chat", json={"message": "hello", "assistant": "echo"})
            ping = await client.get("/echo/ping")
            listing = await client.get("/assistants")
            module = await client.get("/ui/assistants/echo.js")
            missing = await client.get("/ui/assistants/nobody.js")

    assert chat.status_code == 200 and "echo: hello" in chat.text
    assert ping.json() == {"pong": True}
    listed = listing.json()
    assert listed["default"] == "echo"
    assert listed["assistants"][0]["title"] == "Echo desk"
    assert listed["assistants"][0]["topics"] == {"echo": "Repeating you"}
    assert module.status_code == 200 and "renderExtras" in module.text
    assert module.headers["content-type"].startswith("text/javascript")
    assert missing.status_code == 404


def test_its_commands_join_the_cli(echo_installed):
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(echo_installed), *sys.path])}
    result = subprocess.run(
        [sys.executable, "-m", "frontdesk.cli", "echo", "shout", "hi"],
        capture_output=True,
        check=False,
        text=True,
        env=env,
        timeout=120,
    )
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == "HI"
    listing = subprocess.run(
        [sys.executable, "-m", "frontdesk.cli", "assistants"],
        capture_output=True,
        check=False,
        text=True,
        env=env,
        timeout=120,
    )
    assert "echo — Echo desk" in listing.stdout


def test_lazy_imports_its_target_only_when_called():
    import sys

    from frontdesk.assistants.plugin import lazy

    sys.modules.pop("colorsys", None)
    convert = lazy("colorsys:rgb_to_hsv")
    assert "colorsys" not in sys.modules
    assert convert(1.0, 0.0, 0.0) == (0.0, 1.0, 1.0)
    assert "colorsys" in sys.modules
    with pytest.raises(ValueError, match="module:attribute"):
        lazy("colorsys.rgb_to_hsv")
