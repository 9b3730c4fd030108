"""The concierge's two retrieval functions, on the small knowledge file with hash embeddings."""

from frontdesk.assistants.concierge.tools import search_hours, search_knowledge_base
from frontdesk.knowledge.retriever import HybridRetriever, RetrievalSettings


def retriever_with(knowledge, top_k: int) -> HybridRetriever:
    source, index = knowledge
    return HybridRetriever(index, source.property_id, RetrievalSettings(top_k=top_k, min_similarity=0.0))


def test_both_tools_return_as_many_items_as_configured(knowledge):
    for top_k in (1, 2, 4):
        retriever = retriever_with(knowledge, top_k)
        assert len(search_knowledge_base(retriever, "dinner and a show")) == top_k
        assert len(search_hours(retriever, "when does the arena open")) == top_k
    # An explicit top_k still wins.
    assert len(search_knowledge_base(retriever_with(knowledge, 4), "dinner", top_k=2)) == 2


def test_search_hours_keeps_the_named_venue_first(knowledge):
    hits = search_hours(retriever_with(knowledge, 3), "Bobby's Burgers")
    assert hits[0]["metadata"]["item_name"] == "Bobby's Burgers"
