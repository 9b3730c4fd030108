"""handoff_router and whisper_planner (items 3, 20-21, D3: sequential).

The handoff router names the agent from the router's domain, in code: the 0.5B model does not
pick agents reliably. The whisper planner then decides, by rules (profiling order, reciprocity,
phases), what the agent should steer towards and whether an offer may be made; a planner that
fails leaves the plan empty and the agent answers anyway (G11).
"""

from __future__ import annotations

import logging
from typing import Any

from langgraph.runtime import Runtime

from frontdesk.assistants.casino_host.context import CasinoHostContext
from frontdesk.assistants.casino_host.profile import plan_next
from frontdesk.assistants.casino_host.routing import HOST_AGENT, agent_named

logger = logging.getLogger(__name__)


def handoff_router(state: dict[str, Any]) -> dict[str, Any]:
    if state.get("query_type") == "sensitive":
        return {"active_agent": HOST_AGENT}
    return {"active_agent": agent_named(state.get("domain"))}


def make_plan(state: dict[str, Any], ctx: CasinoHostContext) -> dict[str, Any] | None:
    view = ctx.profile.prompt_view(ctx.now)  # consent-filtered, < 0.40 confidence left out
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
