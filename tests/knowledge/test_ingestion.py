import json

import pytest

from frontdesk.knowledge.chunking import chunk_id, chunk_source
from frontdesk.knowledge.index import KnowledgeIndex
from frontdesk.knowledge.ingest import ingest, is_current
from frontdesk.knowledge.loader import KnowledgeFileError, load_knowledge_file


def test_broken_items_are_skipped_with_a_warning_naming_them(small_kb, caplog):
    source = load_knowledge_file(small_kb)
    names = [item.name for item in source.items]
    assert names == ["Bobby's Burgers", "Tuscany Trattoria", "Grand Arena", "Serenity Spa", "Smoking policy"]
    assert len(source.skipped) == 2
    assert "restaurants[2]" in source.skipped[0] and "JSON object" in source.skipped[0]
    assert "restaurants[3]" in source.skipped[1] and "no 'name'" in source.skipped[1]
    assert any("restaurants[2]" in r.getMessage() for r in caplog.records)


@pytest.mark.parametrize(
    "content, message",
    [
        ("{not json", "not valid JSON"),
        ("[]", "top level must be a JSON object"),
        ('{"categories": {"faq": []}}', "property"),
        ('{"property": {"property_id": "x"}, "categories": {}}', "categories"),
    ],
)
def test_unusable_files_raise_a_clear_error(tmp_path, content, message):
    path = tmp_path / "kb.json"
    path.write_text(content)
    with pytest.raises(KnowledgeFileError, match=message):
        load_knowledge_file(path)


def test_missing_file_raises_a_clear_error(tmp_path):
    with pytest.raises(KnowledgeFileError, match="cannot read"):
        load_knowledge_file(tmp_path / "absent.json")


def test_chunks_are_one_per_item_with_full_metadata(small_kb):
    source = load_knowledge_file(small_kb)
    chunks = chunk_source(source)
    assert len(chunks) == len(source.items)
    burger = next(c for c in chunks if c.metadata["item_name"] == "Bobby's Burgers")
    assert burger.content.startswith("Bobby's Burgers:")
    assert "Hours: Daily 11:00 AM-11:00 PM." in burger.content
    assert burger.metadata == {
        "category": "restaurants",
        "item_name": "Bobby's Burgers",
        "source": "kb_small.json",
        "property_id": "test_resort",
        "last_updated": "2026-10-01",
        "chunk_index": 0,
    }
    assert burger.id == chunk_id(burger.content, "kb_small.json")


def test_long_items_are_split_and_every_piece_names_its_item(small_kb):
    data = json.loads(small_kb.read_text())
    data["categories"]["faq"][0]["answer"] = "Smoking is allowed outside. " * 80
    small_kb.write_text(json.dumps(data))
    chunks = [c for c in chunk_source(load_knowledge_file(small_kb)) if c.metadata["item_name"] == "Smoking policy"]
    assert len(chunks) > 1
    assert [c.metadata["chunk_index"] for c in chunks] == list(range(len(chunks)))
    assert all(len(c.content) <= 800 + len("Smoking policy (continued): ") for c in chunks)
    assert all(c.content.startswith("Smoking policy") for c in chunks)


def test_reingest_is_idempotent_and_removed_items_leave_the_index(small_kb, tmp_path, hash_embeddings):
    index = KnowledgeIndex(tmp_path / "index", hash_embeddings, "hash-test")
    source = load_knowledge_file(small_kb)
    first = ingest(source, index)
    assert (first.added, first.removed) == (5, 0)
    assert is_current(source, index, 800, 100)

    again = ingest(source, index)
    assert (again.added, again.removed, again.unchanged) == (0, 0, 5)
    assert index.count("test_resort") == 5

    data = json.loads(small_kb.read_text())
    data["categories"]["entertainment"] = []
    data["categories"]["restaurants"][0]["hours"] = "Daily 10:00 AM-midnight"
    small_kb.write_text(json.dumps(data))
    changed = load_knowledge_file(small_kb)
    assert not is_current(changed, index, 800, 100)
    report = ingest(changed, index)
    assert (report.added, report.removed) == (1, 2)
    names = {d.metadata["item_name"] for d in index.documents("test_resort")}
    assert "Grand Arena" not in names
    burger = next(d for d in index.documents("test_resort") if d.metadata["item_name"] == "Bobby's Burgers")
    assert "10:00 AM-midnight" in burger.page_content


def test_index_persists_across_reopen(small_kb, tmp_path, hash_embeddings):
    index = KnowledgeIndex(tmp_path / "index", hash_embeddings, "hash-test")
    ingest(load_knowledge_file(small_kb), index)
    reopened = KnowledgeIndex(tmp_path / "index", hash_embeddings, "hash-test")
    assert reopened.count("test_resort") == 5
    assert reopened.count("other_property") == 0


def test_formatter_writes_fields_as_sentences_and_skips_a_description_that_repeats_them():
    from frontdesk.knowledge.formatters import format_item

    faq = format_item("faq", "Parking fees", {
        "question": "Do I pay to park?",
        "answer": "Self-parking is free. Valet costs $25.",
        "description": "Self-parking is free.",
        "topic": "parking",
    })
    assert faq == "Parking fees: Question: Do I pay to park? Answer: Self-parking is free. Valet costs $25. Topic: parking."
    dining = format_item("restaurants", "Bobby's Burgers", {
        "cuisine": "American", "price_range": "$", "description": "Smashed burgers and shakes.",
    })
    assert dining == (
        "Bobby's Burgers: American cuisine. Price range: $. "
        "Price level: inexpensive, budget-friendly. Smashed burgers and shakes."
    )
    arena = format_item("entertainment", "Arena", {"capacity": 10000, "age_policy": 21})
    assert arena == "Arena: Capacity: 10,000 seats. Age policy: 21."


def test_item_details_put_the_description_first_then_one_labelled_line_a_field():
    from frontdesk.knowledge.formatters import item_details

    details = item_details("restaurants", {
        "name": "Bobby's Burgers", "property_id": "p", "last_updated": "2026-01-01",
        "description": "Smashed burgers and shakes.", "phone": "860-862-8600",
        "cuisine": "American", "hours": {"mon_thu": "11 AM-10 PM", "fri_sat": "11 AM-1 AM"},
        "features": ["Shakes", "", "Patio"], "dress_code": "", "kids_menu": True,
    })
    assert details == (
        "Smashed burgers and shakes.\n\n"
        "- **Cuisine:** American\n"  # the plan's order, not the file's
        "- **Hours:** Mon thu: 11 AM-10 PM; Fri sat: 11 AM-1 AM\n"
        "- **Phone:** 860-862-8600\n"
        "- **Features:** Shakes, Patio\n"
        "- **Kids menu:** True"
    )
    assert item_details("faq", {"question": "Do I pay to park?", "answer": "No."}) == (
        "- **Question:** Do I pay to park?\n- **Answer:** No."
    )


def test_an_index_built_by_other_formatting_code_is_not_current(small_kb, tmp_path, hash_embeddings, monkeypatch):
    from frontdesk.knowledge import chunking

    index = KnowledgeIndex(tmp_path / "index", hash_embeddings, "hash-test")
    source = load_knowledge_file(small_kb)
    ingest(source, index)
    assert is_current(source, index, 800, 100)
    # Same data file, new code writing items differently (an upgrade): the index is stale.
    original = chunking.format_item
    monkeypatch.setattr(chunking, "format_item", lambda *args: original(*args) + " Updated.")
    assert not is_current(source, index, 800, 100)


def test_sentence_views_lead_with_the_item_name_and_skip_one_sentence_chunks():
    from frontdesk.knowledge.chunking import sentence_views

    views = sentence_views("Sky Suite: Type: suite. Amenities: Soaking tub. Soaking tub.", "Sky Suite")
    assert views == ("Sky Suite: Type: suite.", "Sky Suite: Amenities: Soaking tub.", "Sky Suite: Soaking tub.")
    assert sentence_views("Sky Suite: a suite.", "Sky Suite") == ()
