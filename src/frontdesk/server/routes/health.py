"""Health: `/health` (the overall state with each check and each assistant; always 200, the
body says healthy, degraded or unhealthy), `/health/live` (the process serves requests: no
check, so a slow database never gets a live server killed) and `/health/ready` (503 until the
default assistant can answer and the database and the model answer; the body says which did
not)."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Request

from frontdesk import __version__
from frontdesk.server.admission import queue_status
from frontdesk.server.deps import default_assistant, safe_info, services_of, starting
from frontdesk.server.errors import ApiError
from frontdesk.server.health_checks import Check, database_check, model_check
from frontdesk.server.schemas import error_responses

router = APIRouter()


async def checks_of(request: Request) -> list[Check]:
    app = request.app
    models = getattr(app.state, "models", None)
    loaded = models is not None and "chat" in vars(models)  # built by an assistant already
    return [
        await database_check(app.state.threads),
        await model_check(app.state.settings, loaded=loaded),
    ]


def assistants_of(request: Request) -> list[dict[str, Any]]:
    """Each served assistant: ready, starting, failed (with why) or not ready."""
    services = services_of(request)
    names = [*request.app.state.plugins, *sorted(set(services) - set(request.app.state.plugins))]
    states = []
    for name in names:
        service = services.get(name)
        if service is None:
            if starting(request, name):
                states.append({"name": name, "status": "starting"})
        elif service.ready:
            states.append({"name": name, "status": "ready"})
        elif reason := safe_info(service).get("unavailable"):
            states.append({"name": name, "status": "failed", "reason": reason})
        else:
            states.append({"name": name, "status": "not ready"})
    return states


@router.get("/health", summary="Overall status with each check and assistant; always 200.")
async def health(request: Request) -> dict[str, Any]:
    name = default_assistant(request)
    service = services_of(request).get(name)
    agent_ready = bool(service is not None and service.ready)
    property_loaded = bool(service is not None and safe_info(service).get("document_count"))
    checks = await checks_of(request)
    assistants = assistants_of(request)
    broken = request.app.state.load_error is not None or not all(c.ok for c in checks)
    whole = agent_ready and property_loaded and all(a["status"] == "ready" for a in assistants)
    body: dict[str, Any] = {
        # unhealthy: nobody can be answered; degraded: some can, or soon will.
        "status": "unhealthy" if broken else "healthy" if whole else "degraded",
        "version": __version__,
        "agent_ready": agent_ready,
        "property_loaded": property_loaded,
        "assistant": name,
        "checks": [c.public() for c in checks],
        "assistants": assistants,
    }
    if request.app.state.load_error is not None:
        body["reason"] = "the assistants failed to load; see the server log"
    elif failed := [c.name for c in checks if not c.ok]:
        body["reason"] = f"not answering: {', '.join(failed)}"
    elif service is None and starting(request, name):
        body["reason"] = f"the default assistant '{name}' is starting"
    elif service is None:
        body["reason"] = f"the default assistant '{name}' is not loaded"
    return body


@router.get("/health/live", summary="Liveness: 200 while the process serves requests.")
async def live() -> dict[str, str]:
    return {"status": "alive"}


@router.get(
    "/health/ready",
    summary="Readiness: 200 once the default assistant, the database and the model answer.",
    responses=error_responses(503),
)
async def ready(request: Request) -> dict[str, Any]:
    name = default_assistant(request)
    service = services_of(request).get(name)
    checks = await checks_of(request)
    if failed := [c for c in checks if not c.ok]:
        raise ApiError(
            503,
            "Not ready: " + "; ".join(f"{c.name}: {c.detail}" for c in failed) + ".",
            failed=[c.name for c in failed],
            checks=[c.public() for c in checks],
        )
    if service is None or not service.ready:
        raise ApiError(503, f"The assistant '{name}' is not ready.", assistant=name)
    return {
        "status": "ready",
        "assistant": name,
        "queue": queue_status(request.app),
        "checks": [c.public() for c in checks],
    }
