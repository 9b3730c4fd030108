"""The code QA graph's state: the seed's schema (L349-384), one field per node output.

Per-turn fields are reset by the service at the start of a turn; `conversation_history` and
`turn_count` carry over through the checkpointer, and `messages` is the conversation a person
sees (the core's transcript and the web UI read it)."""

from __future__ import annotations

from typing import Annotated, Any, TypedDict

from langchain_core.messages import AnyMessage
from langgraph.graph.message import add_messages


class RetrievalRequestDict(TypedDict, total=False):
    query: str
    source_types: list[str]
    folders: list[str]
    file_patterns: list[str]
    symbols: list[str]
    reasoning: str


class RouterOutput(TypedDict, total=False):
    cleaned_query: str
    retrieval_requests: list[RetrievalRequestDict]
    ask: str  # locate | usages | explain
    fast_path: bool  # the question named something the index has


class CodeQAState(TypedDict, total=False):
    # user input
    user_query: str
    repo_id: str
    # security
    gateway_passed: bool | None
    gateway_reason: str | None
    is_blocked: bool | None
    # input preprocessing
    cleaned_query: str | None
    intent: str | None  # history_request | follow_up | follow_up_with_retrieval | new_question
    # | unserved_language
    is_history_query: bool | None
    is_follow_up: bool | None
    needs_retrieval: bool | None
    # router
    router_output: RouterOutput | None
    codebase_tree: str | None
    # retrieval
    retrieved_chunks: list[dict[str, Any]] | None
    expanded_chunks: list[dict[str, Any]] | None
    retrieval_metadata: dict[str, Any] | None
    # synthesis
    messages: Annotated[list[AnyMessage], add_messages]
    final_answer: str | None
    citations: list[dict[str, Any]] | None
    # conversation
    conversation_history: list[dict[str, Any]] | None
    turn_count: int | None
    # error
    error: str | None
