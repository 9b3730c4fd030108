"""Billing replies written from tool output, never by the model.

A tool result holds exact data (a case id, a price, a date); a small model retelling it can
change a digit. The reply states the output as it is, in the customer's language; the
model's part in billing is deciding which tool to call with which arguments.
"""

from __future__ import annotations

from typing import Any

STATUS_PL = {
    "active": "aktywna",
    "suspended": "zawieszona",
    "cancelled": "anulowana",
    "opened": "otwarte",
    "pending_review": "w weryfikacji",
    "withdrawn": "wycofane",
    "paid": "opłacona",
    "unpaid": "nieopłacona",
    "overdue": "po terminie",
}
# Invoice statuses that still want paying, and case statuses still being reviewed.
UNPAID = ("unpaid", "overdue")


def _pln(value: Any) -> str:
    return f"{float(value):.2f} PLN"


def subscription_reply(out: dict[str, Any], language: str) -> str:
    if language == "pl":
        return (
            f"Klient {out['user_id']} ma plan {out['plan_name']} ({out['plan_code']}) "
            f"za {_pln(out['price_monthly_pln'])} miesięcznie. Status subskrypcji: "
            f"{STATUS_PL.get(out['status'], out['status'])}, od {out['start_date']}."
        )
    return (
        f"Customer {out['user_id']} is on plan {out['plan_name']} ({out['plan_code']}) at "
        f"{_pln(out['price_monthly_pln'])} per month. Subscription status: {out['status']}, "
        f"since {out['start_date']}."
    )


def refund_case_reply(out: dict[str, Any], args: dict[str, Any], language: str) -> str:
    case, status = out["case_id"], out["status"]
    steps = "\n".join(f"- {step}" for step in out.get("next_steps") or [])
    if language == "pl":
        head = (
            f"Zgłoszenie zwrotu {case} już istnieje dla faktury {args.get('invoice_id')} "
            f"(status: {STATUS_PL.get(status, status)}); nie otwieram drugiego."
            if out.get("already_existed")
            else f"Otworzyłem zgłoszenie zwrotu {case} (status: {STATUS_PL.get(status, status)})"
            f" na kwotę {_pln(args.get('amount_pln', 0))} do faktury {args.get('invoice_id')}."
        )
        tail = (
            f"Rozpatrzenie trwa do {out['sla_business_days']} dni roboczych "
            f"(przewidywany termin: {out['eta_date']})."
        )
        return f"{head}\n{steps}\n{tail}" if steps else f"{head}\n{tail}"
    head = (
        f"A refund case {case} already exists for invoice {args.get('invoice_id')} "
        f"(status: {status}); I did not open a second one."
        if out.get("already_existed")
        else f"Your refund case {case} has been opened (status: {status}) for "
        f"{_pln(args.get('amount_pln', 0))} on invoice {args.get('invoice_id')}."
    )
    tail = (
        f"A billing specialist will review it within {out['sla_business_days']} business days "
        f"(expected by {out['eta_date']})."
    )
    return f"{head}\n{steps}\n{tail}" if steps else f"{head}\n{tail}"


def refund_policy_reply(out: dict[str, Any], language: str) -> str:
    items = "; ".join(out.get("non_refundable_items") or [])
    notes = " ".join(out.get("notes") or [])
    if language == "pl":
        return (
            f"Polityka zwrotów: odstąpienie od umowy w ciągu {out['cooling_off_days']} dni; "
            f"zgłoszenie rozpatrujemy w {out['processing_sla_business_days']} dni robocze; "
            f"po akceptacji środki wracają w {out['refund_to_method_days']} dni. "
            f"Bez zwrotu: {items}. {notes}"
        )
    return (
        f"Refund policy: you can withdraw within {out['cooling_off_days']} days (cooling-off); "
        f"a refund case is processed within {out['processing_sla_business_days']} business "
        f"days; after approval the money reaches your original payment method in "
        f"{out['refund_to_method_days']} days. Not refundable: {items}. {notes}"
    ).strip()


def status_word(status: str, language: str) -> str:
    return STATUS_PL.get(status, status) if language == "pl" else status


def invoices_reply(out: dict[str, Any], language: str) -> str:
    invoices = out.get("invoices") or []
    if not invoices:
        return "Nie masz żadnych faktur." if language == "pl" else "You have no invoices."
    lines = "\n".join(
        f"- {i['invoice_id']} ({i['period']}, "
        f"{'wystawiona' if language == 'pl' else 'issued'} {i['issued_on']}): "
        f"{_pln(i['amount_pln'])}, {status_word(i['status'], language)}"
        for i in invoices
    )
    unpaid = [i for i in invoices if i["status"] in UNPAID]
    due = sum(float(i["amount_pln"]) for i in unpaid)
    if language == "pl":
        head = "Twoja faktura:" if len(invoices) == 1 else f"Twoje faktury ({len(invoices)}):"
        tail = (
            f"Do zapłaty: {len(unpaid)} na łącznie {_pln(due)}."
            if unpaid
            else "Wszystkie są opłacone."
            if len(invoices) > 1
            else ""
        )
    else:
        head = "Your invoice:" if len(invoices) == 1 else f"Your invoices ({len(invoices)}):"
        tail = (
            f"Still to pay: {len(unpaid)}, {_pln(due)} in total."
            if unpaid
            else "All of them are paid."
            if len(invoices) > 1
            else ""
        )
    return "\n".join(part for part in (head, lines, tail) if part)


def refund_cases_reply(out: dict[str, Any], language: str) -> str:
    cases = out.get("cases") or []
    if not cases:
        return (
            "Nie masz żadnych zgłoszeń zwrotu." if language == "pl" else "You have no refund cases."
        )
    if language == "pl":
        lines = [
            f"- {c['case_id']}: faktura {c['invoice_id']}, {_pln(c['amount_pln'])}, "
            f"status: {status_word(c['status'], language)} (otwarte {c['opened_on']}, "
            f"decyzja do {c['eta_date']})"
            for c in cases
        ]
        head = "Twoje zgłoszenie zwrotu:" if len(cases) == 1 else "Twoje zgłoszenia zwrotu:"
    else:
        lines = [
            f"- {c['case_id']}: invoice {c['invoice_id']}, {_pln(c['amount_pln'])}, "
            f"status: {c['status']} (opened {c['opened_on']}, decision expected by "
            f"{c['eta_date']})"
            for c in cases
        ]
        head = "Your refund case:" if len(cases) == 1 else "Your refund cases:"
    return "\n".join([head, *lines])


def tool_reply(name: str, output: dict[str, Any], args: dict[str, Any], language: str) -> str:
    if name == "get_subscription":
        return subscription_reply(output, language)
    if name == "get_invoices":
        return invoices_reply(output, language)
    if name == "get_refund_cases":
        return refund_cases_reply(output, language)
    if name == "open_refund_case":
        return refund_case_reply(output, args, language)
    if name == "get_refund_policy":
        return refund_policy_reply(output, language)
    raise ValueError(f"no reply template for tool {name!r}")
