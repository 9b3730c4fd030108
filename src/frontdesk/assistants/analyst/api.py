"""`POST /internal/chat/stream`: the analyst's streaming API in seed 002's shape (the analyst
plug-in's own route, mounted by the core's server).

Request: `{"input": {"message"}, "conversation": {"id", "user_id", "company_id"}}`. Response:
SSE `data:` lines, each a JSON object named by its `event` field:

    {"event": "route_decision", "route": "sql"}
    {"event": "tool_start", "tool": "sql_agent"}
    {"event": "token", "channel": "final", "content": "There"}
    {"event": "complete", "stats": {...}, "final_structured_data": [...], "sql": "...",
     "sql_status": "ran"}
    {"event": "error", "message": "..."}

Beyond the seed: `{"event": "step", "step": "execute"}` while the SQL agent works,
`{"event": "queue", "position": 2, "waiting": 5}` while the turn waits for the model,
`{"event": "cancelled"}` when the caller stopped the turn (`POST /chat/cancel`), and
`{"event": "replace", "channel": "final", "content": ...}` when the final answer is not what
was streamed (a checked answer rewritten from the rows, a fixed reply). The stream's guarantees
(timeout, one error, nothing after the end, cancel) are the core's (`run_turn`).
"""

from __future__ import annotations

import json
import time
from typing import Annotated, Any

from fastapi import APIRouter, Depends, Request
from fastapi.responses import Response
from pydantic import BaseModel, ConfigDict, Field
from sse_starlette import EventSourceResponse

from frontdesk.assistants.analyst.sql_api import router as sql_router
from frontdesk.assistants.base import AssistantService
from frontdesk.plugin_api import (
    MessageText,
    Streamed,
    TurnAsked,
    identity_of,
    json_request_body,
    read_json_body,
    run_turn,
    service_for,
    turn_responses,
)


class _Strict(BaseModel):
    # Limits hold for the values as sent (the schema states them); the message is stripped
    # after it passed them.
    model_config = ConfigDict(extra="forbid")


class InternalInput(_Strict):
    message: MessageText


class InternalConversation(_Strict):
    id: str = Field(min_length=1, max_length=128, pattern=r"^[A-Za-z0-9_.:-]+$")
    user_id: str | None = Field(default=None, max_length=128)
    company_id: str | None = Field(default=None, max_length=128)


class InternalChatRequest(_Strict):
    input: InternalInput
    conversation: InternalConversation


class SeedEventEncoder:
    """Writes the core's chat events as the seed's `data:` lines, counting what it sends."""

    def __init__(self) -> None:
        self.tokens = 0
        self.started = time.monotonic()
        self.failed = False

    def __call__(self, event: str, data: dict[str, Any]) -> dict[str, str] | None:
        payload = self._payload(event, data)
        if payload is None:
            return None
        return {"data": json.dumps(payload, ensure_ascii=False, default=str)}

    def _payload(self, event: str, data: dict[str, Any]) -> dict[str, Any] | None:
        if event == "progress":
            stage = data.get("stage")
            if stage == "route":
                return {"event": "route_decision", "route": data.get("route")}
            if stage == "tool":
                return {"event": "tool_start", "tool": data.get("tool")}
            if stage == "step":
                return {"event": "step", "step": data.get("step")}
            if stage == "queue":
                # Beyond the seed, like `step`: the turn waits for the model (1: next).
                return {
                    "event": "queue",
                    "position": data.get("position"),
                    "waiting": data.get("waiting"),
                }
            return None
        if event == "token":
            self.tokens += 1
            return {"event": "token", "channel": "final", "content": data.get("content", "")}
        if event == "replace":
            return {"event": "replace", "channel": "final", "content": data.get("content", "")}
        if event == "sources":
            return {
                "event": "complete",
                "stats": {
                    "tokens": self.tokens,
                    "elapsed_ms": round((time.monotonic() - self.started) * 1000),
                    "route": data.get("route"),
                    "row_count": data.get("row_count", 0),
                    "truncated": data.get("truncated", False),
                },
                "sql": data.get("sql"),
                # Beyond the seed: whether that SQL ran (ran | failed | refused), and why not
                # in plain words.
                "sql_status": data.get("sql_status"),
                "sql_problem": data.get("sql_problem"),
                "columns": data.get("columns") or [],
                "final_structured_data": data.get("rows") or [],
                "sources": data.get("sources") or [],
            }
        if event == "error":
            self.failed = True
            payload = {"event": "error", "message": data.get("error", "")}
            if data.get("request_id"):
                payload["request_id"] = data["request_id"]
            return payload
        if event == "done" and data.get("cancelled"):
            # Beyond the seed: the caller stopped the turn (POST /chat/cancel).
            return {"event": "cancelled"}
        return None  # metadata and done have no counterpart in the seed's stream


NAME = "analyst"
router = APIRouter()
# Run a person's query, download a result as CSV (sql_api.py).
router.include_router(sql_router)
# The analyst assistant's service, with the core's readiness rules (404, 503).
ThisService = Annotated[AssistantService, Depends(service_for("analyst"))]


@router.post(
    "/internal/chat/stream",
    tags=["chat"],
    response_class=Response,
    openapi_extra=json_request_body(InternalChatRequest),
    responses=turn_responses(
        _200={
            "description": "data: route_decision, tool_start, token*, complete (or error)",
            "content": {"text/event-stream": {}},
        },
    ),
    summary="Ask the data analyst (seed 002's internal API); events stream back as SSE.",
)
async def internal_chat_stream(request: Request, _ready: ThisService) -> EventSourceResponse:
    body = await read_json_body(request, InternalChatRequest)
    conversation = body.conversation
    caller = identity_of(request).caller(request, end_user=conversation.user_id, assistant=NAME)
    # Conversations are keyed by (company, user, conversation): the key's own company when it
    # is configured with one, else the request's; the user namespaces the key (Caller).
    company = caller.company or conversation.company_id or "-"
    thread_id = f"{company}:{conversation.id}"
    asked = TurnAsked(caller, NAME, thread_id, body.input.message)
    return await run_turn(request, asked, Streamed(SeedEventEncoder()))
