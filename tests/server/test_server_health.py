"""Health probes, assistant info, the UI's static files, and the service lifecycle."""

from __future__ import annotations

import re
from pathlib import Path

import frontdesk.web
from frontdesk import __version__


async def test_health_is_healthy_with_a_ready_loaded_assistant(client):
    response = await client.get("/health")

    assert response.status_code == 200
    body = response.json()
    checks = body.pop("checks")
    assert body == {
        "status": "healthy",
        "version": __version__,
        "agent_ready": True,
        "property_loaded": True,
        "assistant": "concierge",
        "assistants": [{"name": "concierge", "status": "ready"}],
    }
    assert [(c["name"], c["ok"]) for c in checks] == [("database", True), ("model", True)]
    assert checks[0]["detail"].startswith("sqlite answered in ")
    assert (await client.get("/health/live")).json() == {"status": "alive"}
    ready = await client.get("/health/ready")
    assert ready.status_code == 200 and ready.json()["status"] == "ready"


async def test_health_degraded_when_the_factory_raises(settings, start):
    async def broken_factory(settings):
        raise RuntimeError("model file is corrupt")

    async with start(settings, factory=broken_factory) as client:
        health = await client.get("/health")
        live = await client.get("/health/live")
        ready = await client.get("/health/ready")
        assistants = await client.get("/assistants")

    assert health.status_code == 200
    body = health.json()
    # Nobody can be answered: unhealthy, and the reason without the exception's text.
    assert body["status"] == "unhealthy"
    assert body["agent_ready"] is False and body["property_loaded"] is False
    assert "failed to load" in body["reason"] and "corrupt" not in str(body)
    assert live.status_code == 200
    assert ready.status_code == 503 and "not ready" in ready.json()["error"]
    assert assistants.json()["assistants"] == []


async def test_health_degraded_when_not_ready(settings, make_service, start):
    async with start(settings, make_service(ready=False)) as client:
        body = (await client.get("/health")).json()
        ready = await client.get("/health/ready")

    assert body["status"] == "degraded" and body["agent_ready"] is False
    assert body["property_loaded"] is True
    assert ready.status_code == 503


async def test_property_not_loaded_when_the_index_is_empty(settings, make_service, start):
    empty = make_service(info_data={"name": "Empty Inn", "categories": [], "document_count": 0})
    async with start(settings, empty) as client:
        body = (await client.get("/health")).json()

    assert body["status"] == "degraded"
    assert body["agent_ready"] is True and body["property_loaded"] is False


async def test_health_degraded_when_default_assistant_is_missing(settings, make_service, start):
    async with start(settings, make_service("spa-desk")) as client:
        body = (await client.get("/health")).json()

    assert body["status"] == "degraded"
    assert "'concierge' is not loaded" in body["reason"]


async def test_property_and_assistants(settings, make_service, start):
    concierge = make_service("concierge")
    spa = make_service("spa-desk", ready=False, info_data={"name": "Spa", "document_count": 3})
    async with start(settings, concierge, spa) as client:
        prop = await client.get("/property")
        named = await client.get("/property", params={"assistant": "concierge"})
        not_ready = await client.get("/property", params={"assistant": "spa-desk"})
        listing = await client.get("/assistants")

    assert prop.status_code == 200
    assert prop.json() == {"assistant": "concierge", **concierge.info()}
    assert named.json() == prop.json()
    assert not_ready.status_code == 503
    listed = listing.json()
    assert listed["default"] == "concierge"
    assert [(a["name"], a["ready"], a["info"]) for a in listed["assistants"]] == [
        ("concierge", True, concierge.info()),
        ("spa-desk", False, spa.info()),
    ]
    # An installed plug-in brings its title and UI module; a bare service only its name.
    assert listed["assistants"][0]["title"] == "Resort concierge"
    assert listed["assistants"][0]["ui"] == "/ui/assistants/concierge.js"
    assert listed["assistants"][1]["title"] == "spa-desk"


async def test_index_serves_the_chat_ui_without_inline_script(client):
    response = await client.get("/")

    assert response.status_code == 200
    assert response.headers["content-type"].startswith("text/html")
    html = response.text
    scripts = re.findall(r"<script\b([^>]*)>(.*?)</script>", html, flags=re.DOTALL)
    assert scripts, "the page loads its JavaScript"
    # Every script is an external file with an empty body: the CSP forbids inline code.
    assert all('src="/static/' in attrs and not body.strip() for attrs, body in scripts)
    assert not re.search(r"\son[a-z]+=", html), "no inline event handlers"
    assert "<style" not in html and "style=" not in html
    assert "http://" not in html and "https://" not in html, "no CDN or remote assets"

    for asset in re.findall(r'(?:src|href)="(/static/[^"]+)"', html):
        static = await client.get(asset)
        assert static.status_code == 200, asset
        assert static.content


async def test_static_javascript_has_a_script_content_type(client):
    # Every module the shell imports (a module with another MIME type is refused by browsers).
    shell = Path(frontdesk.web.STATIC_DIR) / "js"
    modules = sorted(p.name for p in shell.glob("*.js"))
    assert "shell.js" in modules
    for name in modules:
        response = await client.get(f"/static/js/{name}")
        assert response.status_code == 200, name
        assert "javascript" in response.headers["content-type"], name


async def test_lifespan_closes_services_even_when_one_fails_to_close(
    settings, make_service, start, caplog
):
    good, bad = make_service("concierge"), make_service("spa-desk")

    async def failing_close():
        raise OSError("disk went away")

    bad.aclose = failing_close
    async with start(settings, bad, good) as client:
        assert (await client.get("/health")).json()["status"] == "healthy"
        assert not good.closed

    assert good.closed
    assert any("closing assistant spa-desk failed" in r.getMessage() for r in caplog.records)


def test_serve_runs_uvicorn_on_the_configured_address(settings, monkeypatch):
    import uvicorn
    from fastapi import FastAPI

    from frontdesk.server import app as server_app

    calls: list[dict] = []
    monkeypatch.setattr(
        uvicorn, "run", lambda app, **options: calls.append({"app": app, **options})
    )
    monkeypatch.setattr(server_app, "configure_logging", lambda settings: None)
    settings.host, settings.port = "0.0.0.0", 9123

    server_app.serve(settings)

    assert len(calls) == 1
    call = calls[0]
    assert (call["host"], call["port"]) == ("0.0.0.0", 9123)
    assert isinstance(call["app"], FastAPI) and call["app"].state.settings is settings
    assert call["access_log"] is False  # our middleware writes the access log


async def test_a_database_that_does_not_answer_is_named_and_live_stays_200(
    settings, service, start
):
    from sqlalchemy import create_engine

    async with start(settings, service) as client:
        app = client._transport.app
        # Nothing listens on port 1: the store's database is down.
        app.state.threads.engine = create_engine("postgresql+psycopg://nobody@127.0.0.1:1/gone")
        health = (await client.get("/health")).json()
        ready = await client.get("/health/ready")
        live = await client.get("/health/live")

    assert health["status"] == "unhealthy" and health["reason"] == "not answering: database"
    database = {c["name"]: c for c in health["checks"]}["database"]
    assert database["ok"] is False and "127.0.0.1" not in database["detail"]
    assert ready.status_code == 503 and ready.json()["failed"] == ["database"]
    assert ready.json()["error"].startswith("Not ready: database: failed (")
    assert live.status_code == 200


async def test_an_embedded_model_not_installed_is_named_with_the_command(service, start, tmp_path):
    from frontdesk.config import Settings

    bare = Settings(
        data_dir=tmp_path, assistant="concierge", llm_provider="embedded", allowed_origins=[]
    )
    async with start(bare, service) as client:
        ready = await client.get("/health/ready")
        health = (await client.get("/health")).json()

    assert ready.status_code == 503 and ready.json()["failed"] == ["model"]
    assert "run `frontdesk models install`" in ready.json()["error"]
    assert health["status"] == "unhealthy"


async def test_a_model_server_that_does_not_answer_is_named(settings, service, start):
    settings.llm_provider = "openai"
    settings.llm_base_url = "http://127.0.0.1:1/v1"  # nothing listens there
    async with start(settings, service) as client:
        ready = await client.get("/health/ready")

    assert ready.status_code == 503 and ready.json()["failed"] == ["model"]
    assert "127.0.0.1" not in ready.json()["error"]
