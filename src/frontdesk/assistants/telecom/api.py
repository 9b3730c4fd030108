"""`POST /telecom/chat`: one telecom support turn as a single JSON answer (not streamed); the
telecom plug-in's own route, mounted by the core's server.

The turn is the core's (`run_turn`, whole answer): the same checks, journal, time limit and
cancel as a streamed answer (running time: waiting in the model's queue does not count; a turn
out of time is answered without the model by the service). A failure inside the turn is a 500
(a service that ignores the limit a 504, a turn its caller stopped a 409) with one sentence and
the request id, never a traceback: the log has it.
"""

from __future__ import annotations

import logging
import math
import re
from typing import Annotated, Any

from fastapi import APIRouter, Depends, Request
from pydantic import BaseModel, ConfigDict, Field

from frontdesk.assistants.base import Answer, AssistantService
from frontdesk.plugin_api import (
    MAX_MESSAGE_CHARS,
    MessageText,
    TurnAsked,
    UserId,
    Whole,
    described_pattern,
    identity_of,
    json_request_body,
    read_json_body,
    run_turn,
    service_for,
    turn_responses,
)

logger = logging.getLogger("frontdesk.server")

# A session id names the conversation (its thread); short and plain, so it is safe in logs and
# as a checkpoint key.
SESSION_ID_PATTERN = re.compile(
    described_pattern(
        r"^[A-Za-z0-9_.:-]{1,128}$",
        "must be 1-128 characters of letters, digits, '_', '.', ':' or '-'",
    )
)


class TelecomChatRequest(BaseModel):
    """`POST /telecom/chat` body: one turn of a telecom support session."""

    model_config = ConfigDict(strict=True, extra="ignore")

    session_id: str = Field(
        pattern=SESSION_ID_PATTERN.pattern,
        description="Conversation id, 1-128 characters of letters, digits and _ . : -; "
        "the same id continues the conversation.",
        examples=["session_abc123"],
    )
    user_id: UserId | None = Field(
        default=None,
        description="For API-key callers: the customer they act for (e.g. 'u123'), 2-64 "
        "characters of letters, digits and _ . @ -; billing reads that customer's account. "
        "Ignored for other callers (the web UI signs in instead).",
    )
    message: MessageText = Field(
        description=f"What the customer asks, 1-{MAX_MESSAGE_CHARS} characters, not all blank.",
        examples=["My router PON LED is blinking red. What's wrong?"],
    )


class Citation(BaseModel):
    """A document section the technical answer is grounded in."""

    model_config = ConfigDict(extra="allow")

    title: str | None = None
    section: str | None = None
    file: str | None = None
    version: str | None = None
    score: float | None = None


class ToolUse(BaseModel):
    """A billing tool the turn called: its arguments and its output or error."""

    model_config = ConfigDict(extra="allow")

    name: str
    args: dict[str, Any] = Field(default_factory=dict)
    ok: bool
    output: Any = None
    error: str | None = None


class TelecomChatResponse(BaseModel):
    """`POST /telecom/chat` answer: the reply and what produced it."""

    reply: str
    route: str | None = Field(description="technical, billing, fallback or handoff.")
    last_agent: str | None = Field(description="The agent that answered.")
    sources: list[Citation] = Field(
        description="Citations behind a technical answer (empty otherwise)."
    )
    used_tools: list[ToolUse] = Field(description="Tools called this turn (empty when none).")
    state_excerpt: dict[str, Any] = Field(
        description="A few fields of the session state (last_agent, history_length, ...)."
    )


NAME = "telecom"
router = APIRouter()
# The telecom assistant's service, with the core's readiness rules (404, 503).
ThisService = Annotated[AssistantService, Depends(service_for("telecom"))]


@router.post(
    "/telecom/chat",
    tags=["chat"],
    response_model=TelecomChatResponse,
    openapi_extra=json_request_body(TelecomChatRequest),
    responses=turn_responses(
        _409={"description": "The caller stopped the turn (POST /chat/cancel) before it ended"},
        _500={"description": "The turn failed; the body says so in one sentence"},
        _504={"description": "The turn ran longer than the configured time limit"},
    ),
    summary="One telecom support turn (technical, billing or fallback), answered as JSON.",
)
async def telecom_chat(request: Request, _ready: ThisService) -> TelecomChatResponse:
    body = await read_json_body(request, TelecomChatRequest)
    # The customer is the caller's: a key holder names its end user, the web UI's session
    # signs in as one; the message text never decides whose account is read.
    caller = identity_of(request).caller(request, end_user=body.user_id, assistant=NAME)
    answer = await run_turn(
        request, TurnAsked(caller, NAME, body.session_id, body.message), Whole()
    )
    return response_of(answer)


def response_of(answer: Answer) -> TelecomChatResponse:
    extra = answer.extra or {}
    return TelecomChatResponse(
        reply=answer.answer,
        route=answer.route,
        last_agent=extra.get("last_agent"),
        sources=[_citation(c) for c in extra.get("citations") or [] if isinstance(c, dict)],
        used_tools=[_tool(t) for t in extra.get("used_tools") or [] if isinstance(t, dict)],
        state_excerpt=dict(extra.get("state_excerpt") or {}),
    )


def _text(value: Any) -> str | None:
    return None if value is None else str(value)


def _number(value: Any) -> float | None:
    try:
        number = float(value)
    except (TypeError, ValueError):
        return None
    return number if math.isfinite(number) else None


def _citation(citation: dict[str, Any]) -> dict[str, Any]:
    # Versions come from front matter ("2.1" or 2.1) and scores may be numpy floats.
    return {
        **citation,
        "title": _text(citation.get("title")),
        "section": _text(citation.get("section")),
        "file": _text(citation.get("file")),
        "version": _text(citation.get("version")),
        "score": _number(citation.get("score")),
    }


def _tool(tool: dict[str, Any]) -> dict[str, Any]:
    args = tool.get("args")
    return {
        **tool,
        "name": str(tool.get("name") or "?"),
        "args": dict(args) if isinstance(args, dict) else {},
        "ok": bool(tool.get("ok")),
        "output": tool.get("output"),
        "error": _text(tool.get("error")),
    }
