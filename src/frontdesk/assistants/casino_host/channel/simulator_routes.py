"""The phone simulator page and its API (issue 19): text the host as any guest number, see what
would be sent (each SMS with its encoding, segments and delay), send STOP/HELP/START, try an
outbound message through the gate, jump the clock to try quiet hours, and read the guest's
consent chain and audit rows.

    GET  /sms/simulator                        the page (web/simulator.html)
    POST /sms/simulator/text      {casino, number, text, at?}
    POST /sms/simulator/outbound  {casino, number, type, text, at?}
    GET  /sms/simulator/guest?casino=…&number=…

It runs only while the simulator sends (FRONTDESK_CASINO_HOST_SMS_PROVIDER=simulator): nothing
here can text a real phone. Everything it shows is what the store holds, de-identified as
stored (the audit rows carry a 16-hex hash of the number, never the number).
"""

from __future__ import annotations

import asyncio
import uuid
from datetime import UTC, datetime
from pathlib import Path
from typing import Annotated, Any, Literal

from fastapi import APIRouter, Depends, Query, Request
from fastapi.responses import FileResponse
from pydantic import BaseModel, ConfigDict, Field

from frontdesk.assistants.base import UnknownScope
from frontdesk.assistants.casino_host.channel.deps import ThisGateway
from frontdesk.assistants.casino_host.channel.gateway import SmsGateway
from frontdesk.assistants.casino_host.channel.simulator import (
    SimulatorOff,
    require_simulator,
    simulated_at,
    text_the_host,
)
from frontdesk.assistants.casino_host.sms.gsm import classify_encoding
from frontdesk.assistants.casino_host.storage import Store
from frontdesk.plugin_api import (
    ApiError,
    caller_of,
    error_responses,
    require_assistant,
)

WEB = Path(__file__).resolve().parents[1] / "web"
ASSETS = {"simulator.js": "text/javascript", "simulator.css": "text/css"}
E164 = r"^\+[1-9]\d{7,14}$"

router = APIRouter(prefix="/sms/simulator", tags=["sms simulator"])


class TextIn(BaseModel):
    model_config = ConfigDict(extra="forbid")
    casino: str = Field(min_length=1, max_length=64)
    number: str = Field(pattern=E164, description="The guest's number, E.164")
    text: str = Field(min_length=1, max_length=1600)
    at: datetime | None = Field(
        None, description="The clock for this message; without an offset, the casino's own"
    )


class OutboundIn(TextIn):
    type: Literal["transactional", "informational", "marketing"]


def _simulator(request: Request, gateway: ThisGateway) -> SmsGateway:
    try:  # where the simulator does not exist, its routes are not found, signed in or not
        require_simulator(gateway)
    except SimulatorOff as exc:
        raise ApiError(404, str(exc)) from None
    require_assistant(caller_of(request), "casino_host")
    return gateway


Simulator = Annotated[SmsGateway, Depends(_simulator)]


def _check(gateway: SmsGateway, casino: str, at: datetime | None) -> datetime | None:
    """The casino, checked; `at` as an aware time (a time without an offset is the casino's
    own wall clock, as the page's clock jump sends it)."""
    try:
        gateway.check_casino(casino)
    except UnknownScope as exc:
        raise ApiError(404, str(exc)) from None
    if at is not None and at.tzinfo is None:
        return at.replace(tzinfo=gateway.content.catalog(casino).casino.tz)
    return at


def _sms(body: str, delay: float | None = None, outbound_id: str | None = None) -> dict[str, Any]:
    encoding, segments = classify_encoding(body)
    return {"body": body, "encoding": encoding, "segments": segments, "delay_s": delay,
            "outbound_id": outbound_id}  # fmt: skip


@router.get("", include_in_schema=False)
async def page(_: Simulator) -> FileResponse:
    return FileResponse(WEB / "simulator.html", media_type="text/html",
                        headers={"Cache-Control": "no-cache"})  # fmt: skip


@router.get("/simulator.js", include_in_schema=False)
async def script(_: Simulator) -> FileResponse:
    return _asset("simulator.js")


@router.get("/simulator.css", include_in_schema=False)
async def styles(_: Simulator) -> FileResponse:
    return _asset("simulator.css")


def _asset(name: str) -> FileResponse:
    return FileResponse(WEB / name, media_type=ASSETS[name], headers={"Cache-Control": "no-cache"})


ERRORS = error_responses(
    400,
    401,
    403,
    404,
    422,
    503,
    _400="A body that is not JSON",
    _401="A forged or expired session, or no credentials where they are required",
    _403="An API key that may not use the casino host",
    _404="An unknown casino, or the simulator is off (a real provider sends)",
    _503="The casino host's database is not reachable: try again shortly",
)


@router.post(
    "/text",
    tags=["chat"],  # it runs a turn: the per-client rate limit and the turn queue hold it
    summary="Text the host as a guest (simulator): what it would send back.",
    responses=ERRORS,
)
async def text(body: TextIn, gateway: Simulator) -> dict[str, Any]:
    at = _check(gateway, body.casino, body.at)
    with simulated_at(at):
        outcome = await text_the_host(gateway, body.casino, body.number, body.text)
    if outcome.status != 200:
        raise ApiError(outcome.status, str(outcome.body.get("error") or "refused"))
    replies = outcome.body.get("replies") or []
    delays = outcome.body.get("delays_s") or [None] * len(replies)
    # Each reply's queued SMS, so that the phone shows what became of it (a STOP during its
    # delay cancels it); none when the reply was queued before (a repeated delivery).
    ids = outcome.body.get("outbound_ids") or []
    ids = ids if len(ids) == len(replies) else [None] * len(replies)
    return {
        "status": outcome.body.get("status"),
        "replies": [_sms(*reply) for reply in zip(replies, delays, ids, strict=False)],
        "opted_in": not await gateway.opted_out(body.casino, body.number),
    }


@router.post(
    "/outbound",
    tags=["chat"],  # it may send an SMS: rate limited per client like a turn
    summary="Send an outbound SMS through the eligibility gate (simulator).",
    responses=ERRORS,
)
async def outbound(body: OutboundIn, gateway: Simulator) -> dict[str, Any]:
    from frontdesk.assistants.casino_host.channel.outbound import CarrierRiskTooHigh

    now = _check(gateway, body.casino, body.at) or datetime.now(UTC)
    sender = gateway.outbound
    try:
        report = await sender.send(body.casino, body.number, body.type, body.text,
                                   key=f"simulator:{uuid.uuid4()}", now=now)  # fmt: skip
    except CarrierRiskTooHigh as exc:
        return {"sent": False, "reason": "carrier_risk", "detail": str(exc), "sms": None}
    return {"sent": report.sent, "reason": report.reason, "detail": report.detail,
            "sms": _sms(report.body or "", outbound_id=report.outbound_id)}  # fmt: skip


@router.get(
    "/guest",
    summary="A simulated guest's consent record, consent chain and audit rows.",
    responses=ERRORS,
)
async def guest(
    gateway: Simulator,
    casino: Annotated[str, Query(min_length=1, max_length=64)],
    number: Annotated[str, Query(pattern=E164)],
) -> dict[str, Any]:
    _check(gateway, casino, None)
    return await asyncio.to_thread(_guest_view, gateway.store, casino, number)


def _guest_view(store: Store, casino: str, number: str) -> dict[str, Any]:
    guest_uuid = store.find_guest(casino, number)
    if guest_uuid is None:
        return {"known": False, "consent": {}, "chain": None, "audit": [], "outbound": []}
    consent = store.load_profile(casino, guest_uuid).profile.consent
    events = store.consent_chain(casino, guest_uuid)
    verified = store.verify_consent_chain(casino, guest_uuid).as_dict()
    return {
        "known": True,
        "consent": {
            key: consent.get(key)
            for key in ("sms_opt_in", "marketing_consent", "suppressed", "consent_type")
        },
        "chain": {
            **verified,
            "events": [
                {
                    "position": e.chain_position,
                    "event": e.payload.get("event_type"),
                    "action": e.payload.get("action"),
                    "method": e.payload.get("method"),
                    "at": e.created_at.isoformat(),
                    "hash": e.content_hash[:12],
                }
                for e in events
            ],
        },
        "audit": [
            {"event": a.event, "at": a.created_at.isoformat(), "details": a.details}
            for a in store.audit_entries(casino, guest_uuid=guest_uuid, limit=50)
        ],
        "outbound": [m.as_dict() for m in store.outbound_for(casino, guest_uuid)][-20:],
    }
