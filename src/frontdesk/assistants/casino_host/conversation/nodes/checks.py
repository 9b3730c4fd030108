"""validate_node (items 22-23): the reply is checked in code before it is sent.

- Grounding (the core's deterministic check): every time, price, date, phone number and venue
  name in the reply must come from the agent's FACTS or the casino's own details.
- Offer verification (comp agent): an offer must match an active promotion, and an offer the
  incentive rules decided must be in the reply, or the reply goes back once (D1).
- A reply that only repeats the guest's question is rejected.

A validator that breaks passes a first attempt and fails a retry (agentkit.validation).
"""

from __future__ import annotations

import logging
from typing import Any

from langgraph.runtime import Runtime

from frontdesk.agentkit.grounding import check_grounding
from frontdesk.agentkit.validation import (
    FAIL,
    PASS,
    restates_question,
    validation_outcome,
    validator_error_outcome,
)
from frontdesk.assistants.casino_host.conversation.context import CasinoHostContext
from frontdesk.assistants.casino_host.conversation.extraction import detect_language
from frontdesk.assistants.casino_host.conversation.nodes.common import draft_of, guest_text
from frontdesk.assistants.casino_host.conversation.prompts import LANGUAGE_NAMES
from frontdesk.assistants.casino_host.conversation.routing import (
    COMP_AGENT,
    DINING_AGENT,
    ENTERTAINMENT_AGENT,
)
from frontdesk.assistants.casino_host.conversation.verification import verify_offers

logger = logging.getLogger(__name__)


def trusted_facts(ctx: CasinoHostContext) -> list[str]:
    """What the host may always say: the casino's name, phone, age rule and helplines."""
    casino = ctx.catalog.casino
    return [
        f"{casino.name}: phone {casino.phone}; gaming age {casino.gaming_age_minimum}.",
        f"Helplines: {casino.national_helpline}; {casino.state_helpline}.",
    ]


def venue_names(ctx: CasinoHostContext) -> list[str]:
    """Every venue either casino knows: naming one the facts did not give is recalling, not
    reading (and another casino's venue is never this one's)."""
    names: list[str] = []
    for casino_id in ctx.services.content.casino_ids:
        names += [v.name for v in ctx.services.content.catalog(casino_id).venues()]
    return names


def review(state: dict[str, Any], ctx: CasinoHostContext) -> tuple[bool, str, list[str]]:
    """(passed, feedback, flagged offers) for the current draft."""
    text = draft_of(state)
    if not text.strip():
        return False, "The reply was empty. Answer the guest.", []
    if restates_question(text, guest_text(state)):
        return False, "You repeated the guest's question. Answer it from FACTS.", []
    facts = [item.get("content", "") for item in state.get("retrieved_context") or []]
    grounding = check_grounding(
        text,
        facts,
        venue_names=venue_names(ctx),
        trusted_facts=trusted_facts(ctx),
        clock=state.get("current_time") or "",
    )
    if not grounding.grounded:
        return False, grounding.feedback(), []
    language = state.get("language") or "en"
    written_in = detect_language(text)
    if written_in is not None and written_in != language:
        return False, f"Write the reply in {LANGUAGE_NAMES.get(language, language)}.", []
    names = named_items(facts)
    agent = state.get("active_agent")
    if agent in (DINING_AGENT, ENTERTAINMENT_AGENT) and names and not mentions_any(text, names):
        return False, "Recommend by its exact name one of: " + "; ".join(names[:3]) + ".", []
    flagged: list[str] = []
    if agent == COMP_AGENT:
        offers = verify_offers(text, ctx.catalog, ctx.now)
        if not offers.passed:
            return False, offers.feedback(), []
        flagged = offers.flagged
        offer = state.get("offer")
        if offer and not any(ctx.catalog.promotions_matching(c, ctx.now) for c in offers.verified):
            return False, f"Include the OFFER from FACTS: {offer['value']}.", flagged
    return True, "", flagged


def named_items(facts: list[str]) -> list[str]:
    """The items the facts are about, by name ("Tuscany: Italian cuisine. ..." -> Tuscany)."""
    names = []
    for line in facts:
        name = line.split(":", 1)[0].strip()
        if name and name != "OFFER" and ": today (" not in line and name not in names:
            names.append(name)
    return names


def mentions_any(text: str, names: list[str]) -> bool:
    """Whether the reply names one of the items (its name, or the name without a leading
    "The" and any possessive, case-insensitive)."""
    folded = text.casefold().replace("\u2019", "'")
    for name in names:
        short = name.casefold().removeprefix("the ").replace("\u2019", "'")
        if (
            short in folded
            or short.split(" ")[0] in folded.split()
            and len(short.split(" ")[0]) > 4
        ):
            return True
    return False


def validate(state: dict[str, Any], runtime: Runtime[CasinoHostContext]) -> dict[str, Any]:
    retry_count = int(state.get("retry_count") or 0)
    if state.get("model_failed"):
        return {"validation_result": FAIL, "retry_feedback": "the model did not answer"}
    if state.get("skip_validation"):
        return {"validation_result": PASS, "retry_feedback": None}
    try:
        passed, feedback, flagged = review(state, runtime.context)
    except Exception as exc:
        logger.exception("validation failed on attempt %d", retry_count)
        return validator_error_outcome(retry_count, type(exc).__name__)
    return {**validation_outcome(passed, retry_count, feedback), "offer_flags": flagged}
