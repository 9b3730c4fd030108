import numpy as np
import pytest
from langchain_core.documents import Document

from frontdesk.knowledge.index import DenseIndex, KnowledgeIndex
from frontdesk.knowledge.ingest import ingest
from frontdesk.knowledge.loader import load_knowledge_file


def docs(*names):
    return [Document(page_content=name, metadata={"item_name": name}) for name in names]


def test_nearest_first_with_cosine_similarity():
    index = DenseIndex(docs("east", "north", "north-east"), np.array([[1, 0], [0, 2], [1, 1]]))
    hits = index.search([0.0, 5.0], k=2)
    assert [d.page_content for d, _ in hits] == ["north", "north-east"]
    assert hits[0][1] == pytest.approx(1.0) and hits[1][1] == pytest.approx(2 ** -0.5)
    assert len(index.search([1.0, 0.0], k=10)) == 3, "k larger than the index returns all"


def test_ties_keep_the_document_order_and_empty_indexes_return_nothing():
    index = DenseIndex(docs("a", "b", "c"), np.array([[1, 0], [1, 0], [1, 0]]))
    assert [d.page_content for d, _ in index.search([1.0, 0.0], k=3)] == ["a", "b", "c"]
    assert DenseIndex([], np.zeros((0,))).search([1.0, 0.0], k=3) == []
    with pytest.raises(ValueError, match="2 documents but 1 vectors"):
        DenseIndex(docs("a", "b"), np.array([[1, 0]]))


def test_search_matches_the_vector_store_and_follows_a_resync(small_kb, tmp_path, hash_embeddings):
    index = KnowledgeIndex(tmp_path / "index", hash_embeddings, "hash-test")
    source = load_knowledge_file(small_kb)
    ingest(source, index)
    query = "where can I get a burger"
    ours = [(d.id, round(s, 4)) for d, s in index.dense_search(query, 4, "test_resort")]
    store = index.store.similarity_search_with_score(query, k=4, filter={"property_id": "test_resort"})
    assert ours == [(d.id, round(1 - dist, 4)) for d, dist in store]
    # Items removed from the source leave the in-memory index too.
    source.items[:] = [item for item in source.items if item.name != "Bobby's Burgers"]
    ingest(source, index)
    names = {d.metadata["item_name"] for d, _ in index.dense_search(query, 20, "test_resort")}
    assert "Bobby's Burgers" not in names and names
