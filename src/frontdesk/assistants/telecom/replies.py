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


REASON_WORDS = {
    "en": {
        "overcharge": "overcharge",
        "service_outage": "service outage",
        "within_cooling_off": "withdrawal within the 14-day cooling-off period",
        "other": "other",
    },
    "pl": {
        "overcharge": "nadpłata",
        "service_outage": "awaria usługi",
        "within_cooling_off": "odstąpienie od umowy w ciągu 14 dni",
        "other": "inny",
    },
}


def refund_case_reply(out: dict[str, Any], args: dict[str, Any], language: str) -> str:
    """The case as stored, in the customer's language: what was opened (or was already open),
    why, what happens next and by when. The tool's English next steps stay API data."""
    case, status, invoice = out["case_id"], out["status"], out.get("invoice_id")
    invoice = invoice or args.get("invoice_id")
    amount = _pln(out.get("amount_pln", args.get("amount_pln", 0)))
    reason_code = out.get("reason") or args.get("reason") or "other"
    reason = REASON_WORDS["pl" if language == "pl" else "en"].get(reason_code, reason_code)
    days, sla, eta = (
        out.get("refund_to_method_days", "7-10"),
        out["sla_business_days"],
        out["eta_date"],
    )
    cooling_off = reason_code == "within_cooling_off"
    if language == "pl":
        head = (
            f"Zgłoszenie zwrotu {case} już istnieje dla faktury {invoice} "
            f"(status: {STATUS_PL.get(status, status)}); nie otwieram drugiego."
            if out.get("already_existed")
            else f"Otworzyłem zgłoszenie zwrotu {case} (status: {STATUS_PL.get(status, status)})"
            f" na kwotę {amount} do faktury {invoice}."
        )
        steps = [
            f"Powód: {reason}.",
            (
                f"Specjalista ds. rozliczeń rozpatrzy je w ciągu {sla} dni roboczych "
                f"(przewidywany termin: {eta})."
            ),
            f"Po akceptacji {amount} wróci na Twoją metodę płatności w ciągu {days} dni.",
        ]
        if cooling_off:
            steps.append("Odstąpienie w terminie 14 dni sprawdzamy w pierwszej kolejności.")
        return "\n".join([head, *(f"- {step}" for step in steps)])
    head = (
        f"A refund case {case} already exists for invoice {invoice} "
        f"(status: {status}); I did not open a second one."
        if out.get("already_existed")
        else f"Your refund case {case} has been opened (status: {status}) for "
        f"{amount} on invoice {invoice}."
    )
    steps = [
        f"Reason: {reason}.",
        f"A billing specialist will review it within {sla} business days (expected by {eta}).",
        f"If approved, {amount} goes back to your original payment method within {days} days.",
    ]
    if cooling_off:
        steps.append("A withdrawal within the 14 days is checked with priority.")
    return "\n".join([head, *(f"- {step}" for step in steps)])


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
