"""A billing request over several turns: the answer to the agent's question continues it.

The seed's refund conversation: the agent asks for what is missing, and the reply that gives it
("ok, 100 PLN", "It's u123", "the invoice is INV-20251001", "to faktura INV-20251001") goes back
to the billing agent, whose request keeps the values given before, and opens one case.
"""

from __future__ import annotations

import json

import pytest
from langchain_core.messages import AIMessage, HumanMessage

from frontdesk.assistants.telecom import extract
from frontdesk.assistants.telecom.billing_agent import request_key
from frontdesk.assistants.telecom.nodes import continues_pending_request

# What the model fills (the extractors find invoice ids and amounts themselves).
NOTHING = json.dumps({"reason": None, "amount_pln": None, "description": None})
OVERCHARGE = json.dumps({"reason": "overcharge", "amount_pln": None, "description": None})

PENDING_REFUND = {"tool": "open_refund_case", "args": {"invoice_id": "INV-20251001"},
                  "missing": ["reason", "amount_pln"], "opened_at": 1, "opening": "refund"}


@pytest.mark.parametrize("reply", [
    "It's u123", "ok, u123", "ok", "yes", "the invoice is INV-20251001", "It's INV-20251001",
    "ok, INV-20251001", "INV-20251001, 120 zł, wrong charge", "100 PLN",
    "The roaming add-on was billed by mistake, I never ordered it, please sort it out",
    "to faktura INV-20251001", "numer faktury: INV-20251001", "tak, 100 zł",
    "Naliczono mi opłatę za roaming, którego nigdy nie zamawiałem w tym miesiącu",
])
def test_an_answer_continues_the_pending_request(reply):
    assert continues_pending_request(PENDING_REFUND, reply)


@pytest.mark.parametrize("reply", [
    "My router's PON LED is blinking red, what should I do?",
    "wifi slow",  # short, but a technical matter
    "Why is my internet so slow in the evenings, is it because of the router?",
    "Can you tell me something about the weather in Warsaw this weekend please?",
    "jaki jest status mojego zgłoszenia?",  # short, but a new question
    "what's the status of my case?",
    "czy mam jakieś zaległe faktury?",
])
def test_another_matter_is_routed_as_usual(reply):
    assert not continues_pending_request(PENDING_REFUND, reply)


def test_without_a_pending_request_nothing_continues():
    assert not continues_pending_request(None, "ok, INV-20251001")
    assert not continues_pending_request({}, "100 PLN")


def test_a_reason_counts_only_when_the_request_misses_one():
    reason = "They charged me twice for the roaming package last month, that's the problem"
    assert continues_pending_request(PENDING_REFUND, reason)
    has_reason = {**PENDING_REFUND, "missing": ["amount_pln"]}
    assert not continues_pending_request(has_reason, reason)
    # A question about the reason is a question, not the reason.
    assert not continues_pending_request(
        PENDING_REFUND, "Is it normal that the internet does not work after a storm?"
    )


def test_reasons_and_case_ids_are_read_in_both_languages():
    assert extract.states_reason("I was overcharged")
    assert extract.states_reason("usługa nie działała przez tydzień")
    assert extract.states_reason("odstępuję od umowy")
    assert not extract.states_reason("INV-20251001")
    assert extract.case_id(["status of r10002 please"]) == "R10002"
    assert extract.case_id(["my refund"]) is None


def test_a_reason_named_as_the_agent_offers_it_is_read_exactly():
    assert extract.stated_reason(["Powód: nadpłata."]) == "overcharge"
    assert extract.stated_reason(["The reason is an overcharge"]) == "overcharge"
    assert extract.stated_reason(["awaria usługi"]) == "service_outage"
    assert extract.stated_reason(["odstąpienie w 14 dni"]) == "within_cooling_off"
    # Two named at once, or none: the model reads it.
    assert extract.stated_reason(["an outage, and I was overcharged"]) is None
    assert extract.stated_reason(["please sort it out"]) is None
    # A reason named to rule it out is not named.
    assert extract.stated_reason(["It's not an outage, just other"]) is None
    assert extract.stated_reason(["to nie awaria, tylko nadpłata"]) == "overcharge"
    assert extract.stated_reason(["overcharge", "ok, INV-20251001"]) == "overcharge"


@pytest.mark.parametrize(
    ("text", "reason"),
    [("naliczono mi za dużo", "overcharge"),
     ("they charged me twice for the same month", "overcharge"),
     ("doliczyli mi oplate za usluge ktorej nie zamawialam", "overcharge"),
     ("the network was down in my area for a week", "service_outage"),
     ("przez tydzień nie było internetu", "service_outage"),
     ("I changed my mind, it's been 5 days since I signed", "within_cooling_off"),
     ("chcę odstąpić od umowy", "within_cooling_off"),
     ("the shop promised me a goodwill credit", "other"),
     ("I'd like a refund please", None)],
)
def test_reasons_said_in_everyday_words_are_read_in_code(text, reason):
    assert extract.stated_reason([text]) == reason


def test_the_request_key_is_the_opening_messages_not_the_answers():
    config = {"configurable": {"thread_id": "t"}}
    key = request_key(config, 1, "I want a refund for INV-20251001")
    assert key == request_key(config, 1, "I want a refund for INV-20251001")
    assert key != request_key(config, 2, "I want a refund for INV-20251001")
    assert key != request_key({"configurable": {"thread_id": "u"}}, 1,
                              "I want a refund for INV-20251001")


async def test_seed_conversation_continues_and_opens_one_case(telecom, store):
    # Turn 1 asks for reason and amount; "It's u123" gives neither, so it asks again; the
    # third reply gives both, and the invoice from turn 1 is kept.
    service, _ = telecom([NOTHING, NOTHING, OVERCHARGE])
    first = await service.ask("I want to request a refund for invoice INV-20251001", "c1",
                              user_id="u123")
    assert "reason" in first.answer and "amount" in first.answer
    assert first.extra["state_excerpt"]["pending_tool"] == "open_refund_case"
    second = await service.ask("It's u123", "c1", user_id="u123")
    assert second.route == "billing"
    assert second.extra["state_excerpt"]["route_method"] == "continuation"
    assert "reason" in second.answer and "[TECH]" not in second.answer
    assert store.list_cases("u123") == []
    # The keyword chooser reads this message as no tool at all: only the pending request
    # makes it a refund.
    third = await service.ask("the invoice is INV-20251001, 100 PLN, wrong charge", "c1",
                              user_id="u123")
    assert third.extra["state_excerpt"]["route_method"] == "continuation"
    (used,) = third.extra["used_tools"]
    assert used["ok"] and used["args"]["invoice_id"] == "INV-20251001"
    assert used["args"]["amount_pln"] == 100.0 and used["args"]["reason"] == "overcharge"
    assert [c.invoice_id for c in store.list_cases("u123")] == ["INV-20251001"]
    assert "pending_tool" not in third.extra["state_excerpt"]
    assert third.extra["state_excerpt"]["refund_in_progress"] is True


async def test_values_given_before_are_kept_when_the_answer_gives_the_rest(telecom, store):
    service, llm = telecom([OVERCHARGE])
    first = await service.ask("Refund INV-20251001 please, I was overcharged", "c2",
                              user_id="u123")
    assert "amount" in first.answer and "reason" not in first.answer
    answer = await service.ask("ok, 100 PLN", "c2", user_id="u123")
    (used,) = answer.extra["used_tools"]
    # The reason is the first turn's, and nothing required was left for the model: the
    # answer took no model call.
    assert used["ok"] and used["args"]["reason"] == "overcharge"
    assert len(llm.calls) == 1
    assert "R10001" in answer.answer and "100.00 PLN" in answer.answer


async def test_polish_conversation_continues(telecom, store):
    service, _ = telecom([NOTHING, OVERCHARGE])
    first = await service.ask("Chcę zwrot pieniędzy", "c3", user_id="u123")
    assert "numer faktury" in first.answer
    answer = await service.ask("to faktura INV-20251001, 100 zł, nadpłata", "c3", user_id="u123")
    assert answer.route == "billing"
    assert "Otworzyłem zgłoszenie zwrotu R10001" in answer.answer
    assert len(store.list_cases("u123")) == 1


async def test_a_short_answer_is_answered_in_the_conversations_language(telecom, store):
    # "to faktura INV-..." alone reads as English; the agent still asks in Polish.
    service, _ = telecom([NOTHING, NOTHING])
    await service.ask("Chcę zwrot pieniędzy", "c8", user_id="u123")
    answer = await service.ask("to faktura INV-20251001", "c8", user_id="u123")
    assert answer.answer.startswith("Chętnie pomogę") and "powód" in answer.answer


async def test_a_replayed_answer_turn_opens_no_second_case(telecom, store):
    """The turn that completes a request, run again from the same saved state (a client's
    retry of a turn whose answer it never got), returns the case it opened."""
    service, _ = telecom([NOTHING, OVERCHARGE, OVERCHARGE])
    config = service.config("c4")
    await service.ask("I want to request a refund for invoice INV-20251001", "c4", user_id="u123")
    before = (await service.graph.aget_state(config)).config
    done = await service.ask("100 PLN, overcharge", "c4", user_id="u123")
    assert done.extra["used_tools"][0]["output"]["already_existed"] is False
    replay = await service.graph.ainvoke(
        {"messages": [HumanMessage("100 PLN, overcharge")], "route": None},
        before, context=service.context,
    )
    (used,) = replay["used_tools"]
    assert used["output"]["already_existed"] is True
    assert used["output"]["case_id"] == done.extra["used_tools"][0]["output"]["case_id"]
    assert len(store.list_cases("u123")) == 1


async def test_a_refused_value_keeps_the_request_for_the_correction(telecom, store):
    # 200 PLN is more than the invoice (145 PLN): the request stays, "ok, 100 PLN" fixes it.
    service, _ = telecom([OVERCHARGE, OVERCHARGE])
    refused = await service.ask("Refund 200 PLN on INV-20251001, overcharge", "c5",
                                user_id="u123")
    assert "exceeds" in refused.answer and store.list_cases("u123") == []
    fixed = await service.ask("ok, 100 PLN", "c5", user_id="u123")
    (used,) = fixed.extra["used_tools"]
    assert used["ok"] and used["args"]["amount_pln"] == 100.0
    assert len(store.list_cases("u123")) == 1


async def test_another_request_replaces_the_pending_one(telecom, store):
    service, _ = telecom([NOTHING])
    await service.ask("I want to request a refund for invoice INV-20251001", "c6", user_id="u123")
    answer = await service.ask("Which invoices do I have and are they paid?", "c6",
                               user_id="u123")
    assert answer.extra["used_tools"][0]["name"] == "get_invoices"
    assert "pending_tool" not in answer.extra["state_excerpt"]
    state = (await service.graph.aget_state(service.config("c6"))).values
    assert state["pending_request"] is None


async def test_the_conversation_holds_only_what_the_customer_saw(telecom, store):
    """A failed tool call and its retry write one reply; the history is question, reply."""
    service, _ = telecom([OVERCHARGE, OVERCHARGE])
    events = [e async for e in service.stream("refund 5000 PLN for INV-20251001 overcharge",
                                              "c7", user_id="u123")]
    shown = ""  # what the client ends up showing: tokens append, a replace starts over
    for event in events:
        if event.event in ("token", "replace"):
            shown = shown + event.data["content"] if event.event == "token" else event.data["content"]
    messages = (await service.graph.aget_state(service.config("c7"))).values["messages"]
    assert [type(m) for m in messages] == [HumanMessage, AIMessage]
    assert messages[-1].content == shown
    assert messages[-1].id == "billing:telecom:c7:1"
