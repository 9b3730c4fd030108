"""Assembles the casino host's 13-node graph (feature map WP2 items 1-4).

START -> compliance_gate -+-> END (blocked or safety: the gate's reply, no model)
                          +-> router -+-> greeting_node -> END
                                      +-> off_topic_node -> END
                                      +-> handoff_router -> whisper_planner -> AGENT
AGENT (host | dining | entertainment | comp) -> validate_node (or, back to the host, host_agent)
validate_node -+-> persona_envelope -> END
               +-> AGENT (RETRY, once)
               +-> fallback_node -> END

Every branch is a named routing function of routing.py; agents return `Command(goto=...)`.
"""

from __future__ import annotations

from langgraph.checkpoint.base import BaseCheckpointSaver
from langgraph.graph import END, START, StateGraph
from langgraph.graph.state import CompiledStateGraph

from frontdesk.agentkit.graph import inline
from frontdesk.assistants.casino_host.conversation import routing as r
from frontdesk.assistants.casino_host.conversation.context import CasinoHostContext
from frontdesk.assistants.casino_host.conversation.nodes import (
    agents,
    checks,
    gate,
    planning,
    reply,
)
from frontdesk.assistants.casino_host.conversation.nodes import understanding as u
from frontdesk.assistants.casino_host.conversation.state import CasinoHostState

# Item 4. The longest turn: gate, router, handoff, planner, agent, validate, agent (retry),
# validate, envelope or fallback: 9 steps; a specialist handing back to the host adds one and
# gives up the retry (routing.route_after_validate).
RECURSION_LIMIT = 10


def build_graph(checkpointer: BaseCheckpointSaver | None = None) -> CompiledStateGraph:
    graph = StateGraph(CasinoHostState, context_schema=CasinoHostContext)
    graph.add_node(r.COMPLIANCE_GATE, inline(gate.compliance_gate))
    graph.add_node(r.ROUTER, u.router)
    graph.add_node(r.GREETING, inline(u.greeting))
    graph.add_node(r.OFF_TOPIC, inline(u.off_topic))
    graph.add_node(
        r.HANDOFF_ROUTER, inline(planning.handoff_router), destinations=(r.WHISPER_PLANNER,)
    )
    graph.add_node(r.WHISPER_PLANNER, inline(planning.whisper_planner))
    for agent in r.AGENTS:
        others = tuple(a for a in r.AGENTS if a != agent)
        graph.add_node(agent, agents.make_agent(agent), destinations=(r.VALIDATE, *others))
    graph.add_node(r.VALIDATE, inline(checks.validate))
    graph.add_node(r.PERSONA_ENVELOPE, inline(reply.persona_envelope))
    graph.add_node(r.FALLBACK, inline(reply.fallback))
    missing = r.KNOWN_NODES - set(graph.nodes)
    if missing or len(graph.nodes) != len(r.KNOWN_NODES):  # item 1: checked at build
        raise RuntimeError(f"casino host graph nodes differ from KNOWN_NODES: {sorted(missing)}")

    graph.add_edge(START, r.COMPLIANCE_GATE)
    graph.add_conditional_edges(
        r.COMPLIANCE_GATE, inline(r.route_after_compliance), [r.ROUTER, END]
    )
    graph.add_conditional_edges(
        r.ROUTER, inline(r.route_after_router), [r.GREETING, r.OFF_TOPIC, r.HANDOFF_ROUTER]
    )
    graph.add_conditional_edges(r.WHISPER_PLANNER, inline(r.route_after_handoff), list(r.AGENTS))
    graph.add_conditional_edges(
        r.VALIDATE,
        inline(r.route_after_validate),
        [r.PERSONA_ENVELOPE, r.FALLBACK, *r.AGENTS],
    )
    for terminal in (r.GREETING, r.OFF_TOPIC, r.PERSONA_ENVELOPE, r.FALLBACK):
        graph.add_edge(terminal, END)
    return graph.compile(checkpointer=checkpointer, name="casino_host")
