"""Assembles the analyst's orchestrator graph (seed 002).

START -> classify -+-> sql_agent ----------------> finalize -> END
                   +-> rag_retrieve -> rag_answer -> finalize
                   +-> general_answer -----------> finalize
                   +-> finalize (blocked by a guardrail, or a request to change data)

The checkpointer saves the conversation when the turn ends; the SQL graph agent runs inside
`sql_agent` (sql_agent/graph.py).
"""

from __future__ import annotations

from langgraph.checkpoint.base import BaseCheckpointSaver
from langgraph.graph import END, START, StateGraph
from langgraph.graph.state import CompiledStateGraph

from frontdesk.agentkit.graph import inline
from frontdesk.assistants.analyst import nodes
from frontdesk.assistants.analyst.state import AgentState, AnalystContext


def build_graph(checkpointer: BaseCheckpointSaver | None = None) -> CompiledStateGraph:
    graph = StateGraph(AgentState, context_schema=AnalystContext)
    graph.add_node(nodes.CLASSIFY, nodes.classify)
    graph.add_node(nodes.SQL_AGENT, nodes.sql_agent)
    graph.add_node(nodes.RAG_RETRIEVE, inline(nodes.rag_retrieve))
    graph.add_node(nodes.RAG_ANSWER, nodes.rag_answer)
    graph.add_node(nodes.GENERAL_ANSWER, nodes.general_answer)
    graph.add_node(nodes.FINALIZE, inline(nodes.finalize))

    graph.add_edge(START, nodes.CLASSIFY)
    graph.add_conditional_edges(
        nodes.CLASSIFY,
        inline(nodes.route_from_classify),
        [nodes.SQL_AGENT, nodes.RAG_RETRIEVE, nodes.GENERAL_ANSWER, nodes.FINALIZE],
    )
    graph.add_edge(nodes.RAG_RETRIEVE, nodes.RAG_ANSWER)
    for agent in (nodes.SQL_AGENT, nodes.RAG_ANSWER, nodes.GENERAL_ANSWER):
        graph.add_edge(agent, nodes.FINALIZE)
    graph.add_edge(nodes.FINALIZE, END)
    return graph.compile(checkpointer=checkpointer, name="analyst")
