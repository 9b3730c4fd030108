"""Guests, the phone index and hashing, profiles with optimistic concurrency, tenant isolation,
and keeping raw phone numbers out of ids, reprs and audit rows. SQLite and PostgreSQL."""

from __future__ import annotations

import hashlib
import hmac
import inspect
import json
from datetime import timedelta

import pytest
from sqlalchemy import event, text
from tests.casino_host import test_storage_support as support
from tests.casino_host.test_storage_support import (
    NOW,
    PEPPER,
    PHONE,
    count,
    in_threads,
    lookups_that_miss_first,
    new_casino,
)

from frontdesk.assistants.casino_host.profile import grant, revoke_consent
from frontdesk.assistants.casino_host.storage import (
    AuditContentError,
    ConversationNotFound,
    EscalationNotFound,
    GuestNotFound,
    MissingCasinoId,
    StaleProfile,
    Store,
    UnknownCasino,
    log_hash,
    phone_hash,
    tenant_pepper,
)
from frontdesk.assistants.casino_host.storage.tables import ConsentGrantRow, GuestRow, PhoneIndexRow

# The shared fixtures (SQLite and PostgreSQL), used here by name.
casino = support.casino
database_url = support.database_url
postgres_server = support.postgres_server
postgres_url = support.postgres_url
store = support.store

DIGITS = PHONE.removeprefix("+1")  # the number however it is written


def dump(store: Store, table: str, casino_id: str) -> str:
    with store.engine.connect() as conn:
        rows = conn.execute(text(f"SELECT * FROM {table} WHERE casino_id = :c"), {"c": casino_id})
        return json.dumps([list(row) for row in rows], default=str)


# --- phone hashing (X3) --------------------------------------------------------------------
def test_the_phone_hash_is_a_keyed_hmac_per_casino(store: Store):
    hashed = store.phone_hash("casino-a", PHONE)
    expected = hmac.new(tenant_pepper(PEPPER, "casino-a"), PHONE.encode(), hashlib.sha256)
    assert (
        hashed
        == "hmac:" + expected.hexdigest()
        == phone_hash(tenant_pepper(PEPPER, "casino-a"), PHONE)
    )
    assert hashed != "hmac:" + hashlib.sha256(PHONE.encode()).hexdigest()
    assert store.phone_hash("casino-b", PHONE) != hashed
    assert log_hash(hashed) == expected.hexdigest()[:16]
    with pytest.raises(ValueError, match="E.164"):
        store.phone_hash("casino-a", "203-555-1234")


# --- guests --------------------------------------------------------------------------------
def test_a_guest_is_created_once_with_its_phone_index_and_profile(store: Store, casino: str):
    guest, created = store.get_or_create_guest(casino, PHONE, language="es", now=NOW)
    again, created_again = store.get_or_create_guest(casino, PHONE, now=NOW)
    assert (created, created_again) == (True, False)
    assert again == guest == store.find_guest(casino, PHONE)
    assert count(store, PhoneIndexRow, casino_id=casino) == 1
    loaded = store.load_profile(casino, guest)
    assert loaded.version == 1 and loaded.profile.guest_uuid == guest
    assert store.guest_phone(casino, guest) == PHONE  # decrypted for sending
    other, _ = store.get_or_create_guest(casino, "+12035559999", now=NOW)
    assert other != guest


def test_saving_a_profile_writes_the_guests_language_and_time(store: Store, casino: str):
    guest, _ = store.get_or_create_guest(casino, PHONE, language="en", now=NOW)
    loaded = store.load_profile(casino, guest)
    loaded.profile.set_field("core_identity.language", "es", source="self_reported", confidence=0.9,
                             now=NOW)  # fmt: skip
    later = NOW + timedelta(hours=2)
    with store.transaction():  # the guest's row was read in this transaction before the save
        assert store.guest_phone(casino, guest) == PHONE
        store.save_profile(casino, loaded.profile, loaded.version, now=later)
    assert count(store, GuestRow, guest_uuid=guest, language="es", updated_at=later) == 1
    with pytest.raises(GuestNotFound):  # another casino's guest is not touched
        store.save_profile(new_casino(store), loaded.profile, loaded.version + 1, now=later)


def test_a_transaction_reads_the_guests_row_once(store: Store, casino: str):
    guest, _ = store.get_or_create_guest(casino, PHONE, now=NOW)
    reads: list[str] = []

    def note(_conn, _cursor, statement, *_args) -> None:
        if "FROM guests" in statement:
            reads.append(statement)

    event.listen(store.engine, "before_cursor_execute", note)
    try:
        with store.transaction():
            store.load_profile(casino, guest)
            assert store.guest_phone(casino, guest) == PHONE
            store.open_or_resume_conversation(casino, guest, NOW)
        with store.transaction():  # a guest created in the transaction is not read back
            other, _ = store.get_or_create_guest(casino, "+12035550188", now=NOW)
            store.load_profile(casino, other)
    finally:
        event.remove(store.engine, "before_cursor_execute", note)
    assert len(reads) == 1


def test_two_concurrent_first_messages_create_one_guest(
    store: Store, casino: str, monkeypatch: pytest.MonkeyPatch
):
    # Both requests miss the lookup (as when they arrive together), so the unique phone_index
    # insert has to decide.
    missed = lookups_that_miss_first(store, monkeypatch)
    results = in_threads(2, lambda _: store.get_or_create_guest(casino, PHONE, now=NOW))
    assert len(missed) == 2
    assert results[0][0] == results[1][0]
    assert sorted(created for _, created in results) == [False, True]
    assert count(store, GuestRow, casino_id=casino) == 1
    assert count(store, PhoneIndexRow, casino_id=casino) == 1


def test_a_guest_needs_a_registered_casino(store: Store):
    with pytest.raises(UnknownCasino):
        store.get_or_create_guest("never-registered", PHONE, now=NOW)


# --- profiles ------------------------------------------------------------------------------
def test_a_profile_round_trips_with_grants_as_rows_and_no_phone_in_the_document(
    store: Store, casino: str
):
    guest, _ = store.get_or_create_guest(casino, PHONE, now=NOW)
    loaded = store.load_profile(casino, guest)
    profile = loaded.profile
    assert profile.set_field("name", "Maria", source="self_reported", confidence=0.95, now=NOW)
    marketing = grant(profile, "marketing", granted_via="text_keyword", now=NOW)
    assert profile.set_field(
        "email", "maria@example.com", source="incentive_exchange", confidence=0.9, now=NOW
    ).written
    assert store.save_profile(casino, profile, loaded.version, now=NOW) == 2

    again = store.load_profile(casino, guest)
    assert again.version == 2
    assert again.profile.get("name").value == "Maria"
    assert again.profile.get("email").consent_ref == marketing.id
    assert set(again.profile.consent_grants) == set(profile.consent_grants)
    assert again.profile.phone_e164 == PHONE
    assert count(store, ConsentGrantRow, casino_id=casino) == len(profile.consent_grants) == 2
    assert DIGITS not in dump(store, "profiles", casino)
    assert DIGITS not in dump(store, "guests", casino)

    revoke_consent(again.profile, "marketing", "guest asked", NOW + timedelta(hours=1))
    store.save_profile(casino, again.profile, again.version, now=NOW + timedelta(hours=1))
    reloaded = store.load_profile(casino, guest).profile
    assert reloaded.consent_grants[marketing.id].status == "revoked"
    assert not reloaded.usable("email")


def test_a_stale_profile_save_is_refused_and_a_retry_succeeds(store: Store, casino: str):
    guest, _ = store.get_or_create_guest(casino, PHONE, now=NOW)
    first = store.load_profile(casino, guest)
    second = store.load_profile(casino, guest)
    first.profile.set_field("name", "Maria", source="self_reported", confidence=0.95, now=NOW)
    store.save_profile(casino, first.profile, first.version, now=NOW)

    second.profile.set_field("party_size", 4, source="self_reported", confidence=0.9, now=NOW)
    with pytest.raises(StaleProfile) as stale:
        store.save_profile(casino, second.profile, second.version, now=NOW)
    assert (stale.value.expected_version, stale.value.current_version) == (1, 2)

    retry = store.load_profile(casino, guest)
    retry.profile.set_field("party_size", 4, source="self_reported", confidence=0.9, now=NOW)
    assert store.save_profile(casino, retry.profile, retry.version, now=NOW) == 3
    final = store.load_profile(casino, guest).profile
    assert final.get("name").value == "Maria" and final.get("party_size").value == 4


def test_of_two_concurrent_saves_at_one_version_exactly_one_wins(store: Store, casino: str):
    guest, _ = store.get_or_create_guest(casino, PHONE, now=NOW)
    loaded = [store.load_profile(casino, guest) for _ in range(2)]

    def save(index: int):
        try:
            return store.save_profile(casino, loaded[index].profile, loaded[index].version)
        except StaleProfile as exc:
            return exc

    outcomes = in_threads(2, save)
    assert sorted(type(o).__name__ for o in outcomes) == ["StaleProfile", "int"]
    assert store.load_profile(casino, guest).version == 2


# --- tenant isolation ------------------------------------------------------------------------
def test_a_casino_cannot_reach_another_casinos_guest(store: Store, casino: str):
    other = new_casino(store)
    guest, _ = store.get_or_create_guest(casino, PHONE, now=NOW)
    thread = store.open_or_resume_conversation(casino, guest, NOW).thread_id
    message, _ = store.record_inbound(casino, "SM1", thread_id=thread, text="hi", now=NOW)
    escalation, _ = store.create_escalation(
        casino, guest, severity="P2", trigger_reason="complaint", trigger_source="router", now=NOW
    )
    profile = store.load_profile(casino, guest)

    assert store.find_guest(other, PHONE) is None
    for call in (
        lambda: store.load_profile(other, guest),
        lambda: store.guest_phone(other, guest),
        lambda: store.open_or_resume_conversation(other, guest, NOW),
        lambda: store.offer_history(other, guest),
        lambda: store.audit(other, "profile_updated", guest_uuid=guest),
        lambda: store.save_profile(other, profile.profile, profile.version),
    ):
        with pytest.raises(GuestNotFound):
            call()
    for call in (
        lambda: store.recent_messages(other, thread),
        lambda: store.record_inbound(other, "SM2", thread_id=thread, text="x", now=NOW),
        lambda: store.get_conversation(other, thread),
    ):
        with pytest.raises(ConversationNotFound):
            call()
    with pytest.raises(EscalationNotFound):
        store.acknowledge(other, escalation.escalation_id, by="host@other")
    assert store.active_pause(other, guest, NOW) is None
    assert store.list_offers(other, guest) == []
    # Same number, other casino: a different guest, and the first casino's rows are untouched.
    other_guest, created = store.get_or_create_guest(other, PHONE, now=NOW)
    assert created and other_guest != guest
    assert [m.message_id for m in store.recent_messages(casino, thread)] == [message]


# Methods that touch no guest's data: the engine's life, the schema, and the transaction block
# (whose calls are each scoped to a casino).
UNSCOPED = {"close", "upgrade", "transaction"}


def _public_methods() -> dict[str, object]:
    return {
        name: member
        for name, member in inspect.getmembers(Store, inspect.isfunction)
        if not name.startswith("_") and name not in UNSCOPED
    }


def test_every_public_method_is_scoped_to_a_casino():
    assert all(getattr(m, "tenant_scoped", False) for m in _public_methods().values())


@pytest.mark.parametrize("casino_id", [None, "", "a:b", 7])
def test_a_call_without_a_valid_casino_id_raises_before_touching_the_database(
    store: Store, casino_id
):
    calls = 0
    for name, method in _public_methods().items():
        params = [p for p in inspect.signature(method).parameters.values() if p.name != "self"]
        args = {p.name: "x" for p in params if p.default is inspect.Parameter.empty}
        args["casino_id"] = casino_id
        with pytest.raises(MissingCasinoId):
            getattr(store, name)(**args)
        calls += 1
    assert calls >= 25


# --- no raw phone ----------------------------------------------------------------------------
def test_no_raw_phone_in_reprs_ids_or_audit_rows(store: Store, casino: str):
    guest, _ = store.get_or_create_guest(casino, PHONE, now=NOW)
    opening = store.open_or_resume_conversation(casino, guest, NOW)
    store.record_inbound(
        casino, "SM1", thread_id=opening.thread_id, text="call me at +12035550000", now=NOW
    )
    escalation, _ = store.create_escalation(
        casino,
        guest,
        severity="P1",
        trigger_reason="explicit_request",
        trigger_source="router",
        thread_id=opening.thread_id,
        guest_profile_summary={"note": f"texted from {PHONE}"},
        now=NOW,
    )
    store.audit(casino, "sms_inbound", guest_uuid=guest, details={"message_length": 23}, now=NOW)
    shown = [
        repr(store),
        repr(store._hasher),
        repr(store._cipher),
        repr(store.load_profile(casino, guest)),
        repr(opening),
        repr(escalation),
        json.dumps(escalation.payload()),
        repr(store.audit_entries(casino)),
        dump(store, "audit_log", casino),
        dump(store, "escalations", casino),
        dump(store, "conversations", casino),
        dump(store, "phone_index", casino),
    ]
    for text_shown in shown:
        assert DIGITS not in text_shown and "2035550000" not in text_shown
    assert escalation.guest_last_four == "1234"
    assert escalation.guest_id_hash == log_hash(store.phone_hash(casino, PHONE))
    assert {entry.guest_hash for entry in store.audit_entries(casino)} == {escalation.guest_id_hash}


@pytest.mark.parametrize(
    "details",
    [
        {"text": "my SSN is 123-45-6789"},
        {"nested": {"message": "hello"}},
        {"to": PHONE},
        {"items": ["fine", f"from {PHONE}"]},
    ],
)
def test_audit_details_may_not_carry_message_text_or_a_number(
    store: Store, casino: str, details: dict
):
    with pytest.raises(AuditContentError):
        store.audit(casino, "sms_inbound", details=details, now=NOW)
    assert store.audit_entries(casino) == []
