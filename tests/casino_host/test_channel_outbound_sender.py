"""The outbound sender (WP1 items 34-37, T5, T16): each send and each retry runs the gate
again, a failed send is retried and then dead-lettered, and a STOP before a retry leaves it
nothing to send. A provider that fails on demand stands in for a carrier."""

from __future__ import annotations

import asyncio
import dataclasses
import time
from datetime import UTC, datetime, timedelta

import pytest

from frontdesk.assistants.casino_host.channel import outbound as outbound_module
from frontdesk.assistants.casino_host.channel.outbound import OutboundSender
from frontdesk.assistants.casino_host.channel.providers import SendResult, SimulatorProvider
from frontdesk.assistants.casino_host.channel.rate_limits import RateLimiter
from frontdesk.assistants.casino_host.content import CasinoContent
from frontdesk.assistants.casino_host.storage import LEASE, RETRY_DELAYS, Store

CASINO = "mohegan_sun"
PHONE = "+18605550190"
NOON = datetime(2026, 11, 25, 17, 0, tzinfo=UTC)  # 12:00 in New York


@dataclasses.dataclass
class FlakyProvider(SimulatorProvider):
    failures: int = 0  # how many sends fail before one goes through

    async def send(self, to: str, from_: str, body: str, casino_id: str) -> SendResult:
        if self.failures > 0:
            self.failures -= 1
            return SendResult(False, None, self.name, 0, error="carrier timeout")
        return await super().send(to, from_, body, casino_id)


@pytest.fixture
def sender(store: Store) -> OutboundSender:
    return OutboundSender(store, CasinoContent.load(), FlakyProvider())


def opted_in(store: Store) -> str:
    guest, _ = store.get_or_create_guest(CASINO, PHONE, now=NOON)
    loaded = store.load_profile(CASINO, guest)
    loaded.profile.consent.update(sms_opt_in=True)
    loaded.profile.record_guest_message(substantive=True, now=NOON - timedelta(days=1))
    store.save_profile(CASINO, loaded.profile, loaded.version, now=NOON)
    return guest


async def test_a_failed_send_is_retried_gated_then_dead_lettered(store, sender):
    opted_in(store)
    sender.provider.failures = 10
    await sender.queue(CASINO, PHONE, "informational", "Buffet reopens Friday",
                                key="k", now=NOON)  # fmt: skip
    when = NOON
    [first] = await sender.send_due(CASINO, when)
    assert (first.sent, first.status) == (False, "queued")
    for delay in RETRY_DELAYS:
        assert await sender.send_due(CASINO, when + delay - timedelta(seconds=1)) == []
        when += delay
        [report] = await sender.send_due(CASINO, when)
    assert report.status == "dead"
    assert [m.status for m in store.outbound_for(CASINO, statuses=("dead",))] == ["dead"]
    assert sender.provider.outbox == []


async def test_a_retry_runs_the_gate_again(store, sender):
    opted_in(store)
    sender.provider.failures = 1
    await sender.queue(CASINO, PHONE, "informational", "Buffet reopens Friday", key="k",
                       now=NOON)  # fmt: skip
    await sender.send_due(CASINO, NOON)
    # The retry falls at 21:00 in New York: quiet hours, so it is blocked, not sent.
    night = datetime(2026, 11, 26, 2, 0, tzinfo=UTC)
    [retry] = await sender.send_due(CASINO, night)
    assert (retry.sent, retry.status, retry.reason) == (False, "blocked", "quiet_hours")
    assert sender.provider.outbox == []


async def test_a_stop_before_the_retry_cancels_it(store, sender):  # T16, T5
    guest = opted_in(store)
    sender.provider.failures = 1
    await sender.queue(CASINO, PHONE, "informational", "Buffet reopens Friday", key="k",
                       now=NOON)  # fmt: skip
    await sender.send_due(CASINO, NOON)
    assert store.cancel_outbound(CASINO, guest, reason="STOP", now=NOON) == 1
    assert await sender.send_due(CASINO, NOON + timedelta(minutes=5)) == []
    assert sender.provider.outbox == []


async def test_a_send_that_goes_through_is_recorded_once(store, sender):
    opted_in(store)
    queued = await sender.queue(CASINO, PHONE, "informational", "Buffet reopens Friday",
                                key="k", now=NOON)  # fmt: skip
    again = await sender.queue(CASINO, PHONE, "informational", "Buffet reopens Friday",
                               key="k", now=NOON)  # fmt: skip
    assert again.outbound_id == queued.outbound_id
    [report] = await sender.send_due(CASINO, NOON)
    assert report.sent and await sender.send_due(CASINO, NOON + timedelta(hours=1)) == []
    [sent] = sender.provider.outbox
    assert sent.to == PHONE and sent.from_ == "+18605550150"
    # Texted yesterday: the session is open (no AI tag); the first SMS ever: the opt-out line.
    assert sent.body == "Buffet reopens Friday. Reply STOP to opt out."


async def test_a_send_queued_to_be_sent_now_is_never_sent_by_the_sweep_too(store, sender):
    opted_in(store)
    report = await sender.send(CASINO, PHONE, "informational", "Buffet reopens Friday",
                               key="now", now=NOON)  # fmt: skip
    assert report.sent and report.body == "Buffet reopens Friday. Reply STOP to opt out."
    again = await sender.send(CASINO, PHONE, "informational", "Buffet reopens Friday",
                              key="now", now=NOON)  # fmt: skip
    assert (again.sent, again.reason) == (False, "already sent")
    assert await sender.send_due(CASINO, NOON + timedelta(hours=1)) == []
    assert len(sender.provider.outbox) == 1


async def test_a_send_leased_by_a_worker_that_died_is_sent_by_the_sweep_once(store, sender):
    guest = opted_in(store)
    [(message, _delay)] = await asyncio.to_thread(
        sender.queue_reply, CASINO, PHONE, ["The buffet opens at 11"], [2.0],
        kind="transactional", key="reply:SIM1", now=NOON,
    )  # fmt: skip
    assert message.status == "sending"  # leased to the gateway that queued it, which dies
    assert await sender.send_due(CASINO, NOON + timedelta(seconds=30)) == []  # still leased
    [report] = await sender.send_due(CASINO, NOON + LEASE + timedelta(seconds=3))
    assert report.sent and [m.status for m in store.outbound_for(CASINO, guest)] == ["sent"]
    assert await sender.send_due(CASINO, NOON + timedelta(hours=1)) == []


@dataclasses.dataclass
class ClockedProvider(SimulatorProvider):
    sent_at: list[float] = dataclasses.field(default_factory=list)

    async def send(self, to: str, from_: str, body: str, casino_id: str) -> SendResult:
        self.sent_at.append(time.monotonic())
        return await super().send(to, from_, body, casino_id)


async def test_the_casino_number_sends_one_sms_a_second(store):  # item 40
    sender = OutboundSender(store, CasinoContent.load(), ClockedProvider(), limiter=RateLimiter())
    opted_in(store)
    reports = await asyncio.gather(*(
        sender.send(CASINO, PHONE, "transactional", f"Note {i}", key=f"paced-{i}", now=NOON)
        for i in range(3)
    ))  # fmt: skip
    assert all(r.sent for r in reports)
    first, second, third = sender.provider.sent_at
    assert second - first >= 0.9 and third - second >= 0.9


async def test_a_send_that_waits_too_long_for_its_slot_goes_back_to_the_queue(store, monkeypatch):
    limiter = RateLimiter()
    sender = OutboundSender(store, CasinoContent.load(), SimulatorProvider(), limiter=limiter)
    guest = opted_in(store)
    monkeypatch.setattr(outbound_module, "PACE_WAIT_S", 0.3)
    limiter.limits["number"] = 0  # the number's rate is spent
    report = await sender.send(CASINO, PHONE, "transactional", "Table ready", key="w", now=NOON)
    assert (report.sent, report.status, report.reason) == (False, "deferred", "send_rate")
    [message] = store.outbound_for(CASINO, guest)
    assert (message.status, message.attempts) == ("queued", 0)  # no attempt spent
    limiter.limits["number"] = 1
    [sent] = await sender.send_due(CASINO, NOON + timedelta(seconds=30))
    assert sent.sent and sender.provider.outbox[0].body.endswith(
        "Table ready. Reply STOP to opt out."
    )  # the first SMS ever
