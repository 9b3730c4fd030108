"""What the analyst's graphs carry: the seed's AgentState and SQLGraphState, and the run context."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Annotated, Any, Literal, TypedDict

from langchain_core.language_models import BaseChatModel
from langchain_core.messages import AnyMessage
from langgraph.graph.message import add_messages
from langgraph.graph.state import CompiledStateGraph

from frontdesk.routing.router import IntentRouter

if TYPE_CHECKING:
    from frontdesk.assistants.analyst.sql_agent.toolkit import SQLToolkit
    from frontdesk.knowledge.mmr import MMRRetriever

Route = Literal["sql", "rag", "general"]
ROUTES: tuple[str, ...] = Route.__args__  # type: ignore[attr-defined]


class AgentState(TypedDict, total=False):
    """The orchestrator's state (seed: AgentState). `messages` persists per conversation."""

    messages: Annotated[list[AnyMessage], add_messages]
    last_route: str | None  # the previous turn's route, for follow-ups
    # The last query that ran (question in context, SQL as written, tables), for follow-ups.
    last_query: dict[str, Any] | None
    # Reset at the start of every turn.
    question: str
    next_step: str | None  # sql | rag | general
    router_confidence: float
    route_method: str | None
    guardrail: str | None
    sql_result: str | None
    sql_structured_result: list[dict[str, Any]] | None
    sql_report: dict[str, Any] | None  # the SQL that ran, columns, attempts, errors
    rag_result: str | None
    rag_sources: list[dict[str, Any]]
    general_result: str | None
    final_answer: str | None
    final_structured_data: list[dict[str, Any]] | None


class SQLGraphState(TypedDict, total=False):
    """The SQL graph agent's state (seed: SQLGraphState), one per question."""

    question: str
    # For a follow-up on the last result: that turn's question (in its own context), the SQL
    # the model wrote for it and its tables. The new SQL changes that one.
    previous: dict[str, Any] | None
    history: list[AnyMessage]  # the conversation so far, truncated, for follow-ups
    candidate_tables: list[str]
    tables: list[str]
    allowed_relationships: list[dict[str, Any]]
    join_tables: list[str]  # the tables the join plan connects (named ones and connectors)
    join_plan: str
    sql: str  # the SQL as the model wrote it (logical table names)
    executed_sql: str | None  # after the secure rewrite and the LIMIT
    result: str | None
    column_names: list[str] | None
    structured_result: list[dict[str, Any]] | None
    row_count: int
    truncated: bool
    retries: int  # regenerations after an empty result
    iterations: int
    final_answer: str | None
    sql_correction_attempts: int
    last_sql_error: str | None
    error_kind: str | None
    correction_history: list[dict[str, Any]]
    validation_errors: list[str]
    outcome: str | None  # answered | empty | refused | failed
    join_paths: list[list[dict[str, Any]]]
    # Limits, set with the question so the routing functions stay pure functions of state.
    max_correction_attempts: int
    max_iterations: int


@dataclass
class AnalystContext:
    llm: BaseChatModel
    router: IntentRouter
    sql: SQLToolkit
    sql_graph: CompiledStateGraph
    manual: MMRRetriever
    max_conversation_messages: int = 20
    # The RAG agent reads about five manual chunks.
    max_context_chars: int = 6000
    # False: the SQL agent answers from the rows without a model call (the SQL evaluation
    # measures the query, not the prose, and the call would double its run time).
    write_answers: bool = True
