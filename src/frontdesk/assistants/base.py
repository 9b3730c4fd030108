"""What every assistant offers the server, the CLI and the evaluation harness.

An assistant is a folder (graph, state, nodes, prompts, tools, data); at run time it is an
`AssistantService`: a compiled graph plus what it needs, behind four calls. The server streams
`ChatEvent`s as SSE, the CLI prints them, and the evaluation harness uses `ask`.
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from dataclasses import dataclass, field
from typing import Any, Literal, Protocol, runtime_checkable

from frontdesk.errors import FrontdeskError

# SSE event names, in the order a turn emits them:
#   metadata -> progress* (a step started: route chosen, tool running) -> token* (streamed
#   generation) | replace (a canned reply) -> sources -> done
#   error replaces everything after metadata when a turn fails.
EventName = Literal["metadata", "progress", "token", "replace", "sources", "done", "error"]


@dataclass(frozen=True)
class ChatEvent:
    event: EventName
    data: dict[str, Any]


@dataclass
class Answer:
    """One finished turn, as `frontdesk ask --json` prints it."""

    answer: str
    route: str | None
    confidence: float | None
    sources: list[str]
    validation: str | None
    thread_id: str
    # Retrieved context (content, metadata, score), for evaluation and debugging.
    context: list[dict[str, Any]] = field(default_factory=list)
    # What an assistant reports beyond the common fields (telecom: last_agent, citations,
    # used_tools, state_excerpt).
    extra: dict[str, Any] = field(default_factory=dict)

    def public(self) -> dict[str, Any]:
        return {
            "answer": self.answer,
            "route": self.route,
            "confidence": self.confidence,
            "sources": self.sources,
            "validation": self.validation,
            "thread_id": self.thread_id,
            **self.extra,
        }


@runtime_checkable
class AssistantService(Protocol):
    """A ready-to-serve assistant."""

    name: str

    @property
    def ready(self) -> bool: ...

    def info(self) -> dict[str, Any]:
        """What `GET /property` shows: name, location, categories, document_count."""
        ...

    def stream(
        self, message: str, thread_id: str, *, user_id: str | None = None
    ) -> AsyncIterator[ChatEvent]:
        """One turn as events; the first is `metadata`, the last `done` or `error`.

        `user_id` names the customer where an assistant acts for one (telecom's billing).
        An assistant that answers about one of several collections (codeqa's repositories)
        also takes `scope=`, passed only when a caller names one (see `ScopedService`)."""
        ...

    async def ask(self, message: str, thread_id: str, *, user_id: str | None = None) -> Answer:
        """One turn, finished."""
        ...

    async def aclose(self) -> None: ...


class UnknownScope(FrontdeskError):
    """A turn named a scope (a collection, such as a repository) its assistant does not have."""


def check_scope(service: Any, scope: str) -> None:
    """Raise a FrontdeskError saying why, unless `service` answers about `scope`: an
    assistant with several collections has `check_scope(scope)`; any other takes none."""
    check = getattr(service, "check_scope", None)
    if not callable(check):
        raise UnknownScope(
            f"assistant {getattr(service, 'name', '?')} answers about one collection only; "
            "leave the scope out"
        )
    check(scope)
