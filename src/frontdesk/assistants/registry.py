"""The installed assistants, found through the `frontdesk.assistants` entry-point group.

Any installed distribution may add one (see `frontdesk.assistants.plugin`); this module only
reads the group, so the core never names an assistant.
"""

from __future__ import annotations

import importlib.metadata
import logging
from collections.abc import Callable, Mapping
from functools import cache
from typing import Any

from frontdesk.assistants.base import AssistantService
from frontdesk.assistants.plugin import ENTRY_POINT_GROUP, AssistantPlugin
from frontdesk.config import Settings
from frontdesk.errors import FrontdeskError, UnknownAssistantError
from frontdesk.runtime import Models

logger = logging.getLogger(__name__)


class PluginError(FrontdeskError):
    """An installed entry point does not give a usable assistant."""


@cache
def plugins() -> dict[str, AssistantPlugin]:
    """Every installed assistant by name, in display order (`order`, then name).

    Cached for the process; `plugins.cache_clear()` reads the entry points again."""
    found: dict[str, AssistantPlugin] = {}
    for entry in importlib.metadata.entry_points(group=ENTRY_POINT_GROUP):
        if entry.name in found:
            # Two distributions claim one name: the first on sys.path wins, as for imports.
            logger.warning(
                "assistant %r is installed twice; using %s", entry.name, found[entry.name]
            )
            continue
        try:
            plugin = entry.load()
        except Exception as exc:  # noqa: BLE001 - any error in a third-party package
            # One broken package must not stop the others (or the CLI) from starting.
            logger.error(
                "assistant entry point %r (%s) failed to load: %s", entry.name, entry.value, exc
            )
            continue
        if not isinstance(plugin, AssistantPlugin) or plugin.name != entry.name:
            logger.error(
                "entry point %r (%s) is not an AssistantPlugin named %r",
                entry.name,
                entry.value,
                entry.name,
            )
            continue
        found[entry.name] = plugin
    return dict(sorted(found.items(), key=lambda item: (item[1].order, item[0])))


def known() -> list[str]:
    return list(plugins())


def plugin(name: str) -> AssistantPlugin:
    found = plugins()
    if name not in found:
        raise UnknownAssistantError(name, known())
    return found[name]


def default_name(settings: Settings) -> str:
    """The assistant used when a request or command names none."""
    if settings.assistant:
        return settings.assistant
    names = known()
    if not names:
        raise PluginError(
            "no assistant is installed: install Frontdesk with `pip install -e .` so its "
            f"entry points ({ENTRY_POINT_GROUP}) are registered"
        )
    return names[0]


def served_names(settings: Settings) -> list[str]:
    """The default assistant first, then every other one the server loads."""
    configured = known() if settings.assistants is None else settings.assistants
    return list(dict.fromkeys([default_name(settings), *configured]))


def served_plugins(settings: Settings) -> list[AssistantPlugin]:
    """The plug-ins of the served assistants that are installed (an unknown configured name
    is reported when the services load)."""
    found = plugins()
    return [found[name] for name in served_names(settings) if name in found]


async def load_services(
    settings: Settings,
    models: Models | None = None,
    names: list[str] | None = None,
    *,
    on_loaded: Callable[[str, AssistantService], None] | None = None,
) -> Mapping[str, AssistantService]:
    """The services the server runs: the default assistant and the others configured, all
    sharing one chat model and one embedding model (or only `names`: the CLI's one). Names
    are checked before any loads. `on_loaded(name, service)` as each one is built, the default
    first, so a server answers with it while the others still start."""
    models = models or Models(settings)
    names = names or served_names(settings)
    default = default_name(settings)
    chosen = {name: plugin(name) for name in names}
    services: dict[str, AssistantService] = {}
    try:
        for name, found in chosen.items():
            try:
                services[name] = await found.build_service(settings, models)
            except Exception as exc:
                if name == default or len(chosen) == 1:
                    raise
                # One assistant's outage (its database is down) must not take the others
                # with it: it answers 503 with the reason until the server restarts.
                logger.exception("assistant %s failed to load; serving the others", name)
                # A FrontdeskError's message is written to be shown; any other error's text
                # may hold a host or a URL, so only its type is.
                reason = (
                    str(exc)
                    if isinstance(exc, FrontdeskError)
                    else f"{type(exc).__name__} (for example, its database is not reachable)"
                )
                services[name] = UnavailableService(name, reason)
            if on_loaded is not None:
                on_loaded(name, services[name])
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
