"""The refund request as a flow with slots: invoice, amount, reason.

The billing agent's decision (tool_calling: extractors, then the model for what is left) fills
what the customer's words give in so many words. This step completes the refund's slots from
the customer's own records (refund_slots): the invoice they describe rather than quote, the
amount they ask for as "the difference" or "the full amount", a bare number that answers the
agent's question for the amount. The latest message that says anything about a slot wins, so a
correction replaces what was said before. A description that fits several invoices is asked
back with those invoices named, and the answer picks among them.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from dataclasses import dataclass
from decimal import Decimal

from frontdesk.agentkit.streaming import human_texts
from frontdesk.agentkit.tool_calling import ToolDecision
from frontdesk.assistants.telecom import extract
from frontdesk.assistants.telecom.billing_db import InvoiceRecord
from frontdesk.assistants.telecom.refund_intent import REFUND_TOOL
from frontdesk.assistants.telecom.refund_slots import amount_asked, lookup_invoice, pick_offered
from frontdesk.assistants.telecom.state import PendingRequest, TelecomContext, TelecomState

# A new request's slots are read from this many of the customer's latest messages.
REQUEST_MESSAGES = 3
# The case's description field holds at most this much (tools.RefundCaseIn).
DESCRIPTION_CHARS = 500


@dataclass(frozen=True)
class RefundStep:
    """The decision with its slots completed, and the invoices to ask the customer to choose
    between (empty unless their description fits several)."""

    decision: ToolDecision
    offered: tuple[InvoiceRecord, ...] = ()
    found_by_lookup: InvoiceRecord | None = None


def _resolve_invoice(
    texts: Sequence[str],
    invoices: Sequence[InvoiceRecord],
    plan_price: Decimal | None,
    offered: Sequence[InvoiceRecord],
) -> tuple[InvoiceRecord | None, tuple[InvoiceRecord, ...], bool]:
    """(the invoice meant, the invoices to choose between, whether the latest description
    fits none of the customer's invoices) from the latest message that describes one."""
    if offered and texts and (picked := pick_offered(texts[-1], offered)) is not None:
        return picked, (), False
    for text in reversed(texts):
        found = lookup_invoice(text, invoices, plan_price)
        if not found.described:
            continue
        if len(found.matches) == 1:
            return found.matches[0], (), False
        # A number that is not theirs is kept as written: the tool says whose it is not.
        return None, found.matches, not found.matches and extract.invoice_id([text]) is None
    return None, (), False


def complete_refund(
    decision: ToolDecision,
    texts: Sequence[str],
    invoices: Sequence[InvoiceRecord],
    plan_price: Decimal | None,
    *,
    offered: Sequence[InvoiceRecord] = (),
    amount_was_asked: bool = False,
) -> RefundStep:
    """`decision` (a refund) with its invoice and amount taken from the customer's messages
    `texts` (oldest first) read against their `invoices`. `offered`: the invoices the agent
    asked them to choose between; `amount_was_asked`: the agent's last question asked for the
    amount, so a bare number answers it."""
    if decision.tool != REFUND_TOOL or not invoices:
        return RefundStep(decision)
    args = dict(decision.args)
    invoice, choices, fits_none = _resolve_invoice(texts, invoices, plan_price, offered)
    if invoice is not None:
        args["invoice_id"] = invoice.invoice_id
    elif len(choices) > 1 or fits_none:
        # Several fit: asked which. None fits ("the July one" with no July bill): asked again
        # rather than kept from before.
        args.pop("invoice_id", None)
    current = invoice or next((i for i in invoices if i.invoice_id == args.get("invoice_id")), None)
    # The latest message that asks an amount sets it. The amount the decision read stands
    # against the message it read it from, unless that message asks it in words the decision
    # cannot read ("refund the difference" beside the bill's 95 zł); a later message of the
    # request changes it ("actually make it 20 zł"), a bare "20" when it was asked.
    latest = len(texts) - 1
    for position in range(latest, -1, -1):
        text = texts[position]
        in_words = extract.asks_difference(text) or extract.asks_whole(text)
        if "amount_pln" in args and position == 0 and not in_words:
            break
        bare = amount_was_asked and position == latest
        amount = amount_asked(text, current, plan_price, bare_number_answers=bare)
        if amount is not None:
            args["amount_pln"] = float(amount)
            break
    if (stated := extract.stated_reason(texts)) is not None:
        args["reason"] = stated  # the latest message that gives a reason, as for the invoice
    elif any(extract.asks_difference(text) for text in texts):
        args["reason"] = "overcharge"  # the part of a bill above the plan: an overcharge
    elif not any(extract.states_reason(text) for text in texts):
        # The model's reason counts only when the customer gave one: "I'd like a refund" is
        # no reason, and a guessed "overcharge" would open the case on a reason never given.
        args.pop("reason", None)
    if not args.get("description") and texts:
        # The case holds what the customer said: their own words, not the model's summary.
        args["description"] = " / ".join(texts)[-DESCRIPTION_CHARS:]
    missing = [name for name in decision.missing if name not in args]
    for name in ("invoice_id", "amount_pln", "reason"):  # the refund's required slots
        if name not in args and name not in missing:
            missing.append(name)
    completed = dataclasses.replace(decision, args=args, missing=tuple(missing))
    looked_up = invoice if invoice is not None and _not_quoted(invoice, texts) else None
    return RefundStep(completed, choices if len(choices) > 1 else (), looked_up)


def _not_quoted(invoice: InvoiceRecord, texts: Sequence[str]) -> bool:
    number = invoice.invoice_id.casefold().replace("-", "")
    return all(number not in text.casefold().replace("-", "").replace(" ", "") for text in texts)


def refund_step(
    ctx: TelecomContext,
    state: TelecomState,
    pending: PendingRequest | None,
    decision: ToolDecision,
) -> RefundStep:
    """The decision with a refund's slots completed from the signed-in customer's invoices:
    the invoice they describe, the amount they ask for in words."""
    user_id = state.get("user_id")
    if not user_id or decision.tool != REFUND_TOOL:
        return RefundStep(decision)
    invoices = ctx.billing.list_invoices(user_id)
    subscription = ctx.billing.get_subscription(user_id)
    texts = human_texts(state.get("messages", []))
    if pending:  # the request's own messages, from the one that opened it
        texts = texts[max(pending["opened_at"] - 1, 0) :]
    else:
        texts = texts[-REQUEST_MESSAGES:]
    offered_ids = (pending or {}).get("offered") or []
    return complete_refund(
        decision,
        texts,
        invoices,
        subscription.monthly_price_pln if subscription else None,
        offered=[i for i in invoices if i.invoice_id in offered_ids],
        amount_was_asked=bool(pending and "amount_pln" in pending["missing"]),
    )


def describe_invoice(invoice: InvoiceRecord) -> str:
    return f"{invoice.invoice_id} ({invoice.period}, {invoice.amount_pln:.2f} PLN)"
