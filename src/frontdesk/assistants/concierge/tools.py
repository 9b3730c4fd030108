"""The concierge's two retrieval functions (plain functions, not LLM tools: the graph decides)."""

from __future__ import annotations

from typing import Any

from frontdesk.knowledge.retriever import HybridRetriever

HOURS_TERMS = "hours schedule open close"


def search_knowledge_base(retriever: HybridRetriever, query: str, top_k: int = 5) -> list[dict[str, Any]]:
    """General search: `{content, metadata, score}` dicts, best first."""
    return retriever.search(query, top_k=top_k)


def search_hours(retriever: HybridRetriever, venue_name: str, top_k: int = 5) -> list[dict[str, Any]]:
    """Schedule search: the schedule words pull hours-bearing chunks up."""
    return retriever.search(f"{venue_name} {HOURS_TERMS}", top_k=top_k)
