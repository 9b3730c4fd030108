"""Admission for turns: a bound on turns in progress, and whose turn each one is.

A turn (a route tagged "chat": `POST /chat` and the assistants' own) that the machine cannot
start yet waits in the embedded model's fair queue; its time limit does not run while it waits.
What bounds that wait is this bound: beyond `queue_max_turns` turns in progress, a new one gets
503 with `Retry-After` at once, and the turns already admitted keep being served.

Each admitted turn runs in `caller_scope(client address, INTERACTIVE)`, so its model calls go
before background work and take turns fairly with other callers'. The caller is the client
address for now; an authenticated identity replaces it when the server has one.

Pure ASGI (like middleware.py): a streamed answer counts until its last byte is sent.
"""

from __future__ import annotations

import math
import time
from collections.abc import Iterable
from typing import Any

from fastapi import FastAPI
from starlette.middleware import Middleware
from starlette.types import ASGIApp, Receive, Scope, Send

from frontdesk.config import Settings
from frontdesk.llm.scheduling import Priority, caller_scope, queue_stats
from frontdesk.server.middleware import client_ip_of, request_id_of, send_json
from frontdesk.server.turns import end_journaled_turn

# Retry-After before any turn has finished (nothing measured yet), and its bounds.
DEFAULT_RETRY_AFTER_S = 5
MAX_RETRY_AFTER_S = 120
# Weight of the newest turn in the running mean of turn durations.
_DURATION_WEIGHT = 0.2


class TurnAdmission:
    """Turns in progress against the bound, and the mean time a turn takes (event-loop
    only, so no lock)."""

    def __init__(self, max_turns: int) -> None:
        if max_turns < 1:
            raise ValueError(f"queue_max_turns must be at least 1, got {max_turns}")
        self.max_turns = max_turns
        self.in_progress = 0
        self.turned_away = 0
        self.mean_turn_s: float | None = None

    def try_enter(self) -> bool:
        if self.in_progress >= self.max_turns:
            self.turned_away += 1
            return False
        self.in_progress += 1
        return True

    def leave(self, duration_s: float) -> None:
        self.in_progress -= 1
        if self.mean_turn_s is None:
            self.mean_turn_s = duration_s
        else:
            self.mean_turn_s += _DURATION_WEIGHT * (duration_s - self.mean_turn_s)

    def retry_after_s(self) -> int:
        """When a place is likely to be free: with n turns in progress taking T seconds each
        (waiting included), one finishes every T / n seconds (Little's law)."""
        if self.mean_turn_s is None:
            return DEFAULT_RETRY_AFTER_S
        every_s = self.mean_turn_s / max(1, self.in_progress)
        return max(1, min(MAX_RETRY_AFTER_S, math.ceil(every_s)))

    def status(self) -> dict[str, Any]:
        model = queue_stats()
        return {
            "turns_in_progress": self.in_progress,
            "max_turns": self.max_turns,
            "turned_away": self.turned_away,
            # Embedded-model calls waiting their turn and running now (0 with hosted models).
            "waiting": model.waiting,
            "running": model.running,
            "waiting_by_priority": model.waiting_by_priority,
        }


class TurnAdmissionMiddleware:
    """503 + Retry-After beyond the bound on turn endpoints; every other request passes."""

    def __init__(
        self,
        app: ASGIApp,
        admission: TurnAdmission,
        *,
        paths: Iterable[str],
        methods: Iterable[str] = ("POST",),
    ) -> None:
        self.app = app
        self.admission = admission
        self.paths = frozenset(paths)
        self.methods = frozenset(m.upper() for m in methods)

    def _is_turn(self, scope: Scope) -> bool:
        return (
            scope["type"] == "http"
            and scope.get("method", "").upper() in self.methods
            and scope.get("path") in self.paths
        )

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if not self._is_turn(scope):
            await self.app(scope, receive, send)
            return
        if not self.admission.try_enter():
            retry_after = self.admission.retry_after_s()
            await send_json(
                send,
                503,
                {
                    "error": (
                        "The assistant is busy answering other people right now. "
                        f"Please try again in {retry_after} s."
                    ),
                    "retry_after_s": retry_after,
                    "request_id": request_id_of(scope),
                },
                headers=[("Retry-After", str(retry_after))],
            )
            return
        started = time.monotonic()
        try:
            with caller_scope(client_ip_of(scope), Priority.INTERACTIVE):
                await self.app(scope, receive, send)
        finally:
            self.admission.leave(time.monotonic() - started)
            await end_journaled_turn(scope)


def turn_admission(app: FastAPI, settings: Settings, turn_paths: Iterable[str]) -> Middleware:
    """The middleware that bounds the turns in progress on `turn_paths` (the routes that run a
    turn); `app.state.turn_admission` reports them."""
    admission = TurnAdmission(settings.queue_max_turns)
    app.state.turn_admission = admission
    return Middleware(TurnAdmissionMiddleware, admission=admission, paths=list(turn_paths))


def queue_status(app: Any) -> dict[str, Any]:
    """What `/health/ready` reports about the queue."""
    admission: TurnAdmission | None = getattr(app.state, "turn_admission", None)
    if admission is None:
        stats = queue_stats()
        return {"waiting": stats.waiting, "running": stats.running}
    return admission.status()
