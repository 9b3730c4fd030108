"""Turns in progress: planned (`plan_turn`), journalled, and stoppable by their caller
(`POST /chat/cancel`, the web UI's Stop).

Each turn's question is journalled (`ThreadStore.begin_turn`) before the assistant runs and the
row is removed when the request ends (`end_journaled_turn`, called by the admission middleware
that wraps every turn route): if the server dies mid-turn, the restarted server shows the
question as asked but not answered (`GET /conversations/{assistant}/{thread_id}`).

Closing the browser's request is not enough: a proxy may keep the upstream connection open,
and the model would go on writing an answer nobody reads. Each streamed turn registers under
(assistant, thread key); cancelling it ends the stream with `done` {"cancelled": true} and
closes the assistant's stream, which stops the graph and the model call.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
from collections.abc import AsyncIterator
from dataclasses import dataclass
from typing import Any

import anyio
from fastapi import Request
from starlette.types import Scope

from frontdesk.agentkit import permissions
from frontdesk.assistants.base import AssistantService
from frontdesk.llm.scheduling import name_caller
from frontdesk.server.deps import resolve_service
from frontdesk.server.errors import ApiError
from frontdesk.server.identity import Caller, require_assistant

logger = logging.getLogger("frontdesk.server")

TurnKey = tuple[str, str]
# Where a request keeps its turn's journal row id (in the ASGI scope's state).
JOURNAL_STATE_KEY = "turn_journal_id"


class RunningTurns:
    def __init__(self) -> None:
        self._turns: dict[TurnKey, asyncio.Event] = {}

    def __len__(self) -> int:
        return len(self._turns)

    def cancel(self, key: TurnKey) -> bool:
        """Stop the turn running on that thread; False when none is."""
        stop = self._turns.get(key)
        if stop is None:
            return False
        stop.set()
        return True

    async def run(
        self, key: TurnKey, messages: AsyncIterator[dict[str, str]], *, encode=None
    ) -> AsyncIterator[dict[str, str]]:
        """Pass `messages` through until they end or the turn is cancelled. A newer turn on
        the same thread replaces the registration (the older one can no longer be stopped
        by key, which is what the newest request means)."""
        stop = asyncio.Event()
        self._turns[key] = stop
        waiter = asyncio.ensure_future(stop.wait())
        iterator = aiter(messages)
        step: asyncio.Future | None = None
        try:
            while True:
                step = asyncio.ensure_future(anext(iterator))
                await asyncio.wait({step, waiter}, return_when=asyncio.FIRST_COMPLETED)
                if not step.done():
                    yield cancelled_message(encode)
                    return
                try:
                    message = step.result()
                except StopAsyncIteration:
                    return
                yield message
        finally:
            waiter.cancel()
            if self._turns.get(key) is stop:
                del self._turns[key]
            # A pending step is inside the stream: stop it before closing the stream (also
            # when the client went away while we waited).
            if step is not None and not step.done():
                step.cancel()
                with contextlib.suppress(asyncio.CancelledError, StopAsyncIteration, Exception):
                    await step
            closer = getattr(iterator, "aclose", None)
            if closer is not None:
                await closer()


def cancelled_message(encode=None) -> dict[str, str]:
    data: dict[str, Any] = {"done": True, "cancelled": True}
    if encode is not None:
        message = encode("done", data)
        if message is not None:
            return message
    return {"event": "done", "data": json.dumps(data)}


@dataclass(frozen=True)
class TurnPlan:
    """What a chat route needs to run one turn for a caller."""

    service: AssistantService
    assistant: str
    thread_id: str  # what the caller sees
    thread_key: str  # where the conversation is stored
    turn: int  # index of the answer this turn writes (for feedback)
    user_id: str | None  # the end user the assistant acts for, if any

    def with_public_metadata(self, encode):
        """`encode` with the metadata event naming the caller's thread id and the turn."""

        def patched(event: str, data: dict[str, Any]):
            if event == "metadata":
                data = {**data, "thread_id": self.thread_id, "turn": self.turn}
            return encode(event, data)

        return patched


async def plan_turn(
    request: Request,
    caller: Caller,
    assistant: str,
    thread_id: str,
    message: str,
    *,
    regenerate: bool = False,
) -> TurnPlan:
    """Check the caller may use the assistant and the thread (403, 404), claim a new thread
    for the caller, and, to regenerate, drop the last answer first."""
    require_assistant(caller, assistant)
    service = resolve_service(request, assistant)
    # For the rest of this request: the turn (and the stream it returns) sees what the
    # caller may see.
    permissions.grant(caller.permissions)
    if caller.kind != "local":
        # Fair turns between people, not addresses (many users share a proxy's address); the
        # anonymous local callers stay apart by address.
        user = caller.user_for(assistant) if caller.kind == "key" else None
        name_caller(f"{caller.owner}/{user}" if user else caller.owner)
    key = caller.thread_key(assistant, thread_id)
    threads = request.app.state.threads
    if not await threads.claim(assistant, key, thread_id, caller.owner, message):
        raise ApiError(404, "Conversation not found.")
    transcript = getattr(service, "transcript", None)
    # A question the server stopped answering (it died mid-turn) was never saved with the
    # conversation: asking it again drops nothing, or the answer before it would go.
    interrupted = await threads.unanswered(assistant, key)
    if regenerate and interrupted is None and callable(getattr(service, "forget_last_turn", None)):
        await service.forget_last_turn(key)
    answers = 0
    if callable(transcript):
        answers = sum(1 for m in await transcript(key) if m["role"] == "assistant")
    turn_id = await threads.begin_turn(assistant, key, message)
    request.scope.setdefault("state", {})[JOURNAL_STATE_KEY] = turn_id
    return TurnPlan(service, assistant, thread_id, key, answers, caller.user_for(assistant))


async def end_journaled_turn(scope: Scope) -> None:
    """Remove the request's journal row, if its turn wrote one (the turn has ended)."""
    state = scope.get("state")
    turn_id = state.pop(JOURNAL_STATE_KEY, None) if isinstance(state, dict) else None
    if turn_id is None:
        return
    # Shielded: a turn ended by the client going away still ends in the journal.
    with anyio.CancelScope(shield=True):
        try:
            await scope["app"].state.threads.end_turn(turn_id)
        except Exception:  # the answer is out already; a stale row only shows after a restart
            logger.exception("ending turn %s in the journal failed", turn_id)
