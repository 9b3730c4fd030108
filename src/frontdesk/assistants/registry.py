"""The assistants this build knows, by name, and how to load them."""

from __future__ import annotations

import importlib
import logging
from collections.abc import Mapping
from types import ModuleType
from typing import Any

from frontdesk.assistants.base import AssistantService
from frontdesk.config import Settings
from frontdesk.errors import UnknownAssistantError
from frontdesk.runtime import Models

logger = logging.getLogger(__name__)

# name -> module with build_service(settings, models), open_knowledge, build_router, EVAL_DIR.
ASSISTANTS: dict[str, str] = {
    "concierge": "frontdesk.assistants.concierge.service",
    "telecom": "frontdesk.assistants.telecom.service",
    "analyst": "frontdesk.assistants.analyst.service",
}


def known() -> list[str]:
    return sorted(ASSISTANTS)


def assistant_module(name: str) -> ModuleType:
    if name not in ASSISTANTS:
        raise UnknownAssistantError(name, known())
    return importlib.import_module(ASSISTANTS[name])


async def load_services(
    settings: Settings, models: Models | None = None, names: list[str] | None = None
) -> Mapping[str, AssistantService]:
    """The services the server runs: the default assistant and the others configured, all
    sharing one chat model and one embedding model (or only `names`: the CLI's one). Names
    are checked before any loads."""
    models = models or Models(settings)
    names = names or list(dict.fromkeys([settings.assistant, *settings.assistants]))
    modules = {name: assistant_module(name) for name in names}
    services: dict[str, AssistantService] = {}
    try:
        for name, module in modules.items():
            try:
                services[name] = await module.build_service(settings, models)
            except Exception as exc:
                if name == settings.assistant or len(modules) == 1:
                    raise
                # One assistant's outage (its database is down) must not take the others
                # with it: it answers 503 with the reason until the server restarts.
                logger.exception("assistant %s failed to load; serving the others", name)
                # Only the error's type is shown: its text may hold a host or a URL.
                services[name] = UnavailableService(name, type(exc).__name__)
    except BaseException:
        for service in services.values():
            await service.aclose()
        raise
    return services


class UnavailableService:
    """Stands in for an assistant that failed to load: never ready, says why in its info."""

    def __init__(self, name: str, reason: str):
        self.name = name
        self.reason = reason

    @property
    def ready(self) -> bool:
        return False

    def info(self) -> dict[str, Any]:
        return {"name": self.name, "unavailable": self.reason}

    async def stream(self, message: str, thread_id: str, *, user_id: str | None = None):
        raise RuntimeError(f"assistant {self.name} is unavailable: {self.reason}")
        yield  # pragma: no cover - makes this an async generator

    async def ask(self, message: str, thread_id: str, *, user_id: str | None = None):
        raise RuntimeError(f"assistant {self.name} is unavailable: {self.reason}")

    async def aclose(self) -> None:
        return None
