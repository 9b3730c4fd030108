"""The durable outbound queue (WP1 items 34-37, T11, T13's storage half): queued once per key,
claimed once by concurrent workers, retried at 5/25/125 s then dead-lettered, cancelled by a
STOP, a lease that runs out is claimed again, delivery receipts. SQLite and PostgreSQL."""

from __future__ import annotations

from datetime import timedelta

import pytest
from tests.casino_host import test_storage_support as support
from tests.casino_host.test_storage_support import NOW, count, in_threads

from frontdesk.assistants.casino_host.storage import RETRY_DELAYS, Store
from frontdesk.assistants.casino_host.storage.tables import DeadLetterRow

casino = support.casino
database_url = support.database_url
postgres_server = support.postgres_server
postgres_url = support.postgres_url
store = support.store

PHONE = "+18605550142"


@pytest.fixture
def guest(store: Store, casino: str) -> str:
    return store.get_or_create_guest(casino, PHONE, now=NOW)[0]


def queue(store: Store, casino: str, guest: str, key: str = "k1", kind: str = "marketing"):
    return store.enqueue_outbound(casino, guest, kind, "Spring offer", key=key, now=NOW)[0]


def test_a_key_is_queued_once(store: Store, casino: str, guest: str):
    first, new = store.enqueue_outbound(casino, guest, "marketing", "Hi", key="k1", now=NOW)
    again, new_again = store.enqueue_outbound(casino, guest, "marketing", "Hi", key="k1", now=NOW)
    assert new and not new_again and again.outbound_id == first.outbound_id
    assert [m.status for m in store.outbound_for(casino, guest)] == ["queued"]


@pytest.mark.parametrize(
    ("kind", "body", "key", "match"),
    [
        ("promo", "Hi", "k", "kind"),
        ("marketing", "  ", "k", "text"),
        ("marketing", "Hi", "", "key"),
    ],
)
def test_bad_messages_are_refused(store, casino, guest, kind, body, key, match):
    with pytest.raises(ValueError, match=match):
        store.enqueue_outbound(casino, guest, kind, body, key=key, now=NOW)


def test_a_message_is_claimed_once_by_concurrent_workers(store: Store, casino: str, guest: str):
    queue(store, casino, guest)
    claims = in_threads(6, lambda _: len(store.claim_due_outbound(casino, NOW)))
    assert sorted(claims) == [0, 0, 0, 0, 0, 1]


def test_only_due_messages_are_claimed(store: Store, casino: str, guest: str):
    later = NOW + timedelta(seconds=2)
    store.enqueue_outbound(casino, guest, "transactional", "Hi", key="k", not_before=later, now=NOW)
    assert store.claim_due_outbound(casino, NOW) == []
    assert [m.attempts for m in store.claim_due_outbound(casino, later)] == [1]


def test_failures_retry_at_5_25_125_seconds_then_dead_letter(store: Store, casino: str, guest):
    message = queue(store, casino, guest)
    when = NOW
    for delay in RETRY_DELAYS:
        [claimed] = store.claim_due_outbound(casino, when)
        assert (
            store.outbound_failed(casino, claimed.outbound_id, error="timeout", now=when)
            == "queued"
        )
        assert store.claim_due_outbound(casino, when + delay - timedelta(seconds=1)) == []
        when += delay
    [last] = store.claim_due_outbound(casino, when)
    assert last.attempts == 4
    assert (
        store.outbound_failed(casino, last.outbound_id, error="carrier said no", now=when) == "dead"
    )
    assert count(store, DeadLetterRow, outbound_id=message.outbound_id) == 1
    assert store.claim_due_outbound(casino, when + timedelta(hours=1)) == []


def test_a_stop_cancels_queued_leased_and_retrying_messages(store: Store, casino: str, guest):
    queue(store, casino, guest, "queued")
    queue(store, casino, guest, "leased")
    queue(store, casino, guest, "retrying")
    claimed = {m.outbound_id for m in store.claim_due_outbound(casino, NOW, limit=2)}
    retrying = next(m for m in store.outbound_for(casino, guest) if m.outbound_id in claimed)
    store.outbound_failed(casino, retrying.outbound_id, error="timeout", now=NOW)
    store.enqueue_outbound(casino, guest, "keyword", "Unsubscribed.", key="stop-reply", now=NOW)
    assert store.cancel_outbound(casino, guest, reason="STOP", now=NOW) == 3
    statuses = {m.kind: m.status for m in store.outbound_for(casino, guest)}
    assert statuses == {"marketing": "cancelled", "keyword": "queued"}
    # A worker that had a message leased finds it cancelled and sends nothing.
    leased = next(iter(claimed - {retrying.outbound_id}))
    assert not store.still_leased(casino, leased, 1)
    assert not store.outbound_sent(
        casino, leased, provider="simulator", provider_message_id="x", now=NOW
    )


def test_a_lease_that_runs_out_is_claimed_again(store: Store, casino: str, guest: str):
    queue(store, casino, guest)
    [first] = store.claim_due_outbound(casino, NOW)  # the worker dies while sending
    assert store.still_leased(casino, first.outbound_id, first.attempts)
    assert store.claim_due_outbound(casino, NOW + timedelta(seconds=59)) == []
    [again] = store.claim_due_outbound(casino, NOW + timedelta(seconds=60))
    # The first worker, back late, finds its claim taken over: only the second one sends.
    assert not store.still_leased(casino, first.outbound_id, first.attempts)
    assert store.still_leased(casino, again.outbound_id, again.attempts)
    assert again.outbound_id == first.outbound_id and again.attempts == 2


def test_delivery_receipts(store: Store, casino: str, guest: str):
    queue(store, casino, guest, "a")
    queue(store, casino, guest, "b")
    a, b = store.claim_due_outbound(casino, NOW)
    store.outbound_sent(
        casino, a.outbound_id, provider="simulator", provider_message_id="sim-1", now=NOW
    )
    store.outbound_sent(
        casino, b.outbound_id, provider="simulator", provider_message_id="sim-2", now=NOW
    )
    assert store.delivery_receipt(casino, "sim-1", delivered=True, now=NOW) == "delivered"
    assert store.delivery_receipt(casino, "sim-1", delivered=True, now=NOW) == "delivered"
    assert store.delivery_receipt(casino, "sim-2", delivered=False, error="30003", now=NOW) == (
        "queued"
    )
    assert store.delivery_receipt(casino, "unknown", delivered=True, now=NOW) is None
    assert store.sending_history(casino, guest, NOW - timedelta(hours=1)) == (1, NOW, NOW)
    assert store.promotional_sent(casino, guest, NOW - timedelta(hours=1)) == 1
    assert store.promotional_sent(casino, guest, NOW + timedelta(hours=1)) == 0
