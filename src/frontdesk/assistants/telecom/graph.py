"""Assembles the telecom StateGraph (seed 004): router -> one specialist agent -> END.

START -> router -+-> technical_retrieve -> technical_answer -> END
                 +-> billing ---------------------------------> END
                 +-> fallback --------------------------------> END
                 +-> handoff ---------------------------------> END

handoff: the customer asked for a person (a ticket is opened), or the thread's ticket is still
open (the message is added to it and acknowledged; the bot stays silent until it is closed).
"""

from __future__ import annotations

from langgraph.checkpoint.base import BaseCheckpointSaver
from langgraph.graph import END, START, StateGraph
from langgraph.graph.state import CompiledStateGraph

from frontdesk.agentkit.graph import inline
from frontdesk.assistants.telecom import billing_agent, nodes
from frontdesk.assistants.telecom.handoff import handoff
from frontdesk.assistants.telecom.state import TelecomContext, TelecomState


def build_graph(checkpointer: BaseCheckpointSaver | None = None) -> CompiledStateGraph:
    graph = StateGraph(TelecomState, context_schema=TelecomContext)
    graph.add_node(nodes.ROUTER, nodes.router)
    graph.add_node(nodes.TECHNICAL_RETRIEVE, inline(nodes.technical_retrieve))
    graph.add_node(nodes.TECHNICAL_ANSWER, nodes.technical_answer)
    graph.add_node(nodes.BILLING, billing_agent.billing)
    graph.add_node(nodes.FALLBACK, inline(nodes.fallback))
    graph.add_node(nodes.HANDOFF, handoff)

    graph.add_edge(START, nodes.ROUTER)
    graph.add_conditional_edges(
        nodes.ROUTER,
        inline(nodes.route_from_router),
        [nodes.TECHNICAL_RETRIEVE, nodes.BILLING, nodes.FALLBACK, nodes.HANDOFF],
    )
    graph.add_edge(nodes.TECHNICAL_RETRIEVE, nodes.TECHNICAL_ANSWER)
    for terminal in (nodes.TECHNICAL_ANSWER, nodes.BILLING, nodes.FALLBACK, nodes.HANDOFF):
        graph.add_edge(terminal, END)
    return graph.compile(checkpointer=checkpointer, name="telecom")
