"""Who was told about an escalation and what the staff did with it (issue 33): notices,
claims across replicas, the staff's take/answer/close. SQLite and PostgreSQL."""

from __future__ import annotations

from datetime import timedelta

import pytest
from tests.casino_host import test_storage_support as support
from tests.casino_host.test_storage_support import NOW, PHONE

from frontdesk.assistants.casino_host.storage import Store

casino = support.casino
database_url = support.database_url
postgres_server = support.postgres_server
postgres_url = support.postgres_url
store = support.store

SECOND, MINUTE = timedelta(seconds=1), timedelta(minutes=1)


@pytest.fixture
def escalation(store: Store, casino: str):
    guest = store.get_or_create_guest(casino, PHONE, now=NOW)[0]
    thread = store.open_or_resume_conversation(casino, guest, NOW).thread_id
    store.record_inbound(casino, "SM1", thread_id=thread, text="get me a person", now=NOW)
    made, _ = store.create_escalation(casino, guest, severity="P0", trigger_reason="r",
                                      trigger_source="s", thread_id=thread, now=NOW)  # fmt: skip
    return made


def test_a_new_escalation_is_untold_and_the_turn_has_a_grace_to_tell_it(escalation):
    assert escalation.notified_level == 0 and escalation.notice_failures == 0
    assert escalation.next_notice_at == NOW + 30 * SECOND


def test_a_failed_notice_is_kept_with_its_retry_and_a_success_clears_it(store, casino, escalation):
    eid = escalation.escalation_id
    failed = store.record_notice(casino, eid, level=1, accepted=False, detail="email failed: X",
                                 retry_at=NOW + MINUTE, now=NOW)  # fmt: skip
    assert (failed.notified_level, failed.notice_failures) == (0, 1)
    assert failed.notice_error == "email failed: X" and failed.next_notice_at == NOW + MINUTE
    told = store.record_notice(casino, eid, level=1, accepted=True, detail="email ok", now=NOW)
    assert (told.notified_level, told.notice_failures, told.notice_error) == (1, 0, None)
    assert told.next_notice_at is None and told.reminded_level == 0
    reminded = store.record_notice(casino, eid, level=1, accepted=True, reminder=True, now=NOW)
    assert reminded.reminded_level == 1
    events = [e.event for e in store.audit_entries(casino, limit=5)]
    assert events[:3] == ["escalation_notified", "escalation_notified", "escalation_notice_failed"]


def test_one_claim_at_a_time_and_none_once_a_person_has_it(store, casino, escalation):
    eid, seen = escalation.escalation_id, (1, 0, 0)
    later = NOW + MINUTE
    assert store.claim_notice(casino, eid, seen=seen, until=later + MINUTE, now=later)
    assert not store.claim_notice(casino, eid, seen=seen, until=later + MINUTE, now=later)
    assert store.claim_notice(casino, eid, seen=seen, until=later + 3 * MINUTE,
                              now=later + 2 * MINUTE)  # fmt: skip
    store.acknowledge(casino, eid, by="ana", now=later)
    assert not store.claim_notice(casino, eid, seen=seen, until=later + 9 * MINUTE,
                                  now=later + 8 * MINUTE)  # fmt: skip


def test_a_replica_that_saw_the_escalation_before_it_was_told_claims_nothing(
    store, casino, escalation
):
    """Replica A claims, sends and records; replica B, which read the escalation before, must
    not send it again once A's record has cleared the claim."""
    eid, seen = escalation.escalation_id, (1, 0, 0)
    later = NOW + MINUTE
    assert store.claim_notice(casino, eid, seen=seen, until=later + MINUTE, now=later)
    store.record_notice(casino, eid, level=1, accepted=True, now=later)
    assert not store.claim_notice(casino, eid, seen=seen, until=later + MINUTE, now=later)


def test_a_person_answering_holds_the_bot_and_closing_lets_it_answer(store, casino, escalation):
    eid = escalation.escalation_id
    held = store.hold_for_person(casino, eid, by="Ana (key:desk)", until=NOW + 60 * MINUTE,
                                 now=NOW + MINUTE)  # fmt: skip
    assert held.acknowledged and held.acknowledged_by == "Ana (key:desk)"
    assert held.paused_until == NOW + 60 * MINUTE
    assert store.active_pause(casino, escalation.guest_uuid, NOW + 45 * MINUTE) is not None
    assert [e.escalation_id for e in store.open_escalations(casino)] == [eid]
    closed = store.close_escalation(casino, eid, by="Ana", now=NOW + 2 * MINUTE)
    again = store.close_escalation(casino, eid, by="Bo", now=NOW + 3 * MINUTE)
    assert closed.closed_at == NOW + 2 * MINUTE and again.closed_by == "Ana"
    assert store.active_pause(casino, escalation.guest_uuid, NOW + 5 * MINUTE) is None
    assert store.open_escalations(casino) == [] and store.unacknowledged_escalations(casino) == []


def test_the_unacknowledged_come_first_then_by_severity(store, casino, escalation):
    guest = escalation.guest_uuid
    p2, _ = store.create_escalation(casino, guest, severity="P2", trigger_reason="r",
                                    trigger_source="s", now=NOW)  # fmt: skip
    store.acknowledge(casino, escalation.escalation_id, by="ana", now=NOW)
    assert [e.escalation_id for e in store.open_escalations(casino)] == [
        p2.escalation_id, escalation.escalation_id,
    ]  # fmt: skip


def test_a_reply_is_reworded_only_as_an_outbound_message(store, casino, escalation):
    thread = escalation.thread_id
    reply_id, _ = store.record_outbound(casino, thread_id=thread, text="draft", now=NOW)
    inbound = store.recent_messages(casino, thread, 5)[0]
    store.revise_reply(casino, reply_id, "final", sms_parts=2)
    store.revise_reply(casino, inbound.message_id, "changed", sms_parts=1)
    texts = {m.message_id: (m.text, m.sms_parts) for m in store.recent_messages(casino, thread, 5)}
    assert texts[reply_id] == ("final", 2) and texts[inbound.message_id][0] == "get me a person"
