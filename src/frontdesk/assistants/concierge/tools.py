"""The concierge's two retrieval functions (plain functions, not LLM tools: the graph decides)."""

from __future__ import annotations

from typing import Any

from frontdesk.knowledge.retriever import HybridRetriever, reciprocal_rank_fusion

HOURS_TERMS = "hours schedule open close"


def search_knowledge_base(
    retriever: HybridRetriever, query: str, top_k: int | None = None
) -> list[dict[str, Any]]:
    """General search: `{content, metadata, score}` dicts, best first; `top_k` defaults to the
    retriever's setting (FRONTDESK_CONCIERGE_RAG_TOP_K, 5)."""
    return retriever.search(query, top_k=top_k)


def search_hours(
    retriever: HybridRetriever, venue_name: str, top_k: int | None = None
) -> list[dict[str, Any]]:
    """Schedule search: the plain query fused with a schedule-augmented one.

    The schedule words pull hours-bearing chunks up, but alone they also pull up every chunk
    that talks about opening hours in general ("the casino is open 24/7"); fusing with the
    plain query keeps the venue the guest named on top.
    """
    top_k = top_k or retriever.settings.top_k
    plain = retriever.search(venue_name, top_k=top_k)
    if not plain:  # nothing relevant: the schedule words must not invent relevance
        return []
    augmented = retriever.search(f"{venue_name} {HOURS_TERMS}", top_k=top_k)
    by_key = {doc["content"]: doc for doc in [*augmented, *plain]}
    fused = reciprocal_rank_fusion(
        [[d["content"] for d in plain], [d["content"] for d in augmented]],
        k=retriever.settings.rrf_k,
    )
    return [by_key[key] for key in sorted(fused, key=fused.get, reverse=True)[:top_k]]
