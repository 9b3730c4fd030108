"""The telecom agents as graph nodes (functions of state returning updates) and routing.

router -> technical_retrieve -> technical_answer | billing | fallback. Each agent writes one
reply; the router's choice and the agent's outcome (last_agent, context flags, sources, tools
used) stay in the state, which the checkpointer keeps per session.
"""

from __future__ import annotations

import hashlib
import logging
from string import Template
from typing import Any

from langchain_core.messages import AIMessage, BaseMessage, HumanMessage, SystemMessage
from langchain_core.runnables import RunnableConfig
from langgraph.runtime import Runtime

from frontdesk.agentkit.handoff import conversation_of
from frontdesk.agentkit.language import detect_language
from frontdesk.agentkit.prompts import render, structured_verdict
from frontdesk.agentkit.streaming import human_texts, message_text
from frontdesk.agentkit.tool_calling import (
    Chooser,
    ToolDecision,
    ToolSpec,
    choose_tool,
    customer_texts,
    decide_tool,
    describe_tools,
)
from frontdesk.assistants.telecom import extract, prompts
from frontdesk.assistants.telecom.replies import tool_reply
from frontdesk.assistants.telecom.state import AGENTS, RouterOutput, TelecomContext, TelecomState
from frontdesk.assistants.telecom.technical import (
    bounded_context,
    earlier_questions,
    grounded_answer,
    latest_question,
    source_block,
    technical_query,
    with_sources,
)
from frontdesk.assistants.telecom.tools import TOOL_SCHEMAS, run_tool
from frontdesk.guardrails import guard_for
from frontdesk.knowledge.mmr import citation_of
from frontdesk.routing.handoff import asks_for_person
from frontdesk.routing.keywords import KeywordCounts
from frontdesk.routing.sticky import has_recent_agent_context, sticky_route

logger = logging.getLogger(__name__)

ROUTER = "router"
TECHNICAL_RETRIEVE = "technical_retrieve"
TECHNICAL_ANSWER = "technical_answer"
BILLING = "billing"
FALLBACK = "fallback"
HANDOFF = "handoff"  # a person instead of the bot: telecom/handoff.py
ROUTES = {
    "technical": TECHNICAL_RETRIEVE,
    "billing": BILLING,
    "fallback": FALLBACK,
    "handoff": HANDOFF,
}
VERDICT_TOKENS = 96

TOOL_SPECS: tuple[ToolSpec, ...] = (
    ToolSpec(
        "get_subscription",
        "the customer's plan, monthly price, subscription status and invoices",
        TOOL_SCHEMAS["get_subscription"],
        context_args=("user_id",),
    ),
    ToolSpec(
        "open_refund_case",
        "open a refund case for one invoice (invoice_id, reason, amount_pln)",
        TOOL_SCHEMAS["open_refund_case"],
        context_args=("user_id",),
        extractors={
            "invoice_id": extract.invoice_id,
            "amount_pln": extract.amount_pln,
        },
        grounded=("invoice_id", "amount_pln", "description"),
    ),
    ToolSpec(
        "get_refund_policy",
        "the refund rules: cooling-off days, processing time, what is not refundable",
        TOOL_SCHEMAS["get_refund_policy"],
    ),
)
# Stems of technical and billing words, English and Polish: the fallback agent's route hints
# (seed: _infer_route_hint) and extra evidence for the router's classifier (routing/keywords).
TECH_STEMS = ["sieć", "sieci", "siec", "połącz", "polacz", "internet", "wifi", "wi-fi", "router", "modem", "światłowod", "swiatlowod", "zasięg", "zasieg", "mms", "sms", "apn", "most", "bridge", "ont", "pon", "los", "diod", "prędko", "predko", "ping", "5g", "lte", "dsl", "ftth", "sygnał", "sygnal", "kabel", "restart", "zrywa", "wolny", "wolno", "signal", "slow", "speed", "connect", "drop", "network", "led", "cable", "latency", "outage", "dns", "lag", "fibre", "fiber"]
BILLING_STEMS = ["faktur", "rachun", "płat", "plat", "opłat", "oplat", "zwrot", "kwot", "cena", "cen", "koszt", "abonament", "plan", "zł", "pln", "refund", "invoice", "bill", "charg", "pay", "price", "cost", "subscription", "money", "fee", "overcharg", "obciąż", "obciaz", "nadpłat", "reklamac", "umow", "contract"]
ROUTE_KEYWORDS = KeywordCounts([TECH_STEMS, BILLING_STEMS])


def _language(state: TelecomState) -> str:
    return detect_language((human_texts(state.get("messages", [])) or [""])[-1])


def _reply(text: str, **updates: Any) -> dict[str, Any]:
    return {"messages": [AIMessage(content=text)], **updates}


# -- router -----------------------------------------------------------------------------------


async def router(
    state: TelecomState, runtime: Runtime[TelecomContext], config: RunnableConfig
) -> dict[str, Any]:
    ctx = runtime.context
    messages = state.get("messages", [])
    text = (human_texts(messages) or [""])[-1]
    # Before anything else: a customer asking for a person, or waiting for one (the bot is
    # silent on a thread whose ticket is open), goes to the handoff agent, long thread or not.
    if ctx.tickets is not None and (
        asks_for_person(text) or await ctx.tickets.active(*conversation_of(config))
    ):
        return {"route": HANDOFF, "route_method": "handoff", "router_confidence": 1.0}
    if len(messages) > ctx.max_messages:
        return {"route": FALLBACK, "route_method": "turn_limit", "router_confidence": 1.0}
    audit = guard_for(ctx.router.embeddings).check(text)
    if audit.flagged:
        logger.warning("guardrail %s flagged a message: %r", audit.family, audit.matched)
        return {
            "route": FALLBACK,
            "category": "unknown",
            "router_confidence": 1.0,
            "route_method": "guardrail",
            "guardrail": audit.family,
        }
    decision = await ctx.router.route(text)
    route = sticky_route(
        decision.label,
        decision.confidence,
        state.get("last_agent"),
        has_recent_agent_context(messages),
        agents=AGENTS,
    )
    return {
        "route": route,
        "category": decision.label,
        "router_confidence": decision.confidence,
        "route_method": decision.method,
        "router_reasoning": routing_reason(decision.label, decision.confidence, route, decision.method),
        "guardrail": None,
    }


def routing_reason(category: str, confidence: float, route: str, method: str) -> str:
    """Why this route, in words (the seed's `reasoning`, for the audit trail)."""
    said = f"{method} says {category} at {confidence:.2f}"
    if route == category:
        return f"{said}: routed to {route}"
    if route == "fallback":
        return f"{said}: not confident about an agent, asking to clarify"
    return f"{said}: stayed with {route}, already helping in this conversation"


def route_from_router(state: TelecomState) -> str:
    return ROUTES.get(state.get("route") or "fallback", FALLBACK)


async def llm_route(llm, text: str) -> tuple[str, float]:
    """The LLM router: structured output constrained to the three categories."""
    result = await structured_verdict(llm, RouterOutput, VERDICT_TOKENS).ainvoke(
        render(prompts.ROUTER_PROMPT, message=text)
    )
    if not isinstance(result, RouterOutput):
        result = RouterOutput.model_validate(result)
    return result.category, result.confidence


# -- technical agent --------------------------------------------------------------------------


def technical_retrieve(state: TelecomState, runtime: Runtime[TelecomContext]) -> dict[str, Any]:
    found = runtime.context.retriever.retrieve(technical_query(state.get("messages", [])))
    return {
        "retrieved_context": [] if found.no_context else found.hits,
        "retrieval": {
            "no_context": found.no_context,
            "mean_score": found.mean_score,
            "relevance": found.relevance,
            "threshold": found.threshold,
            "reason": found.reason,
        },
    }


def _docs_of(hits: list[dict[str, Any]]) -> list[dict[str, Any]]:
    return [citation_of(hit) for hit in hits]


async def technical_answer(
    state: TelecomState, runtime: Runtime[TelecomContext]
) -> dict[str, Any]:
    ctx = runtime.context
    language = _language(state)
    messages = state.get("messages", [])
    hits = state.get("retrieved_context") or []
    done = {"last_agent": "technical", "used_tools": []}
    if not hits:
        topic = latest_question(messages)[:80]
        missing = render(prompts.NO_CONTEXT_MISSING[language], topic=topic) if topic else ""
        text = render(Template(prompts.NO_CONTEXT[language]), missing=missing)
        flags = {**(state.get("context_flags") or {}), "no_context": True}
        return _reply(text, last_docs=[], context_flags=flags, **done)
    kept = bounded_context(hits, ctx.max_context_chars)
    system = render(prompts.TECHNICAL_SYSTEM, language="Polish" if language == "pl" else "English")
    earlier = earlier_questions(messages)
    conversation = (
        render(prompts.EARLIER_MESSAGES, messages="\n".join(f"- {text}" for text in earlier))
        if earlier
        else ""
    )
    turn = render(
        prompts.TECHNICAL_TURN,
        context="\n\n".join(source_block(hit) for hit in kept),
        conversation=conversation,
        question=latest_question(messages),
    )
    # The customer's earlier words, not the earlier replies: a small model copies those (a
    # billing reply, a previous answer) into this one.
    try:
        text = await grounded_answer(
            ctx.llm, system, turn, [hit["content"] for hit in kept], language
        )
    except Exception:
        logger.exception("technical answer failed")
        return _reply(prompts.MODEL_ERROR[language], **done)
    if not text:
        return _reply(prompts.MODEL_ERROR[language], **done)
    flags = {**(state.get("context_flags") or {}), "no_context": False}
    return _reply(
        with_sources(text, kept, language), last_docs=_docs_of(kept), context_flags=flags, **done
    )


# -- billing agent ----------------------------------------------------------------------------


def billing_window(messages: list[BaseMessage], size: int) -> list[BaseMessage]:
    turns = [m for m in messages if isinstance(m, HumanMessage | AIMessage)]
    return turns[-size:]


def request_key(config: RunnableConfig | None, messages: list[BaseMessage]) -> str:
    """One key per customer request: the session and the position and text of the message.

    A request replayed (a client retry of the same turn) gets the same key, so the tool
    returns the case it opened the first time instead of opening a second one.
    """
    thread = ((config or {}).get("configurable") or {}).get("thread_id", "")
    questions = human_texts(messages)
    raw = f"{thread}\n{len(questions)}\n{questions[-1] if questions else ''}"
    return hashlib.sha256(raw.encode()).hexdigest()[:32]


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
        spec = next((s for s in TOOL_SPECS if s.name == name), None)
        if spec is not None and "user_id" in spec.context_args:
            return prompts.SIGN_IN
    return None


def ask_for(missing: tuple[str, ...], language: str) -> str:
    names = [prompts.FIELD_NAMES[language].get(field, field) for field in missing]
    return render(prompts.ASK_FIELDS[language], fields="; ".join(names))


async def billing_decision(
    llm,
    chooser: Chooser,
    window: list[BaseMessage],
    user_id: str | None,
    error: str | None = None,
) -> ToolDecision:
    """The billing agent's next step over the conversation `window` (tool, args, missing).

    `error`: the previous attempt's tool error, shown to the model so it can fix its values."""
    context = {"user_id": user_id} if user_id else {}
    system = render(
        prompts.BILLING_SYSTEM,
        tools=describe_tools(TOOL_SPECS),
        user_id=user_id or "unknown",
    )
    if error:
        window = [*window, SystemMessage(content=f"Tool error: {error}")]
    return await decide_tool(llm, TOOL_SPECS, chooser, system, window, context)


async def billing(
    state: TelecomState, runtime: Runtime[TelecomContext], config: RunnableConfig
) -> dict[str, Any]:
    ctx = runtime.context
    language = _language(state)
    messages = state.get("messages", [])
    user_id = state.get("user_id")
    window = billing_window(messages, ctx.billing_history)
    flags = dict(state.get("context_flags") or {})
    done: dict[str, Any] = {"last_agent": "billing", "used_tools": []}
    refusal = customer_refusal(messages, user_id, ctx.tool_chooser)
    if refusal is not None:
        return _reply(refusal[language], **done)
    try:
        decision = await billing_decision(ctx.llm, ctx.tool_chooser, window, user_id)
    except Exception:
        logger.exception("billing decision failed")
        return _reply(prompts.MODEL_ERROR[language], **done)
    if decision.tool is None:
        return await _billing_chat(ctx, window, language, done)
    if decision.missing:
        flags["pending_tool"] = decision.tool
        return _reply(ask_for(decision.missing, language), context_flags=flags, **done)
    key = request_key(config, messages)
    outcome = run_tool(ctx.billing, decision.tool, decision.args, request_key=key)
    used = [outcome.to_dict()]
    if not outcome.ok:
        # Once back to the model with the error: it may have misread a value it can fix.
        try:
            second = await billing_decision(
                ctx.llm, ctx.tool_chooser, window, user_id, outcome.error
            )
        except Exception:
            logger.exception("billing retry decision failed")
            second = None
        if second is not None and second.ready and second != decision:
            outcome = run_tool(ctx.billing, second.tool, second.args, request_key=key)
            used.append(outcome.to_dict())
    flags.pop("pending_tool", None)
    if not outcome.ok:
        text = render(prompts.TOOL_FAILED[language], error=outcome.error)
        return _reply(text, context_flags=flags, **{**done, "used_tools": used})
    updates: dict[str, Any] = {**done, "used_tools": used}
    if outcome.name == "open_refund_case":
        flags["refund_in_progress"] = True
        updates["billing_case_id"] = outcome.output["case_id"]
    text = tool_reply(outcome.name, outcome.output, outcome.args, language)
    return _reply(text, context_flags=flags, **updates)


async def _billing_chat(
    ctx: TelecomContext, window: list[BaseMessage], language: str, done: dict[str, Any]
) -> dict[str, Any]:
    system = render(prompts.BILLING_CHAT, language="Polish" if language == "pl" else "English")
    try:
        reply = await ctx.llm.ainvoke([SystemMessage(content=system), *window])
        text = message_text(reply).strip()
    except Exception:
        logger.exception("billing reply failed")
        text = ""
    return _reply(text or prompts.MODEL_ERROR[language], **done)


# -- fallback agent ---------------------------------------------------------------------------


def route_hint(text: str) -> str | None:
    """'technical' or 'billing', whichever has more keywords in the message (advisory only)."""
    technical, billing = ROUTE_KEYWORDS.counts(text)
    if technical > billing:
        return "technical"
    if billing > technical:
        return "billing"
    return None


def fallback(state: TelecomState) -> dict[str, Any]:
    language = _language(state)
    if state.get("route_method") == "turn_limit":
        return _reply(prompts.TURN_LIMIT[language], used_tools=[], route_hint=None)
    if state.get("guardrail"):
        return _reply(prompts.GUARDRAIL[language], used_tools=[], route_hint=None)
    text = (human_texts(state.get("messages", [])) or [""])[-1]
    hint = route_hint(text)
    reply = prompts.FALLBACK[language] + (prompts.FALLBACK_HINT[language][hint] if hint else "")
    return _reply(reply, last_agent="fallback", used_tools=[], route_hint=hint)
