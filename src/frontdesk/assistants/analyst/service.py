"""Builds the analyst from settings: database, join graph, table search, manual, router, graphs.

`open_database`, `open_knowledge` and `build_router` are separate so the SQL, routing and
retrieval evaluations and `frontdesk ingest` never load more than they need.
"""

from __future__ import annotations

import logging
from contextlib import AsyncExitStack
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
from frontdesk.assistants.analyst.turn_output import answer_of, out_of_time_answer, sources_of
from frontdesk.assistants.base import ChatEvent
from frontdesk.config import Settings
from frontdesk.knowledge.index import ProgressCallback
from frontdesk.knowledge.ingest import IngestMode, IngestReport
from frontdesk.knowledge.mmr import MMRSettings
from frontdesk.knowledge.opening import MarkdownKnowledge, open_markdown_knowledge
from frontdesk.memory.checkpointer import open_checkpointer, periodic_cleanup
from frontdesk.routing.classifier import EmbeddingIntentClassifier, load_examples
from frontdesk.routing.router import IntentRouter, fast_paths_for, lazy_llm_route
from frontdesk.runtime import Models

logger = logging.getLogger(__name__)

__all__ = [
    "answer_of",
    "build_router",
    "build_service",
    "open_database",
    "open_knowledge",
    "out_of_time_answer",
    "sources_of",
    "sql_target",
]

NAME = "analyst"
DATA_DIR = Path(__file__).parent / "data"
DOCS_DIR = DATA_DIR / "docs"
ROUTER_EXAMPLES = DATA_DIR / "router_examples.jsonl"
EVAL_DIR = DATA_DIR / "eval"
GREETING_PATTERNS = [r"(hi|hello|hey|good (morning|afternoon|evening)|thanks|thank you)( there)?"]
# The manual's relevance gate: telecom's calibrated value (same embedding model and scale).
MANUAL_GATE_THRESHOLD = 0.95


Knowledge = MarkdownKnowledge


def open_knowledge(
    settings: Settings,
    models: Models,
    *,
    ingest_mode: IngestMode = "if_changed",
    progress: ProgressCallback | None = None,
) -> tuple[Knowledge, IngestReport | None]:
    """The user manual (RAG agent): markdown chunks, searched with MMR behind a relevance gate."""
    retrieval = MMRSettings(top_k=5, threshold=MANUAL_GATE_THRESHOLD, min_hits=1)
    return open_markdown_knowledge(
        settings, models, NAME, DOCS_DIR, retrieval, ingest_mode=ingest_mode, progress=progress
    )


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
