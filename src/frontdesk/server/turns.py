"""Turns in progress: run (`run_turn`, behind every chat route), journalled, and stoppable by
their caller (`POST /chat/cancel`, the web UI's Stop).

Every route that runs a turn, the core's `/chat` and each assistant's own (the analyst's
`/internal/chat/stream`, telecom's `/telecom/chat`), reads its own body shape into a
`TurnAsked` and calls `run_turn`: the same checks (the assistant, the scope, the thread), the
same journal, the same turn clock, the same cancel, and the same errors, whether the answer
streams (`Streamed`) or comes back whole (`Whole`).

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
from collections.abc import AsyncIterator, Callable, Coroutine
from dataclasses import dataclass
from typing import Any, TypeVar, overload

import anyio
from fastapi import Request
from sse_starlette import EventSourceResponse
from starlette.types import Scope

from frontdesk.agentkit import permissions
from frontdesk.assistants.base import Answer, AssistantService, check_scope
from frontdesk.errors import FrontdeskError
from frontdesk.llm.scheduling import name_caller
from frontdesk.llm.turn_clock import turn_clock_scope
from frontdesk.server.deps import resolve_service, settings_of
from frontdesk.server.errors import ApiError
from frontdesk.server.identity import Caller, require_assistant
from frontdesk.server.middleware import request_id_of
from frontdesk.server.streaming import (
    FAILURE_MESSAGE,
    chat_sse_stream,
    sse_message,
    timeout_message,
    turn_backstop,
)

logger = logging.getLogger("frontdesk.server")

TurnKey = tuple[str, str]
# (event, data) -> the SSE message a route sends for it; None: that event is not sent.
Encoder = Callable[[str, dict[str, Any]], dict[str, str] | None]
T = TypeVar("T")
# Said when a whole-answer turn was stopped by its caller before it finished.
STOPPED_MESSAGE = "The turn was stopped before it finished (POST /chat/cancel)."
# Where a request keeps its turn's journal row id (in the ASGI scope's state).
JOURNAL_STATE_KEY = "turn_journal_id"


class TurnStopped(Exception):
    """A whole-answer turn was cancelled by its caller before it finished."""


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

    async def whole(self, key: TurnKey, work: Coroutine[Any, Any, T]) -> T:
        """`work`'s result, unless the turn is cancelled first (then `TurnStopped`, and `work`
        is stopped). Registered like a streamed turn, so a cancel reaches it the same way."""
        stop = asyncio.Event()
        self._turns[key] = stop
        waiter = asyncio.ensure_future(stop.wait())
        task = asyncio.ensure_future(work)
        try:
            await asyncio.wait({task, waiter}, return_when=asyncio.FIRST_COMPLETED)
            if not task.done():
                raise TurnStopped(STOPPED_MESSAGE)
            return task.result()
        finally:
            waiter.cancel()
            if self._turns.get(key) is stop:
                del self._turns[key]
            if not task.done():
                task.cancel()
                with contextlib.suppress(asyncio.CancelledError, Exception):
                    await task

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


@dataclass(frozen=True)
class TurnAsked:
    """What a chat route was asked, in the core's terms: each route reads its own body shape
    and names the caller (`identity_of(request).caller(...)`), then hands this to `run_turn`."""

    caller: Caller
    assistant: str
    thread_id: str  # as the caller names it; stored under the caller's own key
    message: str
    scope: str | None = None  # one of the assistant's collections (a code repository)
    regenerate: bool = False  # drop the thread's last answer and answer again


@dataclass(frozen=True)
class Streamed:
    """Reply with the turn's events as they come, as server-sent events written by `encode`
    (the core's `event:` + JSON `data:` form unless a route has its own)."""

    encode: Encoder = sse_message


@dataclass(frozen=True)
class Whole:
    """Reply with the finished answer, for a route that answers with one JSON body. Errors are
    `ApiError`s: 504 out of time, 409 stopped by the caller, 500 failed (one sentence)."""


@overload
async def run_turn(request: Request, asked: TurnAsked, reply: Streamed) -> EventSourceResponse: ...
@overload
async def run_turn(request: Request, asked: TurnAsked, reply: Whole) -> Answer: ...
async def run_turn(
    request: Request, asked: TurnAsked, reply: Streamed | Whole
) -> EventSourceResponse | Answer:
    """One turn for `asked`, behind every chat route: 403/404 before anything runs (the
    assistant, the scope, the thread), journalled, under the turn clock, stoppable by
    `POST /chat/cancel`."""
    if asked.scope is not None:
        try:  # before the turn starts: a scope the assistant lacks is not there (404)
            check_scope(resolve_service(request, asked.assistant), asked.scope)
        except FrontdeskError as error:
            raise ApiError(404, str(error)) from None
    plan = await plan_turn(
        request,
        asked.caller,
        asked.assistant,
        asked.thread_id,
        asked.message,
        regenerate=asked.regenerate,
    )
    timeout_s = settings_of(request).sse_timeout_s
    request_id = request_id_of(request.scope)
    running: RunningTurns = request.app.state.turns
    key = (asked.assistant, plan.thread_key)
    if isinstance(reply, Whole):
        work = _whole_answer(plan, asked, timeout_s=timeout_s, request_id=request_id)
        try:
            return await running.whole(key, work)
        except TurnStopped as stopped:
            raise ApiError(409, str(stopped), **_ids(request_id)) from None
    encode = plan.with_public_metadata(reply.encode)
    stream = chat_sse_stream(
        plan.service,
        asked.message,
        plan.thread_key,
        timeout_s=timeout_s,
        request_id=request_id,
        user_id=plan.user_id,
        scope=asked.scope,
        encode=encode,
    )
    return EventSourceResponse(running.run(key, stream, encode=encode))


def _ids(request_id: str | None) -> dict[str, str]:
    return {"request_id": request_id} if request_id else {}


async def _whole_answer(
    plan: TurnPlan, asked: TurnAsked, *, timeout_s: float, request_id: str | None
) -> Answer:
    """The finished answer under the same clock and backstop as a streamed turn, its failures
    as `ApiError`s with one sentence (never a traceback)."""
    # Like the stream: the customer and the scope go along only when the turn names them.
    kwargs: dict[str, Any] = {"user_id": plan.user_id} if plan.user_id is not None else {}
    if asked.scope is not None:
        kwargs["scope"] = asked.scope
    where = f"{asked.assistant} turn (thread {plan.thread_key}, request {request_id})"
    try:
        with turn_clock_scope(timeout_s) as clock:
            async with turn_backstop(clock, timeout_s):
                answer = await plan.service.ask(asked.message, plan.thread_key, **kwargs)
    except TimeoutError:
        logger.warning("%s timed out after %.1f s", where, timeout_s)
        raise ApiError(504, timeout_message(timeout_s), **_ids(request_id)) from None
    except FrontdeskError as exc:
        # Written for users (e.g. "the model is not installed"): safe to show as it is.
        logger.exception("%s failed", where)
        raise ApiError(500, str(exc), **_ids(request_id)) from None
    except Exception:
        logger.exception("%s failed", where)
        raise ApiError(500, FAILURE_MESSAGE, **_ids(request_id)) from None
    if not isinstance(answer, Answer):
        logger.error("%s: ask() returned %s, not Answer", where, type(answer).__name__)
        raise ApiError(500, FAILURE_MESSAGE, **_ids(request_id))
    return answer
