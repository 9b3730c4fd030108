"""Handing a telecom conversation to a person: a ticket with the transcript, the bot silent
until the ticket is closed, the person's reply in the conversation."""

from __future__ import annotations

import pytest
from langgraph.checkpoint.memory import InMemorySaver

from frontdesk.memory.tickets import TicketStore


@pytest.fixture
def tickets(tmp_path):
    store = TicketStore(tmp_path / "threads.sqlite")
    yield store
    store.close()


async def test_handoff_holds_the_thread_until_a_person_closes_the_ticket(telecom, tickets):
    service, llm = telecom(["Restart the router.", "The 5 GHz band is fast."], tickets=tickets)
    first = await service.ask("PON LED blinking red", "s1")
    assert first.route == "technical" and len(llm.calls) == 1

    asked = await service.ask("I want to talk to a person", "s1")
    (ticket,) = tickets.find_sync()
    assert asked.route == "handoff" and asked.extra["state_excerpt"]["ticket_id"] == ticket.id
    assert f"ticket #{ticket.id}" in asked.answer and "answer here" in asked.answer
    assert [m["content"] for m in ticket.transcript] == [
        "PON LED blinking red", first.answer, "I want to talk to a person"]
    assert ticket.assistant == "telecom" and ticket.thread_key == "s1"

    # While it is open, the bot is silent: the message goes to the ticket, no model call.
    held = await service.ask("My wifi is slow too", "s1")
    assert held.route == "handoff" and len(llm.calls) == 1
    assert f"ticket #{ticket.id}" in held.answer
    assert [m.text for m in tickets.get_sync(ticket.id).messages] == ["My wifi is slow too"]

    # A person answers: the reply is in the conversation, marked as a person's.
    tickets.answer_sync(ticket.id, "Alice", "Hi, Alice here: I reset your line.")
    transcript = await service.transcript("s1")
    assert transcript[-1] == {"role": "assistant", "content": "Hi, Alice here: I reset your line.",
                              "from": "person", "author": "Alice"}
    assert await service.transcript("s1") == transcript  # delivered once

    # Answered is not closed: the customer keeps talking to the person.
    after = await service.ask("Thanks, it works now", "s1")
    assert after.route == "handoff" and len(llm.calls) == 1
    assert tickets.get_sync(ticket.id).status == "open"
    transcript = await service.transcript("s1")
    assert [m["content"] for m in transcript[-3:]] == [
        "Hi, Alice here: I reset your line.", "Thanks, it works now", after.answer]

    # Closed: the bot answers again.
    tickets.close_ticket_sync(ticket.id, "Alice")
    again = await service.ask("which wifi band is fastest", "s1")
    assert again.route == "technical" and len(llm.calls) == 2
    assert again.answer.startswith("The 5 GHz band is fast.")
    assert tickets.find_sync() == []


async def test_asking_again_while_open_keeps_one_ticket(telecom, tickets):
    service, _ = telecom(tickets=tickets)
    await service.ask("agent please", "s2")
    await service.ask("can I speak to a human", "s2")
    (ticket,) = tickets.find_sync()
    assert [m.text for m in tickets.get_sync(ticket.id).messages] == ["can I speak to a human"]


async def test_polish_handoff_replies_in_polish(telecom, tickets):
    service, llm = telecom(tickets=tickets)
    asked = await service.ask("Chcę rozmawiać z konsultantem", "s3")
    (ticket,) = tickets.find_sync()
    assert asked.route == "handoff" and f"zgłoszenie nr {ticket.id}" in asked.answer
    held = await service.ask("połącz mnie z człowiekiem, proszę", "s3")
    assert "dołączyłem" in held.answer and llm.calls == []


async def test_a_streamed_turn_shows_the_persons_reply_first(telecom, tickets):
    service, _ = telecom(tickets=tickets, checkpointer=InMemorySaver())
    [e async for e in service.stream("human please", "s4")]
    (ticket,) = tickets.find_sync()
    tickets.answer_sync(ticket.id, "Bob", "Bob here, how can I help?")
    events = [e async for e in service.stream("my invoice is wrong", "s4")]
    assert any(e.event in ("token", "replace") and f"#{ticket.id}" in e.data["content"] for e in events)
    roles = [(m["role"], m.get("from")) for m in await service.transcript("s4")]
    assert roles == [("user", None), ("assistant", None), ("assistant", "person"),
                     ("user", None), ("assistant", None)]


async def test_regenerating_a_held_turn_adds_its_message_once(telecom, tickets):
    service, _ = telecom(tickets=tickets)
    await service.ask("I want to talk to a person", "s5")
    await service.ask("still there?", "s5")
    assert await service.forget_last_turn("s5")
    await service.ask("still there?", "s5")
    (ticket,) = tickets.find_sync()
    assert [m.text for m in tickets.get_sync(ticket.id).messages] == ["still there?"]


async def test_without_a_ticket_store_a_request_for_a_person_is_routed_as_usual(telecom):
    service, _ = telecom()
    answer = await service.ask("I want to talk to a person", "s6")
    assert answer.route == "fallback"
