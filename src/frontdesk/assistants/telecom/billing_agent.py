"""The telecom billing agent: chooses a tool, fills its arguments, runs it, replies from its output.

A request may take several turns. When a required argument is missing the agent asks for it and
keeps the request in the state (`pending_request`: the tool, the arguments given so far, what
is missing, and which message opened it). The router sends the answer back here
(`nodes.continues_pending_request`), and the answer's values are merged with those given
before, so "ok, INV-20251001" completes the refund asked for a turn earlier. The request keeps
the key of the message that opened it, so however many turns it takes, and however often a
turn is replayed, it opens one case.

With the embedded model the decision is the structured two-step one of `agentkit.tool_calling`;
a hosted model with native tool calling gets the same tools (`tool_runner.build_tools`) bound,
and its call passes the same rules and the same `run_tool`. Either way the decision call never
streams to the client, and the turn writes one reply: the tool's output in words (`replies`),
a question for what is missing, or a short answer.
"""

from __future__ import annotations

import hashlib
import logging
from collections.abc import Sequence
from typing import Any

from langchain_core.messages import AIMessage, BaseMessage, HumanMessage, SystemMessage
from langchain_core.runnables import RunnableConfig
from langgraph.runtime import Runtime

from frontdesk.agentkit.grounding import check_grounding
from frontdesk.agentkit.language import conversation_language
from frontdesk.agentkit.prompts import render
from frontdesk.agentkit.streaming import human_texts, message_text
from frontdesk.agentkit.tool_calling import (
    Chooser,
    ToolDecision,
    ToolSpec,
    choose_tool,
    customer_texts,
    decide_tool,
    decide_tool_natively,
    describe_tools,
    supports_native_tools,
)
from frontdesk.assistants.telecom import extract, prompts
from frontdesk.assistants.telecom.billing_db import InvoiceRecord
from frontdesk.assistants.telecom.nodes import CONTINUATION
from frontdesk.assistants.telecom.refund_amend import case_change_reply
from frontdesk.assistants.telecom.refund_flow import RefundStep, describe_invoice, refund_step
from frontdesk.assistants.telecom.refund_intent import REFUND_TOOL, refund_first
from frontdesk.assistants.telecom.replies import tool_reply
from frontdesk.assistants.telecom.state import PendingRequest, TelecomContext, TelecomState
from frontdesk.assistants.telecom.tool_runner import build_tools, run_tool
from frontdesk.assistants.telecom.tools import TOOL_SCHEMAS

logger = logging.getLogger(__name__)


def _latest(extractor):
    """Only the latest message: a lookup is about what this message names, not an older one."""
    return lambda texts: extractor(texts[-1:])


TOOL_SPECS: tuple[ToolSpec, ...] = (
    ToolSpec(
        "get_subscription",
        "the customer's plan, monthly price and subscription status",
        TOOL_SCHEMAS["get_subscription"],
        context_args=("user_id",),
    ),
    ToolSpec(
        "get_invoices",
        "the customer's invoices: amounts and whether each is paid, unpaid or overdue",
        TOOL_SCHEMAS["get_invoices"],
        context_args=("user_id",),
        extractors={"invoice_id": _latest(extract.invoice_id)},
        extract_only=("invoice_id",),
    ),
    ToolSpec(
        "open_refund_case",
        "open a refund case for one invoice (invoice_id, reason, amount_pln)",
        TOOL_SCHEMAS["open_refund_case"],
        context_args=("user_id",),
        extractors={
            "invoice_id": extract.invoice_id,
            "amount_pln": extract.amount_pln,
            "reason": extract.stated_reason,
        },
        grounded=("invoice_id", "amount_pln", "description"),
    ),
    ToolSpec(
        "get_refund_cases",
        "the status of the customer's refund cases",
        TOOL_SCHEMAS["get_refund_cases"],
        context_args=("user_id",),
        extractors={"case_id": _latest(extract.case_id)},
        extract_only=("case_id",),
    ),
    ToolSpec(
        "get_refund_policy",
        "the refund rules: cooling-off days, processing time, what is not refundable",
        TOOL_SCHEMAS["get_refund_policy"],
    ),
)
SPECS_BY_NAME = {spec.name: spec for spec in TOOL_SPECS}


def language_of(state: TelecomState) -> str:
    """The latest message's language; an answer with no sign of its own ("INV-20251001",
    "awaria") is in the language the customer wrote in before."""
    return conversation_language(human_texts(state.get("messages", [])))


def billing_window(messages: list[BaseMessage], size: int) -> list[BaseMessage]:
    turns = [m for m in messages if isinstance(m, HumanMessage | AIMessage)]
    return turns[-size:]


def request_key(config: RunnableConfig | None, opened_at: int, opening: str) -> str:
    """One key per customer request: the session and the position and text of the message
    that opened it.

    A request replayed (a client retry of the same turn), or completed over several turns,
    gets the same key, so the tool returns the case it opened the first time instead of
    opening a second one.
    """
    thread = ((config or {}).get("configurable") or {}).get("thread_id", "")
    raw = f"{thread}\n{opened_at}\n{opening}"
    return hashlib.sha256(raw.encode()).hexdigest()[:32]


def turn_key(config: RunnableConfig | None, messages: list[BaseMessage]) -> str:
    """The key of a request the turn's own message opens (its position and text)."""
    questions = human_texts(messages)
    return request_key(config, len(questions), questions[-1] if questions else "")


def customer_refusal(
    messages: list[BaseMessage], user_id: str | None, chooser: Chooser
) -> dict[str, str] | None:
    """The reply when a billing request cannot act for the caller: the message names another
    customer, or a tool that reads an account is wanted and nobody is signed in."""
    latest = human_texts(messages)[-1:]
    named = extract.user_id(latest)
    if named is not None and named != (user_id or "").lower():
        return prompts.OTHER_CUSTOMER if user_id else prompts.SIGN_IN
    if user_id is None:
        name, _confidence = choose_tool(chooser, customer_texts(messages))
        spec = SPECS_BY_NAME.get(name)
        if spec is not None and "user_id" in spec.context_args:
            return prompts.SIGN_IN
    return None


def ask_for(missing: tuple[str, ...], language: str) -> str:
    names = [prompts.FIELD_NAMES[language].get(field, field) for field in missing]
    return render(prompts.ASK_FIELDS[language], fields="; ".join(names))


def ask_next(step: RefundStep, language: str) -> str:
    """The agent's question: which of the invoices that fit, else what is still missing; an
    invoice found from the customer's description is named first, so they can correct it."""
    if step.offered:
        choices = ", ".join(describe_invoice(i) for i in step.offered)
        return render(prompts.WHICH_INVOICE[language], choices=choices)
    asked = ask_for(step.decision.missing, language)
    if step.found_by_lookup is not None:
        found = render(
            prompts.FOUND_INVOICE[language], invoice=describe_invoice(step.found_by_lookup)
        )
        return f"{found} {asked}"
    return asked


async def billing_decision(
    llm,
    chooser: Chooser,
    window: list[BaseMessage],
    user_id: str | None,
    error: str | None = None,
    *,
    pending: PendingRequest | None = None,
    native_tools: list | None = None,
) -> ToolDecision:
    """The billing agent's next step over the conversation `window` (tool, args, missing).

    `error`: the previous attempt's tool error, shown to the model so it can fix its values.
    `pending`: the request this message continues: its tool, and its arguments as known.
    `native_tools`: the tools to bind for a model with native tool calling."""
    context = {"user_id": user_id} if user_id else {}
    known = {pending["tool"]: pending["args"]} if pending else {}
    system = render(
        prompts.BILLING_SYSTEM,
        tools=describe_tools(TOOL_SPECS),
        user_id=user_id or "unknown",
    )
    if error:
        window = [*window, SystemMessage(content=f"Tool error: {error}")]
    if native_tools:
        return await decide_tool_natively(
            llm, native_tools, TOOL_SPECS, system, window, context, known=known
        )
    if pending:  # the tool is the pending request's: an answer alone would choose no tool
        chooser = _always(pending["tool"])
    return await decide_tool(llm, TOOL_SPECS, chooser, system, window, context, known=known)


def _always(tool: str) -> Chooser:
    return lambda _text: (tool, 1.0)


def _continued(state: TelecomState, chooser: Chooser) -> PendingRequest | None:
    """The pending request this turn continues: the router found the message answers it, or
    the customer asks for the same tool again in their own words."""
    pending = state.get("pending_request")
    if not pending:
        return None
    if state.get("route_method") == CONTINUATION:
        return pending
    name, _confidence = choose_tool(chooser, human_texts(state.get("messages", []))[-1:])
    return pending if name == pending["tool"] else None


def _reply(text: str, reply_id: str, **updates: Any) -> dict[str, Any]:
    # One reply per turn, under an id fixed for the turn: a later rewrite of it (a retry, a
    # node after this one) replaces it instead of leaving a draft in the conversation.
    return {"messages": [AIMessage(content=text, id=reply_id)], **updates}


def reply_id(config: RunnableConfig | None, messages: list[BaseMessage]) -> str:
    thread = ((config or {}).get("configurable") or {}).get("thread_id", "")
    return f"billing:{thread}:{len(human_texts(messages))}"


async def billing(
    state: TelecomState, runtime: Runtime[TelecomContext], config: RunnableConfig
) -> dict[str, Any]:
    ctx = runtime.context
    language = language_of(state)
    messages = state.get("messages", [])
    user_id = state.get("user_id")
    window = billing_window(messages, ctx.billing_history)
    flags = dict(state.get("context_flags") or {})
    this_reply = reply_id(config, messages)
    done: dict[str, Any] = {"last_agent": "billing", "used_tools": []}
    chooser = refund_first(ctx.tool_chooser)
    refusal = customer_refusal(messages, user_id, chooser)
    if refusal is not None:
        return _reply(refusal[language], this_reply, **done)
    pending = _continued(state, chooser)
    if not pending and (changed := case_change_reply(state, ctx, language)) is not None:
        return _reply(changed, this_reply, **done)
    latest = (human_texts(messages) or [""])[-1]
    if pending and extract.cancels(latest) and not _gives_values(latest):
        return _reply(prompts.REQUEST_DROPPED[language], this_reply, pending_request=None, **done)
    if pending and pending["tool"] == REFUND_TOOL:
        # What the customer's records answer ("the September one", a bare "20" for the amount)
        # is known before the decision, so the model is not asked for it.
        waiting = ToolDecision(REFUND_TOOL, dict(pending["args"]), tuple(pending["missing"]))
        pending = {**pending, "args": refund_step(ctx, state, pending, waiting).decision.args}
    native = native_tools(ctx, user_id) if supports_native_tools(ctx.llm) else None

    async def decide(error: str | None = None) -> ToolDecision:
        return await billing_decision(
            ctx.llm,
            chooser,
            window,
            user_id,
            error,
            pending=pending,
            native_tools=native,
        )

    try:
        step = refund_step(ctx, state, pending, await decide())
    except Exception:
        logger.exception("billing decision failed")
        return _reply(prompts.MODEL_ERROR[language], this_reply, **done)
    decision = step.decision
    if decision.tool is None:
        text = decision.reply or await _billing_chat(ctx, window, language)
        return _reply(text, this_reply, **done)
    questions = human_texts(messages)
    opened_at, opening = (
        (pending["opened_at"], pending["opening"])
        if pending and pending["tool"] == decision.tool
        else (len(questions), questions[-1] if questions else "")
    )
    if decision.missing:
        if "user_id" in decision.missing:  # the customer is the signed-in caller: never ask
            return _reply(prompts.SIGN_IN[language], this_reply, **done)
        waiting = _pending(decision, opened_at, opening, step.offered)
        return _reply(ask_next(step, language), this_reply, pending_request=waiting, **done)
    key = request_key(config, opened_at, opening)  # turn_key's when this message opened it
    outcome = run_tool(ctx.billing, decision.tool, decision.args, request_key=key)
    used = [outcome.to_dict()]
    if not outcome.ok:
        # Once back to the model with the error: it may have misread a value it can fix.
        try:
            second = refund_step(ctx, state, pending, await decide(outcome.error)).decision
        except Exception:
            logger.exception("billing retry decision failed")
            second = None
        if second is not None and second.ready and second != decision:
            decision = second
            outcome = run_tool(ctx.billing, second.tool, second.args, request_key=key)
            used.append(outcome.to_dict())
    updates: dict[str, Any] = {**done, "used_tools": used, "pending_request": None}
    if not outcome.ok:
        # A refund refused for a value (an amount above the invoice) stays open: the
        # customer's correction continues it under the same key.
        if _needs_customer_values(decision.tool):
            updates["pending_request"] = _pending(decision, opened_at, opening)
        text = render(prompts.TOOL_FAILED[language], error=outcome.error)
        return _reply(text, this_reply, context_flags=flags, **updates)
    if outcome.name == "open_refund_case":
        flags["refund_in_progress"] = True
        updates["billing_case_id"] = outcome.output["case_id"]
    text = tool_reply(outcome.name, outcome.output, outcome.args, language)
    return _reply(text, this_reply, context_flags=flags, **updates)


def native_tools(ctx: TelecomContext, user_id: str | None) -> list:
    """The tools bound for a natively calling model: the caller's id is each one's default,
    and nobody signed in gets only those that read no account (nothing to ask an id for)."""
    tools = build_tools(ctx.billing, user_id_default=user_id)
    if user_id:
        return tools
    return [t for t in tools if "user_id" not in SPECS_BY_NAME[t.name].context_args]


def _needs_customer_values(tool: str | None) -> bool:
    spec = SPECS_BY_NAME.get(tool or "")
    return spec is not None and any(a not in spec.context_args for a in spec.required())


def _pending(
    decision: ToolDecision, opened_at: int, opening: str, offered: Sequence[InvoiceRecord] = ()
) -> PendingRequest:
    spec = SPECS_BY_NAME.get(decision.tool or "")
    context_args = spec.context_args if spec else ()
    waiting = PendingRequest(
        tool=decision.tool or "",
        args={k: v for k, v in decision.args.items() if k not in context_args},
        missing=list(decision.missing),
        opened_at=opened_at,
        opening=opening,
    )
    if offered:
        waiting["offered"] = [i.invoice_id for i in offered]
    return waiting


def _gives_values(text: str) -> bool:
    """Whether a message gives a refund's invoice or amount ("forget the 20, make it 30 zł")."""
    return extract.invoice_id([text]) is not None or extract.amount_pln([text]) is not None


async def _billing_chat(ctx: TelecomContext, window: list[BaseMessage], language: str) -> str:
    system = render(prompts.BILLING_CHAT, language="Polish" if language == "pl" else "English")
    try:
        reply = await ctx.llm.ainvoke([SystemMessage(content=system), *window])
        text = message_text(reply).strip()
    except Exception:
        logger.exception("billing reply failed")
        text = ""
    if not text:
        return prompts.MODEL_ERROR[language]
    # A reply with no tool behind it states nothing of the account: a date, an amount or an id
    # the conversation does not hold is the model's invention ("since 2025-09-01" after a
    # reply that said 2025-08-15), and the customer gets the offer of what can be looked up.
    said = [message_text(m) for m in window]
    if not check_grounding(text, said).grounded:
        logger.info("billing chat reply stated what the conversation does not: replaced")
        return prompts.BILLING_OFFER[language]
    return text
