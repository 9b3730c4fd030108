"""Conversations and their 48 h sessions, idempotent messages, one offer per source message,
offer history and promotions. SQLite and PostgreSQL."""

from __future__ import annotations

import contextlib
import threading
from datetime import timedelta

import pytest
from tests.casino_host import test_storage_support as support
from tests.casino_host.test_storage_support import NOW, PHONE, count, in_threads, new_casino

from frontdesk.assistants.casino_host.storage import NotFound, Store
from frontdesk.assistants.casino_host.storage.conversations import ConversationStore
from frontdesk.assistants.casino_host.storage.tables import ConversationRow, MessageRow, OfferRow

# The shared fixtures (SQLite and PostgreSQL), used here by name.
casino = support.casino
database_url = support.database_url
postgres_server = support.postgres_server
postgres_url = support.postgres_url
store = support.store

HOUR = timedelta(hours=1)


@pytest.fixture
def guest(store: Store, casino: str) -> str:
    return store.get_or_create_guest(casino, PHONE, now=NOW)[0]


# --- sessions --------------------------------------------------------------------------------
def test_a_conversation_continues_within_48_hours_of_the_last_message(
    store: Store, casino: str, guest: str
):
    first = store.open_or_resume_conversation(casino, guest, NOW)
    assert first.kind == "new_guest" and first.previous is None
    casino_id, guest_uuid, session_uuid = first.thread_id.split(":")
    assert (casino_id, guest_uuid, session_uuid) == (casino, guest, first.conversation.session_uuid)
    store.record_inbound(casino, "SM1", thread_id=first.thread_id, text="hi", now=NOW + 40 * HOUR)
    # 80 h after the start but 40 h after the last message: still the same session.
    later = store.open_or_resume_conversation(casino, guest, NOW + 80 * HOUR)
    assert later.kind == "continued" and later.thread_id == first.thread_id


def test_after_48_idle_hours_a_new_session_starts_and_the_old_one_is_archived(
    store: Store, casino: str, guest: str
):
    old = store.open_or_resume_conversation(casino, guest, NOW)
    store.record_inbound(casino, "SM1", thread_id=old.thread_id, text="hola", now=NOW)
    just_before = store.open_or_resume_conversation(
        casino, guest, NOW + 48 * HOUR - timedelta(seconds=1)
    )
    assert just_before.kind == "continued"

    new = store.open_or_resume_conversation(casino, guest, NOW + 49 * HOUR)
    assert new.kind == "new_session"
    assert new.thread_id != old.thread_id
    assert new.conversation.session_uuid != old.conversation.session_uuid
    assert new.previous is not None and new.previous.thread_id == old.thread_id
    archived = store.get_conversation(casino, old.thread_id)
    assert archived.status == "archived" and archived.archived_at == NOW + 49 * HOUR
    # Archived, not deleted (D22): its messages are there for a warm resume.
    assert [m.text for m in store.recent_messages(casino, old.thread_id, 10)] == ["hola"]
    assert count(store, ConversationRow, guest_uuid=guest, status="active") == 1


def test_the_sweep_archives_idle_conversations_only(store: Store, casino: str, guest: str):
    idle = store.open_or_resume_conversation(casino, guest, NOW).thread_id
    other_guest, _ = store.get_or_create_guest(casino, "+12035550001", now=NOW)
    fresh = store.open_or_resume_conversation(casino, other_guest, NOW + 30 * HOUR).thread_id
    assert store.archive_idle_conversations(casino, NOW + 48 * HOUR) == [idle]
    assert store.get_conversation(casino, fresh).status == "active"
    assert store.open_or_resume_conversation(casino, guest, NOW + 49 * HOUR).kind == "new_session"


def test_concurrent_openings_share_one_conversation(store: Store, casino: str, guest: str):
    openings = in_threads(2, lambda _: store.open_or_resume_conversation(casino, guest, NOW))
    assert openings[0].thread_id == openings[1].thread_id
    assert count(store, ConversationRow, guest_uuid=guest) == 1


def test_openings_inside_turn_transactions_that_race_share_one_conversation(
    store: Store, casino: str, guest: str, monkeypatch: pytest.MonkeyPatch
):
    """Two turns' transactions both read "no active conversation", then both open one: the
    one-active index lets one win, and the other re-reads and continues it. (PostgreSQL: the
    two reads are held together; SQLite's write lock makes the second turn read after the
    first commits.)"""
    racing = store.engine.dialect.name != "sqlite"
    both_read = threading.Barrier(2)
    attempts: list[bool] = []
    open_new = ConversationStore._open

    def open_after_both_read(self, *args, read, **kwargs):
        attempts.append(read is not None)
        if racing and read is not None:
            both_read.wait(timeout=10)
        return open_new(self, *args, read=read, **kwargs)

    monkeypatch.setattr(ConversationStore, "_open", open_after_both_read)

    def turn(_index: int):
        with store.transaction():
            return store.open_or_resume_conversation(casino, guest, NOW)

    openings = in_threads(2, turn)
    assert openings[0].thread_id == openings[1].thread_id
    assert sorted(opening.kind for opening in openings) == ["continued", "new_guest"]
    assert count(store, ConversationRow, guest_uuid=guest) == 1
    # PostgreSQL: both opened from their first read, and the loser read again once.
    assert attempts == ([True, True, False] if racing else [True])


@pytest.mark.parametrize("in_turn", [True, False], ids=["in-a-turn", "on-its-own"])
def test_an_idle_conversation_is_archived_in_one_attempt(
    store: Store, casino: str, guest: str, in_turn: bool, monkeypatch: pytest.MonkeyPatch
):
    """In a turn's transaction the opening uses the read just made; on its own it reads again
    in its own transaction (a row of the finished read's session would not be archived, and
    the new row would collide with it)."""
    old = store.open_or_resume_conversation(casino, guest, NOW)
    attempts = []
    open_new = ConversationStore._open
    monkeypatch.setattr(ConversationStore, "_open",
                        lambda self, *a, **k: attempts.append(1) or open_new(self, *a, **k))  # fmt: skip
    with store.transaction() if in_turn else contextlib.nullcontext():
        new = store.open_or_resume_conversation(casino, guest, NOW + 49 * HOUR)
        store.record_inbound(casino, "SM9", thread_id=new.thread_id, text="back", now=NOW)
    assert new.kind == "new_session" and new.previous.thread_id == old.thread_id
    assert store.get_conversation(casino, old.thread_id).status == "archived"
    assert count(store, ConversationRow, guest_uuid=guest, status="active") == 1
    assert len(attempts) == 1


def test_the_summary_is_kept_on_the_conversation(store: Store, casino: str, guest: str):
    thread = store.open_or_resume_conversation(casino, guest, NOW).thread_id
    store.set_summary(casino, thread, "Anniversary dinner for 4 on April 10.", now=NOW)
    assert store.get_conversation(casino, thread).summary == "Anniversary dinner for 4 on April 10."


# --- messages --------------------------------------------------------------------------------
def test_an_inbound_message_is_stored_once_per_external_id(store: Store, casino: str, guest: str):
    thread = store.open_or_resume_conversation(casino, guest, NOW).thread_id
    first = store.record_inbound(
        casino, "SMabc", thread_id=thread, text="My SSN is [REDACTED]", pii_redacted=True, now=NOW
    )
    again = store.record_inbound(casino, "SMabc", thread_id=thread, text="other", now=NOW + HOUR)
    assert first[1] is True and again == (first[0], False)
    assert count(store, MessageRow, casino_id=casino) == 1
    (stored,) = store.recent_messages(casino, thread)
    assert stored.text == "My SSN is [REDACTED]" and stored.pii_redacted
    assert store.get_conversation(casino, thread).last_message_at == NOW
    # The id is unique per casino: another casino's message may carry the same provider id.
    other = new_casino(store)
    other_guest, _ = store.get_or_create_guest(other, PHONE, now=NOW)
    other_thread = store.open_or_resume_conversation(other, other_guest, NOW).thread_id
    assert store.record_inbound(other, "SMabc", thread_id=other_thread, text="x", now=NOW)[1]


def test_a_concurrent_redelivery_is_stored_once(store: Store, casino: str, guest: str):
    thread = store.open_or_resume_conversation(casino, guest, NOW).thread_id
    results = in_threads(
        2, lambda i: store.record_inbound(casino, "SMrace", thread_id=thread, text=f"{i}", now=NOW)
    )
    assert results[0][0] == results[1][0]
    assert sorted(is_new for _, is_new in results) == [False, True]
    assert count(store, MessageRow, casino_id=casino) == 1


def test_outbound_messages_recent_order_and_delivery(store: Store, casino: str, guest: str):
    thread = store.open_or_resume_conversation(casino, guest, NOW).thread_id
    store.record_inbound(casino, "SM1", thread_id=thread, text="q1", now=NOW)
    reply, _ = store.record_outbound(
        casino,
        thread_id=thread,
        text="a1",
        agent="host_agent",
        sms_parts=2,
        idempotency_key="reply:SM1",
        provider_message_id="prov-1",
        now=NOW + timedelta(seconds=3),
    )
    retried = store.record_outbound(
        casino, thread_id=thread, text="a1", idempotency_key="reply:SM1", now=NOW
    )
    assert retried == (reply, False)
    store.record_inbound(casino, "SM2", thread_id=thread, text="q2", now=NOW + HOUR)
    assert [m.text for m in store.recent_messages(casino, thread, 2)] == ["a1", "q2"]
    messages = store.recent_messages(casino, thread)
    assert [(m.direction, m.agent, m.sms_parts) for m in messages] == [
        ("inbound", None, 1),
        ("outbound", "host_agent", 2),
        ("inbound", None, 1),
    ]
    assert store.set_delivery_status(casino, "prov-1", "delivered") == reply
    assert store.set_delivery_status(casino, "unknown", "delivered") is None
    assert store.recent_messages(casino, thread)[1].delivery_status == "delivered"


# --- offers ----------------------------------------------------------------------------------
def test_one_source_message_creates_one_offer(store: Store, casino: str, guest: str):
    thread = store.open_or_resume_conversation(casino, guest, NOW).thread_id
    source, _ = store.record_inbound(casino, "SM1", thread_id=thread, text="sounds good", now=NOW)
    offer, created = store.create_offer(
        casino,
        guest,
        source_message_id=source,
        tier="dining",
        value_usd=12.5,
        text="We'd love to welcome you with a $12.50 dining credit.",
        now=NOW,
    )
    again, created_again = store.create_offer(
        casino, guest, source_message_id=source, tier="freeplay", value_usd=25, text="x", now=NOW
    )
    assert (created, created_again) == (True, False)
    assert again == offer and again.tier == "dining" and again.value_usd == 12.5
    assert count(store, OfferRow, guest_uuid=guest) == 1


def test_concurrent_offers_for_one_message_make_one(store: Store, casino: str, guest: str):
    thread = store.open_or_resume_conversation(casino, guest, NOW).thread_id
    source, _ = store.record_inbound(casino, "SM1", thread_id=thread, text="ok", now=NOW)
    results = in_threads(
        2,
        lambda _: store.create_offer(
            casino, guest, source_message_id=source, tier="dining", value_usd=10, text="t", now=NOW
        ),
    )
    assert results[0][0].offer_id == results[1][0].offer_id
    assert sorted(created for _, created in results) == [False, True]
    assert count(store, OfferRow, guest_uuid=guest) == 1


def test_an_offer_needs_a_message_of_the_same_guest(store: Store, casino: str, guest: str):
    other, _ = store.get_or_create_guest(casino, "+12035550002", now=NOW)
    thread = store.open_or_resume_conversation(casino, other, NOW).thread_id
    others_message, _ = store.record_inbound(casino, "SM9", thread_id=thread, text="x", now=NOW)
    with pytest.raises(NotFound):
        store.create_offer(
            casino, guest, source_message_id=others_message, tier="dining", value_usd=10, text="t"
        )
    with pytest.raises(ValueError, match="tier"):
        store.create_offer(casino, guest, source_message_id=1, tier="cash", value_usd=10, text="t")


def test_offer_history_counts_messages_since_a_rejection(store: Store, casino: str, guest: str):
    thread = store.open_or_resume_conversation(casino, guest, NOW).thread_id
    ids = [
        store.record_inbound(
            casino, f"SM{i}", thread_id=thread, text="t", substantive=i < 3, now=NOW + i * HOUR
        )[0]
        for i in range(4)
    ]
    offer, _ = store.create_offer(
        casino,
        guest,
        source_message_id=ids[3],
        tier="dining",
        value_usd=10,
        text="t",
        now=NOW + 3 * HOUR,
    )
    store.set_offer_status(casino, offer.offer_id, "rejected", now=NOW + 4 * HOUR)
    for i in range(4, 6):
        store.record_inbound(casino, f"SM{i}", thread_id=thread, text="t", now=NOW + (i + 1) * HOUR)
    history = store.offer_history(casino, guest)
    assert history.guest_replies == 6 and history.substantive_exchanges == 3
    assert history.messages_since_last_rejection == 2
    (past,) = history.offers
    assert (past.tier, past.value_usd, past.status, past.made_at) == (
        "dining",
        10.0,
        "rejected",
        NOW + 3 * HOUR,
    )
    assert store.set_offer_status(casino, offer.offer_id, "rejected").status == "rejected"
    with pytest.raises(ValueError, match="already rejected"):
        store.set_offer_status(casino, offer.offer_id, "accepted")


# --- promotions ------------------------------------------------------------------------------
def test_active_promotions_are_those_valid_now(store: Store, casino: str):
    day = timedelta(days=1)
    store.put_promotion(
        casino,
        "free-play-50",
        title="$50 free play",
        value_usd=50,
        valid_from=NOW - day,
        valid_until=NOW + day,
    )
    store.put_promotion(
        casino, "expired", title="old", valid_from=NOW - 3 * day, valid_until=NOW - day
    )
    store.put_promotion(
        casino, "future", title="new", valid_from=NOW + day, valid_until=NOW + 2 * day
    )
    other = new_casino(store)
    store.put_promotion(other, "theirs", title="x", valid_from=NOW - day, valid_until=NOW + day)

    (active,) = store.active_promotions(casino, NOW)
    assert (active.promotion_id, active.value_usd) == ("free-play-50", 50.0)
    assert [p.promotion_id for p in store.active_promotions(casino, NOW + day)] == [
        "free-play-50",
        "future",
    ]  # both ends of the window are inclusive
    assert store.active_promotions(casino, NOW + 3 * day) == []
