"""The assistants this build knows, by name, and how to load them."""

from __future__ import annotations

import importlib
from collections.abc import Mapping
from types import ModuleType

from frontdesk.assistants.base import AssistantService
from frontdesk.config import Settings
from frontdesk.errors import UnknownAssistantError
from frontdesk.runtime import Models

# name -> module with build_service(settings, models), open_knowledge, build_router, EVAL_DIR.
ASSISTANTS: dict[str, str] = {
    "concierge": "frontdesk.assistants.concierge.service",
}


def known() -> list[str]:
    return sorted(ASSISTANTS)


def assistant_module(name: str) -> ModuleType:
    if name not in ASSISTANTS:
        raise UnknownAssistantError(name, known())
    return importlib.import_module(ASSISTANTS[name])


async def load_services(
    settings: Settings, models: Models | None = None
) -> Mapping[str, AssistantService]:
    """The services the server runs: the configured default assistant."""
    models = models or Models(settings)
    module = assistant_module(settings.assistant)
    return {settings.assistant: await module.build_service(settings, models)}
