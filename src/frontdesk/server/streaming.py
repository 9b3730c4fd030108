"""Turns an assistant's `ChatEvent` stream into SSE messages, bounded in time.

The service's events pass through unchanged (`metadata -> token*|replace -> sources -> done`, or
its own `error`). This layer guarantees what a client relies on even when the service misbehaves:
the thread id comes first, an exception or the timeout ends the stream with one `error` event (a
fixed sentence, never a traceback), nothing follows `done`, and the service's generator is always
closed.

The time limit is the turn's *running* time: a turn clock (`TurnClock`) is started here and
paused while the turn's model calls wait in the embedded model's queue, so a busy machine
makes answers late, not failed. The service sees the same clock: a `GraphAssistant` ends a turn
out of time with its deterministic answer. This layer's own limit (`turn_backstop`) only
catches a service that ignores the clock: a little after the budget (`out_of_time_grace_s`)
for a service that never waited under the clock, and only after `KEPT_CLOCK_GRACE_S` for one
that does, so its out-of-time answer, however slow a loaded machine makes it, arrives late
instead of turning into "took too long".
"""

from __future__ import annotations

import asyncio
import json
import logging
from collections.abc import AsyncIterator, Callable
from contextlib import AbstractAsyncContextManager
from typing import Any

import anyio

from frontdesk.assistants.base import AssistantService, ChatEvent
from frontdesk.llm.turn_clock import TurnClock

logger = logging.getLogger("frontdesk.server")

FAILURE_MESSAGE = "Sorry, something went wrong while answering. Please try again."
CLOSE_TIMEOUT_S = 5.0
# How long past its budget a service that ignores the turn clock may run.
OUT_OF_TIME_GRACE_S = 5.0
# How long past its budget a service that keeps the clock may take to write its out-of-time
# answer (no model: a busy machine makes it seconds, only a hung service takes this long).
KEPT_CLOCK_GRACE_S = 60.0
# What an operator raises when turns often run out of time on this machine.
TIME_LIMIT_SETTING = "FRONTDESK_SSE_TIMEOUT_S"


def out_of_time_grace_s(timeout_s: float) -> float:
    # A quarter of short limits (tests), so the backstop stays proportionate.
    return min(OUT_OF_TIME_GRACE_S, timeout_s / 4)


def turn_backstop(clock: TurnClock, timeout_s: float) -> AbstractAsyncContextManager[None]:
    """The server's limit around a turn's work (see the module's docstring)."""
    return clock.limit(extra_s=out_of_time_grace_s(timeout_s), kept_s=KEPT_CLOCK_GRACE_S)


def timeout_message(timeout_s: float) -> str:
    """What a client is told when the backstop ended a turn: what happened, what to do."""
    return (
        f"The assistant took too long to answer (over {timeout_s:g} s) and stopped. "
        "Please ask again, or try a shorter question. If this keeps happening, the server's "
        f"operator can raise {TIME_LIMIT_SETTING}."
    )


def sse_message(event: str, data: dict[str, Any]) -> dict[str, str]:
    """One SSE message in the form EventSourceResponse encodes: `event:` + JSON `data:`."""
    return {"event": event, "data": json.dumps(data, ensure_ascii=False, default=str)}


async def chat_sse_stream(
    service: AssistantService,
    message: str,
    thread_id: str,
    *,
    timeout_s: float,
    request_id: str | None = None,
    user_id: str | None = None,
    scope: str | None = None,
    encode: Callable[[str, dict[str, Any]], dict[str, str] | None] = sse_message,
) -> AsyncIterator[dict[str, str]]:
    """`encode(event, data)` writes each event as an SSE message (None: not sent); the
    default is the core's `event:` + JSON `data:` form."""
    # `user_id` goes along only when the request names a customer, so a turn without one
    # calls the service exactly as before.
    kwargs: dict[str, Any] = {"user_id": user_id} if user_id is not None else {}
    if scope is not None:  # likewise the scope (codeqa's repository)
        kwargs["scope"] = scope
    events: AsyncIterator[ChatEvent] | None = None
    sent_metadata = False

    def error(text: str) -> list[dict[str, str]]:
        payload: dict[str, Any] = {"error": text}
        if request_id:
            payload["request_id"] = request_id
        head = [] if sent_metadata else [encode("metadata", {"thread_id": thread_id})]
        return [m for m in (*head, encode("error", payload)) if m is not None]

    # The service sees the clock while it works on each event (inside `clock.limit`).
    clock = TurnClock(timeout_s)
    try:
        # Inside the `try`: a service whose stream() fails when called still gets an `error`.
        events = aiter(service.stream(message, thread_id, **kwargs))
        while True:
            try:
                # The timeout wraps only the wait for the next event, never the `yield`,
                # so a slow client cannot be mistaken for a slow assistant.
                async with turn_backstop(clock, timeout_s):
                    event = await anext(events)
            except StopAsyncIteration:
                return
            if not isinstance(event, ChatEvent):
                raise TypeError(f"assistant yielded {type(event).__name__}, not ChatEvent")
            if not sent_metadata and event.event != "metadata":
                head = encode("metadata", {"thread_id": thread_id})
                if head is not None:
                    yield head
            sent_metadata = True
            message = encode(event.event, event.data)
            if message is not None:
                yield message
            if event.event == "done":
                # Nothing may follow `done`; a service's own `error` is passed through and
                # whatever it sends after it (normally `done`) too.
                return
    except TimeoutError:
        logger.warning(
            "chat stream timed out after %.1f s of running time (thread %s, request %s): the "
            "assistant ignored its turn clock or hung; raise %s if turns need longer here",
            timeout_s,
            thread_id,
            request_id,
            TIME_LIMIT_SETTING,
        )
        for item in error(timeout_message(timeout_s)):
            yield item
    except (asyncio.CancelledError, GeneratorExit):
        # The client went away mid-answer: expected, not an error.
        logger.info(
            "client disconnected during chat stream (thread %s, request %s)", thread_id, request_id
        )
        raise
    except Exception:
        logger.exception("chat stream failed (thread %s, request %s)", thread_id, request_id)
        for item in error(FAILURE_MESSAGE):
            yield item
    finally:
        closer = getattr(events, "aclose", None)
        if closer is not None:
            # Shielded: after a disconnect the surrounding scope is cancelled, and the
            # service still deserves the chance to release what it holds.
            with anyio.move_on_after(CLOSE_TIMEOUT_S, shield=True):
                try:
                    await closer()
                except Exception:
                    logger.exception("closing the assistant's stream failed")
