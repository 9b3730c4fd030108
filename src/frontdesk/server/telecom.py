"""`POST /telecom/chat`: one telecom support turn as a single JSON answer (not streamed).

The turn runs the `telecom` service's `ask` under the same time limit as a streamed answer
(running time: waiting in the model's queue does not count; a turn out of time is answered
without the model by the service). A failure inside the turn is a 500 (a service that ignores
the limit a 504) with one fixed sentence and the request id, never the exception's text: the
log has the traceback.
"""

from __future__ import annotations

import logging
import math
from typing import Any

from frontdesk.assistants.base import Answer, AssistantService
from frontdesk.errors import FrontdeskError
from frontdesk.llm.turn_clock import turn_clock_scope
from frontdesk.server.errors import ApiError
from frontdesk.server.schemas import TelecomChatRequest, TelecomChatResponse
from frontdesk.server.streaming import FAILURE_MESSAGE, out_of_time_grace_s, timeout_message

logger = logging.getLogger("frontdesk.server")

TELECOM = "telecom"


async def telecom_turn(
    service: AssistantService,
    body: TelecomChatRequest,
    *,
    timeout_s: float,
    request_id: str | None = None,
) -> TelecomChatResponse:
    ids = {"request_id": request_id} if request_id else {}
    try:
        with turn_clock_scope(timeout_s) as clock:
            async with clock.limit(extra_s=out_of_time_grace_s(timeout_s)):
                answer = await service.ask(body.message, body.session_id, user_id=body.user_id)
    except TimeoutError:
        logger.warning(
            "telecom turn timed out after %.1f s (session %s, request %s)",
            timeout_s,
            body.session_id,
            request_id,
        )
        raise ApiError(504, timeout_message(timeout_s), **ids) from None
    except FrontdeskError as exc:
        # Written for users (e.g. "the model is not installed"): safe to show as it is.
        logger.exception(
            "telecom turn failed (session %s, request %s)", body.session_id, request_id
        )
        raise ApiError(500, str(exc), **ids) from None
    except Exception:
        logger.exception(
            "telecom turn failed (session %s, request %s)", body.session_id, request_id
        )
        raise ApiError(500, FAILURE_MESSAGE, **ids) from None
    if not isinstance(answer, Answer):
        logger.error("telecom ask() returned %s, not Answer", type(answer).__name__)
        raise ApiError(500, FAILURE_MESSAGE, **ids)
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
