"""The telecom billing tools: subscription lookup, refund cases, refund policy.

Prices, invoices and case ids must come from records, so the billing agent answers through
these tools instead of from the model's memory. Every input passes a Pydantic schema first
(malformed ids, out-of-range amounts and unknown reasons never reach the database), every
domain rule fails as a `BillingToolError` whose message is written for the model to relay,
and nothing is written unless all rules pass. `run_tool` is the one entry point the agent
uses: it never raises for bad input, it returns a `ToolOutcome` the agent can log and show.
"""

from __future__ import annotations

import hashlib
import json
import re
from dataclasses import asdict, dataclass
from datetime import date, timedelta
from decimal import Decimal
from enum import Enum
from typing import Annotated, Any

from langchain_core.tools import StructuredTool
from pydantic import (
    BaseModel,
    BeforeValidator,
    Field,
    ValidationError,
    create_model,
)

from frontdesk.assistants.telecom.billing_db import BillingStore, RefundCaseRecord
from frontdesk.guardrails.screening import screen_tool_output

INVOICE_ID_RE = re.compile(r"^INV-\d{4,10}$")
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
        ..., gt=0, le=MAX_REFUND_PLN,
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
    next_steps: list[str]
    sla_business_days: int = SLA_BUSINESS_DAYS
    eta_date: date
    already_existed: bool = False


class RefundPolicyOut(BaseModel):
    cooling_off_days: int = COOLING_OFF_DAYS
    processing_sla_business_days: int = SLA_BUSINESS_DAYS
    refund_to_method_days: str = REFUND_TO_METHOD_DAYS
    non_refundable_items: list[str] = ["One-time activation fees after activation",
                                       "Usage outside plan (premium services)"]
    notes: list[str] = ["Refunds issued to original payment method",
                        "Business days exclude weekends and Polish holidays"]


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
    return BillingToolError(f"User '{user_id}' was not found. Ask the customer to check their "
                            "customer ID.")


def get_subscription(store: BillingStore, user_id: str) -> SubscriptionOut:
    sub = store.get_subscription(user_id.strip())
    if sub is None:
        raise _not_found(user_id.strip())
    invoices = [InvoiceOut(invoice_id=i.invoice_id, period=i.period, issued_on=i.issued_on,
                           amount_pln=float(i.amount_pln), status=i.status)
                for i in store.list_invoices(sub.user_id)]
    return SubscriptionOut(
        user_id=sub.user_id, plan_code=sub.plan_code, plan_name=sub.plan_name,
        price_monthly_pln=float(sub.monthly_price_pln), data_gb=sub.data_gb,
        status=sub.status, start_date=sub.start_date, invoices=invoices,
    )


def _next_steps(case: RefundCaseRecord, already_existed: bool) -> list[str]:
    """Derived from the stored case, so a replayed request shows the same steps."""
    steps = []
    if already_existed:
        steps.append(f"Case {case.case_id} was already open for invoice {case.invoice_id}; "
                     "no duplicate case was created.")
    steps += [
        f"Case created for invoice {case.invoice_id}.",
        f"Classification: {case.reason}.",
        "A billing specialist will validate the charge.",
        (f"If approved: refund {case.amount_pln:.2f} PLN to the original payment method "
         f"within {REFUND_TO_METHOD_DAYS} days."),
    ]
    if case.reason == RefundReason.WITHIN_COOLING_OFF.value:
        steps.append(f"Cooling-off period applies ({COOLING_OFF_DAYS} days from the start of the "
                     "subscription): a specialist confirms eligibility with priority.")
    return steps


def _case_out(case: RefundCaseRecord, already_existed: bool) -> RefundCaseOut:
    return RefundCaseOut(
        case_id=case.case_id, status=case.status, next_steps=_next_steps(case, already_existed),
        sla_business_days=SLA_BUSINESS_DAYS, eta_date=case.eta_date,
        already_existed=already_existed,
    )


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
    invoices = store.list_invoices(sub.user_id)
    invoice = next((i for i in invoices if i.invoice_id == args.invoice_id), None)
    if invoice is None:
        theirs = ", ".join(i.invoice_id for i in invoices) or "none on file"
        raise BillingToolError(f"Invoice {args.invoice_id} does not belong to user "
                               f"{sub.user_id} (their invoices: {theirs}).")
    amount = Decimal(str(args.amount_pln)).quantize(Decimal("0.01"))
    if not 0 < amount <= Decimal(str(MAX_REFUND_PLN)):
        raise BillingToolError(f"The refund amount {amount:.2f} PLN is out of range: it must be "
                               f"more than 0 and at most {MAX_REFUND_PLN:.2f} PLN.")
    if amount > invoice.amount_pln:
        raise BillingToolError(f"The refund amount {amount:.2f} PLN exceeds invoice "
                               f"{invoice.invoice_id}'s total of {invoice.amount_pln:.2f} PLN.")
    cooling_off = args.reason is RefundReason.WITHIN_COOLING_OFF
    now = store.now()
    case, existed = store.open_refund_case(
        user_id=sub.user_id, invoice_id=invoice.invoice_id, reason=args.reason.value,
        amount_pln=amount, description=args.description,
        status="pending_review" if cooling_off else "opened",
        eta_date=add_business_days(now.date(), SLA_BUSINESS_DAYS),
        request_key=request_key, created_at=now,
    )
    return _case_out(case, already_existed=existed)


def get_refund_policy() -> RefundPolicyOut:
    return RefundPolicyOut()


TOOL_SCHEMAS: dict[str, type[BaseModel]] = {
    "get_subscription": SubscriptionIn,
    "open_refund_case": RefundCaseIn,
    "get_refund_policy": RefundPolicyIn,
}

TOOL_DESCRIPTIONS = {
    "get_subscription": (
        "Look up the customer's subscription: plan code and name, monthly price in PLN, data "
        "allowance, status (active, suspended, cancelled), start date, and their invoices with "
        "period, amount and payment status. Use it for any question about their plan, price, "
        "invoices or account status; never state a price without it."
    ),
    "open_refund_case": (
        "Open a refund case for one of the customer's invoices. Call it only once you know the "
        f"reason ({REASONS}), the amount in PLN (more than 0, at most 1000 and not above the "
        "invoice total) and the invoice id (INV-...); ask the customer for anything missing "
        "instead of guessing. Returns the case id, status, next steps and the expected date."
    ),
    "get_refund_policy": (
        "Return the refund policy: the 14-day cooling-off period, the processing time in "
        "business days, how long refunded money takes to arrive, and non-refundable items. "
        "Use it for general questions about refunds."
    ),
}


# ---------------------------------------------------------------- agent entry point

@dataclass(frozen=True)
class ToolOutcome:
    name: str
    args: dict[str, Any]
    ok: bool
    output: dict[str, Any] | None = None
    error: str | None = None

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)


_MISSING_HINTS = {
    "user_id": "the customer's ID, e.g. u123",
    "reason": f"one of {REASONS}",
    "amount_pln": f"the refund amount in PLN, more than 0 and at most {MAX_REFUND_PLN:.0f}",
    "invoice_id": "the invoice number, e.g. INV-20251001",
}


def _describe_error(err: dict[str, Any]) -> str:
    loc = ".".join(str(part) for part in err.get("loc", ()))
    kind, given, ctx = err.get("type", ""), err.get("input"), err.get("ctx") or {}
    subject = f"The field '{loc}'" if loc else "The arguments"
    if kind == "missing":
        hint = _MISSING_HINTS.get(loc)
        return f"{subject} is required" + (f": {hint}." if hint else ".")
    if kind == "value_error":  # our own validators write whole sentences
        return str(ctx.get("error", err.get("msg", ""))).rstrip(".") + "."
    if loc == "amount_pln" and kind in {"greater_than", "less_than_equal"}:
        return f"{subject} must be more than 0 and at most {MAX_REFUND_PLN:.0f} PLN (got {given})."
    if kind == "enum":
        return f"{subject} must be one of {REASONS} (got {given!r})."
    if kind in {"string_too_short", "string_too_long"}:
        low, high = (2, 64) if loc == "user_id" else (0, ctx.get("max_length"))
        return f"{subject} must be {low} to {high} characters long (got {len(str(given))})."
    if kind.startswith(("float", "int")):
        return f"{subject} must be a number (got {given!r})."
    if kind in {"model_type", "string_type"}:
        return f"{subject} must be {'a JSON object' if kind == 'model_type' else 'text'}."
    return f"{subject} is invalid: {err.get('msg', 'unknown problem')}."


def describe_validation_error(exc: ValidationError) -> str:
    """One sentence per problem, each naming the field and the rule."""
    sentences = [_describe_error(err) for err in exc.errors()]
    return " ".join(sentences)


def _jsonable(value: Any) -> dict[str, Any]:
    try:
        loaded = json.loads(json.dumps(value, default=str))
    except (TypeError, ValueError):  # e.g. non-string keys: keep a readable trace
        loaded = repr(value)
    return loaded if isinstance(loaded, dict) else {"_raw": loaded}


def run_tool(
    store: BillingStore, name: str, raw_args: dict[str, Any], *, request_key: str
) -> ToolOutcome:
    """Validate, run, report: bad input and broken rules come back as ok=False with a clear
    error; only programming errors propagate. `request_key` identifies the request for
    open_refund_case so a replayed tool call returns its first case instead of writing."""
    schema = TOOL_SCHEMAS.get(name)
    if schema is None:
        return ToolOutcome(name, _jsonable(raw_args), False, None,
                           f"Unknown tool '{name}'; the billing tools are "
                           f"{', '.join(TOOL_SCHEMAS)}.")
    try:
        args = schema.model_validate(raw_args if raw_args is not None else {})
    except ValidationError as exc:
        return ToolOutcome(name, _jsonable(raw_args), False, None, describe_validation_error(exc))
    clean = args.model_dump(mode="json")
    try:
        if isinstance(args, SubscriptionIn):
            output: BaseModel = get_subscription(store, args.user_id)
        elif isinstance(args, RefundCaseIn):
            output = open_refund_case(store, args, request_key=request_key)
        else:
            output = get_refund_policy()
    except BillingToolError as exc:
        return ToolOutcome(name, clean, False, None, str(exc))
    # Records hold text customers wrote (a refund's description): planted instructions are
    # screened out before the output reaches a reply or a prompt.
    return ToolOutcome(name, clean, True, screen_tool_output(output.model_dump(mode="json")), None)


def build_tools(store: BillingStore, *, user_id_default: str | None = None) -> list[StructuredTool]:
    """The three tools as LangChain StructuredTools for `bind_tools`. With `user_id_default`
    the schemas' user_id becomes optional and defaults to it (the session's customer), so
    the model need not repeat it. Each tool returns the output, or {"error": ...}, as JSON."""

    def schema_for(name: str) -> type[BaseModel]:
        model = TOOL_SCHEMAS[name]
        if user_id_default is None or "user_id" not in model.model_fields:
            return model
        return create_model(
            model.__name__, __base__=model, __doc__=model.__doc__,
            user_id=(UserId, Field(user_id_default,
                                   description="Customer ID; defaults to the current customer.")),
        )

    def make(name: str) -> StructuredTool:
        schema = schema_for(name)

        def call(**kwargs: Any) -> str:
            validated = schema.model_validate(kwargs).model_dump(mode="json")
            # No tool_call_id reaches the function, so the request key is the call itself:
            # the same call made twice returns the first case.
            key = json.dumps([name, validated], sort_keys=True).encode()
            digest = hashlib.sha256(key).hexdigest()[:32]
            outcome = run_tool(store, name, validated, request_key=f"tool:{digest}")
            payload = outcome.output if outcome.ok else {"error": outcome.error}
            return json.dumps(payload, ensure_ascii=False)

        return StructuredTool.from_function(
            func=call, name=name, description=TOOL_DESCRIPTIONS[name], args_schema=schema,
            handle_validation_error=lambda exc: json.dumps(
                {"error": describe_validation_error(exc)}, ensure_ascii=False),
        )

    return [make(name) for name in TOOL_SCHEMAS]
