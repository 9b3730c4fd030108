"""handoff_router and whisper_planner (items 3, 20-21, D3: sequential).

The handoff router names the agent from the router's domain, in code: the 0.5B model does not
pick agents reliably. The whisper planner then decides, by rules (profiling order, reciprocity,
phases), what the agent should steer towards and whether an offer may be made; a planner that
fails leaves the plan empty and the agent answers anyway (G11).
"""

from __future__ import annotations

import dataclasses
import logging
import re
from typing import Any

from langgraph.runtime import Runtime
from langgraph.types import Command

from frontdesk.assistants.casino_host.conversation.context import CasinoHostContext
from frontdesk.assistants.casino_host.conversation.nodes.common import guest_text
from frontdesk.assistants.casino_host.conversation.routing import (
    COMP_AGENT,
    DINING_AGENT,
    ENTERTAINMENT_AGENT,
    HOST_AGENT,
    WHISPER_PLANNER,
    agent_named,
)
from frontdesk.assistants.casino_host.profile import PROMPT_THRESHOLD, plan_next

logger = logging.getLogger(__name__)


# The words that pass a message the router gave the host to one specialist (EN and ES,
# matched on lower-cased text): "what offers do you have" is the comp agent's even when the
# classifier called it general.
HANDOFF_WORDS: dict[str, re.Pattern[str]] = {
    COMP_AGENT: re.compile(
        r"\b(offers?|comps?|promos?|promotions?|deals?|free ?play|rewards?|points|discounts?|"
        r"ofertas?|promociones?|descuentos?|puntos)\b"
    ),
    DINING_AGENT: re.compile(
        r"\b(restaurants?|dinner|lunch|breakfast|brunch|eat|food|steak|sushi|buffet|menu|"
        r"cena|cenar|comer|comida|restaurantes?|desayuno|almuerzo)\b"
    ),
    ENTERTAINMENT_AGENT: re.compile(
        r"\b(shows?|concerts?|tickets?|comedy|spa|massages?|nightclub|club|events?|"
        r"espect[aá]culos?|conciertos?|boletos|masajes?|entradas)\b"
    ),
}


def agent_for(state: dict[str, Any]) -> str:
    """The agent that answers (pure): the router's domain, except that a message given to
    the host that speaks only of one specialist's subject goes to that specialist."""
    if state.get("query_type") == "sensitive":
        return HOST_AGENT
    agent = agent_named(state.get("domain"))
    if agent == HOST_AGENT:
        text = guest_text(state).casefold()
        matching = [name for name, words in HANDOFF_WORDS.items() if words.search(text)]
        if len(matching) == 1:
            return matching[0]
    return agent


def handoff_router(state: dict[str, Any]) -> Command:
    """`transfer_to_<agent>` (item 16) as a Command: the whisper planner runs next, then the
    agent it names."""
    agent = agent_for(state)
    handoffs = [] if agent == HOST_AGENT else [agent]
    return Command(goto=WHISPER_PLANNER, update={"active_agent": agent, "handoffs": handoffs})


def make_plan(state: dict[str, Any], ctx: CasinoHostContext) -> dict[str, Any] | None:
    view = ctx.view  # consent-filtered, < 0.40 confidence left out
    # What the guest says this turn counts already: the plan moves on to what is not known
    # (item 33), instead of asking about what was just told.
    said = {
        path: item
        for path, item in (state.get("extracted_fields") or {}).items()
        if float(item.get("confidence") or 0.0) >= PROMPT_THRESHOLD
    }
    if said:
        view = dataclasses.replace(
            view,
            values={**view.values, **{p: item["value"] for p, item in said.items()}},
            confidences={**view.confidences, **{p: item["confidence"] for p, item in said.items()}},
        )
    plan = plan_next(
        view,
        (state.get("messages") or [])[-20:],
        ctx.profile.conversation_phase,
        ctx.now,
        reciprocity_enabled=ctx.settings.reciprocity,
    )
    return plan.to_dict()


def whisper_planner(state: dict[str, Any], runtime: Runtime[CasinoHostContext]) -> dict[str, Any]:
    if state.get("query_type") != "domain_query":
        return {"whisper_plan": None}
    try:
        return {"whisper_plan": make_plan(state, runtime.context)}
    except Exception as exc:  # noqa: BLE001 - a planner failure never stops the turn (item 21)
        logger.warning("whisper planner failed (%s): the agent answers without a plan", exc)
        return {"whisper_plan": None}
