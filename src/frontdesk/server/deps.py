"""FastAPI dependencies the core's routes and every assistant's own routes share.

An assistant's `APIRouter` asks for its service with `Depends(service_for("name"))`, so the
same readiness rules (404 unknown, 503 not ready or failed to start) hold on every route.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from typing import Any

from fastapi import Request

from frontdesk.assistants.base import AssistantService
from frontdesk.assistants.registry import default_name
from frontdesk.config import Settings
from frontdesk.server.errors import ApiError

logger = logging.getLogger("frontdesk.server")


def settings_of(request: Request) -> Settings:
    return request.app.state.settings


def services_of(request: Request) -> dict[str, AssistantService]:
    return getattr(request.app.state, "services", {})


def default_assistant(request: Request) -> str:
    return default_name(settings_of(request))


def safe_info(service: AssistantService) -> dict[str, Any]:
    try:
        return dict(service.info())
    except Exception:
        logger.exception("info() failed for assistant %s", getattr(service, "name", "?"))
        return {}


def starting(request: Request, name: str) -> bool:
    """Whether `name` is one of the served assistants and is still being built."""
    loaded = getattr(request.app.state, "loaded", None)
    plugins = getattr(request.app.state, "plugins", {})
    return loaded is not None and not loaded.is_set() and name in plugins


def resolve_service(request: Request, name: str | None) -> AssistantService:
    """The named (or default) assistant, ready to answer; else a 404 or 503 ApiError."""
    name = name or default_assistant(request)
    services = services_of(request)
    service = services.get(name)
    if service is None:
        if getattr(request.app.state, "load_error", None) is not None:
            raise ApiError(
                503,
                "The assistants failed to load; the server is running in degraded mode. "
                "See the server log for the cause.",
            )
        if starting(request, name):
            raise ApiError(
                503,
                f"The assistant '{name}' is starting. Please try again in a few seconds.",
                assistant=name,
                headers={"Retry-After": "5"},
            )
        known = sorted(services)
        shown = name if len(name) <= 40 else name[:40] + "…"
        raise ApiError(
            404,
            f"Unknown assistant '{shown}'. Available: {', '.join(known) or 'none'}.",
            available=known,
        )
    if not service.ready and (reason := safe_info(service).get("unavailable")):
        raise ApiError(
            503,
            f"The assistant '{name}' failed to start: {reason}. The other assistants keep serving; "
            "see the server log.",
            assistant=name,
        )
    if not service.ready:
        raise ApiError(
            503,
            f"The assistant '{name}' is not ready yet. Please try again shortly.",
            assistant=name,
            headers={"Retry-After": "5"},
        )
    return service


def service_for(name: str) -> Callable[[Request], AssistantService]:
    """A dependency giving the named assistant's service (for the assistant's own routes)."""

    def dependency(request: Request) -> AssistantService:
        return resolve_service(request, name)

    return dependency
