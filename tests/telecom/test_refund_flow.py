"""The refund as a flow with slots, filled from the signed-in customer's own invoices.

Lookups ("the October bill", "ta ostatnia", "the one for 95 zł"), amounts in words ("the
difference", "całą kwotę", a bare "20" when the amount was asked), a question naming the
invoices when several fit and the answer that picks one, a correction, and a cancel: each in
English and Polish, through the whole graph with a scripted model (these tests are about the
code around the model).
"""

from __future__ import annotations

import json
from decimal import Decimal

import pytest

from frontdesk.assistants.telecom import extract
from frontdesk.assistants.telecom.refund_slots import (
    amount_asked,
    describes_invoice,
    lookup_invoice,
    pick_offered,
)

OVERCHARGE = json.dumps({"reason": "overcharge", "description": None})
NOTHING = json.dumps({"reason": None, "description": None})


def ids(found):
    return [i.invoice_id for i in found.matches]


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("The October bill came to 145 zl", ["INV-20251001"]),
        ("fakturę za październik", ["INV-20251001"]),
        ("faktura za pazdziernik", ["INV-20251001"]),
        ("my latest invoice", ["INV-20251101"]),
        ("ostatnia faktura", ["INV-20251101"]),
        ("the roaming one", ["INV-20251001"]),
        ("ta droższa faktura", ["INV-20251001"]),
        ("the 145 zl bill", ["INV-20251001"]),
        ("the invoice from 09/2025", ["INV-20250901"]),
        ("the one for 45 zł", ["INV-20250801", "INV-20250901", "INV-20251101"]),
    ],
)
def test_an_invoice_described_in_words_is_found_among_the_customers(store, text, expected):
    found = lookup_invoice(text, store.list_invoices("u123"), Decimal("45.00"))
    assert found.described and ids(found) == expected


@pytest.mark.parametrize(
    "text",
    ["I was overcharged for a roaming add-on I never ordered", "may I get a refund",
     "refund of 45 zł please", "ostatnio coś nie działa", "hello"],
)
def test_words_that_describe_no_invoice_find_none(store, text):
    assert not lookup_invoice(text, store.list_invoices("u123"), Decimal("45.00")).described


def test_a_month_the_customer_has_no_invoice_for_fits_nothing(store):
    found = lookup_invoice("the July bill", store.list_invoices("u123"), Decimal("45.00"))
    assert found.described and found.matches == ()


@pytest.mark.parametrize(
    ("text", "expected"),
    [("the September one", "INV-20250901"), ("ta z września", "INV-20250901"),
     ("the second", "INV-20250901"), ("ta pierwsza", "INV-20250801"),
     ("the later one", "INV-20250901")],
)
def test_the_answer_picks_among_the_invoices_offered(store, text, expected):
    offered = store.list_invoices("u123")[:2]
    assert pick_offered(text, offered).invoice_id == expected
    assert describes_invoice(text)


def test_amounts_asked_in_words(store):
    october = store.list_invoices("u123")[2]
    plan = Decimal("45.00")
    assert amount_asked("refund the difference", october, plan) == Decimal("100.00")
    assert amount_asked("zwróćcie różnicę", october, plan) == Decimal("100.00")
    assert amount_asked("całą kwotę proszę", october, plan) == Decimal("145.00")
    assert amount_asked("the full amount", october, plan) == Decimal("145.00")
    assert amount_asked("20", october, plan) is None  # a bare number only when asked
    assert amount_asked("20", october, plan, bare_number_answers=True) == Decimal(20)
    assert amount_asked("I was overcharged", october, plan) is None


def test_a_bills_total_is_not_the_amount_asked():
    assert extract.amount_pln(["Can you refund 30 zl on the invoice that came to 95 zl?"]) == 30
    assert extract.amount_pln(["Z faktury na 95 zł proszę zwrócić 30 zł"]) == 30
    assert extract.amount_pln(["the invoice for 95 zł"]) == 95  # the only amount stays


@pytest.mark.parametrize(
    ("text", "expected"),
    [("never mind, I'll pay it", True), ("forget it", True), ("jednak nie, dziękuję", True),
     ("Nieważne, zapłacę", True), ("I changed my mind, I want to withdraw", False),
     ("refund INV-20251001, no need to call me back", False)],
)
def test_a_request_dropped_in_either_language(text, expected):
    assert extract.cancels(text) is expected


# -- through the graph ---------------------------------------------------------------------


@pytest.mark.parametrize(
    ("opening", "reply"),
    [("Please refund the difference on my October bill, I was overcharged", "R10001"),
     ("Chcę zwrot różnicy za październik, nadpłata", "R10001")],
)
async def test_a_lookup_and_a_difference_open_one_case_in_one_turn(telecom, store, opening, reply):
    service, _ = telecom([OVERCHARGE])
    answer = await service.ask(opening, "l1", user_id="u123")
    (case,) = store.list_cases("u123")
    assert (case.invoice_id, case.amount_pln) == ("INV-20251001", Decimal("100.00"))
    assert reply in answer.answer
    assert case.description == opening  # the case holds the customer's own words


@pytest.mark.parametrize(
    ("opening", "pick", "asks"),
    [("I want a refund of 10 PLN on the 45 PLN invoice, I was overcharged",
      "the September one", "Which one"),
     ("Chcę zwrot 10 zł z faktury na 45 zł, naliczono za dużo", "ta z września", "O którą")],
)
async def test_several_invoices_fit_the_agent_names_them_and_the_answer_picks(
    telecom, store, opening, pick, asks
):
    service, _ = telecom([OVERCHARGE])
    first = await service.ask(opening, "a1", user_id="u123")
    assert asks in first.answer
    assert all(i in first.answer for i in ("INV-20250801", "INV-20250901", "INV-20251101"))
    assert store.list_cases("u123") == []
    done = await service.ask(pick, "a1", user_id="u123")
    (case,) = store.list_cases("u123")
    assert case.invoice_id == "INV-20250901" and case.amount_pln == Decimal("10.00")
    assert case.case_id in done.answer


@pytest.mark.parametrize(
    ("opening", "answer_amount"),
    [("I need a refund on the invoice from September, I was overcharged", "20"),
     ("Chcę zwrot za fakturę wrześniową, nadpłata", "20")],
)
async def test_a_bare_number_answers_the_amount_asked(telecom, store, opening, answer_amount):
    service, _ = telecom([OVERCHARGE])
    first = await service.ask(opening, "b1", user_id="u123")
    assert "INV-20250901" in first.answer  # the invoice found is named back
    assert store.list_cases("u123") == []
    await service.ask(answer_amount, "b1", user_id="u123")
    (case,) = store.list_cases("u123")
    assert (case.invoice_id, case.amount_pln) == ("INV-20250901", Decimal("20.00"))


@pytest.mark.parametrize(
    ("opening", "correction"),
    [("I want a refund for the October bill, I was overcharged", "no, the September one"),
     ("Chcę zwrot za fakturę z października, nadpłata", "nie, chodziło o wrzesień")],
)
async def test_a_correction_replaces_the_invoice_before_the_case_opens(
    telecom, store, opening, correction
):
    service, _ = telecom([OVERCHARGE])
    await service.ask(opening, "c1", user_id="u123")
    await service.ask(correction, "c1", user_id="u123")
    assert store.list_cases("u123") == []
    await service.ask("15 PLN", "c1", user_id="u123")
    (case,) = store.list_cases("u123")
    assert case.invoice_id == "INV-20250901"


@pytest.mark.parametrize(
    ("opening", "cancel", "said"),
    [("I want a refund, I was overcharged", "never mind, I'll just pay it", "not opened"),
     ("Chcę zwrot, naliczono mi za dużo", "jednak nie, dziękuję", "niczego nie")],
)
async def test_a_dropped_request_opens_nothing(telecom, store, opening, cancel, said):
    service, _ = telecom([OVERCHARGE])
    await service.ask(opening, "d1", user_id="u123")
    dropped = await service.ask(cancel, "d1", user_id="u123")
    assert said in dropped.answer
    assert "pending_tool" not in dropped.extra["state_excerpt"]
    await service.ask("20 PLN", "d1", user_id="u123")  # nothing waits for an amount any more
    assert store.list_cases("u123") == []


@pytest.mark.parametrize(
    ("opening", "correction", "invoice", "amount", "said"),
    [("Refund 30 PLN on INV-20251001 please, I was overcharged",
      "sorry, I meant INV-20250901", "INV-20250901", "30.00", "updated your refund case"),
     ("refund for INV-20251001, 15 PLN, I was overcharged", "actually make it 20 PLN",
      "INV-20251001", "20.00", "updated your refund case"),
     ("Chcę zwrot 20 zł z faktury INV-20251001, nadpłata", "Nie, przepraszam, chodziło mi o wrzesień",
      "INV-20250901", "20.00", "Zaktualizowałem zgłoszenie")],
)
async def test_a_correction_after_the_case_opened_changes_that_case(
    telecom, store, opening, correction, invoice, amount, said
):
    service, _ = telecom([OVERCHARGE])
    opened = await service.ask(opening, "m1", user_id="u123")
    (case,) = store.list_cases("u123")
    assert case.case_id in opened.answer
    amended = await service.ask(correction, "m1", user_id="u123")
    (after,) = store.list_cases("u123")
    assert after.case_id == case.case_id
    assert (after.invoice_id, after.amount_pln) == (invoice, Decimal(amount))
    assert said in amended.answer and case.case_id in amended.answer


async def test_a_correction_onto_another_customers_invoice_changes_nothing(telecom, store):
    service, _ = telecom([OVERCHARGE])
    await service.ask("Refund 30 PLN on INV-20251001 please, I was overcharged", "m2",
                      user_id="u123")
    refused = await service.ask("sorry, I meant INV-20251002", "m2", user_id="u123")
    (case,) = store.list_cases("u123")
    assert case.invoice_id == "INV-20251001"
    assert "does not belong" in refused.answer
    assert store.list_cases("u456") == []


async def test_a_reason_the_customer_never_gave_is_asked_not_guessed(telecom, store):
    # The model offers "overcharge"; the customer said no reason: the agent asks for one.
    service, _ = telecom([OVERCHARGE])
    first = await service.ask("I'd like a refund for INV-20251001, 20 PLN", "r1", user_id="u123")
    assert store.list_cases("u123") == []
    assert "reason" in first.answer
    await service.ask("the network was down all week", "r1", user_id="u123")
    (case,) = store.list_cases("u123")
    assert case.reason == "service_outage"


async def test_a_message_with_an_invoice_number_goes_to_billing(telecom, store):
    service, _ = telecom([OVERCHARGE])
    answer = await service.ask(
        "my internet was dead for 5 days, pls refund 20zl from INV-20251001 for the outage",
        "r2", user_id="u123")
    assert answer.route == "billing"
    (case,) = store.list_cases("u123")
    assert (case.reason, case.amount_pln) == ("service_outage", Decimal("20.00"))


async def test_the_difference_asked_in_words_beats_the_bills_total_the_model_read(telecom, store):
    # The model reads the bill's 95 zł as the amount; the customer asked for the difference.
    read_total = json.dumps({"reason": None, "amount_pln": 95, "description": None})
    service, _ = telecom([read_total])
    answer = await service.ask(
        "my latest bill says 95 zł but my plan is 65. refund me the difference pls", "t1",
        user_id="u456")
    (case,) = store.list_cases("u456")
    assert (case.invoice_id, case.amount_pln, case.reason) == (
        "INV-20251102", Decimal("30.00"), "overcharge")
    assert answer.answer.startswith("Your refund case")  # English, though it says "zł"


@pytest.mark.parametrize(
    ("opening", "drop", "said"),
    [("I want a refund for INV-20251001, 20 PLN, I was overcharged",
      "oh wait, it's only the normal monthly fee. never mind", "withdrawn refund case"),
     ("Chcę zwrot 20 zł z faktury INV-20251001, nadpłata", "jednak nie, wszystko się zgadza",
      "wycofałem zgłoszenie")],
)
async def test_dropping_the_request_just_after_its_case_opened_withdraws_it(
    telecom, store, opening, drop, said
):
    service, _ = telecom([OVERCHARGE, OVERCHARGE])
    await service.ask(opening, "w1", user_id="u123")
    (case,) = store.list_cases("u123")
    dropped = await service.ask(drop, "w1", user_id="u123")
    assert said in dropped.answer and case.case_id in dropped.answer
    (after,) = store.list_cases("u123")  # kept, with its history, no longer open
    assert (after.case_id, after.status) == (case.case_id, "withdrawn")
    # A new request on the same invoice may open a case again.
    await service.ask("I want a refund for INV-20251001, 30 PLN, I was overcharged", "w1",
                      user_id="u123")
    assert [c.status for c in store.list_cases("u123")] == ["withdrawn", "opened"]


async def test_a_billing_reply_with_no_tool_behind_it_never_states_an_invented_date(telecom, store):
    # Seen as a user: after the plan's reply ("since 2025-08-15"), a message that chose no tool
    # got the model's copy of it with another date.
    service, _ = telecom(["Your plan is active since 2025-09-01.", "We can help with billing."])
    plan = await service.ask("what plan am I on", "g1", user_id="u123")
    assert "since 2025-08-15" in plan.answer
    invented = await service.ask("I was overcharged", "g1", user_id="u123")
    assert invented.route == "billing" and not invented.extra["used_tools"]
    assert "2025-09-01" not in invented.answer and "I can show your plan" in invented.answer
    plain = await service.ask("I was overcharged", "g1", user_id="u123")
    assert plain.answer == "We can help with billing."


async def test_money_asked_back_for_an_outage_goes_to_billing_not_to_a_fix(telecom, store):
    service, _ = telecom([OVERCHARGE])
    first = await service.ask("chce zwrot 10 zl z faktury na 45 zl bo byla awaria i nie dzialal "
                              "internet", "o1", user_id="u123")
    assert first.route == "billing" and "O którą" in first.answer
    await service.ask("ta z września", "o1", user_id="u123")
    (case,) = store.list_cases("u123")
    assert (case.invoice_id, case.amount_pln, case.reason) == (
        "INV-20250901", Decimal("10.00"), "service_outage")


async def test_a_short_answer_in_a_polish_conversation_is_answered_in_polish(telecom, store):
    service, _ = telecom([OVERCHARGE])
    await service.ask("Dzień dobry, potrzebuję zwrotu z faktury INV-20251001", "o2",
                      user_id="u123")
    await service.ask("20 zł", "o2", user_id="u123")
    done = await service.ask("awaria", "o2", user_id="u123")
    assert done.answer.startswith("Otworzyłem zgłoszenie zwrotu R10001")
    assert "Powód: awaria usługi." in done.answer


@pytest.mark.parametrize(
    ("opening", "correction"),
    [("Poproszę o zwrot 30 zł z faktury INV-20251001 za awarię internetu.",
      "a nie, przepraszam!! to miala byc INV-20250901, awaria byla we wrzesniu"),
     ("Refund 30 PLN on INV-20251001 please, the network was down",
      "oops, it should have been INV-20250901")],
)
async def test_a_correction_opening_with_a_filler_word_amends_the_case(
    telecom, store, opening, correction
):
    service, _ = telecom([OVERCHARGE])
    await service.ask(opening, "o3", user_id="u123")
    await service.ask(correction, "o3", user_id="u123")
    (case,) = store.list_cases("u123")
    assert case.invoice_id == "INV-20250901"


def test_polish_reasons_in_other_inflections():
    assert extract.stated_reason(["wypisuje sie z umowy, mieszcze sie w 14 dniach"]) == (
        "within_cooling_off")
    assert extract.stated_reason(["przez burze nie było sieci ze trzy dni"]) == "service_outage"
    assert extract.stated_reason(["za sierpien policzyliscie mi pelny abonament"]) == (
        "overcharge")
    assert extract.stated_reason(["my phone was stolen, the SIM is blocked"]) == "other"
    assert extract.amount_pln(["zwrot 12 zł z rachunku za 45 zł"]) == 12


async def test_an_extra_charge_on_one_of_the_bills_finds_the_bill_above_the_plan(telecom, store):
    service, _ = telecom([OVERCHARGE])
    await service.ask("There's a roaming charge on one of my bills but I never left Poland. "
                      "Whatever went on top of my normal 45 PLN, I want that extra back, it was "
                      "billed by mistake.", "x1", user_id="u123")
    (case,) = store.list_cases("u123")
    assert (case.invoice_id, case.amount_pln, case.reason) == (
        "INV-20251001", Decimal("100.00"), "overcharge")
