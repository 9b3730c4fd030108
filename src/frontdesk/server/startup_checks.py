"""The server refuses to start unprotected: with `FRONTDESK_AUTH_MODE=required` (a server on a
network, serving real customers) no secret it relies on may be a public development value,
and nothing may let a stranger in by the side door.

The core checks its own settings; each served assistant lists its own problems through its
plug-in's `insecure_settings`. Every problem names the variable to set, so the operator fixes
all of them in one go instead of one per restart.
"""

from __future__ import annotations

from collections.abc import Iterable

from frontdesk.assistants.plugin import AssistantPlugin
from frontdesk.config import Settings
from frontdesk.errors import FrontdeskError

MIN_SECRET_CHARS = 32


class InsecureSettings(FrontdeskError):
    """`FRONTDESK_AUTH_MODE=required`, but a secret is public or a side door is open."""

    def __init__(self, problems: list[str]):
        self.problems = problems
        listed = "\n".join(f"- {problem}" for problem in problems)
        super().__init__(
            "FRONTDESK_AUTH_MODE=required, but the server would run unprotected; it does not "
            f"start until these are fixed:\n{listed}"
        )


def core_problems(settings: Settings) -> list[str]:
    problems = []
    secret = settings.session_secret.get_secret_value() if settings.session_secret else None
    if secret is not None and len(secret) < MIN_SECRET_CHARS:
        problems.append(
            f"FRONTDESK_SESSION_SECRET is shorter than {MIN_SECRET_CHARS} characters: set a "
            "random one (or leave it unset for one kept in the data directory)"
        )
    if settings.demo_sign_in:
        problems.append(
            "FRONTDESK_DEMO_SIGN_IN is on: anyone could sign in as a demo user; set it to false"
        )
    return problems


def production_problems(settings: Settings, plugins: Iterable[AssistantPlugin]) -> list[str]:
    """Every problem of the core and of the served assistants (none outside required mode)."""
    if settings.auth_mode != "required":
        return []
    problems = core_problems(settings)
    for plugin in plugins:
        if plugin.insecure_settings is not None:
            problems += [f"{plugin.name}: {p}" for p in plugin.insecure_settings(settings)]
    return problems


def refuse_insecure_start(settings: Settings, plugins: Iterable[AssistantPlugin]) -> None:
    problems = production_problems(settings, plugins)
    if problems:
        raise InsecureSettings(problems)
