"""Compliance keywords through the service (WP1 items 14-19, T4, T5's second STOP, T7): one
static reply each and no model call, a repeated STOP that changes nothing, silence for a
suppressed guest, and the consent record and audit rows they leave. Issue 19."""

from __future__ import annotations

import pytest
from sqlalchemy import select

from frontdesk.assistants.casino_host.consent.keywords import Keyword
from frontdesk.assistants.casino_host.consent.records import write_consent_reply
from frontdesk.assistants.casino_host.consent.replies import keyword_decision
from frontdesk.assistants.casino_host.records.turns import take_in
from frontdesk.assistants.casino_host.sms.gsm import classify_encoding
from frontdesk.assistants.casino_host.storage.tables import AuditRow

from . import test_service as service_tests
from .test_service import CASINO, CASINO_PHONE, NOW, new_phone

# The service fixtures, used here by name.
built = service_tests.built
host = service_tests.host

pytestmark = pytest.mark.asyncio(loop_scope="module")


def _audit_events(host) -> list[str]:
    """The casino's audit events, oldest first (rows carry a phone hash, not the guest)."""
    with host.store.engine.connect() as conn:
        return list(
            conn.scalars(
                select(AuditRow.event)
                .where(AuditRow.casino_id == CASINO)
                .order_by(AuditRow.audit_id)
            )
        )


async def test_help_is_static_and_changes_nothing(host):  # T7
    phone = new_phone()
    answer = await host.ask("HELP", phone)
    for part in ("Mohegan Sun", "STOP", "Msg&Data rates may apply", CASINO_PHONE):
        assert part in answer.answer
    assert host.brain.calls == []
    assert answer.extra["segments"] <= 2
    assert host.service.store.load_profile(CASINO, answer.extra["guest_uuid"]).profile.consent.get(
        "suppressed"
    ) in (None, False)


async def test_stop_then_stop_again_then_start(host):  # T4, T5's second STOP, item 17
    phone = new_phone()
    stopped = await host.ask("Stop.", phone)
    guest = stopped.extra["guest_uuid"]
    assert stopped.answer.startswith("You've been unsubscribed from Mohegan Sun messages.")
    profile = host.store.load_profile(CASINO, guest).profile
    assert profile.consent["suppressed"] is True
    assert len(profile.consent["consent_revocation_history"]) == 1
    # While suppressed, a question is stored and gets no reply at all.
    silent = await host.ask("What time is dinner?", phone)
    assert silent.answer == "" and silent.extra["sms"] == []
    again = await host.ask("STOP", phone)
    assert again.answer.startswith("You're already unsubscribed")
    profile = host.store.load_profile(CASINO, guest).profile
    assert len(profile.consent["consent_revocation_history"]) == 1  # nothing written
    started = await host.ask("START", phone)
    assert started.answer.startswith("Welcome back!")
    profile = host.store.load_profile(CASINO, guest).profile
    assert profile.consent["suppressed"] is False
    assert [h["action"] for h in profile.consent["consent_revocation_history"]] == [
        "opt_out",
        "opt_in",
    ]
    events = [e for e in _audit_events(host) if e.startswith("consent_")]
    assert events[-2:] == ["consent_revoked", "consent_granted"]
    # T6: the ledger holds the two changes, not the repeated STOP, and verifies.
    chain = host.store.consent_chain(CASINO, guest)
    assert [e.payload["action"] for e in chain] == ["opt_out", "opt_in"]
    assert chain[0].payload["previous_state"]["suppressed"] is False
    assert chain[0].payload["new_state"] == {
        "sms_opt_in": False,
        "marketing_consent": False,
        "suppressed": True,
    }
    assert host.store.verify_consent_chain(CASINO, guest).as_dict()["valid"] is True
    assert host.brain.calls == []


async def test_a_suppressed_guests_yes_resubscribes(host):
    phone = new_phone()
    await host.ask("STOP", phone)
    answer = await host.ask("Sí", phone)
    assert answer.answer.startswith("Bienvenido de nuevo")  # a Spanish keyword, in Spanish
    assert (
        host.store.load_profile(CASINO, answer.extra["guest_uuid"]).profile.consent["suppressed"]
        is False
    )


async def test_a_spanish_stop_is_answered_in_spanish_in_one_gsm7_sms(host):
    answer = await host.ask("Parar", new_phone())
    assert answer.answer.startswith("Listo -- no recibiras mas mensajes de Mohegan Sun.")
    assert classify_encoding(answer.answer) == ("GSM-7", 1)


async def test_privacy_sends_the_link_and_delete_is_recorded(host):
    phone = new_phone()
    privacy = await host.ask("PRIVACY", phone)
    assert "https://mohegansun.com/privacy" in privacy.answer
    deleted = await host.ask("delete", phone)
    assert "deletion request is received" in deleted.answer
    assert "deletion_requested" in _audit_events(host)
    assert host.brain.calls == []


async def test_a_stop_delivered_twice_is_applied_and_answered_once(built):
    service, _ = built
    store = service.store
    phone = new_phone()
    decision = keyword_decision(Keyword.STOP, suppressed=False)
    reply = "You've been unsubscribed."
    for _ in range(2):  # the provider retries the same message
        intake = take_in(store, CASINO, phone, "STOP", "sms:SM-stop-twice", NOW)
        write_consent_reply(store, intake, decision, keyword="stop", reply=reply, now=NOW)
    profile = store.load_profile(CASINO, intake.guest_uuid).profile
    assert len(profile.consent["consent_revocation_history"]) == 1
    outbound = [
        m for m in store.recent_messages(CASINO, intake.thread_id) if m.direction == "outbound"
    ]
    assert [m.text for m in outbound] == [reply]
