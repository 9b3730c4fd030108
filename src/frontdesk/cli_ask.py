"""`frontdesk ask`: one question, one answer; `--json` prints one object that says whether the
turn failed.

A turn fails in two ways: the service raises, or it answers anyway after something inside it
failed and was logged (an assistant that catches a failing model call logs the error and
answers with an apology). Either way the command exits 1 and, with `--json`, prints
`"validation": "ERROR"` and an `error` object instead of a pass. Log lines go to stderr as one
line each; their tracebacks only with FRONTDESK_LOG_LEVEL=DEBUG.
"""

from __future__ import annotations

import asyncio
import json
import logging
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Annotated, Any

import typer

from frontdesk.assistants.base import check_scope
from frontdesk.cli_common import (
    AssistantOpt,
    UserIdOpt,
    check_user_id,
    console,
    fail,
    out,
    plugin_of,
    settings_for,
    thread_id_of,
    with_service,
)
from frontdesk.errors import FrontdeskError


class TurnErrors(logging.Handler):
    """The errors logged while a turn runs."""

    def __init__(self) -> None:
        super().__init__(logging.ERROR)
        self.records: list[logging.LogRecord] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.records.append(record)


class OneLineFormatter(logging.Formatter):
    """A record as one line, its exception as type and message: the traceback is for DEBUG."""

    def format(self, record: logging.LogRecord) -> str:
        line = f"{record.levelname} {record.name}: {record.getMessage()}"
        exc = record.exc_info[1] if record.exc_info else None
        return f"{line} ({type(exc).__name__}: {exc})" if exc is not None else line


@contextmanager
def logged_turn(level: str) -> Iterator[TurnErrors]:
    """Log to stderr while the turn runs (WARNING and up, or everything with tracebacks at
    DEBUG) and collect its errors."""
    debug = level.upper() == "DEBUG"
    stderr = logging.StreamHandler(sys.stderr)
    stderr.setLevel(logging.DEBUG if debug else logging.WARNING)
    stderr.setFormatter(
        logging.Formatter("%(asctime)s %(levelname)s %(name)s: %(message)s")
        if debug
        else OneLineFormatter()
    )
    errors = TurnErrors()
    root = logging.getLogger()
    previous = root.level
    root.setLevel(logging.DEBUG if debug else logging.WARNING)
    root.addHandler(stderr)
    root.addHandler(errors)
    try:
        yield errors
    finally:
        root.removeHandler(errors)
        root.removeHandler(stderr)
        root.setLevel(previous)


def error_of(exc: BaseException | None, record: logging.LogRecord | None = None) -> dict[str, Any]:
    """What `--json` reports as the turn's `error`."""
    if exc is None and record is not None and record.exc_info:
        exc = record.exc_info[1]
    error: dict[str, Any] = {"type": type(exc).__name__ if exc is not None else "logged_error"}
    error["message"] = str(exc) if exc is not None else record.getMessage() if record else ""
    if record is not None:
        error["where"] = f"{record.name}: {record.getMessage()}"
    return error


def ask(
    message: Annotated[str, typer.Argument(help="The message to send.")],
    assistant: AssistantOpt = None,
    thread: Annotated[str | None, typer.Option("--thread", help="Conversation id (UUID).")] = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print one JSON object.")] = False,
    user_id: UserIdOpt = None,
    scope: Annotated[
        str | None,
        typer.Option(
            "--scope",
            "--repo",
            "--casino",
            help="Which of the assistant's collections the question is about: an indexed "
            "repository's id, a casino's id.",
        ),
    ] = None,
) -> None:
    """Ask one question and print the answer (exit 1 when the turn failed)."""
    settings = settings_for(assistant)
    plugin_of(settings.assistant)
    from frontdesk.server.schemas import check_encodable

    text = message.strip()
    if not text or len(text) > 4096:
        raise fail("the message must be 1-4096 characters")
    try:
        check_encodable(text)
    except ValueError as exc:
        raise fail(str(exc)) from None
    check_user_id(user_id)
    thread_id = thread_id_of(thread)
    # Passed only when given, so an assistant without scopes is called as before.
    turn_options: dict[str, Any] = {"user_id": user_id}
    if scope is not None:
        turn_options["scope"] = scope
    with logged_turn(settings.log_level) as errors:
        try:
            answer = asyncio.run(
                with_service(settings, lambda s: _ask(s, text, thread_id, turn_options))
            )
        except FrontdeskError as exc:  # written for people: the message says what to do
            if as_json:
                _print_failed({"thread_id": thread_id}, error_of(exc))
                raise typer.Exit(1) from None
            raise fail(str(exc), 1) from None
        except Exception as exc:
            logging.getLogger("frontdesk.cli").debug("the turn failed", exc_info=True)
            if as_json:
                _print_failed({"thread_id": thread_id}, error_of(exc))
                raise typer.Exit(1) from None
            raise fail(f"the turn failed: {type(exc).__name__}: {exc}", 1) from None
    failed = errors.records[0] if errors.records else None
    if as_json:
        if failed is not None:
            _print_failed(answer.public(), error_of(None, failed))
            raise typer.Exit(1)
        out.print(json.dumps(answer.public(), ensure_ascii=False))
        return
    out.print(answer.answer)
    if answer.sources:
        console.print(f"[dim]sources: {', '.join(answer.sources)} · thread {thread_id}[/]")
    if failed is not None:
        raise fail(f"the turn failed: {error_of(None, failed)['where']}", 1)


async def _ask(service: Any, text: str, thread_id: str, options: dict[str, Any]) -> Any:
    if options.get("scope") is not None:  # before the turn: a wrong scope is a usage error
        check_scope(service, options["scope"])
    return await service.ask(text, thread_id, **options)


def _print_failed(body: dict[str, Any], error: dict[str, Any]) -> None:
    out.print(json.dumps({**body, "validation": "ERROR", "error": error}, ensure_ascii=False))
