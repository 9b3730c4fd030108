"""router, greeting_node and off_topic_node (items 13-14, 17, 37, 44).

The router reads what the guest said before anyone answers: its intent (the embedding
classifier over shipped examples; the model only when configured or unsure), the profile
facts it states (deterministic extraction), the language to answer in, and whether the guest
asks for a person. The greeting and off-topic replies are templates: no model.
"""

from __future__ import annotations

import asyncio
import logging
from typing import Any

from langgraph.runtime import Runtime
from pydantic import BaseModel, Field

from frontdesk.assistants.casino_host.conversation import prompts
from frontdesk.assistants.casino_host.conversation.context import CasinoHostContext
from frontdesk.assistants.casino_host.conversation.escalation import (
    UNCLEAR_BEFORE_ESCALATION,
    UNCLEAR_BEFORE_MENU,
    escalation_trigger,
)
from frontdesk.assistants.casino_host.conversation.extraction import detect_language, extract
from frontdesk.assistants.casino_host.conversation.extraction.fields import SELF_REPORTED
from frontdesk.assistants.casino_host.conversation.naming import named_venue
from frontdesk.assistants.casino_host.conversation.nodes.common import (
    casino_values,
    guest_name,
    guest_text,
    guest_texts,
    reply,
)
from frontdesk.assistants.casino_host.conversation.routing import (
    GREETING,
    HOST_AGENT,
    MIN_ROUTER_CONFIDENCE,
    OFF_TOPIC,
    agent_named,
    guide_question_after_all,
)
from frontdesk.assistants.casino_host.conversation.windowing import window_updates
from frontdesk.assistants.casino_host.profile import TIMEZONE, area_code_guess
from frontdesk.routing.asked_field import asked_field
from frontdesk.routing.followup import is_follow_up

logger = logging.getLogger(__name__)

DOMAINS = ("dining", "entertainment", "comp", "host")
# The classifier's labels that are not a domain are the query type itself (D5).
QUERY_TYPES = ("greeting", "identity_check", "off_topic", "ambiguous", "domain_query", "sensitive")
LANGUAGE_PATH = "core_identity.language"


class RouterOutput(BaseModel):
    """Item 13 / D5: what the model router answers, when it is asked."""

    query_type: str = Field(description="greeting|domain_query|off_topic|ambiguous|identity_check")
    router_confidence: float = Field(ge=0.0, le=1.0)
    domain: str | None = Field(default=None, description="dining|entertainment|comp|host")
    language: str = "en"


def domain_named(name: str | None) -> str:
    """The domain a label or a model's answer means ("spa" is entertainment's, item 3)."""
    return agent_named(name).removesuffix("_agent")


def intent_of(label: str, confidence: float) -> tuple[str, str | None]:
    """(query_type, domain) for a router label."""
    if label in QUERY_TYPES:
        return label, None
    if label in DOMAINS or agent_named(label) != HOST_AGENT:
        return "domain_query", domain_named(label)
    return "ambiguous", None


def reply_language(
    profile_language: str | None,
    current: str | None,
    previous: str | None,
    requested: str | None,
    *,
    chosen: bool = False,
) -> tuple[str, bool]:
    """Item 44: (the language to answer in, whether the guest's language changed). An explicit
    request switches at once; otherwise two guest messages in a row in the other language do.
    A guest with no language yet gets the one they write in. A message that shows its
    language is answered in it (issue 34: "¿tienen mariscos?" got an English reply), unless the
    guest `chosen` a language by asking for it: then one message in the other does not move
    the reply."""
    known = profile_language or None
    if requested:
        return requested, requested != (known or "en")
    if known is None:
        return current or "en", False
    if current and current != known and previous == current:
        return current, True
    if current and current != known and not chosen:
        return current, False
    return known, False


def _extracted(text: str, ctx: CasinoHostContext, language: str | None) -> dict[str, Any]:
    found = extract(text, now=ctx.now, timezone=ctx.catalog.casino.timezone, language=language)
    return {
        item.path: {"value": item.value, "confidence": item.confidence, "source": item.source}
        for item in found
    }


async def router(state: dict[str, Any], runtime: Runtime[CasinoHostContext]) -> dict[str, Any]:
    ctx = runtime.context
    text = guest_text(state)
    texts = guest_texts(state.get("messages") or [])
    profile_language = ctx.view.language
    extracted = _extracted(text, ctx, profile_language)
    requested = (extracted.get(LANGUAGE_PATH) or {}).get("value")
    previous = detect_language(texts[-2]) if len(texts) > 1 else None
    stored = ctx.profile.get(LANGUAGE_PATH)
    language, switched = reply_language(
        profile_language,
        detect_language(text),
        previous,
        requested,
        chosen=stored is not None and stored.source == SELF_REPORTED,
    )
    # The guest's language on file changes as item 44 says, not with every message.
    if language != profile_language and (switched or profile_language is None):
        extracted.setdefault(
            LANGUAGE_PATH, {"value": language, "confidence": 0.8, "source": "auto_detected"}
        )
    # A guest with no time zone on file gets their area code's when it has just one, so the
    # profile shows where quiet hours are kept; a zone the guest states (above) wins.
    if (guess := area_code_guess(ctx.profile)) is not None:
        zone, confidence, source = guess
        extracted.setdefault(TIMEZONE, {"value": zone, "confidence": confidence, "source": source})
    update: dict[str, Any] = {
        "extracted_fields": extracted,
        "language": language,
        "language_switched": switched,
    }
    if folded := window_updates(list(state.get("messages") or [])):
        update["messages"] = folded
    trigger = escalation_trigger(text)
    if trigger is not None:
        request = {"severity": trigger.severity, "reason": trigger.reason, "source": "router"}
        return {
            **update,
            "query_type": "sensitive",
            "domain": "host",
            "router_confidence": 1.0,
            "escalation_triggered": trigger.severity,
            "escalation_request": request,
            "unclear_streak": 0,
        }
    decision = await ctx.services.router.route(text)
    query_type, domain = intent_of(decision.label, decision.confidence)
    confidence = decision.confidence
    previous_domain = state.get("last_domain")
    leans_back = ctx.opening == "continued" and previous_domain is not None and is_follow_up(text)
    if guide_question_after_all(
        query_type,
        confidence,
        asks_a_field=asked_field(text) is not None,
        names_a_venue=named_venue(ctx, text) is not None,
        leans_on_a_domain_turn=leans_back,
    ):
        query_type, confidence = "domain_query", max(confidence, MIN_ROUTER_CONFIDENCE)
        domain = (previous_domain if leans_back else domain) or "host"
    unclear = query_type in ("off_topic", "ambiguous") or (
        confidence < MIN_ROUTER_CONFIDENCE and query_type == "domain_query"
    )
    if query_type == "domain_query":
        update["last_domain"] = domain or "host"
    return {
        **update,
        "query_type": query_type,
        "domain": domain,
        "router_confidence": confidence,
        "unclear_streak": int(state.get("unclear_streak") or 0) + 1 if unclear else 0,
    }


def model_route(llm: Any, timeout_s: float):
    """The model router for `IntentRouter(llm_route=...)`, with item 13's failure rules: a
    reply that does not parse is off-topic, a call past `timeout_s` goes to the host."""

    async def route(text: str) -> tuple[str, float]:
        try:
            async with asyncio.timeout(timeout_s):
                output = await llm.with_structured_output(RouterOutput).ainvoke(
                    "Classify this SMS to a casino host. query_type: greeting, domain_query, "
                    "off_topic, ambiguous or identity_check; domain for a domain_query: dining, "
                    f"entertainment, comp or host.\nSMS: {text}"
                )
        except TimeoutError:
            logger.warning("router model timed out after %.1f s: the host answers", timeout_s)
            return "host", 1.0
        except Exception as exc:  # noqa: BLE001 - any unparsable answer is off-topic (item 13)
            logger.warning("router model answer unusable (%s): off-topic", type(exc).__name__)
            return "off_topic", 1.0
        if not isinstance(output, RouterOutput):
            output = RouterOutput.model_validate(output)
        if output.query_type == "domain_query":
            return domain_named(output.domain), output.router_confidence
        return output.query_type, output.router_confidence

    return route


def with_opening(state: dict[str, Any], ctx: CasinoHostContext, text: str) -> str:
    """`text` after what the turn opens with: a welcome back in a new session after 48 h idle
    when the guest's name is known (item 43's warm resume), and the acknowledgement of a
    language switch (item 44)."""
    name = guest_name(ctx)
    language = state.get("language") or "en"
    prefix = ""
    if ctx.opening == "new_session" and name:
        prefix = prompts.say(prompts.WARM_RESUME, language, name=name)
        topic = prompts.TOPICS.get(language, prompts.TOPICS["en"]).get(ctx.previous_agent or "")
        if topic:
            prefix += prompts.say(prompts.LAST_TOPIC, language, topic=topic)
    if state.get("language_switched"):
        prefix = prompts.say(prompts.LANGUAGE_SWITCHED, language) + prefix
    return prefix + text


def greeting(state: dict[str, Any], runtime: Runtime[CasinoHostContext]) -> dict[str, Any]:
    """Item 14: the first contact discloses an AI host; "are you a bot?" is answered truly."""
    ctx = runtime.context
    language = state.get("language") or "en"
    values = casino_values(ctx)
    name = guest_name(ctx)
    if state.get("query_type") == "identity_check":
        text = prompts.say(prompts.IDENTITY, language, **values)
    elif ctx.opening == "new_guest" and ctx.profile.engagement.total_messages_sent == 0:
        text = prompts.say(prompts.GREETING_FIRST, language, **values)
    elif ctx.opening == "new_session" and name:
        text = prompts.say(prompts.GREETING_RESUMED, language)  # after "Welcome back, NAME."
    else:
        text = prompts.say(
            prompts.GREETING_AGAIN, language, name_part=f" {name}" if name else "", **values
        )
    return reply(state, with_opening(state, ctx, text), GREETING)


def off_topic(state: dict[str, Any], runtime: Runtime[CasinoHostContext]) -> dict[str, Any]:
    """Off-topic or unclear: a redirect; the third in a row gets the menu, the fifth a person."""
    ctx = runtime.context
    language = state.get("language") or "en"
    values = casino_values(ctx)
    streak = int(state.get("unclear_streak") or 0)
    if streak >= UNCLEAR_BEFORE_ESCALATION:
        when = prompts.ESCALATION_WHEN[language if language in prompts.ESCALATION_WHEN else "en"]
        text = prompts.say(
            prompts.ESCALATED, language, when=when[0 if ctx.catalog.in_business_hours(ctx.now)
                                                   else 1], **values)  # fmt: skip
        request = {"severity": "P3", "reason": "unclear_messages", "source": OFF_TOPIC}
        return reply(state, text, OFF_TOPIC, escalation_triggered="P3",
                     escalation_request=request, unclear_streak=0)  # fmt: skip
    template = prompts.MENU if streak >= UNCLEAR_BEFORE_MENU else prompts.OFF_TOPIC
    text = with_opening(state, ctx, prompts.say(template, language, **values))
    return reply(state, text, OFF_TOPIC)
