"""Health: `/health` (the overall state, always 200; the body says degraded), `/health/live`
(the process serves requests) and `/health/ready` (the default assistant can answer)."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Request

from frontdesk import __version__
from frontdesk.server.admission import queue_status
from frontdesk.server.deps import default_assistant, safe_info, services_of, starting
from frontdesk.server.errors import ApiError
from frontdesk.server.schemas import error_responses

router = APIRouter()


@router.get("/health", summary="Overall status; always 200, the body says degraded.")
async def health(request: Request) -> dict[str, Any]:
    name = default_assistant(request)
    service = services_of(request).get(name)
    agent_ready = bool(service is not None and service.ready)
    property_loaded = bool(service is not None and safe_info(service).get("document_count"))
    body: dict[str, Any] = {
        "status": "healthy" if agent_ready and property_loaded else "degraded",
        "version": __version__,
        "agent_ready": agent_ready,
        "property_loaded": property_loaded,
        "assistant": name,
    }
    if request.app.state.load_error is not None:
        body["reason"] = "the assistants failed to load; see the server log"
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
    summary="Readiness: 200 once the default assistant can answer.",
    responses=error_responses(503),
)
async def ready(request: Request) -> dict[str, Any]:
    name = default_assistant(request)
    service = services_of(request).get(name)
    if service is None or not service.ready:
        raise ApiError(503, f"The assistant '{name}' is not ready.", assistant=name)
    return {"status": "ready", "assistant": name, "queue": queue_status(request.app)}
