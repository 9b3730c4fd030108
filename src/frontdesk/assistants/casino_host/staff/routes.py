"""The staff page and its API (issue 33): the open escalations with their timers and
de-identified transcripts; a host acknowledges one, answers the guest by SMS (through the
sending gate) and closes it.

    GET  /casino_host/staff                                   the page (web/staff.html)
    GET  /casino_host/staff/escalations?casino=…
    POST /casino_host/staff/escalations/{id}/ack    {casino, by}
    POST /casino_host/staff/escalations/{id}/reply  {casino, by, text, key}
    POST /casino_host/staff/escalations/{id}/close  {casino, by}

Staff only: an API key that may use the casino host, or, with FRONTDESK_AUTH_MODE=open, the
local operator. A guest's web session is refused. What is recorded as done is who the key is,
plus the name the host typed.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from datetime import UTC, datetime
from pathlib import Path
from typing import Annotated, Any

from fastapi import APIRouter, Depends, Query, Request
from fastapi import Path as PathParam
from fastapi.responses import FileResponse
from pydantic import BaseModel, ConfigDict, Field

from frontdesk.assistants.base import AssistantService
from frontdesk.assistants.casino_host.staff.alerts import reason_text
from frontdesk.assistants.casino_host.staff.desk import STAFF_PAGE, NoSuchGuestThread, StaffDesk
from frontdesk.assistants.casino_host.staff.sla import ack_deadline
from frontdesk.assistants.casino_host.storage import Escalation, EscalationNotFound, StorageError
from frontdesk.plugin_api import (
    ApiError,
    Caller,
    caller_of,
    error_responses,
    require_assistant,
    service_for,
)

# Taking or closing an escalation: (casino, escalation, who, when) -> the escalation after.
StaffAction = Callable[[str, str, str, datetime], Awaitable[Escalation]]
WEB = Path(__file__).resolve().parents[1] / "web"
ASSETS = {"staff.js": "text/javascript", "staff.css": "text/css"}

router = APIRouter(prefix=STAFF_PAGE, tags=["staff"])
EscalationId = Annotated[str, PathParam(pattern=r"^esc_[0-9a-f]{32}$")]
CasinoQuery = Annotated[str, Query(min_length=1, max_length=64)]


class Action(BaseModel):
    model_config = ConfigDict(extra="forbid")
    casino: str = Field(min_length=1, max_length=64)
    by: str = Field(min_length=1, max_length=80, description="The host's name, as shown to staff")


class ReplyIn(Action):
    text: str = Field(min_length=1, max_length=640, description="At most 4 SMS segments")
    key: str = Field(pattern=r"^[A-Za-z0-9_-]{8,64}$",
                     description="The page's id for this answer: sent twice, it goes once")  # fmt: skip


def staff_caller(request: Request) -> Caller:
    """A key holder allowed the casino host, or the local operator in open mode."""
    caller = caller_of(request)  # 401: a bad key, or no credentials where they are required
    if caller.kind == "web":
        raise ApiError(403, "The staff page needs a staff API key, not a guest's session.")
    require_assistant(caller, "casino_host")
    return caller


def this_desk(
    service: Annotated[AssistantService, Depends(service_for("casino_host"))],
) -> StaffDesk:
    desk = getattr(service, "staff", None)
    if not isinstance(desk, StaffDesk):
        raise ApiError(503, "The casino host's staff desk is not running.")
    return desk


Staff = Annotated[Caller, Depends(staff_caller)]
Desk = Annotated[StaffDesk, Depends(this_desk)]
ERRORS = error_responses(
    400, 401, 403, 404, 409, 422, 429, 503,
    _400="A body that is not JSON",
    _409="The escalation has no conversation to answer in",
    _403="No staff API key (a guest's web session is not staff)",
    _404="An unknown casino or escalation",
    _503="The casino host's database is not reachable: try again shortly",
)  # fmt: skip


def _check_casino(desk: StaffDesk, casino: str) -> None:
    if casino not in desk.content.casino_ids:
        raise ApiError(404, f"Unknown casino '{casino[:64]}'.")


def _who(caller: Caller, by: str) -> str:
    return f"{by} ({caller.owner})"


async def _view(desk: StaffDesk, escalation: Escalation, now: datetime) -> dict[str, Any]:
    deadline = ack_deadline(escalation)
    return {
        **escalation.payload(),
        "reason": reason_text(escalation.trigger_reason),
        "notified_level": escalation.notified_level,
        "notice_error": escalation.notice_error,
        "deadline": deadline.isoformat() if deadline else None,
        "seconds_left": round((deadline - now).total_seconds()) if deadline else None,
        "paused_until": escalation.paused_until.isoformat(),
        "transcript": await desk.transcript(escalation),
    }


def _storage_errors(exc: StorageError) -> ApiError:
    if isinstance(exc, EscalationNotFound):
        return ApiError(404, "Escalation not found.")
    return ApiError(503, "The casino host's database is not reachable: try again shortly.")


@router.get("", include_in_schema=False)
async def page() -> FileResponse:
    return FileResponse(WEB / "staff.html", media_type="text/html",
                        headers={"Cache-Control": "no-cache"})  # fmt: skip


@router.get("/staff.js", include_in_schema=False)
async def script() -> FileResponse:
    return FileResponse(WEB / "staff.js", media_type=ASSETS["staff.js"])


@router.get("/staff.css", include_in_schema=False)
async def styles() -> FileResponse:
    return FileResponse(WEB / "staff.css", media_type=ASSETS["staff.css"])


@router.get("/escalations", summary="The open escalations, with timers and transcripts.",
            responses=ERRORS)  # fmt: skip
async def open_escalations(_: Staff, desk: Desk, casino: CasinoQuery) -> dict[str, Any]:
    _check_casino(desk, casino)
    now = datetime.now(UTC)
    try:
        found = await desk.open_escalations(casino)
        return {"casino": casino, "now": now.isoformat(),
                "escalations": [await _view(desk, e, now) for e in found]}  # fmt: skip
    except StorageError as exc:
        raise _storage_errors(exc) from None


@router.post("/escalations/{escalation_id}/ack", summary="Take an escalation.", responses=ERRORS)
async def acknowledge(escalation_id: EscalationId, body: Action, caller: Staff,
                      desk: Desk) -> dict[str, Any]:  # fmt: skip
    return await _act(desk.acknowledge, escalation_id, body, caller, desk)


@router.post("/escalations/{escalation_id}/reply", tags=["chat"], responses=ERRORS,
             summary="Answer the guest by SMS, through the sending gate.")  # fmt: skip
async def reply(escalation_id: EscalationId, body: ReplyIn, caller: Staff,
                desk: Desk) -> dict[str, Any]:  # fmt: skip
    _check_casino(desk, body.casino)
    try:
        report = await desk.reply(body.casino, escalation_id, body.text,
                                  by=_who(caller, body.by), key=body.key,
                                  now=datetime.now(UTC))  # fmt: skip
    except StorageError as exc:
        raise _storage_errors(exc) from None
    except NoSuchGuestThread as exc:
        raise ApiError(409, str(exc)) from None
    return report.as_dict() | {"body": report.body}


@router.post("/escalations/{escalation_id}/close", summary="Close an escalation: the host "
             "answers the guest again.", responses=ERRORS)  # fmt: skip
async def close(escalation_id: EscalationId, body: Action, caller: Staff,
                desk: Desk) -> dict[str, Any]:  # fmt: skip
    return await _act(desk.close, escalation_id, body, caller, desk)


async def _act(action: StaffAction, escalation_id: str, body: Action, caller: Caller,
               desk: StaffDesk) -> dict[str, Any]:  # fmt: skip
    _check_casino(desk, body.casino)
    try:
        done = await action(body.casino, escalation_id, _who(caller, body.by), datetime.now(UTC))
    except StorageError as exc:
        raise _storage_errors(exc) from None
    return done.payload()
