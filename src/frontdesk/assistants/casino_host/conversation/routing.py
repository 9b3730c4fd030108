"""The graph's node names and its routing functions (seed §1.2, WP2 items 1-4): named, pure,
and the only branching in the graph (no lambdas)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from langgraph.graph import END

COMPLIANCE_GATE = "compliance_gate"
ROUTER = "router"
GREETING = "greeting_node"
OFF_TOPIC = "off_topic_node"
HANDOFF_ROUTER = "handoff_router"
WHISPER_PLANNER = "whisper_planner"
HOST_AGENT = "host_agent"
DINING_AGENT = "dining_agent"
ENTERTAINMENT_AGENT = "entertainment_agent"
COMP_AGENT = "comp_agent"
VALIDATE = "validate_node"
PERSONA_ENVELOPE = "persona_envelope"
FALLBACK = "fallback_node"

AGENTS = (HOST_AGENT, DINING_AGENT, ENTERTAINMENT_AGENT, COMP_AGENT)
# The 13 nodes (D2: blocked and safety replies are the gate's own, then END).
KNOWN_NODES = frozenset({COMPLIANCE_GATE, ROUTER, GREETING, OFF_TOPIC, HANDOFF_ROUTER,
                         WHISPER_PLANNER, *AGENTS, VALIDATE, PERSONA_ENVELOPE, FALLBACK})  # fmt: skip

# Below this the router's label is not trusted (seed §1.2: accuracy falls from 94 % to 61 %).
MIN_ROUTER_CONFIDENCE = 0.3
# D1 and the seeds README: validation may send a reply back to its agent once.
MAX_RETRIES = 1

# What the router or a handoff may call an agent (the model sometimes answers short forms).
_AGENT_ALIASES = {
    DINING_AGENT: ("dining_agent", "dining", "restaurant", "restaurants"),
    ENTERTAINMENT_AGENT: ("entertainment_agent", "entertainment", "spa", "shows", "events"),
    COMP_AGENT: ("comp_agent", "comp", "comps", "offer", "offers", "incentive", "promotions"),
    HOST_AGENT: ("host_agent", "host"),
}
_AGENT_OF = {alias: agent for agent, aliases in _AGENT_ALIASES.items() for alias in aliases}


def agent_named(name: str | None) -> str:
    """The agent node a router label, domain or handoff target means; the host by default."""
    return _AGENT_OF.get((name or "").strip().lower(), HOST_AGENT)


def route_after_compliance(state: Mapping[str, Any]) -> str:
    """A blocked or safety turn ends with the gate's reply, no model call; an annotated or
    clean one goes on to the router."""
    if state.get("compliance_outcome") in ("blocked", "safety"):
        return END
    return ROUTER


def route_after_router(state: Mapping[str, Any]) -> str:
    """Greetings and "are you a bot?" get the truthful template (item 14, D25); off-topic,
    ambiguous or low-confidence labels the off-topic reply; the rest goes to the agents."""
    query_type = state.get("query_type")
    if query_type in ("greeting", "identity_check"):
        return GREETING
    if query_type in ("off_topic", "ambiguous"):
        return OFF_TOPIC
    if float(state.get("router_confidence") or 0.0) < MIN_ROUTER_CONFIDENCE:
        return OFF_TOPIC
    return HANDOFF_ROUTER


def guide_question_after_all(
    query_type: str | None,
    confidence: float,
    *,
    asks_a_field: bool,
    names_a_venue: bool,
    leans_on_a_domain_turn: bool,
) -> bool:
    """Whether a message the classifier took for a greeting, off-topic or unclear is a
    question for the agents after all: it asks a venue's field ("til when is the pool open
    today?"), names a venue, or leans on the domain question just before ("y mañana?",
    "how late does it go"). A domain label below MIN_ROUTER_CONFIDENCE stays the seed's G9
    off-topic reply unless the message leans on the domain turn before ("and tmrw?"): that
    turn, not the label, says what it is about. "Are you a bot?" is never overruled."""
    if query_type == "domain_query" and confidence < MIN_ROUTER_CONFIDENCE:
        return leans_on_a_domain_turn
    if query_type not in ("greeting", "off_topic", "ambiguous"):
        return False
    return asks_a_field or names_a_venue or leans_on_a_domain_turn


def route_after_handoff(state: Mapping[str, Any]) -> str:
    """The agent that speaks (item 3). Runs after the whisper planner, which sits between
    the handoff router and the agent (D3: sequential)."""
    return agent_named(state.get("active_agent"))


def route_after_validate(state: Mapping[str, Any]) -> str:
    """PASS: shape and send. RETRY within the budget: back to the agent that wrote the reply,
    with its feedback. Anything else: the static fallback."""
    result = state.get("validation_result")
    if result == "PASS":
        return PERSONA_ENVELOPE
    # A turn passed back to the host has spent its step on that handoff: its failed reply
    # goes to the fallback, so the longest turn stays within the recursion limit.
    within_budget = int(state.get("retry_count") or 0) <= MAX_RETRIES
    if result == "RETRY" and within_budget and HOST_AGENT not in (state.get("handoffs") or []):
        return agent_named(state.get("active_agent"))
    return FALLBACK
