"""Escalations (payload, 30-minute pause, acknowledgement, levels) and a database that is down.
SQLite and PostgreSQL."""

from __future__ import annotations

import inspect
from datetime import timedelta
from pathlib import Path

import pytest
from tests.casino_host import test_storage_support as support
from tests.casino_host.test_storage_support import NOW, PEPPER, PHONE

from frontdesk.assistants.casino_host.profile import GuestProfile
from frontdesk.assistants.casino_host.storage import (
    ConversationNotFound,
    NotFound,
    StorageUnavailable,
    Store,
    log_hash,
    upgrade,
)

# The shared fixtures (SQLite and PostgreSQL), used here by name.
casino = support.casino
database_url = support.database_url
postgres_server = support.postgres_server
postgres_url = support.postgres_url
store = support.store

MINUTE = timedelta(minutes=1)


@pytest.fixture
def guest(store: Store, casino: str) -> str:
    return store.get_or_create_guest(casino, PHONE, now=NOW)[0]


def escalate(store: Store, casino: str, guest: str, **extra):
    values = {
        "severity": "P1",
        "trigger_reason": "explicit_request",
        "trigger_source": "router",
        "now": NOW,
    }
    return store.create_escalation(casino, guest, **(values | extra))


def test_an_escalation_carries_the_item_38_payload_and_is_audited(
    store: Store, casino: str, guest: str
):
    thread = store.open_or_resume_conversation(casino, guest, NOW).thread_id
    for i in range(4):
        store.record_inbound(casino, f"SM{i}", thread_id=thread, text=f"q{i}", now=NOW)
        store.record_outbound(casino, thread_id=thread, text=f"a{i}", now=NOW)
    escalation, created = escalate(
        store, casino, guest, thread_id=thread, guest_profile_summary={"name": "Maria"}
    )
    assert created
    payload = escalation.payload()
    assert set(payload) == {
        "escalation_id",
        "casino_id",
        "guest_id_hash",
        "guest_last_four",
        "severity",
        "trigger_reason",
        "trigger_source",
        "conversation_excerpt",
        "guest_profile_summary",
        "escalation_level",
        "timestamp",
        "acknowledged",
        "acknowledged_by",
        "acknowledged_at",
    }
    assert payload["guest_id_hash"] == log_hash(store.phone_hash(casino, PHONE))
    assert payload["guest_last_four"] == PHONE[-4:]
    assert [turn["text"] for turn in payload["conversation_excerpt"]] == [
        "q1",
        "a1",
        "q2",
        "a2",
        "q3",
        "a3",
    ]
    assert (payload["severity"], payload["escalation_level"], payload["acknowledged"]) == (
        "P1",
        1,
        False,
    )
    (entry,) = store.audit_entries(casino, event="escalation_triggered")
    assert entry.guest_hash == payload["guest_id_hash"]
    assert entry.details["escalation_id"] == escalation.escalation_id


def test_the_pause_window_is_30_minutes_from_the_escalation(store: Store, casino: str, guest: str):
    assert store.active_pause(casino, guest, NOW) is None
    escalation, _ = escalate(store, casino, guest)
    assert store.active_pause(casino, guest, NOW - MINUTE) is None
    for moment in (NOW, NOW + 29 * MINUTE, NOW + 30 * MINUTE - timedelta(seconds=1)):
        paused = store.active_pause(casino, guest, moment)
        assert paused is not None and paused.escalation_id == escalation.escalation_id
    assert store.active_pause(casino, guest, NOW + 30 * MINUTE) is None
    # Acknowledging does not end the pause: a human has the guest now.
    store.acknowledge(casino, escalation.escalation_id, by="host@casino", now=NOW + MINUTE)
    assert store.active_pause(casino, guest, NOW + 2 * MINUTE) is not None
    # A second escalation extends it.
    later, _ = escalate(store, casino, guest, now=NOW + 20 * MINUTE)
    assert store.active_pause(casino, guest, NOW + 40 * MINUTE).escalation_id == later.escalation_id


def test_one_source_message_escalates_once(store: Store, casino: str, guest: str):
    thread = store.open_or_resume_conversation(casino, guest, NOW).thread_id
    source, _ = store.record_inbound(casino, "SM1", thread_id=thread, text="real host", now=NOW)
    first, created = escalate(store, casino, guest, source_message_id=source)
    again, created_again = escalate(store, casino, guest, source_message_id=source)
    assert (created, created_again) == (True, False)
    assert again.escalation_id == first.escalation_id
    assert len(store.audit_entries(casino, event="escalation_triggered")) == 1


def test_an_escalation_names_only_the_guests_own_thread_and_message(
    store: Store, casino: str, guest: str
):
    other, _ = store.get_or_create_guest(casino, "+12035550003", now=NOW)
    thread = store.open_or_resume_conversation(casino, other, NOW).thread_id
    message, _ = store.record_inbound(casino, "SM1", thread_id=thread, text="x", now=NOW)
    with pytest.raises(ConversationNotFound):
        escalate(store, casino, guest, thread_id=thread)
    with pytest.raises(NotFound):
        escalate(store, casino, guest, source_message_id=message)
    assert store.active_pause(casino, guest, NOW) is None


def test_acknowledgement_and_levels(store: Store, casino: str, guest: str):
    escalation, _ = escalate(store, casino, guest, severity="P0")
    assert [
        e.escalation_level
        for e in (
            store.raise_level(casino, escalation.escalation_id, now=NOW + i * MINUTE)
            for i in range(3)
        )
    ] == [2, 3, 3]
    assert len(store.audit_entries(casino, event="escalation_auto_escalated")) == 2
    assert [e.escalation_id for e in store.unacknowledged_escalations(casino)] == [
        escalation.escalation_id
    ]
    acked = store.acknowledge(casino, escalation.escalation_id, by="ana", now=NOW + 9 * MINUTE)
    again = store.acknowledge(casino, escalation.escalation_id, by="bob", now=NOW + 10 * MINUTE)
    assert (
        (again.acknowledged_by, again.acknowledged_at)
        == ("ana", NOW + 9 * MINUTE)
        == (
            acked.acknowledged_by,
            acked.acknowledged_at,
        )
    )
    assert store.unacknowledged_escalations(casino) == []
    with pytest.raises(ValueError, match="severity"):
        escalate(store, casino, guest, severity="SEV1")


# --- the database is down ------------------------------------------------------------------
def _down_url(kind: str, tmp_path: Path) -> tuple[str, str]:
    """A database that cannot be reached, and the text its name shows in messages."""
    if kind == "sqlite":
        blocker = tmp_path / "not-a-folder"
        blocker.write_text("a file where the database folder should be")
        return f"sqlite:///{blocker / 'casino_host.sqlite3'}", str(blocker)
    # Nothing listens on 5499; the password must never appear in a message.
    return "postgresql://bob:s3cret@127.0.0.1:5499/casino_down", "127.0.0.1:5499/casino_down"


def _call_arguments() -> dict[str, dict]:
    c, g, t = "casino-1", "guest-1", "casino-1:guest-1:session-1"
    return {
        "put_casino": {"name": "C", "timezone": "UTC"},
        "get_casino": {},
        "find_guest": {"e164": PHONE},
        "get_or_create_guest": {"e164": PHONE},
        "guest_phone": {"guest_uuid": g},
        "load_profile": {"guest_uuid": g},
        "save_profile": {"profile": _profile(g, c), "expected_version": 1},
        "open_or_resume_conversation": {"guest_uuid": g},
        "get_conversation": {"thread_id": t},
        "archive_idle_conversations": {},
        "set_summary": {"thread_id": t, "summary": "s"},
        "record_inbound": {"external_id": "SM1", "thread_id": t, "text": "hi"},
        "record_outbound": {"thread_id": t, "text": "hello"},
        "set_delivery_status": {"provider_message_id": "p", "status": "delivered"},
        "recent_messages": {"thread_id": t},
        "create_offer": {
            "guest_uuid": g,
            "source_message_id": 1,
            "tier": "dining",
            "value_usd": 10,
            "text": "t",
        },
        "set_offer_status": {"offer_id": "o", "status": "accepted"},
        "list_offers": {"guest_uuid": g},
        "offer_history": {"guest_uuid": g},
        "put_promotion": {"promotion_id": "p", "title": "t", "valid_from": NOW, "valid_until": NOW},
        "active_promotions": {},
        "create_escalation": {
            "guest_uuid": g,
            "severity": "P1",
            "trigger_reason": "r",
            "trigger_source": "s",
        },
        "active_pause": {"guest_uuid": g},
        "acknowledge": {"escalation_id": "e", "by": "ana"},
        "raise_level": {"escalation_id": "e"},
        "unacknowledged_escalations": {},
        "record_notice": {"escalation_id": "e", "level": 1, "accepted": True},
        "claim_notice": {"escalation_id": "e", "seen": (1, 0, 0), "until": NOW},
        "open_escalations": {},
        "escalation": {"escalation_id": "e"},
        "hold_for_person": {"escalation_id": "e", "by": "ana", "until": NOW},
        "close_escalation": {"escalation_id": "e", "by": "ana"},
        "revise_reply": {"message_id": 1, "text": "t", "sms_parts": 1},
        "audit": {"event": "sms_inbound", "details": {"message_length": 3}},
        "audit_entries": {},
        "find_outbound": {"idempotency_key": "reply:1"},
        "claim_webhook": {"key": "telnyx:1"},
        "finish_webhook": {"key": "telnyx:1", "ok": True},
        "purge_expired_webhooks": {},
        "append_consent_event": {"guest_uuid": g, "payload": {"action": "opt_out"}},
        "consent_chain": {"guest_uuid": g},
        "consent_chain_length": {"guest_uuid": g},
        "verify_consent_chain": {"guest_uuid": g},
        "enqueue_outbound": {"guest_uuid": g, "kind": "marketing", "body": "hi", "key": "k"},
        "claim_due_outbound": {},
        "still_leased": {"outbound_id": "o", "attempt": 1},
        "outbound_sent": {"outbound_id": "o", "provider": "simulator", "provider_message_id": "p"},
        "outbound_blocked": {"outbound_id": "o", "reason": "quiet_hours"},
        "outbound_failed": {"outbound_id": "o", "error": "timeout"},
        "outbound_deferred": {"outbound_id": "o", "until": NOW},
        "delivery_receipt": {"provider_message_id": "p", "delivered": True},
        "cancel_outbound": {"guest_uuid": g, "reason": "STOP"},
        "outbound_for": {},
        "sending_history": {"guest_uuid": g, "since": NOW},
        "promotional_sent": {"guest_uuid": g, "since": NOW},
        "consent_chain_guests": {},
        "guest_messages": {"guest_uuid": g},
    }


def _profile(guest_uuid: str, casino_id: str) -> GuestProfile:
    return GuestProfile(guest_uuid=guest_uuid, created_at=NOW, casino_id=casino_id)


@pytest.mark.parametrize("kind", ["sqlite", pytest.param("postgresql", marks=pytest.mark.postgres)])
def test_every_call_on_a_database_that_is_down_raises_storage_unavailable(kind, tmp_path: Path):
    url, shown = _down_url(kind, tmp_path)
    with pytest.raises(StorageUnavailable) as at_start:
        Store(url, phone_pepper=PEPPER)
    with pytest.raises(StorageUnavailable):
        upgrade(url)
    assert shown in str(at_start.value) and "s3cret" not in str(at_start.value)

    store = Store(url, phone_pepper=PEPPER, migrate=False)
    calls = _call_arguments()
    database_methods = {
        name
        for name, _ in inspect.getmembers(Store, inspect.isfunction)
        if not name.startswith("_") and name not in {"close", "phone_hash"}
    }
    # a new method needs a line here
    assert set(calls) | {"upgrade", "transaction"} == database_methods
    with pytest.raises(StorageUnavailable):
        store.upgrade()
    with pytest.raises(StorageUnavailable), store.transaction():
        store.find_guest("casino-1", "+12035551234")
    for name, arguments in calls.items():
        with pytest.raises(StorageUnavailable) as raised:
            getattr(store, name)("casino-1", **arguments)
        message = str(raised.value)
        assert shown in message and "s3cret" not in message, name
        assert raised.value.__cause__ is not None
    store.close()
