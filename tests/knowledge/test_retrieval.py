import json

import pytest

from frontdesk.knowledge.index import KnowledgeIndex
from frontdesk.knowledge.ingest import ingest
from frontdesk.knowledge.loader import load_knowledge_file
from frontdesk.knowledge.retriever import HybridRetriever, RetrievalSettings, reciprocal_rank_fusion


def test_rrf_rewards_agreement_between_rankings():
    scores = reciprocal_rank_fusion([["a", "b", "c"], ["b", "c", "a"]], k=60)
    assert max(scores, key=scores.get) == "b"
    assert scores["b"] == pytest.approx(1 / 62 + 1 / 61)
    assert reciprocal_rank_fusion([["x"]], k=60) == {"x": pytest.approx(1 / 61)}


@pytest.fixture
def retriever(small_kb, tmp_path, hash_embeddings):
    index = KnowledgeIndex(tmp_path / "index", hash_embeddings, "hash-test")
    ingest(load_knowledge_file(small_kb), index)
    return HybridRetriever(index, "test_resort", RetrievalSettings(top_k=3, min_similarity=0.05))


def test_hybrid_search_finds_items_by_name_and_by_topic(retriever):
    top = retriever.search("bobby's burgers hours")[0]
    assert top["metadata"]["item_name"] == "Bobby's Burgers"
    assert set(top) == {"content", "metadata", "score", "rrf"}
    assert retriever.search("pasta italian dinner")[0]["metadata"]["item_name"] == "Tuscany Trattoria"
    assert len(retriever.search("spa massage", top_k=2)) <= 2


def test_search_is_filtered_on_property(retriever):
    other = HybridRetriever(retriever.index, "another_resort", retriever.settings)
    assert other.search("bobby's burgers") == []


def test_nothing_above_the_threshold_returns_nothing(retriever):
    strict = HybridRetriever(retriever.index, "test_resort", RetrievalSettings(min_similarity=0.99))
    assert strict.search("quantum chromodynamics lecture") == []


def test_a_query_whose_every_keyword_one_item_holds_passes_the_threshold(retriever):
    # Short keyword queries embed poorly; naming what an item says is evidence enough.
    strict = HybridRetriever(retriever.index, "test_resort", RetrievalSettings(min_similarity=0.99))
    hits = strict.search("smashed burgers milkshakes")
    assert hits and hits[0]["metadata"]["item_name"] == "Bobby's Burgers"
    # One matching word is not enough when the rest of the query is elsewhere.
    assert strict.search("smashed quantum chromodynamics") == []


def test_chunks_of_one_long_item_merge_into_one_result(small_kb, tmp_path, hash_embeddings):
    data = json.loads(small_kb.read_text())
    spa = (
        "The Serenity Spa offers hot stone massage, deep tissue massage and aromatherapy. " * 12
        + "Book the couples massage suite at the front desk of the spa."
    )
    data["categories"]["amenities"].append(
        {"name": "Serenity Spa", "property_id": "test_resort", "last_updated": "2026-10-01",
         "type": "spa", "description": spa}
    )
    small_kb.write_text(json.dumps(data))
    index = KnowledgeIndex(tmp_path / "index", hash_embeddings, "hash-test")
    ingest(load_knowledge_file(small_kb), index)
    chunks = [d for d in index.documents("test_resort") if d.metadata["item_name"] == "Serenity Spa"]
    assert len(chunks) >= 2, "the item is long enough to be split"

    search = HybridRetriever(index, "test_resort", RetrievalSettings(top_k=5, min_similarity=0.0))
    hits = search.search("spa massage couples suite")
    names = [hit["metadata"]["item_name"] for hit in hits]
    assert len(names) == len(set(names)), names
    spa_hit = hits[names.index("Serenity Spa")]
    assert "couples massage suite" in spa_hit["content"]
    assert spa_hit["content"].count("hot stone massage") >= 10, "the retrieved chunks are joined in order"
