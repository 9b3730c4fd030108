"""The staff's side of a handoff: conversations handed to a person (tickets), to read, answer
and close.

Only API-key callers, and only for the assistants their key may use: a customer's web session
or an anonymous caller is refused (the CLI operator works on the store directly, `frontdesk
tickets`). A ticket of an assistant the key may not use is a 404, exactly like one that does
not exist, so ids can't be probed.

A person's answer reaches the customer's conversation when it is next read or answered
(`GraphAssistant.deliver_person_replies`): the web UI shows it on reload, not live.
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

from fastapi import APIRouter, Depends, Header, Path, Query, Request
from pydantic import BaseModel, ConfigDict, Field

from frontdesk.memory.tickets import ACTIVE, Ticket, TicketClosed, TicketStore
from frontdesk.server.errors import ApiError
from frontdesk.server.identity import Caller, caller_of, presented_key
from frontdesk.server.schemas import (
    BODY_ERRORS,
    MessageText,
    error_responses,
    json_request_body,
    read_json_body,
)

router = APIRouter(prefix="/tickets", tags=["tickets"])
NOT_FOUND = "Ticket not found."
MAX_AUTHOR_CHARS = 80


def ticket_store(request: Request) -> TicketStore:
    return request.app.state.tickets


def staff_caller(request: Request) -> Caller:
    """The caller, if it is a key holder (401 for a bad key, 403 for anyone else)."""
    if presented_key(request) is None:
        raise ApiError(403, "The ticket routes need an API key.")
    return caller_of(request)


StaffDep = Annotated[Caller, Depends(staff_caller)]
# A ticket id as SQLite stores it (a larger one names no ticket).
TicketId = Annotated[int, Path(ge=1, le=2**63 - 1)]
# Every ticket route: a bad key (401), no key or an assistant the key may not use (403), a
# ticket it cannot see (404), a malformed id or query (422).
STAFF_ERRORS = (401, 403, 404, 422)


async def visible_ticket(request: Request, caller: Caller, ticket_id: int) -> Ticket:
    ticket = await ticket_store(request).get(ticket_id)
    if ticket is None or not caller.may_use(ticket.assistant):
        raise ApiError(404, NOT_FOUND)
    return ticket


@router.get(
    "",
    summary="Tickets waiting for a person (or in another status).",
    responses=error_responses(401, 403, 422),
)
async def list_tickets(
    request: Request,
    caller: StaffDep,
    assistant: Annotated[str | None, Query(min_length=1, max_length=64)] = None,
    status: Annotated[
        Literal["active", "open", "answered", "closed"],
        Query(description="active: open or answered (the bot is silent on those threads)."),
    ] = "active",
) -> dict[str, Any]:
    if assistant is not None and not caller.may_use(assistant):
        raise ApiError(403, "This API key may not use that assistant.")
    assistants = [assistant] if assistant is not None else _allowed(caller)
    statuses = ACTIVE if status == "active" else (status,)
    found = await ticket_store(request).find(assistants, statuses)
    return {"tickets": [_summary(t) for t in found]}


@router.get(
    "/{ticket_id}",
    summary="One ticket: the transcript and what was written since.",
    responses=error_responses(*STAFF_ERRORS),
)
async def get_ticket(request: Request, caller: StaffDep, ticket_id: TicketId) -> dict[str, Any]:
    return (await visible_ticket(request, caller, ticket_id)).public()


class TicketAnswer(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)

    text: MessageText = Field(description="What the person answers; shown in the customer's chat.")
    author: str | None = Field(
        default=None,
        max_length=MAX_AUTHOR_CHARS,
        description="Who answers (default: the API key's name).",
    )


@router.post(
    "/{ticket_id}/answer",
    summary="A person's answer: it appears in the customer's conversation.",
    openapi_extra=json_request_body(TicketAnswer),
    responses=error_responses(*STAFF_ERRORS, 409, *BODY_ERRORS, _409="The ticket is closed"),
)
async def answer_ticket(
    request: Request,
    caller: StaffDep,
    ticket_id: TicketId,
    # A client retrying a request it got no answer to sends the same key: one reply.
    request_key: Annotated[
        str | None, Header(alias="Idempotency-Key", min_length=1, max_length=200)
    ] = None,
) -> dict[str, Any]:
    body = await read_json_body(request, TicketAnswer)
    await visible_ticket(request, caller, ticket_id)
    author = (body.author or "").strip() or caller.id
    try:
        ticket = await ticket_store(request).answer(ticket_id, author, body.text, request_key)
    except TicketClosed:
        raise ApiError(
            409, "The ticket is closed; the assistant answers that thread again."
        ) from None
    if ticket is None:
        raise ApiError(404, NOT_FOUND)
    return ticket.public()


@router.post(
    "/{ticket_id}/close",
    summary="Close it: the assistant answers the thread again.",
    responses=error_responses(*STAFF_ERRORS),
)
async def close_ticket(request: Request, caller: StaffDep, ticket_id: TicketId) -> dict[str, Any]:
    await visible_ticket(request, caller, ticket_id)
    ticket = await ticket_store(request).close_ticket(ticket_id, caller.id)
    if ticket is None:
        raise ApiError(404, NOT_FOUND)
    return ticket.public()


def _allowed(caller: Caller) -> list[str] | None:
    return sorted(caller.assistants) if caller.assistants is not None else None


def _summary(ticket: Ticket) -> dict[str, Any]:
    shown = ticket.public()
    shown.pop("transcript")
    shown.pop("messages")
    return shown
