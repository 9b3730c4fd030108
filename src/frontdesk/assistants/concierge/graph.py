"""Assembles the concierge's 9-node StateGraph.

START -> router -+-> greeting ---------------------------------------> END
                 +-> off_topic --------------------------------------> END
                 +-> retrieve -> facts -> generate -> validate -+-> respond -> END
                                             ^                  +-> generate (retry, once)
                                             +------------------+-> fallback -> END

facts works out what the structure answers (hours on a day, prices, phones, absent things,
dated shows); generate phrases the rest with the model.
"""

from __future__ import annotations

from langgraph.checkpoint.base import BaseCheckpointSaver
from langgraph.graph import END, START, StateGraph
from langgraph.graph.state import CompiledStateGraph

from frontdesk.agentkit.graph import inline
from frontdesk.assistants.concierge import nodes
from frontdesk.assistants.concierge.facts_node import facts_node
from frontdesk.assistants.concierge.state import ConciergeContext, ConciergeState


def build_graph(checkpointer: BaseCheckpointSaver | None = None) -> CompiledStateGraph:
    # Every node and routing function runs on the event loop (agentkit.graph.inline): the
    # synchronous ones take a millisecond or two, less than a worker thread's hand-off.
    graph = StateGraph(ConciergeState, context_schema=ConciergeContext)
    graph.add_node(nodes.ROUTER, nodes.router)
    graph.add_node(nodes.RETRIEVE, inline(nodes.retrieve))
    graph.add_node(nodes.FACTS, inline(facts_node))
    graph.add_node(nodes.GENERATE, nodes.generate)
    graph.add_node(nodes.VALIDATE, nodes.validate)
    graph.add_node(nodes.RESPOND, inline(nodes.respond))
    graph.add_node(nodes.FALLBACK, inline(nodes.fallback))
    graph.add_node(nodes.GREETING, inline(nodes.greeting))
    graph.add_node(nodes.OFF_TOPIC, inline(nodes.off_topic))

    graph.add_edge(START, nodes.ROUTER)
    graph.add_conditional_edges(
        nodes.ROUTER,
        inline(nodes.route_from_router),
        [nodes.GREETING, nodes.OFF_TOPIC, nodes.RETRIEVE],
    )
    graph.add_edge(nodes.RETRIEVE, nodes.FACTS)
    graph.add_edge(nodes.FACTS, nodes.GENERATE)
    graph.add_edge(nodes.GENERATE, nodes.VALIDATE)
    graph.add_conditional_edges(
        nodes.VALIDATE,
        inline(nodes.route_after_validate),
        [nodes.RESPOND, nodes.GENERATE, nodes.FALLBACK],
    )
    for terminal in (nodes.RESPOND, nodes.FALLBACK, nodes.GREETING, nodes.OFF_TOPIC):
        graph.add_edge(terminal, END)
    return graph.compile(checkpointer=checkpointer, name="concierge")
