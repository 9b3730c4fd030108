"""The ticket store: one active ticket per thread, held messages, answers, closing."""

from __future__ import annotations

import pytest

from frontdesk.memory.threads import ThreadStore
from frontdesk.memory.tickets import LOCAL_OWNER, TicketClosed, TicketStore

TRANSCRIPT = [{"role": "user", "content": "my internet is down"},
              {"role": "assistant", "content": "Restart the router."},
              {"role": "user", "content": "I want to talk to a person"}]


@pytest.fixture
def tickets(tmp_path):
    store = TicketStore(tmp_path / "threads.sqlite")
    yield store
    store.close()


def test_opening_twice_while_open_returns_the_open_ticket(tickets):
    first, created = tickets.open_sync("helpdesk", "t1", TRANSCRIPT)
    again, created_again = tickets.open_sync("helpdesk", "t1", [])
    assert created and not created_again
    assert again.id == first.id and again.transcript == TRANSCRIPT
    assert first.status == "open" and first.owner == LOCAL_OWNER
    # Another thread, or the same thread id of another assistant, is another ticket.
    other, _ = tickets.open_sync("helpdesk", "t2", [])
    elsewhere, _ = tickets.open_sync("shop", "t1", [])
    assert len({first.id, other.id, elsewhere.id}) == 3
    assert [t.id for t in tickets.find_sync()] == [first.id, other.id, elsewhere.id]


def test_the_owner_is_the_threads_owner(tmp_path):
    threads = ThreadStore(tmp_path / "threads.sqlite")
    threads.claim_sync("helpdesk", "key1/u1/t1", "t1", "key:partner", "hello")
    store = TicketStore(tmp_path / "threads.sqlite")
    ticket, _ = store.open_sync("helpdesk", "key1/u1/t1", TRANSCRIPT)
    assert ticket.owner == "key:partner" and ticket.thread_key == "key1/u1/t1"
    store.close()
    threads.close()


def test_held_messages_answers_and_close(tickets):
    assert tickets.hold_sync("helpdesk", "t1", "hello?") is None  # nothing to hold on
    ticket, _ = tickets.open_sync("helpdesk", "t1", TRANSCRIPT)
    held = tickets.hold_sync("helpdesk", "t1", "are you there?", "turn-4")
    replayed = tickets.hold_sync("helpdesk", "t1", "are you there?", "turn-4")
    assert held.id == ticket.id and replayed.messages == held.messages
    assert [(m.sender, m.text) for m in held.messages] == [("customer", "are you there?")]

    answered = tickets.answer_sync(ticket.id, "Alice", "Hi, Alice here. Let me check.")
    assert answered.status == "answered"
    assert [(m.sender, m.author) for m in answered.messages] == [
        ("customer", LOCAL_OWNER), ("person", "Alice")]
    # A retried answer carrying the same key is recorded once.
    tickets.answer_sync(ticket.id, "Alice", "Fixed it.", "reply-1")
    tickets.answer_sync(ticket.id, "Alice", "Fixed it.", "reply-1")
    replies = tickets.person_replies_sync("helpdesk", "t1")
    assert [r.text for r in replies] == ["Hi, Alice here. Let me check.", "Fixed it."]
    # The customer writes again: waiting for a person again.
    assert tickets.hold_sync("helpdesk", "t1", "thanks!").status == "open"
    assert tickets.find_sync(statuses=("answered",)) == []

    closed = tickets.close_ticket_sync(ticket.id, "Alice")
    assert closed.status == "closed" and closed.closed_by == "Alice"
    assert tickets.close_ticket_sync(ticket.id, "Bob").closed_by == "Alice"  # once
    assert tickets.active_sync("helpdesk", "t1") is None
    assert tickets.hold_sync("helpdesk", "t1", "hello again") is None
    with pytest.raises(TicketClosed):
        tickets.answer_sync(ticket.id, "Alice", "one more thing")
    # The replayed answer is still acknowledged, not refused, after closing.
    assert tickets.answer_sync(ticket.id, "Alice", "Fixed it.", "reply-1").id == ticket.id
    assert tickets.find_sync() == []
    assert [t.id for t in tickets.find_sync(statuses=("closed",))] == [ticket.id]
    # A new request on the same thread opens a new ticket; the old one keeps its replies.
    new, created = tickets.open_sync("helpdesk", "t1", [])
    assert created and new.id != ticket.id
    assert len(tickets.person_replies_sync("helpdesk", "t1")) == 2


def test_unknown_ticket_is_none(tickets):
    assert tickets.get_sync(99) is None
    assert tickets.answer_sync(99, "Alice", "hi") is None
    assert tickets.close_ticket_sync(99, "Alice") is None


def test_list_filters_by_assistant(tickets):
    tickets.open_sync("helpdesk", "t1", [])
    tickets.open_sync("shop", "t1", [])
    assert [t.assistant for t in tickets.find_sync(["shop"])] == ["shop"]
    assert tickets.find_sync([]) == []


def test_concurrent_opens_make_one_ticket(tickets):
    from concurrent.futures import ThreadPoolExecutor

    with ThreadPoolExecutor(8) as pool:
        opened = list(pool.map(lambda _: tickets.open_sync("helpdesk", "t9", []), range(16)))
    assert len({ticket.id for ticket, _ in opened}) == 1
    assert sum(created for _, created in opened) == 1
