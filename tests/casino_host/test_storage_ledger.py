"""The consent ledger (WP1 items 22-25, T6's storage half): a per-guest hash chain, verified
link by link, append-only in the database, and serialised appends. SQLite and PostgreSQL."""

from __future__ import annotations

import pytest
from sqlalchemy import text
from sqlalchemy.exc import DBAPIError
from tests.casino_host import test_storage_support as support
from tests.casino_host.test_storage_support import NOW, PHONE, in_threads

from frontdesk.assistants.casino_host.storage import GENESIS, AuditContentError, Store
from frontdesk.assistants.casino_host.storage.ledger import content_hash

# The shared fixtures (SQLite and PostgreSQL), used here by name.
casino = support.casino
database_url = support.database_url
postgres_server = support.postgres_server
postgres_url = support.postgres_url
store = support.store

STOP = {"action": "opt_out", "method": "sms_keyword", "keyword": "stop"}
START = {"action": "opt_in", "method": "sms_keyword", "keyword": "start"}


@pytest.fixture
def guest(store: Store, casino: str) -> str:
    return store.get_or_create_guest(casino, PHONE, now=NOW)[0]


def test_events_chain_from_genesis(store: Store, casino: str, guest: str):
    first = store.append_consent_event(casino, guest, STOP, now=NOW)
    second = store.append_consent_event(casino, guest, START, now=NOW)
    assert (first.chain_position, first.previous_hash) == (0, GENESIS)
    assert first.content_hash == content_hash(STOP, GENESIS)
    assert (second.chain_position, second.previous_hash) == (1, first.content_hash)
    assert first.event_id.startswith("consent_20260315_140000_")
    result = store.verify_consent_chain(casino, guest)
    assert result.as_dict() == {
        "valid": True,
        "chain_length": 2,
        "broken_links": [],
        "latest_hash": second.content_hash,
    }


def test_an_empty_chain_is_valid(store: Store, casino: str, guest: str):
    assert store.verify_consent_chain(casino, guest).as_dict() == {
        "valid": True,
        "chain_length": 0,
        "broken_links": [],
        "latest_hash": None,
    }


def test_the_database_refuses_to_change_or_remove_an_event(store: Store, casino: str, guest):
    store.append_consent_event(casino, guest, STOP, now=NOW)
    for statement in (
        "UPDATE consent_events SET payload = '{}' WHERE casino_id = :c",
        "DELETE FROM consent_events WHERE casino_id = :c",
    ):
        with pytest.raises(DBAPIError, match="append-only"), store.engine.begin() as conn:
            conn.execute(text(statement), {"c": casino})
    assert store.verify_consent_chain(casino, guest).valid


def test_an_event_changed_behind_the_triggers_breaks_the_chain_there(
    store: Store, casino: str, guest: str
):
    for payload in (STOP, START, STOP):
        store.append_consent_event(casino, guest, payload, now=NOW)
    tampered = '{"action": "opt_in", "method": "sms_keyword", "keyword": "forged"}'
    with store.engine.begin() as conn:
        if store.engine.dialect.name == "sqlite":
            conn.execute(text("DROP TRIGGER consent_events_no_update"))
        else:
            conn.execute(text("ALTER TABLE consent_events DISABLE TRIGGER USER"))
        conn.execute(
            text(
                "UPDATE consent_events SET payload = :p WHERE casino_id = :c AND chain_position = 1"
            ),
            {"p": tampered, "c": casino},
        )
        if store.engine.dialect.name != "sqlite":
            conn.execute(text("ALTER TABLE consent_events ENABLE TRIGGER USER"))
    result = store.verify_consent_chain(casino, guest)
    assert not result.valid and result.broken_links == (1,) and result.chain_length == 3


def test_concurrent_appends_make_one_chain(store: Store, casino: str, guest: str):
    in_threads(6, lambda i: store.append_consent_event(casino, guest, {"n": i}, now=NOW))
    chain = store.consent_chain(casino, guest)
    assert [event.chain_position for event in chain] == list(range(6))
    assert store.verify_consent_chain(casino, guest).valid


def test_a_payload_may_not_carry_a_number_or_message_text(store: Store, casino: str, guest):
    with pytest.raises(AuditContentError):
        store.append_consent_event(casino, guest, {"text": "STOP please"}, now=NOW)
    with pytest.raises(AuditContentError):
        store.append_consent_event(casino, guest, {"from": PHONE}, now=NOW)
