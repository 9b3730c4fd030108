"""The caller's session and conversations: sign-in, the list of past threads, one thread's
messages, and feedback on an answer.

Every route acts for the caller (`identity.caller_of`): a thread that is not theirs is a 404,
exactly like one that does not exist, so ids can't be probed.
"""

from __future__ import annotations

import uuid
from typing import Annotated, Any, Literal

from fastapi import APIRouter, Depends, Query, Request
from fastapi.responses import JSONResponse
from pydantic import BaseModel, BeforeValidator, ConfigDict, Field

from frontdesk.server.deps import resolve_service, services_of, settings_of
from frontdesk.server.errors import ApiError
from frontdesk.server.identity import (
    COOKIE_NAME,
    Caller,
    caller_of,
    identity_of,
    presented_key,
    require_assistant,
)
from frontdesk.server.schemas import (
    BODY_ERRORS,
    UserId,
    error_responses,
    json_request_body,
    read_json_body,
)

router = APIRouter()
CallerDep = Annotated[Caller, Depends(caller_of)]
NOT_FOUND = "Conversation not found."


def thread_store(request: Request):
    return request.app.state.threads


def _uuid(value: str) -> str:
    try:
        return str(uuid.UUID(value.strip()))
    except (ValueError, AttributeError):
        raise ApiError(404, NOT_FOUND) from None


async def owned_thread_key(request: Request, caller: Caller, assistant: str, thread_id: str) -> str:
    """The thread's storage key if the caller owns it; else 404."""
    require_assistant(caller, assistant)
    key = caller.thread_key(assistant, _uuid(thread_id))
    if await thread_store(request).owner(assistant, key) != caller.owner:
        raise ApiError(404, NOT_FOUND)
    return key


# -- session ----------------------------------------------------------------------------------


def _session_body(request: Request, session: dict[str, Any] | None, caller: Caller) -> dict:
    settings = settings_of(request)
    demo = {}
    if settings.demo_sign_in:
        for name, plugin in request.app.state.plugins.items():
            if plugin.demo_users is not None:
                demo[name] = plugin.demo_users(settings)
    users = dict(session["users"]) if session is not None else dict(caller.users)
    return {
        "caller": {"kind": caller.kind, "signed_in": users},
        "demo_sign_in": settings.demo_sign_in,
        "demo_users": demo,
    }


def _web_session(request: Request) -> dict[str, Any]:
    """The browser's session: its cookie's, or a new one (a forged or expired cookie is
    replaced, not an error: this is how the page recovers)."""
    identity = identity_of(request)
    cookie = request.cookies.get(COOKIE_NAME)
    session = identity.decode(cookie) if cookie else None
    return session or identity.new_session()


@router.get(
    "/session",
    summary="The caller's session; sets the web UI's cookie when missing.",
    responses=error_responses(401),
)
async def get_session(request: Request) -> JSONResponse:
    if presented_key(request) is not None:
        caller = caller_of(request)
        return JSONResponse(_session_body(request, None, caller))
    session = _web_session(request)
    caller = Caller("web", session["sid"], dict(session["users"]))
    response = JSONResponse(_session_body(request, session, caller))
    identity_of(request).set_cookie(response, session)
    return response


class SignOut(BaseModel):
    model_config = ConfigDict(extra="forbid")

    assistant: str = Field(min_length=1, max_length=64)


class SignIn(SignOut):
    user_id: UserId


@router.post(
    "/session/sign-in",
    summary="Demo sign-in as one of an assistant's demo users.",
    openapi_extra=json_request_body(SignIn),
    responses=error_responses(
        403, 404, *BODY_ERRORS, _404="Unknown assistant, or not one of its demo users"
    ),
)
async def sign_in(request: Request) -> JSONResponse:
    body = await read_json_body(request, SignIn)
    settings = settings_of(request)
    plugin = request.app.state.plugins.get(body.assistant)
    if plugin is None:
        raise ApiError(404, "Unknown assistant.")
    if not settings.demo_sign_in or plugin.demo_users is None:
        raise ApiError(403, "Demo sign-in is turned off for this assistant.")
    if body.user_id not in {u["id"] for u in plugin.demo_users(settings)}:
        raise ApiError(404, "No such demo user: choose one of those listed by GET /session.")
    return _update_session(request, body.assistant, body.user_id)


@router.post(
    "/session/sign-out",
    summary="Forget the demo user signed in for an assistant.",
    openapi_extra=json_request_body(SignOut),
    responses=error_responses(403, *BODY_ERRORS),
)
async def sign_out(request: Request) -> JSONResponse:
    body = await read_json_body(request, SignOut)
    return _update_session(request, body.assistant, None)


def _update_session(request: Request, assistant: str, user_id: str | None) -> JSONResponse:
    if presented_key(request) is not None:
        raise ApiError(403, "API-key callers name their end user per request instead.")
    session = _web_session(request)
    if user_id is None:
        session["users"].pop(assistant, None)
    else:
        session["users"][assistant] = user_id
    caller = Caller("web", session["sid"], dict(session["users"]))
    response = JSONResponse(_session_body(request, session, caller))
    identity_of(request).set_cookie(response, session)
    return response


# -- conversations ----------------------------------------------------------------------------


@router.get(
    "/conversations",
    summary="The caller's conversations with one assistant.",
    responses=error_responses(401, 403, 404, 422),
)
async def list_conversations(
    request: Request,
    caller: CallerDep,
    assistant: Annotated[str, Query(min_length=1, max_length=64)],
) -> dict[str, Any]:
    require_assistant(caller, assistant)
    if assistant not in services_of(request):
        raise ApiError(404, "Unknown assistant.")
    threads = await thread_store(request).threads(caller.owner, assistant)
    return {"conversations": [t.public() for t in threads]}


@router.get(
    "/conversations/{assistant}/{thread_id}",
    summary="One of the caller's conversations, message by message. A question the server "
    'stopped answering (it was restarted mid-turn) comes last, marked "answered": false.',
    responses=error_responses(401, 403, 404, 422, 503, _404="No such conversation for this caller"),
)
async def get_conversation(
    request: Request, caller: CallerDep, assistant: str, thread_id: str
) -> dict[str, Any]:
    key = await owned_thread_key(request, caller, assistant, thread_id)
    service = resolve_service(request, assistant)
    transcript = getattr(service, "transcript", None)
    messages = await transcript(key) if callable(transcript) else []
    question = await thread_store(request).unanswered(assistant, key)
    if question is not None and not _answered(messages, question):
        messages = [*messages, {"role": "user", "content": question, "answered": False}]
    return {"assistant": assistant, "thread_id": _uuid(thread_id), "messages": messages}


def _answered(messages: list[dict[str, Any]], question: str) -> bool:
    """The conversation ends with that question and an answer: the server died after the
    assistant saved the turn but before the request ended."""
    return (
        len(messages) >= 2
        and messages[-1].get("role") == "assistant"
        and messages[-2].get("role") == "user"
        and messages[-2].get("content") == question
    )


def _whole_number(value: Any) -> Any:
    # JSON (and its schema's "integer") does not tell 3 from 3.0; strict types still refuse
    # 3.5, "3" and true.
    return int(value) if isinstance(value, float) and value.is_integer() else value


class Feedback(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)

    assistant: str = Field(min_length=1, max_length=64)
    thread_id: str = Field(min_length=1, max_length=64)
    turn: Annotated[int, BeforeValidator(_whole_number)] = Field(ge=0, le=10_000)
    rating: Literal["up", "down"]
    comment: str | None = Field(default=None, max_length=1000)


@router.post(
    "/feedback",
    status_code=201,
    summary="Thumbs up or down on an answer, with an optional comment.",
    openapi_extra=json_request_body(Feedback),
    responses=error_responses(
        401, 403, 404, *BODY_ERRORS, _404="No such conversation for this caller"
    ),
)
async def add_feedback(request: Request, caller: CallerDep) -> dict[str, int]:
    body = await read_json_body(request, Feedback)
    key = await owned_thread_key(request, caller, body.assistant, body.thread_id)
    comment = body.comment.strip() if body.comment else None
    feedback_id = await thread_store(request).add_feedback(
        body.assistant, key, caller.owner, body.turn, body.rating, comment
    )
    return {"id": feedback_id}
