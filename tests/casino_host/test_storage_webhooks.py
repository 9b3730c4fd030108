"""Webhook idempotency claims (WP1 items 7-8, C2, C3, T3's storage half): one claim per
delivery, a failed or abandoned attempt claimed again, duplicates for 72 h, gone after.
SQLite and PostgreSQL."""

from __future__ import annotations

from datetime import timedelta

import pytest
from tests.casino_host import test_storage_support as support
from tests.casino_host.test_storage_support import NOW, in_threads, new_casino

from frontdesk.assistants.casino_host.storage import Store

# The shared fixtures (SQLite and PostgreSQL), used here by name.
casino = support.casino
database_url = support.database_url
postgres_server = support.postgres_server
postgres_url = support.postgres_url
store = support.store

KEY = "telnyx:40385f64-5717-4562-b3fc-2c963f66afa6"


def test_the_same_delivery_is_claimed_once_and_is_a_duplicate_once_done(store: Store, casino):
    first = store.claim_webhook(casino, KEY, NOW)
    assert first.claimed and first.attempts == 1
    assert store.claim_webhook(casino, KEY, NOW + timedelta(seconds=5)).outcome == "in_progress"
    store.finish_webhook(casino, KEY, ok=True, now=NOW + timedelta(seconds=6))
    assert store.claim_webhook(casino, KEY, NOW + timedelta(minutes=1)).outcome == "duplicate"
    # 71 h later the provider may still retry: still a duplicate.
    late = store.claim_webhook(casino, KEY, NOW + timedelta(hours=71))
    assert late.outcome == "duplicate"


def test_a_failed_attempt_is_processed_again(store: Store, casino: str):
    store.claim_webhook(casino, KEY, NOW)
    store.finish_webhook(casino, KEY, ok=False, now=NOW)
    again = store.claim_webhook(casino, KEY, NOW + timedelta(seconds=30))
    assert again.claimed and again.attempts == 2
    store.finish_webhook(casino, KEY, ok=True, now=NOW + timedelta(seconds=31))
    assert store.claim_webhook(casino, KEY, NOW + timedelta(minutes=5)).outcome == "duplicate"


def test_an_abandoned_claim_is_reclaimed_after_300_seconds(store: Store, casino: str):
    store.claim_webhook(casino, KEY, NOW)  # the worker died while processing
    assert store.claim_webhook(casino, KEY, NOW + timedelta(seconds=299)).outcome == "in_progress"
    reclaimed = store.claim_webhook(casino, KEY, NOW + timedelta(seconds=300))
    assert reclaimed.claimed and reclaimed.attempts == 2


def test_claims_are_gone_at_72_hours(store: Store, casino: str):
    store.claim_webhook(casino, KEY, NOW)
    store.finish_webhook(casino, KEY, ok=True, now=NOW)
    store.claim_webhook(casino, "telnyx:later", NOW + timedelta(hours=1))
    assert store.purge_expired_webhooks(casino, NOW + timedelta(hours=71, minutes=59)) == 0
    assert store.purge_expired_webhooks(casino, NOW + timedelta(hours=72)) == 1
    # The same id after that is a new message to the store (no provider retries that late).
    assert store.claim_webhook(casino, KEY, NOW + timedelta(hours=72)).claimed


def test_an_expired_claim_not_yet_purged_is_claimed_afresh(store: Store, casino: str):
    store.claim_webhook(casino, KEY, NOW)
    store.finish_webhook(casino, KEY, ok=True, now=NOW)
    fresh = store.claim_webhook(casino, KEY, NOW + timedelta(hours=72, seconds=1))
    assert fresh.claimed and fresh.attempts == 1


def test_concurrent_deliveries_are_claimed_once(store: Store, casino: str):
    outcomes = in_threads(8, lambda _: store.claim_webhook(casino, KEY, NOW).outcome)
    assert sorted(outcomes) == ["claimed"] + ["in_progress"] * 7


def test_concurrent_retries_of_a_failed_attempt_are_claimed_once(store: Store, casino: str):
    store.claim_webhook(casino, KEY, NOW)
    store.finish_webhook(casino, KEY, ok=False, now=NOW)
    outcomes = in_threads(
        4, lambda _: store.claim_webhook(casino, KEY, NOW + timedelta(seconds=10)).outcome
    )
    assert sorted(outcomes) == ["claimed"] + ["in_progress"] * 3


def test_claims_are_per_casino(store: Store, casino: str):
    other = new_casino(store)
    assert store.claim_webhook(casino, KEY, NOW).claimed
    assert store.claim_webhook(other, KEY, NOW).claimed
    assert store.purge_expired_webhooks(other, NOW + timedelta(hours=72)) == 1
    assert store.claim_webhook(casino, KEY, NOW).outcome == "in_progress"


@pytest.mark.parametrize("key", ["", "x" * 201])
def test_a_bad_key_is_refused(store: Store, casino: str, key: str):
    with pytest.raises(ValueError, match="webhook key"):
        store.claim_webhook(casino, key, NOW)


def test_finishing_an_unclaimed_webhook_is_an_error(store: Store, casino: str):
    with pytest.raises(ValueError, match="never claimed"):
        store.finish_webhook(casino, KEY, ok=True, now=NOW)
