"""`Store.transaction()`: one commit for a block of store calls, all or nothing, and a lost
insert race inside a block still recovered (savepoints). SQLite and PostgreSQL."""

from __future__ import annotations

import pytest
from tests.casino_host import test_storage_support as support
from tests.casino_host.test_storage_support import (
    NOW,
    PHONE,
    count,
    in_threads,
    lookups_that_miss_first,
)

from frontdesk.assistants.casino_host.storage import Store
from frontdesk.assistants.casino_host.storage.tables import (
    ConversationRow,
    GuestRow,
    MessageRow,
    PhoneIndexRow,
)

# The shared fixtures (SQLite and PostgreSQL), used here by name.
casino = support.casino
database_url = support.database_url
postgres_server = support.postgres_server
postgres_url = support.postgres_url
store = support.store


class Interrupted(Exception):
    pass


def _inbound(store: Store, casino: str, key: str) -> tuple[str, str]:
    guest, _ = store.get_or_create_guest(casino, PHONE, now=NOW)
    thread = store.open_or_resume_conversation(casino, guest, NOW).thread_id
    store.record_inbound(casino, key, thread_id=thread, text="hello", now=NOW)
    return guest, thread


def test_a_block_commits_its_calls_together(store: Store, casino: str):
    with store.transaction():
        guest, thread = _inbound(store, casino, "SM-block-1")
        # Inside the block its own writes are visible to the calls that follow.
        assert [m.text for m in store.recent_messages(casino, thread)] == ["hello"]
    assert store.find_guest(casino, PHONE) == guest
    assert count(store, MessageRow, casino_id=casino) == 1


def test_a_block_that_raises_leaves_nothing_behind(store: Store, casino: str):
    with pytest.raises(Interrupted), store.transaction():
        _inbound(store, casino, "SM-block-2")
        raise Interrupted
    assert store.find_guest(casino, PHONE) is None
    assert count(store, GuestRow, casino_id=casino) == 0
    assert count(store, ConversationRow, casino_id=casino) == 0
    assert count(store, MessageRow, casino_id=casino) == 0


def test_an_inner_block_joins_the_outer_transaction(store: Store, casino: str):
    with pytest.raises(Interrupted), store.transaction():
        with store.transaction():
            _inbound(store, casino, "SM-block-3")
        # The inner block ended without committing: the outer one decides.
        raise Interrupted
    assert count(store, MessageRow, casino_id=casino) == 0


def test_a_lost_insert_race_inside_a_block_reads_the_winner(
    store: Store, casino: str, monkeypatch: pytest.MonkeyPatch
):
    # Both first messages miss the guest lookup, so the second insert of the phone index
    # loses; inside a block that failure must roll back alone (a savepoint), and the block
    # goes on with the winner's guest.
    missed = lookups_that_miss_first(store, monkeypatch)

    def first_message(index: int) -> tuple[str, bool, str]:
        with store.transaction():
            guest, created = store.get_or_create_guest(casino, PHONE, now=NOW)
            thread = store.open_or_resume_conversation(casino, guest, NOW).thread_id
            store.record_inbound(casino, f"SM-race-{index}", thread_id=thread, text="hi", now=NOW)
            return guest, created, thread

    results = in_threads(2, first_message)
    assert len(missed) == 2
    assert results[0][0] == results[1][0]  # one guest
    assert sorted(created for _, created, _ in results) == [False, True]
    assert results[0][2] == results[1][2]  # one conversation
    assert count(store, GuestRow, casino_id=casino) == 1
    assert count(store, PhoneIndexRow, casino_id=casino) == 1
    assert count(store, MessageRow, casino_id=casino) == 2


def test_two_stores_keep_their_blocks_apart(store: Store, casino: str, database_url: str):
    # A block belongs to the store that opened it: another store's calls inside it run in
    # their own transactions.
    other = Store(database_url, phone_pepper=support.PEPPER)
    try:
        with pytest.raises(Interrupted), store.transaction():
            guest, _ = other.get_or_create_guest(casino, PHONE, now=NOW)
            raise Interrupted
        assert store.find_guest(casino, PHONE) == guest
    finally:
        other.close()


def test_a_read_never_waits_for_a_writers_open_block(store: Store, casino: str):
    # SQLite: the writers of one process share one write connection and queue for it; reads
    # have connections of their own. Were this read to queue behind the open block, the
    # writer would wait for it in turn and the read would time out.
    import threading

    guest, _ = store.get_or_create_guest(casino, PHONE, now=NOW)
    inside, read_done, errors = threading.Event(), threading.Event(), []

    def writer() -> None:
        try:
            with store.transaction():
                store.get_or_create_guest(casino, "+12035550999", now=NOW)
                inside.set()
                assert read_done.wait(timeout=20)
        except BaseException as exc:  # noqa: BLE001 - handed to the test thread
            errors.append(exc)

    thread = threading.Thread(target=writer)
    thread.start()
    assert inside.wait(timeout=20)
    try:
        assert store.find_guest(casino, PHONE) == guest
        assert store.load_profile(casino, guest).version == 1
        assert store.find_guest(casino, "+12035550999") is None  # not committed yet
    finally:
        read_done.set()
        thread.join(timeout=30)
    assert not errors
    assert store.find_guest(casino, "+12035550999") is not None
