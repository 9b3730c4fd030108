"""What an assistant brings to Frontdesk: one `AssistantPlugin`, found through an entry point.

An assistant is a package that declares, in its distribution's metadata,

    [project.entry-points."frontdesk.assistants"]
    myassistant = "mypackage.plugin:PLUGIN"

and `PLUGIN` says everything the core needs: how to build the service, its HTTP routes, its
CLI commands, its evaluation suites and labelled sets, its settings and its web UI module. The
core reads only this object, so a package outside this repository adds an assistant by being
installed, and the core never names one.

The plug-in module is imported whenever the CLI or the server starts, so it stays light: the
service, the router and the commands import the graph and the models inside the functions.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    import typer
    from fastapi import APIRouter

    from frontdesk.assistants.base import AssistantService
    from frontdesk.config import Settings
    from frontdesk.runtime import Models

ENTRY_POINT_GROUP = "frontdesk.assistants"


@dataclass
class EvalTarget:
    """What `frontdesk eval SUITE` runs a suite's cases against: the callable the suite
    expects (see `frontdesk.eval.harness.TARGETS`), options for the suite's runner, and what
    to release afterwards."""

    target: Callable[..., Any] | None = None
    options: dict[str, Any] = field(default_factory=dict)
    close: Callable[[], Any] | None = None
    # (dataset path) -> SuiteResult, awaited if it returns an awaitable: the assistant runs
    # the suite itself, for a dataset of its own shape with metrics of its own (a code
    # repository's retrieval is scored by file and symbol, not by item name). `target` is
    # then unused.
    run: Callable[[Path], Any] | None = None


# (settings, models) -> the target for one suite; awaited if it returns an awaitable.
EvalTargetFactory = Callable[["Settings", "Models"], "EvalTarget | Awaitable[EvalTarget]"]


@dataclass(frozen=True)
class AssistantPlugin:
    """One assistant, as the core sees it. Only `name`, `title` and `build_service` are
    required; each other field adds a capability (knowledge to ingest, routes, commands...)."""

    name: str
    # What a person calls it (the web UI's picker, `frontdesk assistants`).
    title: str
    # (settings, models) -> a ready service; the chat and embedding models are shared.
    build_service: Callable[[Settings, Models], Awaitable[AssistantService]]
    description: str = ""
    # Sort key in listings; the lowest is the default assistant when none is configured.
    order: int = 100
    # (settings, models, *, ingest_mode, progress) -> (knowledge, ingest report or None);
    # `frontdesk ingest` and the retrieval/routing suites use it. None: nothing to index.
    # A report with a `lines()` method is printed as those lines (knowledge that is not a
    # KnowledgeSource, such as a code repository).
    open_knowledge: Callable[..., Any] | None = None
    # (settings, models, knowledge, *, use_llm) -> an IntentRouter, for the routing suite.
    build_router: Callable[..., Any] | None = None
    # Where the labelled sets live: `<eval_dir>/<suite>.jsonl` is a suite's default dataset.
    eval_dir: Path | None = None
    # Suites beyond the core's own (retrieval, routing, guardrails, answers), by name.
    eval_targets: Mapping[str, EvalTargetFactory] = field(default_factory=dict)
    # How many hits the retrieval suite scores (the depth the assistant retrieves at).
    retrieval_top_k: int = 5
    # () -> the assistant's own HTTP routes. Routes tagged "chat" are rate limited with /chat.
    api_router: Callable[[], APIRouter] | None = None
    # () -> a Typer app, mounted as `frontdesk <name> ...`.
    cli: Callable[[], typer.Typer] | None = None
    # Top-level command groups the assistant adds, `frontdesk <group> ...` (a channel it owns,
    # such as "sms"): group name -> () -> a Typer app. A name already taken is refused.
    commands: Mapping[str, Callable[[], typer.Typer]] = field(default_factory=dict)
    # The assistant's web UI module (a native ES module), served at /ui/assistants/<name>.js.
    web_module: Path | None = None
    # Route labels as a person would name them ("hours_schedule" -> "Opening hours"), for
    # topic chips and sources in the UI.
    topics: Mapping[str, str] = field(default_factory=dict)
    # (settings) -> the people a demo sign-in may act as: [{"id", "label"}]. Empty: the
    # assistant acts for nobody in particular.
    demo_users: Callable[[Settings], list[dict[str, str]]] | None = None
    # (settings) -> what in this assistant's settings is a public development value or missing,
    # each naming its variable: with FRONTDESK_AUTH_MODE=required the server refuses to start
    # while anything is listed (`server/startup_checks.py`).
    insecure_settings: Callable[[Settings], list[str]] | None = None

    def public(self) -> dict[str, Any]:
        """What the web UI and `GET /assistants` show about it."""
        return {
            "name": self.name,
            "title": self.title,
            "description": self.description,
            "topics": dict(self.topics),
            "ui": f"/ui/assistants/{self.name}.js" if self.web_module else None,
            "signs_in": self.demo_users is not None,
        }


def lazy(target: str) -> Callable[..., Any]:
    """`"package.module:attribute"` as a callable that imports it on first call, so a plug-in
    module can name its service builder, router or commands without importing the graph."""
    module_name, _, attribute = target.partition(":")
    if not module_name or not attribute:
        raise ValueError(f"lazy target must be 'module:attribute', got {target!r}")

    def call(*args: Any, **kwargs: Any) -> Any:
        import importlib

        return getattr(importlib.import_module(module_name), attribute)(*args, **kwargs)

    call.__name__ = attribute
    call.__qualname__ = f"lazy({target})"
    return call
