"""The staff desk: alerts about escalations, the sweep that keeps telling people until one
acknowledges, and what a host does from the staff page (acknowledge, answer by SMS, close).

    desk = StaffDesk(store, content, notifier, staff_url=".../casino_host/staff")
    accepted = await desk.alert_new(escalation, now)   # the turn, before it answers the guest
    await desk.sweep(now)                              # every minute, on every replica

A failed alert never loses the escalation: it is stored first, then told, and the sweep tries
again until someone accepts it. Only an accepted alert lets the guest be told "alerted".
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from datetime import datetime, timedelta

from frontdesk.assistants.casino_host.channel.outbound import OutboundSender, SendReport
from frontdesk.assistants.casino_host.content import CasinoContent
from frontdesk.assistants.casino_host.staff.alerts import escalation_alert
from frontdesk.assistants.casino_host.staff.sla import NoticeDue, notice_due, retry_delay
from frontdesk.assistants.casino_host.storage import BOT_PAUSE, Escalation, Store
from frontdesk.notify import Notifier

logger = logging.getLogger(__name__)

STAFF_PAGE = "/casino_host/staff"  # where staff open the desk (alerts link here)
SWEEP_EVERY_S = 30.0  # the first retry of a failed alert is due 30 s after it
CLAIM = timedelta(seconds=60)  # one sweep's hold on an alert while it is being sent
PERSON = "person"  # who said a staff member's SMS, in the conversation's record

# A person's answer, told to the conversation's memory (the model reads it next turn).
PersonSaid = Callable[[str, str, str], Awaitable[None]]  # (casino_id, thread_id, text)


class NoSuchGuestThread(LookupError):
    """An escalation with no conversation to answer in."""


@dataclass
class StaffDesk:
    store: Store
    content: CasinoContent
    notifier: Notifier
    staff_url: str
    sender: OutboundSender | None = None  # the SMS channel's, set once the gateway exists
    person_said: PersonSaid | None = None

    # -- telling people ---------------------------------------------------------------------

    async def alert_new(self, escalation: Escalation, now: datetime) -> bool:
        """Tell level 1 of a new escalation; True when someone accepted it (or already had)."""
        if escalation.notified_level >= 1:  # a retried turn: told the first time
            return True
        done = await self._tell(escalation, NoticeDue("alert", 1), now)
        return done.notified_level >= 1

    async def sweep(self, now: datetime) -> list[tuple[Escalation, NoticeDue]]:
        """Every casino's unacknowledged escalations: retry, remind, go up the chain. Returns
        what was sent (accepted or not). Safe on several replicas at once."""
        done = []
        for casino_id in self.content.casino_ids:
            waiting = await asyncio.to_thread(self.store.unacknowledged_escalations, casino_id)
            for escalation in waiting:
                due = notice_due(escalation, now)
                seen = (escalation.escalation_level, escalation.notified_level,
                        escalation.reminded_level)  # fmt: skip
                if due is None or not await asyncio.to_thread(
                    self.store.claim_notice, casino_id, escalation.escalation_id, seen=seen,
                    until=now + CLAIM, now=now,
                ):  # fmt: skip
                    continue
                if due.kind == "raise":
                    escalation = await asyncio.to_thread(
                        self.store.raise_level, casino_id, escalation.escalation_id, now=now
                    )
                done.append((await self._tell(escalation, due, now), due))
        return done

    async def _tell(self, escalation: Escalation, due: NoticeDue, now: datetime) -> Escalation:
        casino = self.content.catalog(escalation.casino_id).casino
        repeat = 1 if due.kind == "remind" else 0
        alert = escalation_alert(escalation, casino=casino, staff_url=self.staff_url,
                                 level=due.level, repeat=repeat)  # fmt: skip
        delivery = await self.notifier.send(alert)
        return await asyncio.to_thread(
            self.store.record_notice, escalation.casino_id, escalation.escalation_id,
            level=due.level, accepted=delivery.accepted, reminder=due.kind == "remind",
            detail=delivery.summary(),
            retry_at=now + retry_delay(escalation.notice_failures + 1), now=now,
        )  # fmt: skip

    # -- the staff page ---------------------------------------------------------------------

    async def open_escalations(self, casino_id: str) -> list[Escalation]:
        return await asyncio.to_thread(self.store.open_escalations, casino_id)

    async def transcript(self, escalation: Escalation, n: int = 20) -> list[dict[str, str]]:
        """The conversation as staff may read it: inbound text as stored (redacted), the
        host's and the staff's replies."""
        if escalation.thread_id is None:
            return [dict(turn) for turn in escalation.conversation_excerpt]
        messages = await asyncio.to_thread(self.store.recent_messages, escalation.casino_id,
                                           escalation.thread_id, n)  # fmt: skip
        return [{"direction": m.direction, "text": m.text, "agent": m.agent or "",
                 "at": m.created_at.isoformat()} for m in messages]  # fmt: skip

    async def acknowledge(self, casino_id: str, escalation_id: str, by: str,
                          now: datetime) -> Escalation:  # fmt: skip
        return await asyncio.to_thread(self.store.acknowledge, casino_id, escalation_id,
                                       by=by, now=now)  # fmt: skip

    async def close(self, casino_id: str, escalation_id: str, by: str, now: datetime) -> Escalation:
        return await asyncio.to_thread(self.store.close_escalation, casino_id, escalation_id,
                                       by=by, now=now)  # fmt: skip

    async def reply(self, casino_id: str, escalation_id: str, text: str, *, by: str, key: str,
                    now: datetime) -> SendReport:  # fmt: skip
        """A host's SMS to the guest, through the sending gate (a guest who said STOP gets
        nothing). Sent, it joins the conversation and holds the bot back for the pause; the
        same `key` twice sends once."""
        if self.sender is None:
            raise NoSuchGuestThread("the casino host has no SMS channel to answer through")
        escalation = await asyncio.to_thread(self.store.escalation, casino_id, escalation_id)
        if escalation.thread_id is None:
            raise NoSuchGuestThread(f"escalation {escalation_id} has no conversation")
        number = await asyncio.to_thread(self.store.guest_phone, casino_id, escalation.guest_uuid)
        idempotency = f"staff:{escalation_id}:{key}"
        report = await self.sender.send(casino_id, number, "transactional", text,
                                        key=idempotency, now=now)  # fmt: skip
        if report.sent or report.status == "queued":
            await asyncio.to_thread(self._record_reply, escalation, report.body or text,
                                    idempotency, by, now)  # fmt: skip
            if self.person_said is not None:
                await self.person_said(casino_id, escalation.thread_id, report.body or text)
        return report

    def _record_reply(self, escalation: Escalation, text: str, key: str, by: str,
                      now: datetime) -> None:  # fmt: skip
        assert escalation.thread_id is not None
        with self.store.transaction():
            self.store.record_outbound(escalation.casino_id, thread_id=escalation.thread_id,
                                       text=text, agent=PERSON, idempotency_key=key,
                                       now=now)  # fmt: skip
            self.store.hold_for_person(escalation.casino_id, escalation.escalation_id, by=by,
                                       until=now + BOT_PAUSE, now=now)  # fmt: skip


async def sweep_forever(desk: StaffDesk, clock: Callable[[], datetime]) -> None:
    """Item 39 while the service runs: every 30 s, alerts that failed are tried again, the
    slow are reminded and the late go up the chain. A failed sweep is logged and tried again."""
    while True:
        await asyncio.sleep(SWEEP_EVERY_S)
        try:
            await desk.sweep(clock())
        except Exception:
            logger.exception("escalation sweep failed")
