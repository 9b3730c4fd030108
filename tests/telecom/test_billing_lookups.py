"""The invoice and refund-case tools: records as they are, the caller's only, replies EN/PL."""

from __future__ import annotations

import json

from frontdesk.assistants.telecom.replies import (
    invoices_reply,
    refund_case_reply,
    refund_cases_reply,
)
from frontdesk.assistants.telecom.tool_runner import run_tool

OPEN_100 = {"user_id": "u123", "reason": "overcharge", "amount_pln": 100,
            "invoice_id": "INV-20251001"}


def test_invoices_are_listed_with_their_payment_status(store):
    outcome = run_tool(store, "get_invoices", {"user_id": "u321"}, request_key="k")
    assert outcome.ok
    got = [(i["invoice_id"], i["amount_pln"], i["status"]) for i in outcome.output["invoices"]]
    assert got == [("INV-20250804", 45.0, "paid"), ("INV-20250904", 45.0, "paid"),
                   ("INV-20251004", 45.0, "overdue"), ("INV-20251104", 45.0, "unpaid")]


def test_one_invoice_only_the_callers(store):
    one = run_tool(store, "get_invoices", {"user_id": "u123", "invoice_id": "inv-20251001"},
                   request_key="k")
    assert [i["amount_pln"] for i in one.output["invoices"]] == [145.0]
    foreign = run_tool(store, "get_invoices", {"user_id": "u123", "invoice_id": "INV-20251002"},
                       request_key="k")
    assert not foreign.ok and "not one of user u123's invoices" in foreign.error
    assert "95" not in foreign.error  # nothing of the other customer's invoice is shown
    malformed = run_tool(store, "get_invoices", {"user_id": "u123", "invoice_id": "12"},
                         request_key="k")
    assert not malformed.ok and "INV-20251001" in malformed.error
    unknown = run_tool(store, "get_invoices", {"user_id": "nobody"}, request_key="k")
    assert not unknown.ok and "not found" in unknown.error


def test_refund_cases_show_their_status_and_only_the_callers(store):
    none = run_tool(store, "get_refund_cases", {"user_id": "u123"}, request_key="k")
    assert none.ok and none.output["cases"] == []
    opened = run_tool(store, "open_refund_case", OPEN_100, request_key="open-1")
    case_id = opened.output["case_id"]
    listed = run_tool(store, "get_refund_cases", {"user_id": "u123"}, request_key="k")
    (case,) = listed.output["cases"]
    assert (case["case_id"], case["invoice_id"], case["amount_pln"], case["status"]) == (
        case_id, "INV-20251001", 100.0, "opened")
    assert case["eta_date"] == opened.output["eta_date"]
    one = run_tool(store, "get_refund_cases", {"user_id": "u123", "case_id": case_id.lower()},
                   request_key="k")
    assert [c["case_id"] for c in one.output["cases"]] == [case_id]
    theirs = run_tool(store, "get_refund_cases", {"user_id": "u456", "case_id": case_id},
                      request_key="k")
    assert not theirs.ok and "not one of user u456's cases" in theirs.error
    assert run_tool(store, "get_refund_cases", {"user_id": "u456"},
                    request_key="k").output["cases"] == []


def test_invoice_replies_state_the_records_in_both_languages(store):
    out = run_tool(store, "get_invoices", {"user_id": "u123"}, request_key="k").output
    english = invoices_reply(out, "en")
    assert "Your invoices (4):" in english
    assert "- INV-20251001 (2025-10, issued 2025-10-01): 145.00 PLN, paid" in english
    assert "- INV-20251101 (2025-11, issued 2025-11-01): 45.00 PLN, unpaid" in english
    assert english.endswith("Still to pay: 1, 45.00 PLN in total.")
    polish = invoices_reply(out, "pl")
    assert "145.00 PLN, opłacona" in polish and "45.00 PLN, nieopłacona" in polish
    assert polish.endswith("Do zapłaty: 1 na łącznie 45.00 PLN.")
    paid = {"invoices": [i for i in out["invoices"] if i["status"] == "paid"]}
    assert invoices_reply(paid, "en").endswith("All of them are paid.")
    assert invoices_reply({"invoices": []}, "pl") == "Nie masz żadnych faktur."


def test_case_replies_state_the_records_in_both_languages(store):
    run_tool(store, "open_refund_case", OPEN_100, request_key="open-1")
    out = run_tool(store, "get_refund_cases", {"user_id": "u123"}, request_key="k").output
    (case,) = out["cases"]
    english = refund_cases_reply(out, "en")
    assert f"- {case['case_id']}: invoice INV-20251001, 100.00 PLN, status: opened" in english
    assert f"decision expected by {case['eta_date']}" in english
    polish = refund_cases_reply(out, "pl")
    assert "status: otwarte" in polish and f"decyzja do {case['eta_date']}" in polish
    assert refund_cases_reply({"cases": []}, "en") == "You have no refund cases."


def test_an_opened_case_is_confirmed_whole_in_the_customers_language(store):
    opened = run_tool(store, "open_refund_case", OPEN_100, request_key="open-1").output
    polish = refund_case_reply(opened, OPEN_100, "pl")
    assert polish.startswith(f"Otworzyłem zgłoszenie zwrotu {opened['case_id']}")
    assert "Powód: nadpłata." in polish and "100.00 PLN wróci" in polish
    assert not any(word in polish for word in ("Case", "Classification", "specialist"))
    english = refund_case_reply(opened, OPEN_100, "en")
    assert "Reason: overcharge." in english and "Case created" not in english
    # Asked again under another key with other values: the stored case is what is confirmed.
    again = run_tool(store, "open_refund_case", {**OPEN_100, "amount_pln": 50},
                     request_key="open-2").output
    repeated = refund_case_reply(again, {**OPEN_100, "amount_pln": 50}, "en")
    assert repeated.startswith(f"A refund case {opened['case_id']} already exists")
    assert "100.00 PLN" in repeated and "50.00" not in repeated


async def test_the_common_questions_get_the_invoices_and_the_case_status(telecom, store):
    refund = json.dumps({"reason": "overcharge", "amount_pln": None, "description": None})
    service, llm = telecom([refund])
    invoices = await service.ask("Which invoices do I have and are they paid?", "q1",
                                 user_id="u123")
    assert invoices.route == "billing"
    assert [u["name"] for u in invoices.extra["used_tools"]] == ["get_invoices"]
    assert "INV-20250801" in invoices.answer and "INV-20251101" in invoices.answer
    assert "unpaid" in invoices.answer and "plan" not in invoices.answer.lower()
    await service.ask("Refund 100 PLN on INV-20251001, overcharge", "q1", user_id="u123")
    status = await service.ask("What is the status of my refund case?", "q1", user_id="u123")
    assert [u["name"] for u in status.extra["used_tools"]] == ["get_refund_cases"]
    assert "R10001" in status.answer and "status: opened" in status.answer
    assert "cooling-off" not in status.answer  # not the policy
    polish = await service.ask("Jaki jest status mojego zgłoszenia?", "q2", user_id="u123")
    assert "R10001" in polish.answer and "otwarte" in polish.answer
    assert len(llm.calls) == 1  # lookups fill their arguments without the model
