"""What an assistant's own code may use from the server, promised: everything here keeps its
name and meaning, and nothing else under `frontdesk.server` is an assistant's to import.

An assistant's HTTP routes (`AssistantPlugin.api_router`) read their body, name the caller
and hand the turn to `run_turn`, so a turn on any route is checked, journalled, timed, stopped
and failed the same way. `tests/test_architecture.py` keeps every assistant on this module:
the server's modules can change shape without breaking a plug-in.

The rest of the core that assistants build on (agentkit, knowledge, routing, guardrails, llm,
memory, eval) are libraries they import directly; the plug-in contract itself is
`frontdesk.assistants.plugin`.
"""

from __future__ import annotations

from frontdesk.server.deps import service_for, settings_of
from frontdesk.server.errors import ApiError, described_pattern
from frontdesk.server.identity import Caller, caller_of, identity_of, require_assistant
from frontdesk.server.middleware import request_id_of
from frontdesk.server.schemas import (
    BODY_ERRORS,
    MAX_MESSAGE_CHARS,
    MessageText,
    UserId,
    error_responses,
    json_request_body,
    read_json_body,
    turn_responses,
)
from frontdesk.server.streaming import FAILURE_MESSAGE, sse_message
from frontdesk.server.turns import Encoder, Streamed, TurnAsked, Whole, run_turn

__all__ = [
    "BODY_ERRORS",
    "FAILURE_MESSAGE",
    "MAX_MESSAGE_CHARS",
    "ApiError",
    "Caller",
    "Encoder",
    "MessageText",
    "Streamed",
    "TurnAsked",
    "UserId",
    "Whole",
    "caller_of",
    "described_pattern",
    "error_responses",
    "identity_of",
    "json_request_body",
    "read_json_body",
    "request_id_of",
    "require_assistant",
    "run_turn",
    "service_for",
    "settings_of",
    "sse_message",
    "turn_responses",
]
