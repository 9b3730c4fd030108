"""The inbound SMS pipeline behind `POST /sms/inbound/{provider}` (WP1 item 2, C4).

signature -> body and E.164 numbers -> the casino of the receiving number -> idempotency claim
(for STOP, HELP and START, in the keyword's own transaction) -> the host (`HostTurn.answer_sms`,
through the port: keywords, pause, graph, profile) -> the reply, queued in
the durable outbound queue in the transaction that closes the claim, each SMS due after its
human-like delay, then sent through the eligibility gate (`OutboundSender`): a STOP during the
delay cancels it, and a restart still sends it.

Every webhook gets a clear status: 401/400 for a signature that does not hold, 400 for a body
that is not the provider's, 404 for a number no casino texts from, 503 while the database is
away before the claim (the provider retries). After a claim the provider always gets 200: a
turn that fails is answered with the static fallback SMS, never a 500 that would make the
provider send the message again (C4). The reply is sent in the background, so the webhook is
acknowledged without waiting for the delay.
"""

from __future__ import annotations

import asyncio
import logging
import random
import time
from collections.abc import Awaitable, Callable, Coroutine, Mapping
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from typing import Any, TypeVar

from frontdesk.assistants.base import UnknownScope
from frontdesk.assistants.casino_host.channel.acceptance import (
    Webhook,
    WebhookOutcome,
    accept,
    casino_of,
)
from frontdesk.assistants.casino_host.channel.inbound import InboundSms, parse_inbound
from frontdesk.assistants.casino_host.channel.outbound import OutboundSender
from frontdesk.assistants.casino_host.channel.port import HostTurn, HostUnavailable
from frontdesk.assistants.casino_host.channel.providers import SentSms, SMSProvider
from frontdesk.assistants.casino_host.channel.rate_limits import RateLimiter, RateVerdict
from frontdesk.assistants.casino_host.channel.receipts import parse_receipt
from frontdesk.assistants.casino_host.channel.signatures import WebhookSecrets
from frontdesk.assistants.casino_host.channel.simulator import (
    DELIVERY_REPORT_AFTER_S,
    SIMULATED_NOW,
    report_delivery,
)
from frontdesk.assistants.casino_host.channel.timing import delays_for, message_type
from frontdesk.assistants.casino_host.consent.keywords import exempt_from_limits, opts_out
from frontdesk.assistants.casino_host.consent.records import (
    CONSENT_SPEAKER,
    DeliveryClaim,
    DuplicateDelivery,
)
from frontdesk.assistants.casino_host.content import CasinoContent
from frontdesk.assistants.casino_host.storage import (
    OutboundMessage,
    StorageError,
    StorageUnavailable,
    Store,
)
from frontdesk.assistants.casino_host.storage.webhooks import STALE_CLAIM

logger = logging.getLogger(__name__)
T = TypeVar("T")

RELEASE_EVERY_S = 2.0  # how often a claim left by a lost database is retried


@dataclass(frozen=True)
class TurnReply:
    """The host's answer to one inbound SMS: its parts, who answered, whether the turn
    completed (else the static fallback), and the guest (None when the turn failed)."""

    parts: list[str]
    speaker: str
    ok: bool
    guest_uuid: str | None = None
    unrecorded: bool = False  # the database went away: nothing of the turn was recorded


# A reply's queued SMS, each with its delay, and the delays.
Settled = tuple[list[tuple[OutboundMessage, float]], list[float]]


@dataclass
class SmsGateway:
    host: HostTurn  # who answers the guest (the casino host's service)
    provider: SMSProvider  # the one that sends
    outbound: OutboundSender  # the durable queue's sender, and the guests' send locks
    secrets: WebhookSecrets
    limiter: RateLimiter = field(default_factory=RateLimiter)
    clock: Callable[[], float] = time.time
    human_delay: bool = True
    rng: random.Random = field(default_factory=random.Random)
    sleep: Callable[[float], Awaitable[None]] = asyncio.sleep  # tests hold a reply back
    # Where a refused webhook that names no casino is audited (the host's default casino).
    audit_casino: str | None = None
    _sending: set[asyncio.Task[None]] = field(default_factory=set)

    @property
    def store(self) -> Store:
        return self.outbound.store

    @property
    def content(self) -> CasinoContent:
        return self.outbound.content

    def check_casino(self, casino_id: str) -> None:
        """UnknownScope unless the casino is one of this host's."""
        if casino_id not in self.content.casino_ids:
            known = ", ".join(self.content.casino_ids)
            raise UnknownScope(f"no casino {casino_id!r}; the casinos are: {known}")

    async def handle(
        self, provider: str, url: str, headers: Mapping[str, str], raw: bytes
    ) -> WebhookOutcome:
        accepted = await self._accept(Webhook(provider, url, headers, raw), parse_inbound,
                                      lambda sms: (sms.recipient, "receiving", sms.sender))  # fmt: skip
        if isinstance(accepted, WebhookOutcome):
            return accepted
        sms, casino_id = accepted
        claim: DeliveryClaim | None = None
        keyword = exempt_from_limits(sms.text)
        verdict = (
            await self._rate_limit(casino_id, sms.sender, keyword=keyword) if keyword else None
        )
        if verdict is not None and verdict.allowed:
            # STOP, HELP, START: claimed in the keyword's own transaction, so that its claim,
            # intake, consent write and reply are one commit (the keyword path's speed).
            claim = DeliveryClaim(lambda: self.store.claim_webhook(casino_id, sms.key).claimed)
        else:
            try:
                taken = await asyncio.to_thread(self.store.claim_webhook, casino_id, sms.key)
            except StorageUnavailable:
                return WebhookOutcome(503, {"error": "storage unavailable; retry"})
            if not taken.claimed:
                return WebhookOutcome(200, {"status": "duplicate"})
            verdict = verdict or await self._rate_limit(casino_id, sms.sender, keyword=False)
            if not verdict.allowed:
                # T14: no reply, and a 200 so that the provider does not send it again. The
                # audit log keeps that it came (de-identified), so it is not silently lost.
                logger.warning("sms rate limited (%s window): no reply", verdict.limited_by)
                await self._record_limited(casino_id, sms, verdict)
                await self._finish(provider, casino_id, sms.key, ok=True)
                return WebhookOutcome(200, {"status": "rate_limited"})
        now = SIMULATED_NOW.get() or self.host.now()  # the clock the turn runs at
        try:
            if opts_out(sms.text):
                # A STOP's write and a send to the same guest never interleave: once the STOP
                # is acknowledged, nothing more goes out (a send under way finishes first).
                async with self.outbound.locks.hold(casino_id, sms.sender):
                    reply, settled = await self._answer(casino_id, sms, now, claim)
            else:
                reply, settled = await self._answer(casino_id, sms, now, claim)
        except DuplicateDelivery:
            return WebhookOutcome(200, {"status": "duplicate"})
        held = claim is None or claim.held  # else the turn's transaction rolled back its claim
        if reply.unrecorded:
            # The database went away during the turn: nothing of it was recorded (its
            # transactions rolled back), so the message is not acknowledged. The provider
            # sends it again, and its claim is released as soon as the database answers.
            if held:
                self._track(self._release_claim(casino_id, sms.key))
            return WebhookOutcome(503, {"error": "storage unavailable; nothing was recorded, "
                                                 "send it again"})  # fmt: skip
        if reply.ok and settled:  # a keyword: settled in its own transaction
            queued, delays = settled[0]
        else:
            delays = self._delays(reply.parts)
            queued = await self._settle(casino_id, sms, reply, delays, now=now, claim=not held)
        if queued:
            self._send_later(queued, sms.sender, now)
        # `outbound_ids`: the queued SMS, for whoever follows them (the phone simulator).
        return WebhookOutcome(200, {"status": "processed", "replies": reply.parts,
                                    "delays_s": [round(d, 2) for d in delays],
                                    "outbound_ids": [m.outbound_id for m, _ in queued]})  # fmt: skip

    async def handle_receipt(
        self, provider: str, url: str, headers: Mapping[str, str], raw: bytes
    ) -> WebhookOutcome:
        """A provider's delivery report (T16): signed like its inbound webhooks."""
        accepted = await self._accept(Webhook(provider, url, headers, raw), parse_receipt,
                                      lambda report: (report.sender, "sending", ""))  # fmt: skip
        if isinstance(accepted, WebhookOutcome):
            return accepted
        report, casino_id = accepted
        if report.outcome not in ("delivered", "failed"):
            return WebhookOutcome(200, {"status": "noted", "outcome": report.outcome})
        try:
            status = await asyncio.to_thread(
                self.store.delivery_receipt, casino_id, report.message_id,
                delivered=report.outcome == "delivered", error=report.error,
            )  # fmt: skip
        except StorageUnavailable:
            return WebhookOutcome(503, {"error": "storage unavailable; retry"})
        return WebhookOutcome(200, {"status": status or "unknown_message"})

    async def _release_claim(self, casino_id: str, key: str) -> None:
        """Mark a claim failed once the database answers again, so that the provider's next
        delivery is processed (else it would wait out the claim's 300 s)."""
        for _ in range(int(STALE_CLAIM.total_seconds() / RELEASE_EVERY_S)):
            try:
                await asyncio.to_thread(self.store.finish_webhook, casino_id, key, ok=False)
                return
            except StorageError:
                await asyncio.sleep(RELEASE_EVERY_S)
        logger.error("sms webhook claim left to expire: the database stayed away")

    async def _finish(self, provider: str, casino_id: str, key: str, *, ok: bool) -> None:
        try:
            await asyncio.to_thread(self.store.finish_webhook, casino_id, key, ok=ok)
        except StorageError:
            logger.error("sms webhook %s: its claim could not be closed", provider)

    async def _record_limited(self, casino_id: str, sms: InboundSms, verdict: RateVerdict) -> None:
        details = {"window": verdict.limited_by, "provider": sms.provider,
                   "message_length": len(sms.text)}  # fmt: skip
        try:
            await asyncio.to_thread(self.store.audit, casino_id, "sms_rate_limited",
                                    phone_hash=self.store.phone_hash(casino_id, sms.sender),
                                    details=details)  # fmt: skip
        except StorageError:
            logger.error("sms rate limited: the audit row could not be written")

    async def _rate_limit(self, casino_id: str, sender: str, *, keyword: bool) -> RateVerdict:
        guest = f"{casino_id}:{self.store.phone_hash(casino_id, sender)}"  # no number in Redis
        if keyword:
            return await self.limiter.ahit([("keyword", guest)])
        windows = [("guest", guest), ("casino", casino_id), ("global", "all")]
        return await self.limiter.ahit(windows)

    def casino_of(self, number: str) -> str | None:
        return casino_of(self.content, number)

    async def drain(self) -> None:
        """Wait for the replies still being sent, and the simulator's delivery reports (tests,
        the CLI, shutdown)."""
        while self._sending:
            await asyncio.gather(*list(self._sending), return_exceptions=True)

    # -- steps -------------------------------------------------------------------------------

    async def _accept(self, webhook: Webhook, parse: Callable[[str, bytes], T],
                      numbers: Callable[[T], tuple[str, str, str]]) -> tuple[T, str] | WebhookOutcome:  # fmt: skip
        return await accept(webhook, secrets=self.secrets, content=self.content,
                            store=self.store, now=self.clock(), parse=parse, numbers=numbers,
                            audit_casino=self.audit_casino or self.content.casino_ids[0])  # fmt: skip

    async def _answer(self, casino_id: str, sms: InboundSms, now: datetime,
                      claim: DeliveryClaim | None) -> tuple[TurnReply, list[Settled]]:  # fmt: skip
        """The host's reply, and what a keyword's own transaction settled (its queued reply
        and delays; empty for a turn of the graph, which is settled after it). `claim`: the
        delivery's claim, when the turn takes it (DuplicateDelivery when it is not granted)."""
        settled: list[Settled] = []

        def settle_keyword(parts: list[str], guest_uuid: str) -> None:
            reply = TurnReply(parts, CONSENT_SPEAKER, ok=True, guest_uuid=guest_uuid)
            delays = self._delays(parts)
            settled.append((self._settle_now(casino_id, sms, reply, delays, now), delays))

        try:
            answer = await self.host.answer_sms(
                casino_id, sms.sender, sms.text, delivery_id=sms.key,
                settle_keyword=settle_keyword, claim=claim,
            )  # fmt: skip
        except DuplicateDelivery:
            raise
        except HostUnavailable:
            logger.error("sms turn: the database went away; the provider will send it again")
            return TurnReply([], "", ok=False, unrecorded=True), []
        except Exception:
            # C4: the guest still gets an answer, and the provider a 200; the claim is marked
            # failed, so a redelivery runs the turn again.
            logger.exception("sms turn failed; the static fallback is sent")
            return TurnReply(list(self.host.fallback_sms(casino_id)), "fallback", ok=False), []
        return TurnReply(list(answer.parts), answer.speaker, ok=True,
                         guest_uuid=answer.guest_uuid), settled  # fmt: skip

    def _delays(self, parts: list[str]) -> list[float]:
        """Item 33: how long the host "types" before each SMS (0 when the delay is off)."""
        if not parts or not self.human_delay:
            return [0.0] * len(parts)
        kind = message_type(parts[0], first_of_session=False, sensitive=False,
                            sms_parts=len(parts))  # fmt: skip
        return delays_for(parts, kind, self.rng)

    async def _settle(self, casino_id: str, sms: InboundSms, reply: TurnReply,
                      delays: list[float], *, now: datetime,
                      claim: bool = False) -> list[tuple[OutboundMessage, float]]:  # fmt: skip
        try:
            return await asyncio.to_thread(self._settle_now, casino_id, sms, reply, delays, now,
                                           claim=claim)  # fmt: skip
        except StorageError:
            # The claim stays open: after its 300 s the provider's retry is processed again.
            logger.error("sms webhook %s: its reply could not be queued", sms.provider)
            return []

    def _settle_now(self, casino_id: str, sms: InboundSms, reply: TurnReply,
                    delays: list[float], now: datetime, *,
                    claim: bool = False) -> list[tuple[OutboundMessage, float]]:  # fmt: skip
        """The reply queued and the claim closed, in one transaction (the keyword turn's own,
        when it runs inside it): a reply is queued once and only for a delivery that is marked
        done (a failed turn's fallback has its own key, so the provider's retry still gets the
        real answer). `claim`: the delivery is claimed here first (a keyword whose own
        transaction, claim included, failed); nothing is queued when another delivery has it."""
        # A keyword's confirmation goes out even to a guest who has just opted out (it is the
        # STOP's own); every other reply is gated at send time.
        kind = "keyword" if reply.speaker == CONSENT_SPEAKER else "reply"
        key = f"{'reply' if reply.ok else 'fallback'}:{sms.key}"
        with self.store.transaction():
            if claim and not self.store.claim_webhook(casino_id, sms.key).claimed:
                return []
            queued = []
            if reply.parts:
                queued = self.outbound.queue_reply(
                    casino_id, sms.sender, reply.parts, delays, kind=kind, key=key, now=now,
                    guest_uuid=reply.guest_uuid,
                )  # fmt: skip
            self.store.finish_webhook(casino_id, sms.key, ok=reply.ok)
        return queued

    def _send_later(self, queued: list[tuple[OutboundMessage, float]], number: str,
                    now: datetime) -> None:  # fmt: skip
        self._track(self._send(queued, number, now))

    def report_simulated_delivery(self, sms: SentSms) -> None:
        """The simulator's `on_sent`: like a carrier's, its delivery report comes a moment
        later, signed, through the status webhook (`handle_receipt`)."""
        self._track(self._report_later(sms))

    async def _report_later(self, sms: SentSms) -> None:
        await asyncio.sleep(DELIVERY_REPORT_AFTER_S)
        outcome = await report_delivery(self, sms)
        if outcome.status != 200:
            logger.warning("simulated delivery report refused: %s", outcome.body.get("error"))

    def _track(self, work: Coroutine[Any, Any, None]) -> None:
        task = asyncio.get_running_loop().create_task(work)
        self._sending.add(task)
        task.add_done_callback(self._sending.discard)

    async def _send(self, queued: list[tuple[OutboundMessage, float]], number: str,
                    now: datetime) -> None:  # fmt: skip
        """Each SMS of the reply when it is due, through the gate. After one that is not sent
        (the gate, a STOP, a failed send, which is retried at 5 s) the rest keep their lease:
        the sweep sends them when it runs out, a minute on, after the retry, in order."""
        for message, delay in queued:
            if delay > 0:
                await self.sleep(delay)
            now += timedelta(seconds=delay)
            try:
                report = await self.outbound.deliver(message, now, number=number)
            except StorageError:
                logger.error("sms reply: the queue is unreachable; the sweep sends it later")
                return
            if not report.sent:
                return

    async def opted_out(self, casino_id: str, number: str) -> bool:
        """Whether the guest texting from `number` said STOP; checked again at send time
        (item 29): a STOP during the delay wins."""

        def read() -> bool:
            guest = self.store.find_guest(casino_id, number)
            if guest is None:
                return False
            return bool(self.store.load_profile(casino_id, guest).profile.consent.get("suppressed"))

        try:
            return await asyncio.to_thread(read)
        except StorageError:
            return True  # fail closed: nothing is sent that might go to an opted-out guest
