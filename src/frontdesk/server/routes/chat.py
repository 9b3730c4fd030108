"""Asking: `POST /chat` (the core's chat route; every assistant's own chat routes run the same
`run_turn`) and `POST /chat/cancel` (stops a caller's running turn, on whichever route it runs).
"""

from __future__ import annotations

import uuid
from typing import Annotated

from fastapi import APIRouter, Depends, Request
from fastapi.responses import Response
from pydantic import BaseModel, ConfigDict, Field
from sse_starlette import EventSourceResponse

from frontdesk.server.deps import default_assistant
from frontdesk.server.errors import ApiError
from frontdesk.server.identity import Caller, caller_of, identity_of, require_assistant
from frontdesk.server.schemas import (
    BODY_ERRORS,
    ChatRequest,
    error_responses,
    json_request_body,
    read_chat_request,
    read_json_body,
    turn_responses,
)
from frontdesk.server.turns import RunningTurns, Streamed, TurnAsked, run_turn

router = APIRouter()
CallerDep = Annotated[Caller, Depends(caller_of)]
NOT_FOUND = "Conversation not found."


@router.post(
    "/chat",
    tags=["chat"],
    response_class=Response,
    openapi_extra=json_request_body(ChatRequest),
    responses=turn_responses(
        _200={
            "description": "metadata, token*|replace, sources, done (or error)",
            "content": {"text/event-stream": {}},
        }
    ),
    summary="Ask the assistant; the answer streams back as server-sent events.",
)
async def chat(request: Request) -> EventSourceResponse:
    body = await read_chat_request(request)
    name = body.assistant or default_assistant(request)
    # A key holder may say which end user it acts for; nobody else may.
    caller = identity_of(request).caller(request, end_user=body.user_id, assistant=name)
    asked = TurnAsked(
        caller,
        name,
        body.resolved_thread_id(),
        body.message,
        scope=body.scope,
        regenerate=body.regenerate,
    )
    return await run_turn(request, asked, Streamed())  # sets Cache-Control: no-store


class Cancel(BaseModel):
    model_config = ConfigDict(extra="forbid")

    assistant: str = Field(min_length=1, max_length=64)
    # The id the turn's route named the conversation by: /chat's thread_id (a UUID),
    # /telecom/chat's session_id, the analyst's "<company_id or ->:<conversation id>".
    thread_id: str = Field(min_length=1, max_length=300)


@router.post(
    "/chat/cancel",
    summary="Stop the turn running on one of the caller's threads.",
    openapi_extra=json_request_body(Cancel),
    responses=error_responses(
        401, 403, 404, *BODY_ERRORS, _404="No such conversation for this caller"
    ),
)
async def cancel_turn(request: Request, caller: CallerDep) -> dict[str, bool]:
    body = await read_json_body(request, Cancel)
    require_assistant(caller, body.assistant)
    try:  # /chat's ids are UUIDs, stored in one spelling; other routes' ids are kept as sent
        thread_id = str(uuid.UUID(body.thread_id.strip()))
    except ValueError:
        thread_id = body.thread_id
    key = caller.thread_key(body.assistant, thread_id)
    if await request.app.state.threads.owner(body.assistant, key) != caller.owner:
        raise ApiError(404, NOT_FOUND)
    running: RunningTurns = request.app.state.turns
    return {"cancelled": running.cancel((body.assistant, key))}
