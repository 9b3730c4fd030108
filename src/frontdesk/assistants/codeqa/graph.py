"""The code QA graph (seed L459-483): security gateway, input preprocessor, router,
retrieval, synthesis, conversation memory."""

from __future__ import annotations

from langgraph.graph import END, START, StateGraph

from frontdesk.agentkit.graph import inline
from frontdesk.assistants.codeqa import nodes as n
from frontdesk.assistants.codeqa.context import CodeQAContext
from frontdesk.assistants.codeqa.state import CodeQAState


def build_graph(checkpointer=None):
    graph = StateGraph(CodeQAState, context_schema=CodeQAContext)
    # The guard embeds the message (a model call): a worker thread, not the event loop.
    graph.add_node(n.SECURITY_GATEWAY, n.security_gateway)
    graph.add_node(n.INPUT_PREPROCESSOR, inline(n.input_preprocessor))
    # The first question about a repository loads it: a worker thread, not the event loop.
    graph.add_node(n.ROUTER, n.router)
    # Search embeds the query and scores every chunk: a worker thread too.
    graph.add_node(n.RETRIEVAL, n.retrieval)
    graph.add_node(n.SYNTHESIS, n.synthesis)
    graph.add_node(n.CONVERSATION_MEMORY, inline(n.conversation_memory))

    graph.add_edge(START, n.SECURITY_GATEWAY)
    graph.add_conditional_edges(
        n.SECURITY_GATEWAY, inline(n.route_after_security), [n.INPUT_PREPROCESSOR, END]
    )
    graph.add_conditional_edges(
        n.INPUT_PREPROCESSOR,
        inline(n.route_after_input_preprocessor),
        [n.CONVERSATION_MEMORY, n.SYNTHESIS, n.ROUTER],
    )
    # A repository still being indexed is answered "not yet", with nothing to retrieve.
    graph.add_conditional_edges(
        n.ROUTER, inline(n.route_after_router), [n.RETRIEVAL, n.CONVERSATION_MEMORY]
    )
    graph.add_edge(n.RETRIEVAL, n.SYNTHESIS)
    graph.add_edge(n.SYNTHESIS, n.CONVERSATION_MEMORY)
    graph.add_edge(n.CONVERSATION_MEMORY, END)
    return graph.compile(checkpointer=checkpointer, name="codeqa")
