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
