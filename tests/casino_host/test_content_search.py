"""Search over the content: tenant isolation, a mandatory casino id, filters, and offers that
are only found while they are valid. Hash embeddings stand in for the model."""

from __future__ import annotations

from datetime import datetime
from zoneinfo import ZoneInfo

import pytest

from frontdesk.assistants.casino_host.content import (
    CasinoContent,
    CasinoScopeError,
    ContentSearch,
    Promotion,
    UnknownCasinoError,
)
from frontdesk.embeddings.hashing import HashEmbeddings
from frontdesk.knowledge.retriever import RetrievalSettings

NOW = datetime(2026, 11, 25, 12, 0, tzinfo=ZoneInfo("America/New_York"))
# Each casino's own names: searched in both, they must only ever come back from their own.
DISTINCTIVE = {
    "mohegan_sun": ["Momentum Dollars", "Michael Jordan's Steak House", "Wolf Den", "Sky Tower"],
    "bellagio": ["Fountains of Bellagio", "Picasso", "O by Cirque du Soleil", "MGM Rewards"],
}
GENERIC = ["steak dinner", "free play offer", "can I smoke", "spa massage", "hotel check-in"]


@pytest.fixture(scope="module")
def content() -> CasinoContent:
    return CasinoContent.load()


@pytest.fixture(scope="module")
def search(content, tmp_path_factory) -> ContentSearch:
    # Hash embeddings score lower than a real model: the concierge's tests use the same floor.
    searcher = ContentSearch(
        content,
        tmp_path_factory.mktemp("content-index"),
        HashEmbeddings(),
        "hash-test",
        settings=RetrievalSettings(min_similarity=0.05),
    )
    for casino_id in content.casino_ids:
        searcher.ingest(casino_id)
    return searcher


def test_each_casino_has_an_index_of_its_own(search, content):
    for casino_id in content.casino_ids:
        folder = search.index_dir / casino_id
        assert (folder / "chroma").is_dir()
        assert len(search.search(casino_id, "restaurant", k=50, now=NOW)) > 0
        assert search.ingest(casino_id) is None  # indexed once, reused


@pytest.mark.parametrize("casino_id", ["mohegan_sun", "bellagio"])
def test_a_search_never_returns_the_other_casinos_documents(search, content, casino_id):
    catalog = content.catalog(casino_id)
    own_ids = {item.id for item in catalog.all_items()}
    other = next(c for c in content.casino_ids if c != casino_id)
    other_name = content.catalog(other).casino.name.split()[0]  # "Mohegan", "Bellagio"
    queries = [*GENERIC, *DISTINCTIVE["mohegan_sun"], *DISTINCTIVE["bellagio"]]
    found = 0
    for query in queries:
        for hit in search.search(casino_id, query, k=10, now=NOW):
            found += 1
            assert hit.casino_id == casino_id
            assert hit.item.id in own_ids
            assert other_name not in hit.content, (query, hit.name)
    assert found > 0


@pytest.mark.parametrize(
    ("casino_id", "query", "expected_id"),
    [
        ("bellagio", "Fountains of Bellagio", "fountains_of_bellagio"),
        ("bellagio", "Picasso", "picasso"),
        ("mohegan_sun", "Michael Jordan's Steak House", "michael_jordans_steak_house"),
        ("mohegan_sun", "Wolf Den", "wolf_den"),
    ],
)
def test_a_casinos_own_names_are_found(search, casino_id, query, expected_id):
    # Hash embeddings rank roughly ("Picasso" also names the Valentine's dinner there).
    hits = search.search(casino_id, query, k=3, now=NOW)
    assert expected_id in [hit.item.id for hit in hits]


def test_the_other_casinos_venue_is_not_found_under_this_casino(search):
    hits = search.search("mohegan_sun", "Fountains of Bellagio", k=20, now=NOW)
    assert all(hit.item.id != "fountains_of_bellagio" for hit in hits)
    hits = search.search("bellagio", "Michael Jordan's Steak House", k=20, now=NOW)
    assert all(hit.item.id != "michael_jordans_steak_house" for hit in hits)


@pytest.mark.parametrize("casino_id", [None, ""])
def test_search_without_a_casino_id_raises(search, casino_id):
    with pytest.raises(CasinoScopeError, match="casino_id"):
        search.search(casino_id, "steak dinner", now=NOW)


def test_search_for_an_unknown_casino_raises(search):
    with pytest.raises(UnknownCasinoError, match="foxwoods"):
        search.search("foxwoods", "steak dinner", now=NOW)


def test_a_category_filter_keeps_one_category(search):
    hits = search.search("bellagio", "massage and facial", category="spa", k=5, now=NOW)
    assert hits and {hit.category for hit in hits} == {"spa"}
    assert hits[0].item.id == "spa_bellagio"
    rules = search.search("mohegan_sun", "can I smoke", category="regulations", now=NOW)
    assert rules[0].item.id == "smoking_rules"
    with pytest.raises(ValueError, match="not a content category"):
        search.search("bellagio", "massage", category="wellness", now=NOW)


def test_expired_and_future_offers_are_not_found(search):
    def offer_ids(query: str, now: datetime) -> set[str]:
        hits = search.search("mohegan_sun", query, category="promotions", k=20, now=now)
        return {hit.item.id for hit in hits if isinstance(hit.item, Promotion)}

    assert "summer_sizzle_free_play" not in offer_ids("Summer Sizzle Free Play", NOW)
    summer = datetime(2026, 7, 15, 12, 0, tzinfo=ZoneInfo("America/New_York"))
    assert "summer_sizzle_free_play" in offer_ids("Summer Sizzle Free Play", summer)
    assert "winter_getaway_hotel_offer" not in offer_ids("Winter Getaway Hotel Offer", NOW)
    assert "host_free_play_welcome" in offer_ids("free play", NOW)


def test_hits_carry_the_structured_item_the_facts_come_from(search, content):
    (hit,) = search.search("mohegan_sun", "Bobby's Burgers", k=1, now=NOW)
    assert hit.item is content.catalog("mohegan_sun").venue("bobbys_burgers")
    assert "Fri-Sat 11:00 AM-1:00 AM" in hit.content  # the text is written from the structure
    assert search.search("mohegan_sun", "   ", now=NOW) == []
    with pytest.raises(ValueError, match="k must be"):
        search.search("mohegan_sun", "burgers", k=0, now=NOW)


def test_a_foreign_document_in_an_index_is_an_error_not_a_result(search, monkeypatch):
    search.search("bellagio", "Picasso", now=NOW)  # opened
    retriever = search._open["bellagio"].retriever
    foreign = {
        "content": "Wolf Den: free live music.",
        "metadata": {"property_id": "mohegan_sun", "category": "entertainment",
                     "item_name": "Wolf Den"},
        "score": 0.9,
        "rrf": 0.1,
    }  # fmt: skip
    monkeypatch.setattr(retriever, "search", lambda query, top_k=None: [foreign])
    with pytest.raises(CasinoScopeError, match="not tenant-clean"):
        search.search("bellagio", "live music", now=NOW)
