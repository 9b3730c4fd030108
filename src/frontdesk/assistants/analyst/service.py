"""Builds the analyst from settings: database, join graph, table search, manual, router, graphs.

`open_database`, `open_knowledge` and `build_router` are separate so the SQL, routing and
retrieval evaluations and `frontdesk ingest` never load more than they need.
"""

from __future__ import annotations

import logging
from contextlib import AsyncExitStack
from dataclasses import dataclass
from datetime import timedelta
from pathlib import Path
from typing import Any

from langchain_core.messages import HumanMessage

from frontdesk.agentkit.service import GraphAssistant
from frontdesk.assistants.analyst import nodes
from frontdesk.assistants.analyst.database import open_database
from frontdesk.assistants.analyst.evaluation import sql_target
from frontdesk.assistants.analyst.graph import build_graph
from frontdesk.assistants.analyst.settings import AnalystSettings
from frontdesk.assistants.analyst.sql_agent import nodes as sql_nodes
from frontdesk.assistants.analyst.sql_agent.graph import build_sql_graph
from frontdesk.assistants.analyst.sql_agent.toolkit import SQLToolkit
from frontdesk.assistants.analyst.state import AnalystContext
from frontdesk.assistants.base import Answer, ChatEvent
from frontdesk.config import Settings
from frontdesk.knowledge.index import KnowledgeIndex, ProgressCallback
from frontdesk.knowledge.ingest import IngestMode, IngestReport, ingest_as_needed
from frontdesk.knowledge.markdown import MarkdownCorpus, load_markdown_folder
from frontdesk.knowledge.markdown_chunking import CHUNK_TOKENS, OVERLAP_TOKENS, chunk_corpus
from frontdesk.knowledge.mmr import MMRRetriever, MMRSettings
from frontdesk.memory.checkpointer import open_checkpointer, periodic_cleanup
from frontdesk.routing.classifier import EmbeddingIntentClassifier, load_examples
from frontdesk.routing.router import IntentRouter, fast_paths_for, lazy_llm_route
from frontdesk.runtime import Models

logger = logging.getLogger(__name__)

__all__ = ["build_router", "build_service", "open_database", "open_knowledge", "sql_target"]

NAME = "analyst"
DATA_DIR = Path(__file__).parent / "data"
DOCS_DIR = DATA_DIR / "docs"
ROUTER_EXAMPLES = DATA_DIR / "router_examples.jsonl"
EVAL_DIR = DATA_DIR / "eval"
GREETING_PATTERNS = [r"(hi|hello|hey|good (morning|afternoon|evening)|thanks|thank you)( there)?"]
# The manual's relevance gate: telecom's calibrated value (same embedding model and scale).
MANUAL_GATE_THRESHOLD = 0.95


@dataclass
class Knowledge:
    source: MarkdownCorpus
    index: KnowledgeIndex
    retriever: MMRRetriever


def open_knowledge(
    settings: Settings,
    models: Models,
    *,
    ingest_mode: IngestMode = "if_changed",
    progress: ProgressCallback | None = None,
) -> tuple[Knowledge, IngestReport | None]:
    """The user manual (RAG agent): markdown chunks, searched with MMR behind a relevance gate."""
    corpus = load_markdown_folder(DOCS_DIR, NAME)
    index = KnowledgeIndex(
        settings.index_dir(NAME), models.embeddings, models.embeddings_id, title_keys=("title",)
    )
    report = ingest_as_needed(
        corpus,
        index,
        ingest_mode,
        chunk_size=CHUNK_TOKENS,
        overlap=OVERLAP_TOKENS,
        progress=progress,
        chunker=chunk_corpus,
    )
    retriever = MMRRetriever(
        index, NAME, MMRSettings(top_k=5, threshold=MANUAL_GATE_THRESHOLD, min_hits=1)
    )
    return Knowledge(corpus, index, retriever), report


def build_router(
    settings: Settings, models: Models, knowledge: Knowledge | None = None, *, use_llm: bool = True
) -> IntentRouter:
    classifier = EmbeddingIntentClassifier(
        models.embeddings,
        load_examples(ROUTER_EXAMPLES),
        cache_dir=settings.index_dir(NAME),
        embeddings_id=models.embeddings_id,
    )
    enabled = use_llm and settings.router_llm != "never"
    return IntentRouter(
        classifier,
        fast_paths=fast_paths_for("general", GREETING_PATTERNS),
        llm_route=lazy_llm_route(models, nodes.llm_route, enabled=enabled),
        mode=settings.router_llm,
        min_confidence=settings.router_min_confidence,
    )


def turn_input(message: str, user_id: str | None = None) -> dict[str, Any]:
    """A new turn: the message and per-turn resets (the conversation itself is checkpointed)."""
    return {
        "messages": [HumanMessage(content=message)],
        "question": message,
        "next_step": None,
        "router_confidence": 0.0,
        "route_method": None,
        "guardrail": None,
        "sql_result": None,
        "sql_structured_result": None,
        "sql_report": None,
        "rag_result": None,
        "rag_sources": [],
        "general_result": None,
        "final_answer": None,
        "final_structured_data": None,
    }


def sources_of(state: dict[str, Any]) -> dict[str, Any]:
    report = state.get("sql_report") or {}
    docs = (state.get("rag_sources") or []) if state.get("next_step") == "rag" else []
    documents: dict[str, dict[str, Any]] = {}
    for hit in docs:  # the manual pages the answer drew on, with their text, to open in the UI
        title = _source(hit)
        page = documents.setdefault(title, {"id": title, "title": title, "text": ""})
        page["text"] = "\n\n".join(t for t in (page["text"], hit.get("content", "")) if t)
    return {
        "sources": list(dict.fromkeys(_source(d) for d in docs)),
        "documents": list(documents.values()),
        "route": state.get("next_step"),
        "sql": report.get("executed_sql") or report.get("sql"),
        "columns": report.get("columns") or [],
        "rows": state.get("final_structured_data") or [],
        "row_count": report.get("row_count", 0),
        "truncated": report.get("truncated", False),
    }


def _source(hit: dict[str, Any]) -> str:
    meta = hit.get("metadata", hit)
    return " — ".join(str(p) for p in (meta.get("title"), meta.get("section")) if p)


def answer_of(state: dict[str, Any], thread_id: str) -> Answer:
    extra = sources_of(state)
    return Answer(
        answer=state.get("final_answer") or "",
        route=state.get("next_step"),
        confidence=state.get("router_confidence"),
        sources=extra["sources"],
        validation=None,
        thread_id=thread_id,
        context=list(state.get("rag_sources") or []),
        extra={
            "final_structured_data": state.get("final_structured_data"),
            "sql_report": state.get("sql_report"),
            "route_method": state.get("route_method"),
        },
    )


# Rows an answer out of time shows (the UI's table shows the rest from `sources`).
OUT_OF_TIME_ROWS = 10


def out_of_time_answer(state: dict[str, Any]) -> str:
    """A turn out of time, answered without the model: the SQL that ran and its rows, else
    what failed. The SQL agent's own keys are there too when it was stopped mid-way."""
    report = state.get("sql_report") or {}
    sql = report.get("executed_sql") or state.get("executed_sql")
    rows = (
        state.get("final_structured_data")
        or state.get("sql_structured_result")
        or state.get("structured_result")
        or []
    )
    error = state.get("last_sql_error") or next(reversed(report.get("errors") or []), None)
    outcome = report.get("outcome") or state.get("outcome")
    opening = "I could not write up the answer in time: many people are asking right now."
    if sql and rows:
        columns = list(report.get("columns") or state.get("column_names") or rows[0])
        lines = ["| " + " | ".join(columns) + " |", "|" + " --- |" * len(columns)]
        for row in rows[:OUT_OF_TIME_ROWS]:
            lines.append("| " + " | ".join(str(row.get(c, "")) for c in columns) + " |")
        more = len(rows) - OUT_OF_TIME_ROWS
        tail = [f"… and {more} more rows."] if more > 0 else []
        return "\n".join(
            [f"{opening} This query ran:", f"```sql\n{sql}\n```", "Its rows:", *lines, *tail]
        )
    if sql and outcome == "empty":
        return f"{opening} This query ran and returned no rows:\n```sql\n{sql}\n```"
    if error:
        return f"{opening} The last query failed: {error}. Please ask again in a moment."
    return f"{opening} No query had run yet. Please ask again in a moment."


# Nodes whose start the client hears of (seed: tool_start), and the SQL agent's visible steps.
TOOL_NODES = {
    nodes.SQL_AGENT: "sql_agent",
    nodes.RAG_RETRIEVE: "rag_agent",
    nodes.GENERAL_ANSWER: "general_agent",
}
SQL_STEPS = {
    sql_nodes.SELECT_TABLES,
    sql_nodes.GENERATE_SQL,
    sql_nodes.EXECUTE,
    sql_nodes.CORRECT_SQL,
}


def progress_of(event: dict[str, Any]) -> ChatEvent | None:
    """route_decision when classify ends, tool_start when an agent starts, and the SQL agent's
    steps (choosing tables, writing SQL, running it, correcting it)."""
    name = event.get("name")
    if name != event.get("metadata", {}).get("langgraph_node"):
        return None  # a model or a routing function inside a node, not the node itself
    if event["event"] == "on_chain_end" and name == nodes.CLASSIFY:
        output = event.get("data", {}).get("output") or {}
        return ChatEvent("progress", {"stage": "route", "route": output.get("next_step")})
    if event["event"] != "on_chain_start":
        return None
    if name in TOOL_NODES:
        return ChatEvent("progress", {"stage": "tool", "tool": TOOL_NODES[name]})
    if name in SQL_STEPS:
        return ChatEvent("progress", {"stage": "step", "step": name})
    return None


def info_of(toolkit: SQLToolkit, knowledge: Knowledge) -> dict[str, Any]:
    return {
        "assistant": NAME,
        "name": "Data analyst",
        "location": None,
        "categories": ["sql", "rag", "general"],
        "document_count": knowledge.index.count(NAME),
        "item_count": len(knowledge.source.documents),
        "table_count": len(toolkit.graph.tables),
        "relationship_count": len(toolkit.graph.relationships),
        "dialect": toolkit.dialect_name,
        "shows_sql": True,
    }


async def build_service(settings: Settings, models: Models) -> GraphAssistant:
    knowledge, _ = open_knowledge(settings, models)
    router = build_router(settings, models, knowledge)
    toolkit = open_database(settings, models)
    own = AnalystSettings.of(settings)
    resources = AsyncExitStack()
    try:
        resources.callback(toolkit.engine.dispose)
        checkpointer = await resources.enter_async_context(
            open_checkpointer(
                settings.checkpointer,
                own.conversations_path(settings),
                retry_attempts=own.conversation_db_retry_attempts,
                retry_delay_s=own.conversation_db_retry_delay,
            )
        )
        await resources.enter_async_context(
            periodic_cleanup(
                checkpointer,
                max_age=timedelta(hours=own.conversation_max_age_hours),
                interval=timedelta(hours=own.conversation_cleanup_interval_hours),
            )
        )
    except BaseException:
        await resources.aclose()
        raise
    context = AnalystContext(
        llm=models.chat,
        router=router,
        sql=toolkit,
        sql_graph=build_sql_graph(pre_validation=own.sql_pre_validation_enabled),
        manual=knowledge.retriever,
        max_conversation_messages=own.max_conversation_messages,
    )
    return GraphAssistant(
        NAME,
        build_graph(checkpointer),
        context,
        info=info_of(toolkit, knowledge),
        token_nodes={sql_nodes.SUMMARIZE, nodes.RAG_ANSWER, nodes.GENERAL_ANSWER},
        turn_input=turn_input,
        answer_of=answer_of,
        sources_of=sources_of,
        resources=resources,
        progress_of=progress_of,
        out_of_time=out_of_time_answer,
    )
