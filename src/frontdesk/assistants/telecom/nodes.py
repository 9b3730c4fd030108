"""The telecom agents as graph nodes (functions of state returning updates) and routing.

router -> technical_retrieve -> technical_answer | billing | fallback (the billing agent is
`billing_agent.py`). Each agent writes one reply; the router's choice and the agent's outcome (last_agent, context flags, sources, tools
used) stay in the state, which the checkpointer keeps per session.
"""

from __future__ import annotations

import asyncio
import logging
import re
from collections.abc import Mapping
from string import Template
from typing import Any

from langchain_core.messages import AIMessage
from langchain_core.runnables import RunnableConfig
from langgraph.runtime import Runtime

from frontdesk.agentkit.handoff import conversation_of
from frontdesk.agentkit.language import conversation_language
from frontdesk.agentkit.prompts import render, structured_verdict
from frontdesk.agentkit.streaming import human_texts
from frontdesk.assistants.telecom import extract, prompts
from frontdesk.assistants.telecom.labelled import labelled_answer
from frontdesk.assistants.telecom.refund_amend import changes_case
from frontdesk.assistants.telecom.refund_intent import requests_refund
from frontdesk.assistants.telecom.refund_slots import describes_invoice
from frontdesk.assistants.telecom.route_words import QUESTION_OPENERS, route_hint
from frontdesk.assistants.telecom.state import AGENTS, RouterOutput, TelecomContext, TelecomState
from frontdesk.assistants.telecom.technical import (
    focused_context,
    from_the_manual,
    grounded_answer,
    latest_question,
    related_earlier,
    source_block,
    technical_query,
    with_sources,
)
from frontdesk.guardrails import guard_for
from frontdesk.knowledge.mmr import citation_of
from frontdesk.routing.handoff import asks_for_person
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
CONTINUATION = "continuation"  # the route method of an answer to the billing agent's question
# A reply this short, while the billing agent waits for an answer, is that answer ("ok",
# "It's u123", "yes, that one") unless it is about a technical matter.
CONTINUATION_WORDS = 6


def _language(state: TelecomState) -> str:
    return conversation_language(human_texts(state.get("messages", [])))


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
    pending = state.get("pending_request")
    if continues_pending_request(pending, text):
        return {
            "route": "billing",
            "category": "billing",
            "router_confidence": 1.0,
            "route_method": CONTINUATION,
            "router_reasoning": f"answers the billing agent's question ({pending['tool']}): "
            "continued with billing",
            "guardrail": None,
        }
    if state.get("last_agent") == "billing" and changes_case(state, text):
        return {
            "route": "billing",
            "category": "billing",
            "router_confidence": 1.0,
            "route_method": "case_change",
            "router_reasoning": "changes the refund case just opened: routed to billing",
            "guardrail": None,
        }
    if extract.invoice_id([text]) is not None or extract.case_id([text]) is not None:
        # An invoice or case number is billing's, whatever else the message says ("my internet
        # was dead for 5 days, refund 20 zł from INV-20250906").
        return {
            "route": "billing",
            "category": "billing",
            "router_confidence": 1.0,
            "route_method": "billing_number",
            "router_reasoning": "names an invoice or a refund case: routed to billing",
            "guardrail": None,
        }
    if requests_refund(text):  # "chcę zwrot 10 zł, bo była awaria": money back, not a fix
        return {
            "route": "billing",
            "category": "billing",
            "router_confidence": 1.0,
            "route_method": "refund_request",
            "router_reasoning": "asks for money back: routed to billing",
            "guardrail": None,
        }
    decision = await ctx.router.route(text)
    route = sticky_route(
        decision.label,
        decision.confidence,
        state.get("last_agent"),
        has_recent_agent_context(messages),
        agents=AGENTS,
    )
    reasoning = routing_reason(decision.label, decision.confidence, route, decision.method)
    # The router is async and serves every turn: the embedding call runs off the event loop.
    if menu_for_a_manual_question(route, decision.label, text) and not (
        (await asyncio.to_thread(ctx.retriever.retrieve, text)).no_context
    ):
        route = "technical"
        reasoning += "; the manuals answer it: routed to technical"
    return {
        "route": route,
        "category": decision.label,
        "router_confidence": decision.confidence,
        "route_method": decision.method,
        "router_reasoning": reasoning,
        "guardrail": None,
    }


def menu_for_a_manual_question(route: str, category: str, text: str) -> bool:
    """Whether the menu would answer a question the manuals may answer: the classifier was
    unsure, did not say billing, and the message asks something ("How much free space should
    I leave around the box?"). The retrieval's relevance gate then decides: what the manuals
    answer is answered, not met with the [TECH]/[BILLING] menu."""
    if route != "fallback" or category == "billing":
        return False
    words = re.findall(r"\w+", text.casefold())
    return "?" in text or bool(words and words[0] in QUESTION_OPENERS)


def routing_reason(category: str, confidence: float, route: str, method: str) -> str:
    """Why this route, in words (the seed's `reasoning`, for the audit trail)."""
    said = f"{method} says {category} at {confidence:.2f}"
    if route == category:
        return f"{said}: routed to {route}"
    if route == "fallback":
        return f"{said}: not confident about an agent, asking to clarify"
    return f"{said}: stayed with {route}, already helping in this conversation"


def continues_pending_request(pending: Mapping[str, Any] | None, text: str) -> bool:
    """Whether a message answers the billing agent's question about a pending request.

    It does when it supplies a value such a request takes (an invoice id, an amount with its
    currency, or a reason the request is missing, stated rather than asked), or when it is
    short and not about a technical matter. A classifier reads "ok, u123" or "It's
    INV-20251001" as small talk; the conversation reads it as the answer it is."""
    if not pending:
        return False
    if extract.invoice_id([text]) is not None or extract.amount_pln([text]) is not None:
        return True
    if extract.cancels(text):
        return True  # "never mind", "jednak nie"
    asked_invoice = "invoice_id" in (pending.get("missing") or ()) or pending.get("offered")
    if asked_invoice and describes_invoice(text):
        return True  # "the September one", "ta ostatnia"
    asked_reason = "reason" in (pending.get("missing") or ())
    if asked_reason and extract.states_reason(text) and "?" not in text:
        return True
    words = re.findall(r"\w+", text.casefold())
    if words and words[0] in QUESTION_OPENERS:
        return False  # "what is the status of my case?" is a new question, not the answer
    return len(words) <= CONTINUATION_WORDS and route_hint(text) != "technical"


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


async def technical_answer(state: TelecomState, runtime: Runtime[TelecomContext]) -> dict[str, Any]:
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
    query = technical_query(messages)
    # A Polish question is focused with its English rendering too: most manuals are English.
    translated = ctx.retriever.translate(query) if ctx.retriever.translate else None
    focused = focused_context(f"{query} {translated or ''}", hits, ctx.max_context_chars)
    kept = [hit for hit, _ in focused]
    # An indicator's state the manual lists ("PON LED blinking red"): its own sentence, no model.
    if stated := labelled_answer(latest_question(messages), [text for _, text in focused]):
        flags = {**(state.get("context_flags") or {}), "no_context": False}
        return _reply(with_sources(stated, kept, language), last_docs=_docs_of(kept),
                      context_flags=flags, **done)  # fmt: skip
    system = render(prompts.TECHNICAL_SYSTEM, language="Polish" if language == "pl" else "English")
    earlier = related_earlier(messages)
    conversation = (
        render(prompts.EARLIER_MESSAGES, messages="\n".join(f"- {text}" for text in earlier))
        if earlier
        else ""
    )
    turn = render(
        prompts.TECHNICAL_TURN,
        context="\n\n".join(source_block(hit, text) for hit, text in focused),
        conversation=conversation,
        question=latest_question(messages),
    )
    # The customer's earlier words, not the earlier replies: a small model copies those (a
    # billing reply, a previous answer) into this one.
    try:
        text = await grounded_answer(
            ctx.llm,
            system,
            turn,
            [text for _, text in focused],
            language,
            question=latest_question(messages),
        )
    except Exception:  # the model failed or ran out of time: the manual's sentences instead
        logger.exception("technical answer failed")
        text = from_the_manual(latest_question(messages), [t for _, t in focused], language)
        if text is None:
            return _reply(prompts.MODEL_ERROR[language], **done)
    if not text:
        return _reply(prompts.MODEL_ERROR[language], **done)
    flags = {**(state.get("context_flags") or {}), "no_context": False}
    return _reply(
        with_sources(text, kept, language), last_docs=_docs_of(kept), context_flags=flags, **done
    )


# -- fallback agent ---------------------------------------------------------------------------


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
