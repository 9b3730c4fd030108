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
    assert hits[0][1] == pytest.approx(1.0) and hits[1][1] == pytest.approx(2**-0.5)
    assert len(index.search([1.0, 0.0], k=10)) == 3, "k larger than the index returns all"


def test_ties_keep_the_document_order_and_empty_indexes_return_nothing():
    index = DenseIndex(docs("a", "b", "c"), np.array([[1, 0], [1, 0], [1, 0]]))
    assert [d.page_content for d, _ in index.search([1.0, 0.0], k=3)] == ["a", "b", "c"]
    assert DenseIndex([], np.zeros((0,))).search([1.0, 0.0], k=3) == []
    with pytest.raises(ValueError, match="2 documents but 1 vectors"):
        DenseIndex(docs("a", "b"), np.array([[1, 0]]))


def test_a_chunk_ranks_by_its_best_view_but_relevance_looks_at_whole_chunks():
    index = DenseIndex(
        docs("pool", "spa"),
        np.array([[1, 0, 0], [0, 1, 0]]),
        view_vectors=np.array([[0, 0.6, 0.8], [0, 0, 1]]),
        view_owners=[0, 0],  # both views belong to "pool"
    )
    hits = index.search([0.0, 0.0, 1.0], k=2)
    assert [(d.page_content, round(s, 3)) for d, s in hits] == [("pool", 1.0), ("spa", 0.0)]
    assert index.relevance([0.0, 0.0, 1.0]) == pytest.approx(0.0), "no whole chunk is close"
    with pytest.raises(ValueError, match="dimension"):
        DenseIndex(docs("a"), np.array([[1, 0]]), np.array([[1, 0, 0]]), [0])


def test_views_are_stored_with_their_chunks_and_leave_with_them(
    small_kb, tmp_path, hash_embeddings
):
    index = KnowledgeIndex(tmp_path / "index", hash_embeddings, "hash-test")
    source = load_knowledge_file(small_kb)
    ingest(source, index)
    query = "where can I get a burger"
    store = index.store.similarity_search_with_score(
        query, k=1, filter={"property_id": "test_resort"}
    )
    assert index.relevance(query, "test_resort") == pytest.approx(1 - store[0][1], abs=1e-4)
    burger_chunk = next(
        d.id for d in index.documents("test_resort") if d.metadata["item_name"] == "Bobby's Burgers"
    )

    def views_of(chunk_id):
        return index.views._collection.get(where={"chunk_id": chunk_id}, include=["documents"])[
            "documents"
        ]

    assert views_of(burger_chunk) and all(
        v.startswith("Bobby's Burgers") for v in views_of(burger_chunk)
    )
    # Items removed from the source leave the in-memory index and the views collection.
    source.items[:] = [item for item in source.items if item.name != "Bobby's Burgers"]
    ingest(source, index)
    names = {d.metadata["item_name"] for d, _ in index.dense_search(query, 20, "test_resort")}
    assert "Bobby's Burgers" not in names and names
    assert views_of(burger_chunk) == []


def test_a_chunk_with_a_key_is_embedded_by_its_key_and_stored_whole(tmp_path, recording_embeddings):
    from frontdesk.knowledge.chunking import Chunk

    embeddings = recording_embeddings
    index = KnowledgeIndex(tmp_path, embeddings, "recording")
    long_text = "def handler(request):\n" + "    step()\n" * 200
    chunks = [
        Chunk("a", long_text, {"property_id": "p", "item_name": "handler"}, key="def handler"),
        Chunk("b", "short text", {"property_id": "p", "item_name": "short"}),
    ]
    report = index.sync(chunks, "p")
    assert report.added == 2
    assert sorted(embeddings.embedded) == ["def handler", "short text"]
    stored = {d.id: d.page_content for d in index.documents("p")}
    assert stored == {"a": long_text, "b": "short text"}, "the whole content is what is shown"
    hits = index.dense_search("def handler", k=1, property_id="p")
    assert hits[0][0].id == "a" and hits[0][1] == pytest.approx(1.0), "its vector is the key's"


def test_a_resync_keeps_the_old_chunks_searchable_until_the_new_ones_are_in(
    tmp_path, recording_embeddings
):
    from frontdesk.knowledge.chunking import Chunk

    index = KnowledgeIndex(tmp_path, recording_embeddings, "recording")
    meta = {"property_id": "p", "item_name": "x"}
    index.sync([Chunk("old-1", "old one", meta), Chunk("old-2", "old two", meta)], "p")
    seen = []
    embed = recording_embeddings.embed_documents

    def embed_and_look(texts):
        seen.append(index.count("p"))  # what a search loading now would find
        return embed(texts)

    recording_embeddings.embed_documents = embed_and_look
    report = index.sync([Chunk("new-1", "new one", meta)], "p")
    assert (report.added, report.removed) == (1, 2)
    assert seen == [2], "the old chunks were still there while the new one was embedded"
    assert [d.id for d in index.documents("p")] == ["new-1"]
