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
            services[name] = await module.build_service(settings, models)
    except BaseException:
        for service in services.values():
            await service.aclose()
        raise
    return services
