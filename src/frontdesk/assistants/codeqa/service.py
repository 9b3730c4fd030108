"""Code QA as a Frontdesk service: the index, the repositories, the graph and the turn."""

from __future__ import annotations

import asyncio
from contextlib import AsyncExitStack
from typing import Any

from langchain_core.messages import HumanMessage

from frontdesk.agentkit.service import GraphAssistant
from frontdesk.assistants.base import Answer
from frontdesk.assistants.codeqa import nodes
from frontdesk.assistants.codeqa.answers.compose import citations_release
from frontdesk.assistants.codeqa.context import CodeQAContext
from frontdesk.assistants.codeqa.graph import build_graph
from frontdesk.assistants.codeqa.indexing.background import BackgroundIndexer
from frontdesk.assistants.codeqa.indexing.indexer import CodeIndex, IndexReport
from frontdesk.assistants.codeqa.repository import Repositories
from frontdesk.assistants.codeqa.settings import CodeQASettings
from frontdesk.config import Settings
from frontdesk.knowledge.index import ProgressCallback
from frontdesk.memory.checkpointer import open_checkpointer
from frontdesk.runtime import Models

NAME = "codeqa"


def open_index(settings: Settings, models: Models) -> CodeIndex:
    own = CodeQASettings.of(settings)
    return CodeIndex(
        settings.index_dir(NAME),
        models.embeddings,
        models.embeddings_id,
        budget=own.chunk_budget,
        outside_code_embed_chars=own.outside_code_embed_chars,
    )


def open_knowledge(
    settings: Settings,
    models: Models,
    *,
    ingest_mode: str = "if_changed",
    progress: ProgressCallback | None = None,
) -> tuple[CodeIndex, IndexReport | None]:
    """`frontdesk ingest`: index the configured repository (only what changed, unless
    `ingest_mode` is "never")."""
    own = CodeQASettings.of(settings)
    index = open_index(settings, models)
    if ingest_mode == "never":
        return index, None
    report = index.index(
        own.repo_path,
        own.repo_id,
        (lambda stage, done, total: progress(done, total)) if progress else None,
    )
    return index, report


def turn_input(message: str, user_id: str | None = None) -> dict[str, Any]:
    """A new turn: the question and every per-turn field reset. The repository is not: a
    thread stays on the one it was asked about (`scope`) until a turn names another."""
    return {
        "user_query": message,
        "messages": [HumanMessage(content=message)],
        "gateway_passed": None,
        "gateway_reason": None,
        "is_blocked": None,
        "cleaned_query": None,
        "intent": None,
        "is_history_query": None,
        "is_follow_up": None,
        "needs_retrieval": None,
        "router_output": None,
        "retrieved_chunks": [],
        "expanded_chunks": [],
        "retrieval_metadata": None,
        "final_answer": None,
        "citations": [],
        "error": None,
    }


def answer_of(state: dict[str, Any], thread_id: str) -> Answer:
    citations = state.get("citations") or []
    route = (state.get("router_output") or {}).get("ask") or state.get("intent")
    return Answer(
        answer=state.get("final_answer") or "",
        route="blocked" if state.get("is_blocked") else route,
        confidence=None,
        sources=[c["label"] for c in citations],
        validation=None,
        thread_id=thread_id,
        context=list(state.get("retrieved_chunks") or []),
        extra={
            "citations": citations,
            "intent": state.get("intent"),
            "retrieval_metadata": state.get("retrieval_metadata"),
            "fast_path": bool((state.get("router_output") or {}).get("fast_path")),
            # The code the answer was shown: (path, first line, last line) of each block.
            "shown": [
                (b["path"], b["start_line"], b["end_line"])
                for b in state.get("expanded_chunks") or []
            ],
        },
    )


def sources_of(state: dict[str, Any]) -> dict[str, Any]:
    """The cited lines, each with the code shown, so the web UI can open them."""
    citations = state.get("citations") or []
    blocks = {b["chunk_id"]: b for b in state.get("expanded_chunks") or []}
    documents = []
    for citation in citations:
        block = blocks.get(citation["chunk_id"])
        if block is None:
            continue
        documents.append(
            {
                "id": citation["label"],
                "title": citation["label"]
                + (f" {citation['symbol']}" if citation["symbol"] else ""),
                "text": block["code"],
                "path": citation["path"],
                "start_line": block["start_line"],
                "highlight": [citation["start_line"], citation["end_line"]],
            }
        )
    return {"sources": [c["label"] for c in citations], "citations": citations,
            "documents": documents}  # fmt: skip


async def build_service(
    settings: Settings, models: Models, *, repositories: Repositories | None = None
) -> GraphAssistant:
    """The service, at once: the default repository is indexed (again: only what changed) by
    a worker thread while it serves (indexing/background.py). `repositories`: where turns
    find theirs instead (the evaluation's, with the shipped sets' repositories)."""
    own = CodeQASettings.of(settings)
    index = open_index(settings, models)
    worker = BackgroundIndexer(index, own.repo_path, own.repo_id) if own.index_on_start else None

    def indexing(repo_id: str) -> str | None:
        if worker is None or repo_id != worker.repo_id or not worker.progress.running:
            return None
        return worker.progress.describe()

    repositories = repositories or Repositories(index, own.map_tokens, indexing)
    resources = AsyncExitStack()
    checkpointer = await resources.enter_async_context(
        open_checkpointer(settings.checkpointer, settings.checkpoint_path)
    )
    if worker is not None:
        if settings.embeddings_provider == "embedded":
            # Load the embedding model here, not in the worker: its thread pool keeps the
            # priority of the thread that loads it, and turns embed with it too.
            await asyncio.to_thread(models.embeddings.embed_query, "warm up")
        worker.start()
        # Joining the worker waits for its current batch: off the event loop.
        resources.push_async_callback(asyncio.to_thread, worker.stop)
    context = CodeQAContext(
        llm=models.chat,
        embeddings=models.embeddings,
        repository=repositories,
        default_repo=own.repo_id,
        settings=own,
    )
    return GraphAssistant(
        NAME,
        build_graph(checkpointer),
        context,
        info=service_info(own, index, worker),
        token_nodes={nodes.SYNTHESIS},
        turn_input=turn_input,
        answer_of=answer_of,
        sources_of=sources_of,
        resources=resources,
        release_check=citations_release,
        check_scope=repositories.check,
        scope_input=lambda repo_id: {"repo_id": repo_id},
    )


def service_info(own: CodeQASettings, index: CodeIndex, worker: BackgroundIndexer | None):
    """The service's info, read afresh each time: the repositories and the indexing run."""

    def current() -> dict[str, Any]:
        progress = worker.progress if worker is not None else None
        indexing = None
        if progress is not None:
            indexing = {
                "repository": progress.repo_id,
                "stage": progress.stage,
                "done": progress.done,
                "total": progress.total,
                "status": progress.describe(),
            }
        return {
            "assistant": NAME,
            "repository": own.repo_id,
            "repositories": index.repositories(),
            "indexing": indexing,
        }

    return current
