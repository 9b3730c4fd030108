import json

import pytest
from langchain_core.documents import Document

from frontdesk.knowledge.index import KeywordIndex, KnowledgeIndex
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


def test_search_is_filtered_on_property(retriever, small_kb):
    other = HybridRetriever(retriever.index, "another_resort", retriever.settings)
    assert other.search("bobby's burgers") == []

    # A second property in the same index: each search sees only its own property's items.
    data = json.loads(small_kb.read_text())
    data["property"]["property_id"] = "another_resort"
    for items in data["categories"].values():
        for item in items:
            if isinstance(item, dict):
                item["property_id"] = "another_resort"
                if "name" in item:
                    item["name"] = "Other " + item["name"]
    small_kb.write_text(json.dumps(data))
    ingest(load_knowledge_file(small_kb), retriever.index)
    mine = {h["metadata"]["item_name"] for h in retriever.search("bobby's burgers", top_k=5)}
    theirs = {h["metadata"]["item_name"] for h in other.search("bobby's burgers", top_k=5)}
    assert "Bobby's Burgers" in mine and all(not n.startswith("Other ") for n in mine)
    assert "Other Bobby's Burgers" in theirs and all(n.startswith("Other ") for n in theirs)


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


class _FixedRankings:
    """An index stand-in returning fixed dense and keyword rankings."""

    def __init__(self, dense, keyword):
        self.dense, self.keyword = dense, keyword

    def dense_search(self, query, k, property_id):
        return self.dense[:k]

    def relevance(self, query, property_id):
        return max((score for _, score in self.dense), default=-1.0)

    def keyword_search(self, query, k, property_id):
        return self.keyword[:k]


def _doc(name: str, chunk_index: int = 0) -> Document:
    return Document(
        page_content=f"{name} part {chunk_index}",
        metadata={"category": "faq", "item_name": name, "chunk_index": chunk_index},
        id=f"{name}-{chunk_index}",
    )


def test_weak_keyword_matches_are_dropped_before_fusion():
    index = _FixedRankings(
        dense=[(_doc("Pool"), 0.6)],
        keyword=[(_doc("Spa"), 10.0), (_doc("Arena"), 5.0), (_doc("Buffet"), 1.0)],
    )
    names = lambda settings: [
        hit["metadata"]["item_name"] for hit in HybridRetriever(index, "p", settings).search("q")
    ]
    assert names(RetrievalSettings(keyword_min_ratio=0.4)) == ["Pool", "Spa", "Arena"]
    assert "Buffet" in names(RetrievalSettings(keyword_min_ratio=0.0))


def test_an_item_takes_one_place_in_each_ranking_before_fusion():
    # Two chunks of "Hotel" lead the dense ranking; "Spa" is second in both rankings once
    # "Hotel" counts once, so it beats "Pool", which only BM25 found at the top.
    index = _FixedRankings(
        dense=[(_doc("Hotel", 0), 0.8), (_doc("Hotel", 1), 0.7), (_doc("Spa"), 0.6)],
        keyword=[(_doc("Pool"), 9.0), (_doc("Spa"), 8.0)],
    )
    hits = HybridRetriever(index, "p", RetrievalSettings()).search("q")
    assert [hit["metadata"]["item_name"] for hit in hits] == ["Spa", "Hotel", "Pool"]
    hotel = hits[1]
    assert hotel["content"] == "Hotel part 0\nHotel part 1"
    assert hotel["score"] == 0.8 and hits[2]["score"] is None


FILLER = (
    "Located in Casino of the Sky. Hours: daily 10:00 AM-10:00 PM. Reservations: recommended. "
    "Features: lounge seating, full bar, live music on weekends."
)


def test_a_keyword_query_naming_an_item_ranks_its_own_entry_above_short_mentions():
    pizzeria = Document(
        page_content=(
            "Frank Pepe Pizzeria: Pizza cuisine. Located in Casino of the Earth. Hours: daily "
            "11:00 AM-11:00 PM. Reservations: not accepted. Features: coal-fired oven, white clam "
            "pizza, takeout, gluten-free crust. New Haven's famous pizzeria."
        ),
        metadata={"item_name": "Frank Pepe Pizzeria"},
    )
    stand = Document(
        page_content=f"Arena Concessions: Frank Pepe pizza slices. {FILLER}",
        metadata={"item_name": "Arena Concessions"},
    )
    others = [
        Document(page_content=f"{name}: {FILLER}", metadata={"item_name": name})
        for name in ("Spa", "Pool", "Buffet", "Arena")
    ]
    docs = [pizzeria, stand, *others]
    names = lambda index: [doc.metadata["item_name"] for doc, _ in index.search("pepes", 2)]
    # Plain BM25 favours the short entry that mentions the name in passing...
    assert names(KeywordIndex(docs)) == ["Arena Concessions", "Frank Pepe Pizzeria"]
    # ...weighting the title puts the named item first; the title's words become searchable.
    titled = KeywordIndex(docs, title_keys=("item_name",))
    assert names(titled) == ["Frank Pepe Pizzeria", "Arena Concessions"]
    assert KeywordIndex([stand], ("item_name",)).has_full_match("concessions")


def test_queries_are_tokenized_exactly_as_bm25s_tokenizes_documents():
    import bm25s

    from frontdesk.assistants.concierge.service import EVAL_DIR

    index = KeywordIndex([Document(page_content="Seasons Buffet: open daily.")])
    rows = (EVAL_DIR / "retrieval.jsonl").read_text().splitlines()
    queries = [json.loads(row)["query"] for row in rows if row.strip()]
    queries += ["The BEST café's 24/7 hours?!", "a an the of", "", "Bobby's Burgers & fries"]
    expected = bm25s.tokenize(
        queries, stopwords="en", stemmer=index._stemmer, return_ids=False, show_progress=False
    )
    assert [index.query_terms(q) for q in queries] == expected


def test_keyword_search_breaks_score_ties_by_document_order():
    docs = [Document(page_content=f"Venue {n}: valet parking.") for n in range(6)]
    found = KeywordIndex(docs).search("valet parking", 4)
    assert [doc.page_content for doc, _ in found] == [d.page_content for d in docs[:4]]
    assert len({score for _, score in found}) == 1
