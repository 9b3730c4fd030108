"""Sending through the gate (WP1 items 27-37, 40, T5, T8, T9, T16, T17): every SMS the host
sends (a reply, an outbound message, a campaign, a retry) is queued in the database, then sent
by `OutboundSender.send_due`, which runs `check_message_eligibility` again right before the
provider is called, under the guest's send lock, so a STOP acknowledged meanwhile wins.
Replies are queued as `reply` and gated as transactional (they answer the guest), the keyword
confirmations as `keyword` (sent even to a guest who has just said STOP: it is the STOP's own
confirmation).

With a limiter, each sending number sends at most 1 SMS a second and a casino 50 a second: a
send waits for its slot (before it takes the guest's lock, so a STOP never waits for it), and
after PACE_WAIT_S goes back to the queue.

    sender = OutboundSender(store, content, provider, settings)
    report = await sender.send("mohegan_sun", "+18605550142", "marketing", text, key=…, now=now)
    queued = await sender.queue(…, not_before=later)   # sent by the sweep (`send_due`) when due

The first SMS of a session (none sent or received in the last 48 h) says that an AI is texting.
A failed send is retried at 5/25/125 s (storage.outbound), and each retry is gated again.
"""

from __future__ import annotations

import asyncio
import logging
import time as clock
from collections.abc import AsyncIterator, Sequence
from contextlib import asynccontextmanager
from dataclasses import dataclass, field, replace
from datetime import datetime, time, timedelta
from typing import Any
from weakref import WeakValueDictionary

from frontdesk.assistants.casino_host.channel.carrier_risk import check_for_carriers
from frontdesk.assistants.casino_host.channel.eligibility import (
    CasinoSending,
    GuestStanding,
    MessageEligibility,
    check_message_eligibility,
)
from frontdesk.assistants.casino_host.channel.providers import SMSProvider
from frontdesk.assistants.casino_host.channel.rate_limits import RateLimiter
from frontdesk.assistants.casino_host.content import CasinoContent
from frontdesk.assistants.casino_host.profile import GuestProfile, guest_zone
from frontdesk.assistants.casino_host.sms.disclosure import with_ai_disclosure, with_opt_out_line
from frontdesk.assistants.casino_host.storage import SESSION_IDLE_LIMIT, OutboundMessage, Store

logger = logging.getLogger(__name__)

PACE_POLL_S = 0.2  # how often a send waiting for the sending number's slot asks again
PACE_WAIT_S = 20.0  # then the message is queued again (its lease is 60 s)


@dataclass(frozen=True)
class SendReport:
    outbound_id: str
    sent: bool
    status: str  # sent | blocked | cancelled | queued (to be retried) | dead
    reason: str | None = None  # the gate's rule (quiet_hours, stop_status, …) or the error
    detail: str | None = None
    body: str | None = None  # as queued (carrier-safe wording, the AI tag)

    def as_dict(self) -> dict[str, Any]:
        return {"sent": self.sent, "reason": self.reason, "status": self.status,
                "detail": self.detail, "outbound_id": self.outbound_id}  # fmt: skip


class CarrierRiskTooHigh(ValueError):
    """Item 46: still spam-like after rewording; never queued."""

    def __init__(self, score: float, reasons: tuple[str, ...]):
        super().__init__(
            f"carriers would likely filter it (risk {score:.2f}: {', '.join(reasons)})"
        )
        self.score = score


class GuestLocks:
    """One lock per guest number in this process: a send (from its gate check to the
    provider's answer) and a STOP's write never interleave."""

    def __init__(self) -> None:
        self._locks: WeakValueDictionary[tuple[str, str], asyncio.Lock] = WeakValueDictionary()

    @asynccontextmanager
    async def hold(self, casino_id: str, key: str) -> AsyncIterator[None]:
        lock = self._locks.get((casino_id, key))
        if lock is None:
            lock = asyncio.Lock()
            self._locks[(casino_id, key)] = lock
        async with lock:
            yield


def guest_standing(store: Store, casino_id: str, guest_uuid: str, *, day_start: datetime,
                   now: datetime, promotional: bool = True) -> GuestStanding:  # fmt: skip
    """What the gate reads about the guest, from the consent record (X4), the store's pause
    and sending history. `known`: the guest has texted the casino. A transactional message
    (`promotional=False`) is gated on the consent record alone: the pause, the daily cap and
    the cooldown are promotional rules, so their reads are skipped (a reply is sent sooner)."""
    profile = store.load_profile(casino_id, guest_uuid).profile
    consent = profile.consent
    # Quiet hours in the guest's own zone when the profile has one (what they said wins over
    # their area code); without one the gate checks every zone of the area code.
    zone = guest_zone(profile, now)
    sent_today, sent_this_month, first_sent, pause = 0, 0, None, None
    if promotional:
        sent_today, first_sent, _last = store.sending_history(casino_id, guest_uuid, day_start)
        month_start = day_start.replace(day=1)
        sent_this_month = store.promotional_sent(casino_id, guest_uuid, month_start)
        pause = store.active_pause(casino_id, guest_uuid, now)
    return GuestStanding(
        known=profile.engagement.last_message_at is not None,
        sms_opt_in=bool(consent.get("sms_opt_in")),
        written_consent=consent.get("consent_type") == "express_written",
        marketing_consent=bool(consent.get("marketing_consent")),
        suppressed=bool(consent.get("suppressed")),
        timezone=zone.zone if zone is not None else None,
        self_excluded=bool(consent.get("self_excluded")),
        pending_deletion=bool(consent.get("deletion_requested_at")),
        paused_until=pause.paused_until if pause is not None else None,
        sent_today=sent_today,
        sent_this_month=sent_this_month,
        last_inbound_at=profile.engagement.last_message_at,
        first_outbound_at=first_sent,
        reassigned=bool(consent.get("number_reassigned")),
    )


def first_of_session(profile: GuestProfile, last_sent: datetime | None, now: datetime) -> bool:
    """Item 14, T17: nothing sent or received within the session idle limit (48 h)."""
    recent = [t for t in (profile.engagement.last_message_at, last_sent) if t is not None]
    return not recent or now - max(recent) >= SESSION_IDLE_LIMIT


@dataclass
class OutboundSender:
    store: Store
    content: CasinoContent  # the casinos
    provider: SMSProvider
    safe_mode: bool = False
    locks: GuestLocks = field(default_factory=GuestLocks)
    limiter: RateLimiter | None = None  # the send rates (item 40); None: unpaced

    def casino_sending(self, casino_id: str) -> CasinoSending:
        casino = self.content.catalog(casino_id).casino
        return CasinoSending(timezone=casino.timezone, state=casino.state,
                             campaign_status=casino.sms_campaign_status,
                             safe_mode=self.safe_mode)  # fmt: skip

    def check(self, casino_id: str, number: str, kind: str, now: datetime, *,
              guest_uuid: str | None = None) -> MessageEligibility:  # fmt: skip
        """The gate for `number` now (a campaign's dry run, and every send, which names the
        guest it queued for)."""
        guest_uuid = guest_uuid or self.store.find_guest(casino_id, number)
        if guest_uuid is None:
            standing = GuestStanding(known=False)
        else:
            local = self.content.catalog(casino_id).local(now)
            day_start = datetime.combine(local.date(), time(0), tzinfo=local.tzinfo)
            standing = guest_standing(self.store, casino_id, guest_uuid, day_start=day_start,
                                      now=now, promotional=kind != "transactional")  # fmt: skip
        return check_message_eligibility(
            number, standing, self.casino_sending(casino_id), kind, now
        )

    async def send(self, casino_id: str, number: str, kind: str, text: str, *, key: str,
                   now: datetime, campaign_id: str | None = None) -> SendReport:  # fmt: skip
        """Queue one SMS and send it now, through the gate. It is queued already leased to
        this caller, so the sweep never sends it too; a key queued before is not sent again.
        Raises CarrierRiskTooHigh (nothing queued)."""
        message, new = await asyncio.to_thread(self._queue, casino_id, number, kind, text, key,
                                               now, campaign_id, None, True)  # fmt: skip
        if not new:
            return SendReport(message.outbound_id, False, message.status,
                              f"already {message.status}", "queued before under this key",
                              message.body)  # fmt: skip
        return replace(await self.deliver(message, now), body=message.body)

    async def queue(self, casino_id: str, number: str, kind: str, text: str, *, key: str,
                    now: datetime, campaign_id: str | None = None,
                    not_before: datetime | None = None) -> OutboundMessage:  # fmt: skip
        """Queue one SMS for the sweep (`send_due`) to send when due."""
        message, _new = await asyncio.to_thread(self._queue, casino_id, number, kind, text, key,
                                                now, campaign_id, not_before, False)  # fmt: skip
        return message

    def _queue(self, casino_id: str, number: str, kind: str, text: str, key: str, now: datetime,
               campaign_id: str | None, not_before: datetime | None,
               leased: bool) -> tuple[OutboundMessage, bool]:  # fmt: skip
        guest_uuid, _created = self.store.get_or_create_guest(casino_id, number, now=now)
        if kind != "keyword":
            risk = check_for_carriers(text)
            if not risk.sendable:
                raise CarrierRiskTooHigh(risk.risk.score, risk.risk.reasons)
            text = risk.text
            profile = self.store.load_profile(casino_id, guest_uuid).profile
            language = profile.prompt_view(now).language or "en"
            _sent, first_sent, last_sent = self.store.sending_history(casino_id, guest_uuid, now)
            if first_of_session(profile, last_sent, now):
                text = with_ai_disclosure(text, language)
            if first_sent is None:  # the first SMS the guest ever gets from the host
                text = with_opt_out_line(text, language)
        return self.store.enqueue_outbound(
            casino_id, guest_uuid, kind, text, key=key, not_before=not_before,
            campaign_id=campaign_id, now=now, leased=leased,
        )  # fmt: skip

    def queue_reply(self, casino_id: str, number: str, parts: Sequence[str],
                    delays: Sequence[float], *, kind: str, key: str, now: datetime,
                    guest_uuid: str | None = None) -> list[tuple[OutboundMessage, float]]:  # fmt: skip
        """A turn's reply: one SMS a part, each due after its human-like delay and leased to
        the caller, who sends it then (`deliver`); a STOP meanwhile cancels it, and if the
        caller dies the sweep sends it when the lease runs out. Returns the parts queued now
        (not those queued before under the key), each with its delay.
        Blocking: the gateway runs it in the transaction that closes the webhook's claim."""
        if guest_uuid is None:  # the turn failed before it knew the guest
            guest_uuid, _created = self.store.get_or_create_guest(casino_id, number, now=now)
        queued, due = [], now
        for index, (part, delay) in enumerate(zip(parts, delays, strict=True)):
            due += timedelta(seconds=delay)
            message, new = self.store.enqueue_outbound(
                casino_id, guest_uuid, kind, part, key=f"{key}:{index}", not_before=due,
                now=now, leased=True,
            )  # fmt: skip
            if new:
                queued.append((message, delay))
        return queued

    async def send_due(self, casino_id: str, now: datetime, *,
                       only: list[str] | None = None) -> list[SendReport]:  # fmt: skip
        """Send what is due in the casino (or just `only`), each gated again at send time."""
        claimed = await asyncio.to_thread(
            self.store.claim_due_outbound, casino_id, now, outbound_ids=only
        )
        return [await self.deliver(message, now) for message in claimed]

    async def deliver(self, message: OutboundMessage, now: datetime, *,
                      number: str | None = None) -> SendReport:  # fmt: skip
        """Send one leased message through the gate. `number`: the guest's, when the caller
        has it (a reply to the guest's SMS), else read from the store."""
        casino_id, outbound_id = message.casino_id, message.outbound_id
        sms_number = self.content.catalog(casino_id).casino.sms_number or ""
        if number is None:
            number = await asyncio.to_thread(self.store.guest_phone, casino_id, message.guest_uuid)
        if self.limiter is not None:
            # Gated before it waits for a slot too: a campaign's blocked messages take none.
            blocked = await self._blocked(message, number, now)
            if blocked is not None:
                return blocked
            waited = await self._slot(casino_id, sms_number)
            if waited is None:
                until = now + timedelta(seconds=PACE_WAIT_S)
                await asyncio.to_thread(self.store.outbound_deferred, casino_id, outbound_id,
                                        until=until, now=now)  # fmt: skip
                return SendReport(outbound_id, False, "deferred", "send_rate",
                                  "the sending number is at its rate; queued again")  # fmt: skip
            now += timedelta(seconds=waited)
        async with self.locks.hold(casino_id, number):
            blocked = await self._blocked(message, number, now)
            if blocked is not None:
                return blocked
            if not await asyncio.to_thread(self.store.still_leased, casino_id, outbound_id,
                                           message.attempts):  # fmt: skip
                return SendReport(outbound_id, False, "cancelled", "lease_lost",
                                  "cancelled by the guest's STOP, or sent by another worker "
                                  "after this one's lease ran out")  # fmt: skip
            result = await self.provider.send(number, sms_number, message.body, casino_id)
        if result.success:
            await asyncio.to_thread(self.store.outbound_sent, casino_id, outbound_id,
                                    provider=result.provider,
                                    provider_message_id=result.message_id, now=now)  # fmt: skip
            return SendReport(outbound_id, True, "sent", body=message.body)
        status = await asyncio.to_thread(self.store.outbound_failed, casino_id, outbound_id,
                                         error=result.error or "send failed", now=now)  # fmt: skip
        logger.warning("sms send failed (%s): %s; now %s", result.provider, result.error, status)
        return SendReport(outbound_id, False, status, "send_failed", result.error)

    async def _blocked(self, message: OutboundMessage, number: str,
                       now: datetime) -> SendReport | None:  # fmt: skip
        """The gate at send time; a refused message is kept as blocked, with the rule."""
        if message.kind == "keyword":
            return None
        casino_id, outbound_id = message.casino_id, message.outbound_id
        kind = "transactional" if message.kind == "reply" else message.kind
        verdict = await asyncio.to_thread(self.check, casino_id, number, kind, now,
                                          guest_uuid=message.guest_uuid)  # fmt: skip
        if verdict.eligible:
            return None
        await asyncio.to_thread(self.store.outbound_blocked, casino_id, outbound_id,
                                reason=verdict.blocked_by or "blocked", now=now)  # fmt: skip
        return SendReport(outbound_id, False, "blocked", verdict.blocked_by, verdict.reason)

    async def _slot(self, casino_id: str, sms_number: str) -> float | None:
        """Wait for a send slot of the casino's number: the seconds waited, or None when none
        came within PACE_WAIT_S."""
        if self.limiter is None:
            return 0.0
        windows = [("number", f"{casino_id}:{sms_number}"), ("burst", casino_id)]
        started = clock.monotonic()
        while True:
            verdict = await self.limiter.ahit(windows)
            waited = clock.monotonic() - started
            if verdict.allowed:
                return waited
            if waited >= PACE_WAIT_S:
                return None
            await asyncio.sleep(PACE_POLL_S)

    async def sweep(self, now: datetime) -> list[SendReport]:
        """Send what is due in every casino: retries, and what a restart left queued."""
        reports: list[SendReport] = []
        for casino_id in self.content.casino_ids:
            reports.extend(await self.send_due(casino_id, now))
        return reports
