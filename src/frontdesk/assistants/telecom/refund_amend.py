"""A correction just after a refund case was opened changes that case; it never opens another.
Dropping the request then ("never mind", "jednak nie") withdraws it.

"Sorry, I meant INV-20251102", "actually make it 20 PLN", "nie, chodziło mi o wrzesień": the
customer corrects the invoice or the amount of the case this conversation opened. While the
case is still open its invoice and amount are changed, under the rules that opened it (the
invoice must be theirs, the amount within its total), and the reply confirms the case with its
new values. A case already being paid out, or any other message, takes the usual path.
"""

from __future__ import annotations

from decimal import Decimal

from sqlalchemy.exc import IntegrityError

from frontdesk.agentkit.prompts import render
from frontdesk.agentkit.streaming import human_texts
from frontdesk.assistants.telecom import extract, prompts
from frontdesk.assistants.telecom.billing_db import (
    OPEN_CASE_STATUSES,
    BillingStore,
    RefundCaseRecord,
)
from frontdesk.assistants.telecom.refund_slots import amount_asked, lookup_invoice
from frontdesk.assistants.telecom.replies import status_word
from frontdesk.assistants.telecom.state import TelecomContext, TelecomState
from frontdesk.assistants.telecom.tools import MAX_REFUND_PLN, BillingToolError, their_invoice


def amend_refund_case(
    store: BillingStore,
    *,
    user_id: str,
    case_id: str,
    invoice_id: str | None,
    amount_pln: Decimal | None,
) -> RefundCaseRecord:
    """The customer's correction of a case they opened in this conversation ("sorry, I meant
    INV-20250902", "make it 20 PLN"), under the same rules as opening one. Raises
    BillingToolError when a rule says no; nothing is written then."""
    case = store.get_case(case_id)
    if case is None or case.user_id != user_id or case.status not in OPEN_CASE_STATUSES:
        raise BillingToolError(f"Case {case_id} is not an open case of user {user_id}.")
    invoice = their_invoice(store, user_id, invoice_id or case.invoice_id)
    amount = (amount_pln if amount_pln is not None else case.amount_pln).quantize(Decimal("0.01"))
    if not 0 < amount <= min(invoice.amount_pln, Decimal(str(MAX_REFUND_PLN))):
        raise BillingToolError(
            f"The refund amount {amount:.2f} PLN is out of range: it must be more than 0 and "
            f"at most invoice {invoice.invoice_id}'s total of {invoice.amount_pln:.2f} PLN."
        )
    try:
        amended = store.amend_refund_case(
            case_id, user_id=user_id, invoice_id=invoice.invoice_id, amount_pln=amount
        )
    except IntegrityError:
        raise BillingToolError(
            f"Invoice {invoice.invoice_id} already has an open refund case."
        ) from None
    if amended is None:
        raise BillingToolError(f"Case {case_id} is not an open case of user {user_id}.")
    return amended


def changes_case(state: TelecomState, text: str) -> bool:
    """Whether a message may change the case this conversation opened: a correction, or the
    request dropped ("never mind") with no new value."""
    if not state.get("billing_case_id"):
        return False
    return extract.corrects(text) or (extract.cancels(text) and not _gives_values(text))


def _gives_values(text: str) -> bool:
    return extract.invoice_id([text]) is not None or extract.amount_pln([text]) is not None


def case_change_reply(state: TelecomState, ctx: TelecomContext, language: str) -> str | None:
    """The reply to a change of the case this conversation opened, once made: withdrawn when
    the customer drops the request, its invoice or amount changed when they correct it. None
    when the latest message changes nothing (it then takes the usual path)."""
    case_id, user_id = state.get("billing_case_id"), state.get("user_id")
    latest = (human_texts(state.get("messages", [])) or [""])[-1]
    if not case_id or not user_id or not changes_case(state, latest):
        return None
    case = ctx.billing.get_case(case_id)
    if case is None or case.user_id != user_id or case.status not in OPEN_CASE_STATUSES:
        return None
    if extract.cancels(latest) and not _gives_values(latest):
        withdrawn = ctx.billing.withdraw_refund_case(case_id, user_id=user_id)
        if withdrawn is None:
            return None
        return render(prompts.CASE_WITHDRAWN[language], case=withdrawn.case_id)
    invoices = ctx.billing.list_invoices(user_id)
    subscription = ctx.billing.get_subscription(user_id)
    plan = subscription.monthly_price_pln if subscription else None
    found = lookup_invoice(latest, invoices, plan)
    invoice_id = found.matches[0].invoice_id if len(found.matches) == 1 else None
    if invoice_id is None and found.described:
        invoice_id = extract.invoice_id([latest])  # not theirs: the rule below says so
    invoice = next((i for i in invoices if i.invoice_id == (invoice_id or case.invoice_id)), None)
    amount = amount_asked(latest, invoice, plan)
    if invoice_id in (None, case.invoice_id) and amount in (None, case.amount_pln):
        return None
    try:
        amended = amend_refund_case(
            ctx.billing, user_id=user_id, case_id=case_id, invoice_id=invoice_id, amount_pln=amount
        )
    except BillingToolError as refused:
        return render(prompts.TOOL_FAILED[language], error=str(refused))
    return render(
        prompts.CASE_AMENDED[language],
        case=amended.case_id,
        amount=f"{amended.amount_pln:.2f}",
        invoice=amended.invoice_id,
        status=status_word(amended.status, language),
    )
