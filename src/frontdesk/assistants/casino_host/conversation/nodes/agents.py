"""The four agents (items 15-16, 18-19): host, dining, entertainment and comp.

Each agent runs its tools in code (tools.py) and has the model write the reply from their
FACTS, the whisper plan's private note and, on a retry, the validator's feedback. Handoffs
between agents are silent `Command(goto=...)` updates (item 16): the host passes a message
full of another agent's words to that agent, and a specialist whose tools find nothing hands it
back to the host; one handoff per turn, so two agents can never pass a message back and forth.

The model is called through the service's circuit breaker (item 26): while it is open, and
when a call fails, the turn goes to the static fallback without waiting on the model.
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable, Sequence
from typing import Any

from langchain_core.messages import AIMessage, BaseMessage, HumanMessage, SystemMessage
from langgraph.runtime import Runtime
from langgraph.types import Command

from frontdesk.agentkit.streaming import message_text
from frontdesk.agentkit.validation import without_restated_question, without_users_own_words
from frontdesk.assistants.casino_host.conversation import prompts, tools
from frontdesk.assistants.casino_host.conversation.absent_reply import absent_reply
from frontdesk.assistants.casino_host.conversation.composed import composed_reply
from frontdesk.assistants.casino_host.conversation.context import CasinoHostContext
from frontdesk.assistants.casino_host.conversation.field_reply import (
    Before,
    FieldReply,
    field_reply,
)
from frontdesk.assistants.casino_host.conversation.list_reply import list_reply
from frontdesk.assistants.casino_host.conversation.nodes.common import (
    casino_values,
    guest_text,
    reply,
)
from frontdesk.assistants.casino_host.conversation.nodes.understanding import with_opening
from frontdesk.assistants.casino_host.conversation.routing import (
    COMP_AGENT,
    DINING_AGENT,
    ENTERTAINMENT_AGENT,
    HOST_AGENT,
    VALIDATE,
)
from frontdesk.llm.breaker import CircuitOpen

logger = logging.getLogger(__name__)

HISTORY_FOR_AGENT = 6  # messages: a 0.5B model loses the thread in longer histories


def handoff_target(agent: str, facts_found: bool, handoffs: list[str]) -> str | None:
    """`back_to_host` (item 16, pure): a specialist whose tools found nothing passes the
    message to the host, once per turn."""
    if agent != HOST_AGENT and not facts_found and HOST_AGENT not in handoffs:
        return HOST_AGENT
    return None


def run_tools(agent: str, ctx: CasinoHostContext, state: dict[str, Any]) -> tools.Facts:
    text = guest_text(state)
    facts = tools.Facts()
    if agent == DINING_AGENT:
        tools.search_dining(ctx, text, facts)
    elif agent == ENTERTAINMENT_AGENT:
        tools.search_entertainment(ctx, text, facts)
        tools.search_spa(ctx, text, facts)
        tools.get_event_schedule(ctx, facts)
    elif agent == COMP_AGENT:
        plan = state.get("whisper_plan") or {}
        tools.get_eligible_offers(ctx, plan.get("offer_readiness_score"), facts)
        tools.active_offers(ctx, facts)
    else:
        tools.search_knowledge_base(ctx, text, facts)
    return facts


def agent_messages(agent: str, state: dict[str, Any], ctx: CasinoHostContext,
                   facts: tools.Facts) -> list[BaseMessage]:  # fmt: skip
    plan = state.get("whisper_plan") or {}
    note = plan.get("conversation_note")
    feedback = state.get("retry_feedback") if int(state.get("retry_count") or 0) > 0 else None
    language = state.get("language") or "en"
    system = prompts.fill(
        prompts.AGENT_SYSTEM,
        language_name=prompts.LANGUAGE_NAMES.get(language, "English"),
        agent_rules=prompts.AGENT_RULES[agent],
        facts="\n".join(f"- {line}" for line in facts.lines),
        note=prompts.fill(prompts.PLAN_NOTE, note=note) if note else "",
        feedback=prompts.fill(prompts.RETRY_NOTE, feedback=feedback) if feedback else "",
        **casino_values(ctx),
    )
    history = [m for m in (state.get("messages") or []) if isinstance(m, HumanMessage | AIMessage)]
    # A retry's rejected draft is the last message: the model sees the feedback, not the draft.
    if history and isinstance(history[-1], AIMessage):
        history = history[:-1]
    return [SystemMessage(content=system), *history[-HISTORY_FOR_AGENT:]]


async def call_model(ctx: CasinoHostContext, messages: list[BaseMessage]) -> str | None:
    """The model's reply through the breaker; None when it is open or the call failed."""
    try:
        answer = await ctx.services.breaker.call(lambda: ctx.llm.ainvoke(messages))
    except CircuitOpen:
        logger.warning("model circuit open: the fallback answers")
        return None
    except Exception as exc:  # noqa: BLE001 - the fallback answers; the breaker counted it
        logger.warning("agent model call failed (%s): the fallback answers", type(exc).__name__)
        return None
    return message_text(answer).strip() or None


def said_in_code(
    state: dict[str, Any],
    ctx: CasinoHostContext,
    agent: str,
    text: str,
    tools_used: list[str],
    facts: list[str],
    sources: Sequence[str] = (),
) -> Command:
    """A reply worked out in code, with the facts it restates and the catalog items they come
    from (`sources`), to validation like any other: no model call."""
    update = {
        "retrieved_context": [{"content": line} for line in facts],
        "sources_used": list(dict.fromkeys(sources)),
        "offer": None,
        "used_tools": tools_used,
        "model_failed": False,
    }
    update = reply(state, with_opening(state, ctx, text), agent, skip_validation=False, **update)
    return Command(goto=VALIDATE, update=update)


def _worked_out(
    state: dict[str, Any], ctx: CasinoHostContext, facts: tools.Facts
) -> FieldReply | None:
    return field_reply(
        ctx, guest_text(state), state.get("language") or "en", facts.hits, turn_before(state)
    )


def turn_before(state: dict[str, Any]) -> Before | None:
    """The guest's message before this one and the host's reply to it, if any."""
    messages = [m for m in state.get("messages") or [] if isinstance(m, HumanMessage | AIMessage)]
    guest = [i for i, m in enumerate(messages) if isinstance(m, HumanMessage)]
    if len(guest) < 2:
        return None
    start, end = guest[-2], guest[-1]
    answers = [message_text(m) for m in messages[start + 1 : end] if isinstance(m, AIMessage)]
    return Before(message_text(messages[start]), " ".join(answers))


def escalated_reply(state: dict[str, Any], ctx: CasinoHostContext) -> dict[str, Any]:
    """The guest asked for a person (or complained): told who will answer and when."""
    language = state.get("language") or "en"
    when = prompts.ESCALATION_WHEN.get(language, prompts.ESCALATION_WHEN["en"])
    text = prompts.say(
        prompts.ESCALATED,
        language,
        when=when[0] if ctx.catalog.in_business_hours(ctx.now) else when[1],
        **casino_values(ctx),
    )
    return reply(state, text, HOST_AGENT, skip_validation=True, offer=None)


def make_agent(agent: str) -> Callable[..., Awaitable[Command]]:
    """The agent node: always a `Command`, to validation or (a handoff) to another agent, so
    no static edge runs beside a handoff."""

    async def node(state: dict[str, Any], runtime: Runtime[CasinoHostContext]) -> Command:
        return await answer(agent, state, runtime.context)

    node.__name__ = agent
    return node


async def answer(agent: str, state: dict[str, Any], ctx: CasinoHostContext) -> Command:
    if agent == HOST_AGENT and state.get("query_type") == "sensitive":
        return Command(goto=VALIDATE, update=escalated_reply(state, ctx))
    language = state.get("language") or "en"
    question = guest_text(state)
    if agent != COMP_AGENT:
        # Something the casino does not have: said so, never a look-alike's hours. The reply
        # is its own fact: the name in it is the guest's ("picasso" at Mohegan Sun is another
        # casino's restaurant, which the grounding check would take for an invented venue).
        if lacking := absent_reply(ctx, question, language):
            return said_in_code(state, ctx, agent, lacking, ["absent_reply"], [lacking])
        # Every venue of the asked category, from the catalog.
        if listed := list_reply(ctx, question, language):
            return said_in_code(state, ctx, agent, listed.text, ["list_reply"], [listed.text],
                                listed.names)  # fmt: skip
    handoffs = list(state.get("handoffs") or [])
    facts = run_tools(agent, ctx, state)
    retry = int(state.get("retry_count") or 0) > 0
    if agent != COMP_AGENT and not retry and (worked := _worked_out(state, ctx, facts)):
        # A field of one venue (its hours on the asked day, its price...), stated from the
        # catalog even when this agent's search found nothing ("y mañana?").
        used = [*facts.tools, "field_reply"]
        return said_in_code(state, ctx, agent, worked.text, used, [worked.fact, *facts.lines],
                            [worked.venue])  # fmt: skip
    target = handoff_target(agent, bool(facts.lines), handoffs)
    if target is not None:
        return Command(
            goto=target, update={"active_agent": target, "handoffs": [*handoffs, target]}
        )
    update: dict[str, Any] = {
        "retrieved_context": [{"content": line} for line in facts.lines],
        "sources_used": list(facts.names),
        "offer": facts.offer,
        "used_tools": facts.tools,
        "model_failed": False,
    }
    if not facts.lines:
        text = prompts.say(prompts.NOTHING_FOUND, language, **casino_values(ctx))
        update = reply(state, with_opening(state, ctx, text), agent, skip_validation=True, **update)
        return Command(goto=VALIDATE, update=update)
    if retry and (composed := composed_reply(facts, language, guest_text(state))):
        # The second attempt restates the facts in code: asked again, the model mostly
        # repeats its mistake (composed.py).
        update = reply(state, with_opening(state, ctx, composed), agent, skip_validation=False,
                       **update)  # fmt: skip
        return Command(goto=VALIDATE, update=update)
    drafted = await call_model(ctx, agent_messages(agent, state, ctx, facts))
    if drafted is not None:
        drafted = without_restated_question(drafted, guest_text(state))
        drafted = without_users_own_words(drafted, guest_text(state))
    if drafted is None:
        update = {**update, "model_failed": True, "skip_validation": True, "speaker": agent}
        return Command(goto=VALIDATE, update=update)
    update = reply(state, with_opening(state, ctx, drafted), agent, skip_validation=False, **update)
    return Command(goto=VALIDATE, update=update)
