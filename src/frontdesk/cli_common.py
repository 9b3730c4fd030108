"""What the `frontdesk` command's modules share: the consoles, the settings for a named
assistant, clear failures, and a loaded service to work with."""

from __future__ import annotations

import logging
import re
import uuid
from typing import Annotated

import typer
from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

from frontdesk.config import Settings, get_settings
from frontdesk.errors import FrontdeskError

console = Console(stderr=True)
out = Console(highlight=False, soft_wrap=True)

AssistantOpt = Annotated[str | None, typer.Option("--assistant", "-a", help="Assistant name.")]
UserIdOpt = Annotated[
    str | None,
    typer.Option(
        "--user-id",
        "--guest",
        help="The customer the assistant acts for: an id such as u123, or a guest's phone "
        "number such as +18605550123.",
    ),
]


def check_user_id(user_id: str | None) -> None:
    """Refuse a --user-id the API would refuse (frontdesk.server.schemas.USER_ID_PATTERN)."""
    from frontdesk.server.schemas import USER_ID_PATTERN

    if user_id is not None and not re.fullmatch(USER_ID_PATTERN, user_id):
        raise fail(
            "--user-id must be 2-64 characters of letters, digits, '_', '.', '@' or '-', after "
            "an optional '+' (a phone number in E.164)"
        )


def settings_for(assistant: str | None = None) -> Settings:
    """The settings with `assistant` resolved: the one named, else the default plug-in."""
    from frontdesk.assistants.registry import default_name

    settings = get_settings()
    try:
        name = assistant or default_name(settings)
    except FrontdeskError as exc:
        raise fail(str(exc)) from None
    return settings.model_copy(update={"assistant": name})


def fail(message: str, code: int = 2) -> typer.Exit:
    console.print(f"[bold red]error:[/] {message}")
    return typer.Exit(code)


def plugin_of(name: str):
    from frontdesk.assistants.registry import plugin

    try:
        return plugin(name)
    except FrontdeskError as exc:
        raise fail(str(exc)) from None


def progress_bar() -> Progress:
    return Progress(
        TextColumn("[bold]{task.description}"),
        BarColumn(),
        MofNCompleteColumn(),
        TimeElapsedColumn(),
        console=console,
    )


def setup_logging(settings: Settings) -> None:
    logging.basicConfig(
        level=settings.log_level.upper(), format="%(asctime)s %(levelname)s %(name)s: %(message)s"
    )


async def with_service(settings: Settings, work):
    from frontdesk.agentkit import permissions
    from frontdesk.assistants.registry import load_services

    # The CLI is the operator on this machine: it may see what the assistants hold.
    permissions.grant(permissions.OPERATOR)
    services = await load_services(settings, names=[settings.assistant])
    service = services[settings.assistant]
    try:
        return await work(service)
    finally:
        await service.aclose()


def thread_id_of(thread: str | None) -> str:
    if thread is None:
        return str(uuid.uuid4())
    try:
        return str(uuid.UUID(thread))
    except ValueError:
        raise fail(f"--thread must be a UUID, got {thread!r}") from None
