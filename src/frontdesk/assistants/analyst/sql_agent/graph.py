"""Assembles the SQL graph agent (seed 002's workflow).

START -> select_tables -> filter_relationships -> find_paths -> plan_joins -> generate_sql
generate_sql -> rewrite_secure -+-> pre_validate -+-> execute -+-> summarize -> END
                                |                 |            +-> correct_sql (error)
                                |                 +-> correct_sql (invalid)
                                +-> correct_sql (parse error) | summarize (unsafe: refused)
correct_sql -> rewrite_secure        (re-validated; at most N attempts, then summarize)
execute -> generate_sql              (empty result: regenerate once)
"""

from __future__ import annotations

from langgraph.graph import END, START, StateGraph
from langgraph.graph.state import CompiledStateGraph

from frontdesk.agentkit.graph import inline
from frontdesk.assistants.analyst.sql_agent import nodes as n
from frontdesk.assistants.analyst.state import AnalystContext, SQLGraphState


def build_sql_graph(*, pre_validation: bool = True) -> CompiledStateGraph:
    graph = StateGraph(SQLGraphState, context_schema=AnalystContext)
    graph.add_node(n.SELECT_TABLES, n.select_tables)
    graph.add_node(n.FILTER_RELATIONSHIPS, inline(n.filter_relationships))
    graph.add_node(n.FIND_PATHS, inline(n.find_paths))
    graph.add_node(n.PLAN_JOINS, inline(n.plan_joins))
    graph.add_node(n.GENERATE_SQL, n.generate_sql)
    graph.add_node(n.REWRITE_SECURE, inline(n.rewrite_secure))
    graph.add_node(n.PRE_VALIDATE, inline(n.pre_validate))
    # Execution blocks on the database: it runs in a worker thread, never on the event loop.
    graph.add_node(n.EXECUTE, n.execute)
    graph.add_node(n.CORRECT_SQL, n.correct_sql)
    graph.add_node(n.SUMMARIZE, n.summarize)

    graph.add_edge(START, n.SELECT_TABLES)
    graph.add_edge(n.SELECT_TABLES, n.FILTER_RELATIONSHIPS)
    graph.add_edge(n.FILTER_RELATIONSHIPS, n.FIND_PATHS)
    graph.add_edge(n.FIND_PATHS, n.PLAN_JOINS)
    graph.add_edge(n.PLAN_JOINS, n.GENERATE_SQL)
    graph.add_conditional_edges(
        n.GENERATE_SQL, inline(n.after_writing_sql), [n.REWRITE_SECURE, n.SUMMARIZE]
    )

    def after_rewrite(state: SQLGraphState) -> str:
        return n.after_rewrite(state, pre_validation=pre_validation)

    graph.add_conditional_edges(
        n.REWRITE_SECURE,
        inline(after_rewrite),
        [n.PRE_VALIDATE, n.EXECUTE, n.CORRECT_SQL, n.SUMMARIZE],
    )
    graph.add_conditional_edges(
        n.PRE_VALIDATE, inline(n.after_validation), [n.EXECUTE, n.CORRECT_SQL, n.SUMMARIZE]
    )
    graph.add_conditional_edges(
        n.EXECUTE, inline(n.after_execute), [n.GENERATE_SQL, n.CORRECT_SQL, n.SUMMARIZE]
    )
    graph.add_conditional_edges(
        n.CORRECT_SQL, inline(n.after_writing_sql), [n.REWRITE_SECURE, n.SUMMARIZE]
    )
    graph.add_edge(n.SUMMARIZE, END)
    # Never checkpointed: one question is one run, and the orchestrator keeps the conversation.
    return graph.compile(checkpointer=False, name="sql_agent")
