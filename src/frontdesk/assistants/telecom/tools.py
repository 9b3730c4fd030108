"""The telecom billing tools: subscription, invoices, refund cases (open, status), policy.

Prices, invoices and case ids must come from records, so the billing agent answers through
these tools instead of from the model's memory. Every input passes a Pydantic schema first
(malformed ids, out-of-range amounts and unknown reasons never reach the database), every
domain rule fails as a `BillingToolError` whose message is written for the model to relay,
and nothing is written unless all rules pass. The agent calls them through `tool_runner`.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from datetime import date, timedelta
from decimal import Decimal
from enum import Enum
from typing import Annotated, Any

from pydantic import BaseModel, BeforeValidator, Field

from frontdesk.assistants.telecom.billing_db import (
    BillingStore,
    InvoiceRecord,
    RefundCaseRecord,
    parse_case_id,
)

INVOICE_ID_RE = re.compile(r"^INV-\d{4,10}$")
CASE_ID_RE = re.compile(r"^R\d{5,9}$")
MAX_REFUND_PLN = 1000.0
SLA_BUSINESS_DAYS = 5
COOLING_OFF_DAYS = 14
REFUND_TO_METHOD_DAYS = "7-10"


class BillingToolError(ValueError):
    """A domain rule said no; the message is meant for the model and the customer."""


class RefundReason(str, Enum):
    OVERCHARGE = "overcharge"
    SERVICE_OUTAGE = "service_outage"
    WITHIN_COOLING_OFF = "within_cooling_off"
    OTHER = "other"


REASONS = ", ".join(r.value for r in RefundReason)


def _strip(value: Any) -> Any:
    return value.strip() if isinstance(value, str) else value


def _lower(value: Any) -> Any:
    return value.strip().lower() if isinstance(value, str) else value


def _amount_text(value: Any) -> Any:
    """Models and customers write "PLN 100", "100 zł" or "99,50"; keep the number."""
    if isinstance(value, str):
        cleaned = re.sub(r"(?i)\s*(pln|zł|zl)\s*", "", value).replace(",", ".").strip()
        return cleaned or value
    return value


def _invoice_id(value: Any) -> Any:
    if not isinstance(value, str):
        return value
    normalised = value.strip().upper()
    if not INVOICE_ID_RE.match(normalised):
        raise ValueError(
            f"Invoice {normalised or '(empty)'} is malformed: invoice ids look like INV-20251001."
        )
    return normalised


def _case_id(value: Any) -> Any:
    if not isinstance(value, str):
        return value
    normalised = value.strip().upper()
    if not CASE_ID_RE.match(normalised):
        raise ValueError(
            f"Case {normalised or '(empty)'} is malformed: refund case ids look like R10001."
        )
    return normalised


UserId = Annotated[str, BeforeValidator(_strip), Field(min_length=2, max_length=64)]


# ---------------------------------------------------------------- input schemas


class SubscriptionIn(BaseModel):
    user_id: UserId = Field(..., description="Customer ID, e.g. u123.")


class RefundCaseIn(BaseModel):
    user_id: UserId = Field(..., description="Customer ID, e.g. u123.")
    reason: Annotated[RefundReason, BeforeValidator(_lower)] = Field(
        ..., description=f"Why the refund is due: one of {REASONS}."
    )
    amount_pln: Annotated[float, BeforeValidator(_amount_text)] = Field(
        ...,
        gt=0,
        le=MAX_REFUND_PLN,
        description="Amount to refund in PLN: more than 0, at most 1000 and the invoice total.",
    )
    invoice_id: Annotated[str, BeforeValidator(_invoice_id)] = Field(
        ..., description="Invoice number, e.g. INV-20251001."
    )
    description: Annotated[str | None, BeforeValidator(lambda v: _strip(v) or None)] = Field(
        None, max_length=500, description="Optional short explanation in the customer's words."
    )


class RefundPolicyIn(BaseModel):
    """No arguments: the policy is the same for every customer."""


class InvoicesIn(BaseModel):
    user_id: UserId = Field(..., description="Customer ID, e.g. u123.")
    invoice_id: Annotated[str | None, BeforeValidator(_invoice_id)] = Field(
        None, description="One invoice to show (INV-...); leave empty for all of them."
    )


class RefundCasesIn(BaseModel):
    user_id: UserId = Field(..., description="Customer ID, e.g. u123.")
    case_id: Annotated[str | None, BeforeValidator(_case_id)] = Field(
        None, description="One refund case to show (R...); leave empty for all of them."
    )


# ---------------------------------------------------------------- outputs


class InvoiceOut(BaseModel):
    invoice_id: str
    period: str
    issued_on: date
    amount_pln: float
    status: str


class SubscriptionOut(BaseModel):
    user_id: str
    plan_code: str
    plan_name: str
    price_monthly_pln: float
    data_gb: int | None
    status: str
    start_date: date
    invoices: list[InvoiceOut] = Field(default_factory=list)


class RefundCaseOut(BaseModel):
    case_id: str
    status: str
    # The stored case's values (a repeated request gets the first case's, not its own).
    invoice_id: str
    amount_pln: float
    reason: str
    next_steps: list[str]
    refund_to_method_days: str = REFUND_TO_METHOD_DAYS
    sla_business_days: int = SLA_BUSINESS_DAYS
    eta_date: date
    already_existed: bool = False


class InvoicesOut(BaseModel):
    user_id: str
    invoices: list[InvoiceOut]  # oldest first; one when an invoice was asked for


class CaseStatusOut(BaseModel):
    case_id: str
    invoice_id: str
    reason: str
    amount_pln: float
    status: str
    opened_on: date
    eta_date: date


class RefundCasesOut(BaseModel):
    user_id: str
    cases: list[CaseStatusOut]  # oldest first; one when a case was asked for


class RefundPolicyOut(BaseModel):
    cooling_off_days: int = COOLING_OFF_DAYS
    processing_sla_business_days: int = SLA_BUSINESS_DAYS
    refund_to_method_days: str = REFUND_TO_METHOD_DAYS
    non_refundable_items: list[str] = [
        "One-time activation fees after activation",
        "Usage outside plan (premium services)",
    ]
    notes: list[str] = [
        "Refunds issued to original payment method",
        "Business days exclude weekends and Polish holidays",
    ]


# ---------------------------------------------------------------- the tools


def add_business_days(start: date, days: int) -> date:
    """`start` plus `days` working days, skipping Saturdays and Sundays."""
    current = start
    while days > 0:
        current += timedelta(days=1)
        if current.weekday() < 5:
            days -= 1
    return current


def _not_found(user_id: str) -> BillingToolError:
    return BillingToolError(
        f"User '{user_id}' was not found. Ask the customer to check their customer ID."
    )


def _invoice_out(invoice) -> InvoiceOut:
    return InvoiceOut(
        invoice_id=invoice.invoice_id,
        period=invoice.period,
        issued_on=invoice.issued_on,
        amount_pln=float(invoice.amount_pln),
        status=invoice.status,
    )


def get_subscription(store: BillingStore, user_id: str) -> SubscriptionOut:
    sub = store.get_subscription(user_id.strip())
    if sub is None:
        raise _not_found(user_id.strip())
    invoices = [_invoice_out(i) for i in store.list_invoices(sub.user_id)]
    return SubscriptionOut(
        user_id=sub.user_id,
        plan_code=sub.plan_code,
        plan_name=sub.plan_name,
        price_monthly_pln=float(sub.monthly_price_pln),
        data_gb=sub.data_gb,
        status=sub.status,
        start_date=sub.start_date,
        invoices=invoices,
    )


def _next_steps(case: RefundCaseRecord, already_existed: bool) -> list[str]:
    """Derived from the stored case, so a replayed request shows the same steps."""
    # A repeated request must not read as if a second case had been opened.
    if already_existed:
        steps = [
            (
                f"Case {case.case_id} was already open for invoice {case.invoice_id}; "
                "no duplicate case was created."
            )
        ]
    else:
        steps = [f"Case created for invoice {case.invoice_id}."]
    steps += [
        f"Classification: {case.reason}.",
        "A billing specialist will validate the charge.",
        (
            f"If approved: refund {case.amount_pln:.2f} PLN to the original payment method "
            f"within {REFUND_TO_METHOD_DAYS} days."
        ),
    ]
    if case.reason == RefundReason.WITHIN_COOLING_OFF.value:
        steps.append(
            f"Cooling-off period applies ({COOLING_OFF_DAYS} days from the start of the "
            "subscription): a specialist confirms eligibility with priority."
        )
    return steps


def _case_out(case: RefundCaseRecord, already_existed: bool) -> RefundCaseOut:
    return RefundCaseOut(
        case_id=case.case_id,
        status=case.status,
        invoice_id=case.invoice_id,
        amount_pln=float(case.amount_pln),
        reason=case.reason,
        next_steps=_next_steps(case, already_existed),
        sla_business_days=SLA_BUSINESS_DAYS,
        eta_date=case.eta_date,
        already_existed=already_existed,
    )


def their_invoice(store: BillingStore, user_id: str, invoice_id: str) -> InvoiceRecord:
    """The customer's own invoice `invoice_id`; BillingToolError naming theirs otherwise."""
    invoices = store.list_invoices(user_id)
    invoice = next((i for i in invoices if i.invoice_id == invoice_id), None)
    if invoice is None:
        theirs = ", ".join(i.invoice_id for i in invoices) or "none on file"
        raise BillingToolError(
            f"Invoice {invoice_id} does not belong to user {user_id} (their invoices: {theirs})."
        )
    return invoice


def open_refund_case(store: BillingStore, args: RefundCaseIn, *, request_key: str) -> RefundCaseOut:
    """Open (or return the already open) refund case; raises BillingToolError before any write
    when the user, invoice or amount breaks a rule. A cancelled subscription may still claim
    refunds for its invoices."""
    if not request_key.strip():
        raise ValueError("open_refund_case needs a non-empty request_key")
    prior = store.find_case_by_request_key(request_key)
    if prior is not None:  # a retry of a request that already wrote its case
        return _case_out(prior, already_existed=True)
    sub = store.get_subscription(args.user_id)
    if sub is None:
        raise _not_found(args.user_id)
    invoice = their_invoice(store, sub.user_id, args.invoice_id)
    amount = Decimal(str(args.amount_pln)).quantize(Decimal("0.01"))
    if not 0 < amount <= Decimal(str(MAX_REFUND_PLN)):
        raise BillingToolError(
            f"The refund amount {amount:.2f} PLN is out of range: it must be "
            f"more than 0 and at most {MAX_REFUND_PLN:.2f} PLN."
        )
    if amount > invoice.amount_pln:
        raise BillingToolError(
            f"The refund amount {amount:.2f} PLN exceeds invoice "
            f"{invoice.invoice_id}'s total of {invoice.amount_pln:.2f} PLN."
        )
    cooling_off = args.reason is RefundReason.WITHIN_COOLING_OFF
    now = store.now()
    case, existed = store.open_refund_case(
        user_id=sub.user_id,
        invoice_id=invoice.invoice_id,
        reason=args.reason.value,
        amount_pln=amount,
        description=args.description,
        status="pending_review" if cooling_off else "opened",
        eta_date=add_business_days(now.date(), SLA_BUSINESS_DAYS),
        request_key=request_key,
        created_at=now,
    )
    return _case_out(case, already_existed=existed)


def get_refund_policy() -> RefundPolicyOut:
    return RefundPolicyOut()


def get_invoices(store: BillingStore, args: InvoicesIn) -> InvoicesOut:
    """The customer's invoices with their payment status, or the one asked for (which must
    be theirs: another customer's invoice is reported as not theirs, never shown)."""
    sub = store.get_subscription(args.user_id)
    if sub is None:
        raise _not_found(args.user_id)
    invoices = store.list_invoices(sub.user_id)
    if args.invoice_id is not None:
        invoices = [i for i in invoices if i.invoice_id == args.invoice_id]
        if not invoices:
            raise BillingToolError(
                f"Invoice {args.invoice_id} is not one of user {sub.user_id}'s invoices."
            )
    return InvoicesOut(user_id=sub.user_id, invoices=[_invoice_out(i) for i in invoices])


def get_refund_cases(store: BillingStore, args: RefundCasesIn) -> RefundCasesOut:
    """The customer's refund cases and their status, or the one asked for (theirs only)."""
    sub = store.get_subscription(args.user_id)
    if sub is None:
        raise _not_found(args.user_id)
    cases = store.list_cases(sub.user_id)
    if args.case_id is not None:
        cases = [c for c in cases if c.case_id == args.case_id]
        if not cases or parse_case_id(args.case_id) is None:
            raise BillingToolError(
                f"Refund case {args.case_id} is not one of user {sub.user_id}'s cases."
            )
    return RefundCasesOut(
        user_id=sub.user_id,
        cases=[
            CaseStatusOut(
                case_id=c.case_id,
                invoice_id=c.invoice_id,
                reason=c.reason,
                amount_pln=float(c.amount_pln),
                status=c.status,
                opened_on=c.created_at.date(),
                eta_date=c.eta_date,
            )
            for c in cases
        ],
    )


TOOL_SCHEMAS: dict[str, type[BaseModel]] = {
    "get_subscription": SubscriptionIn,
    "get_invoices": InvoicesIn,
    "open_refund_case": RefundCaseIn,
    "get_refund_cases": RefundCasesIn,
    "get_refund_policy": RefundPolicyIn,
}
# tool name -> (store, validated arguments, request key) -> output
TOOL_FUNCTIONS: dict[str, Callable[[BillingStore, Any, str], BaseModel]] = {
    "get_subscription": lambda store, args, _key: get_subscription(store, args.user_id),
    "get_invoices": lambda store, args, _key: get_invoices(store, args),
    "open_refund_case": lambda store, args, key: open_refund_case(store, args, request_key=key),
    "get_refund_cases": lambda store, args, _key: get_refund_cases(store, args),
    "get_refund_policy": lambda _store, _args, _key: get_refund_policy(),
}

TOOL_DESCRIPTIONS = {
    "get_subscription": (
        "Look up the customer's subscription: plan code and name, monthly price in PLN, data "
        "allowance, status (active, suspended, cancelled), start date, and their invoices with "
        "period, amount and payment status. Use it for any question about their plan, price, "
        "invoices or account status; never state a price without it."
    ),
    "get_invoices": (
        "List the customer's invoices: invoice id, period, issue date, amount in PLN and "
        "payment status (paid, unpaid, overdue); with invoice_id, just that invoice. Use it "
        "for questions about invoices, bills and whether they are paid."
    ),
    "open_refund_case": (
        "Open a refund case for one of the customer's invoices. Call it only once you know the "
        f"reason ({REASONS}), the amount in PLN (more than 0, at most 1000 and not above the "
        "invoice total) and the invoice id (INV-...); ask the customer for anything missing "
        "instead of guessing. Returns the case id, status, next steps and the expected date."
    ),
    "get_refund_cases": (
        "List the customer's refund cases: case id, invoice, amount, status (opened, "
        "pending_review, ...), the date opened and the expected decision date; with case_id, "
        "just that case. Use it for questions about the status of a refund or a case."
    ),
    "get_refund_policy": (
        "Return the refund policy: the 14-day cooling-off period, the processing time in "
        "business days, how long refunded money takes to arrive, and non-refundable items. "
        "Use it for general questions about refunds."
    ),
}
