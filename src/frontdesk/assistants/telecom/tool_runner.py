"""The billing tools' one entry point for the agent: validate, run, report.

`run_tool` never raises for bad input or a broken rule: it returns a `ToolOutcome` (ok or a
clear error naming the field and the rule) the agent can log, show and hand back to the model.
`build_tools` offers the same tools, with the same validation, as LangChain StructuredTools for
a model with native tool calling.
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import asdict, dataclass
from typing import Any

from langchain_core.tools import StructuredTool
from pydantic import BaseModel, Field, ValidationError, create_model

from frontdesk.assistants.telecom.billing_db import BillingStore
from frontdesk.assistants.telecom.tools import (
    MAX_REFUND_PLN,
    REASONS,
    TOOL_DESCRIPTIONS,
    TOOL_FUNCTIONS,
    TOOL_SCHEMAS,
    BillingToolError,
    UserId,
)
from frontdesk.guardrails.screening import screen_tool_output


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
        return ToolOutcome(
            name,
            _jsonable(raw_args),
            False,
            None,
            f"Unknown tool '{name}'; the billing tools are {', '.join(TOOL_SCHEMAS)}.",
        )
    try:
        args = schema.model_validate(raw_args if raw_args is not None else {})
    except ValidationError as exc:
        return ToolOutcome(name, _jsonable(raw_args), False, None, describe_validation_error(exc))
    clean = args.model_dump(mode="json")
    try:
        output = TOOL_FUNCTIONS[name](store, args, request_key)
    except BillingToolError as exc:
        return ToolOutcome(name, clean, False, None, str(exc))
    # Records hold text customers wrote (a refund's description): planted instructions are
    # screened out before the output reaches a reply or a prompt.
    return ToolOutcome(name, clean, True, screen_tool_output(output.model_dump(mode="json")), None)


def build_tools(store: BillingStore, *, user_id_default: str | None = None) -> list[StructuredTool]:
    """The tools as LangChain StructuredTools for `bind_tools`. With `user_id_default`
    the schemas' user_id becomes optional and defaults to it (the session's customer), so
    the model need not repeat it. Each tool returns the output, or {"error": ...}, as JSON."""

    def schema_for(name: str) -> type[BaseModel]:
        model = TOOL_SCHEMAS[name]
        if user_id_default is None or "user_id" not in model.model_fields:
            return model
        return create_model(
            model.__name__,
            __base__=model,
            __doc__=model.__doc__,
            user_id=(
                UserId,
                Field(
                    user_id_default, description="Customer ID; defaults to the current customer."
                ),
            ),
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
            func=call,
            name=name,
            description=TOOL_DESCRIPTIONS[name],
            args_schema=schema,
            handle_validation_error=lambda exc: json.dumps(
                {"error": describe_validation_error(exc)}, ensure_ascii=False
            ),
        )

    return [make(name) for name in TOOL_SCHEMAS]
