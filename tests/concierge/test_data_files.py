"""Checks on the concierge's shipped data: the Mohegan Sun knowledge base, the labelled
evaluation sets and the router training examples (src/frontdesk/assistants/concierge/data)."""

from __future__ import annotations

import json
import re
from collections import Counter
from pathlib import Path

import pytest

from frontdesk.assistants import concierge
from frontdesk.eval.datasets import load_dataset

DATA = Path(concierge.__file__).resolve().parent / "data"
KB_PATH = DATA / "mohegan_sun.json"
RETRIEVAL = DATA / "eval" / "retrieval.jsonl"
ROUTING = DATA / "eval" / "routing.jsonl"
ANSWERS = DATA / "eval" / "answers.jsonl"
ANSWERS_HELDOUT = DATA / "eval" / "answers_heldout.jsonl"
ROUTER = DATA / "router_examples.jsonl"

LABELS = {
    "property_qa",
    "hours_schedule",
    "greeting",
    "off_topic",
    "gambling_advice",
    "action_request",
    "ambiguous",
}
MIN_PER_CATEGORY = {
    "restaurants": 30,
    "entertainment": 15,
    "hotel": 15,
    "amenities": 20,
    "gaming": 12,
    "promotions": 10,
    "faq": 20,
}
CATEGORY_FIELDS = {
    "restaurants": {
        "cuisine",
        "location",
        "hours",
        "price_range",
        "dress_code",
        "phone",
        "reservations",
        "features",
    },
    "entertainment": {
        "type",
        "location",
        "capacity",
        "hours",
        "schedule",
        "performances",
        "age_policy",
        "phone",
        "features",
    },
    "hotel": {
        "type",
        "tower",
        "size_sqft",
        "beds",
        "max_occupancy",
        "rate_range",
        "check_in",
        "check_out",
        "amenities",
        "phone",
    },
    "amenities": {"type", "location", "hours", "price_range", "age_policy", "phone", "features"},
    "gaming": {"type", "location", "games", "hours", "min_age", "features"},
    "promotions": {"type", "requirements", "benefits", "how_to_join", "valid"},
    "faq": {"question", "answer", "topic"},
}
COMMON_FIELDS = {"name", "property_id", "last_updated", "description"}
ODDS_WORDS = re.compile(
    r"\b(odds|house edge|payout percentages?|rtp|return to player)\b", re.IGNORECASE
)
TIME = re.compile(r"\b\d{1,2}(?::\d{2})?\s*(?:[ap]\.m\.|[ap]m\b)", re.IGNORECASE)
TIME_OK = re.compile(r"^\d{1,2}:\d{2} [AP]M$")
PHONE = re.compile(r"(?<![\d-])(?:1-)?\(?\d{3}\)?[-. ]\d{3}[-. ]\d{4}(?!\d)")
PHONE_OK = re.compile(r"^(?:1-\d{3}|\d{3})-\d{3}-\d{4}$")


def read_jsonl(path: Path) -> list[dict]:
    rows = []
    for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        if not line.strip():
            continue
        try:
            rows.append(json.loads(line))
        except json.JSONDecodeError as exc:  # pragma: no cover - message only
            raise AssertionError(f"{path.name} line {n} is not JSON: {exc}") from exc
    return rows


def fold(text: str) -> str:
    """Case, punctuation and whitespace folded."""
    return " ".join(re.sub(r"[^a-z0-9 ]+", " ", text.lower()).split())


def near_duplicate(a: str, b: str) -> bool:
    """Same text once folded, or (3+ words each) word sets with Jaccard >= 0.7, or one text's
    4+ words nearly all (90%) inside the other's."""
    if fold(a) == fold(b):
        return True
    ta, tb = set(fold(a).split()), set(fold(b).split())
    if len(ta) < 3 or len(tb) < 3:
        return False
    inter = len(ta & tb)
    smaller = min(len(ta), len(tb))
    return inter / len(ta | tb) >= 0.7 or (smaller >= 4 and inter / smaller >= 0.9)


@pytest.fixture(scope="module")
def kb() -> dict:
    return json.loads(KB_PATH.read_text(encoding="utf-8"))


@pytest.fixture(scope="module")
def items(kb) -> list[tuple[str, dict]]:
    return [(cat, it) for cat, its in kb["categories"].items() for it in its]


@pytest.fixture(scope="module")
def names(items) -> set[str]:
    return {it["name"] for _, it in items}


def strings_in(value):
    if isinstance(value, str):
        yield value
    elif isinstance(value, list):
        for v in value:
            yield from strings_in(v)
    elif isinstance(value, dict):
        for v in value.values():
            yield from strings_in(v)


# ---- knowledge base ---------------------------------------------------------------------


def test_kb_property_block(kb):
    prop = kb["property"]
    assert prop["property_id"] == "mohegan_sun"
    assert prop["name"] == "Mohegan Sun"
    assert prop["phone"] == "1-888-226-7711"
    assert prop["timezone"] == "America/New_York"
    for key in ("location", "address", "website"):
        assert prop[key].strip()
    # The problem-gambling helplines are the property's own (its state's), with the national one.
    assert any("1-800-522-4700" in line for line in prop["helplines"])


def test_kb_performances_are_dated_and_timed(items):
    dated = [(it["name"], p) for _, it in items for p in it.get("performances", [])]
    assert len({name for name, _ in dated}) >= 5
    for name, performance in dated:
        assert re.fullmatch(r"202[67]-\d{2}-\d{2} (1[0-2]|[1-9]):[0-5]\d [AP]M", performance), name
    months = {p[:7] for _, p in dated}
    assert {"2026-11", "2026-12", "2027-01", "2027-02", "2027-03"} <= months


def test_kb_categories_and_counts(kb, items):
    assert set(kb["categories"]) == set(MIN_PER_CATEGORY)
    for cat, minimum in MIN_PER_CATEGORY.items():
        assert len(kb["categories"][cat]) >= minimum, cat
    assert len(items) >= 120


def test_kb_names_unique(items):
    counts = Counter(it["name"] for _, it in items)
    assert [n for n, c in counts.items() if c > 1] == []


def test_kb_required_and_allowed_fields(items):
    for cat, it in items:
        missing = COMMON_FIELDS - it.keys()
        assert not missing, (it.get("name"), missing)
        unknown = it.keys() - COMMON_FIELDS - CATEGORY_FIELDS[cat]
        assert not unknown, (it["name"], unknown)
        assert it["property_id"] == "mohegan_sun"
        assert re.fullmatch(r"2026-\d{2}-\d{2}", it["last_updated"]), it["name"]
        assert it["description"].strip() and it["name"].strip()
        for key, value in it.items():
            assert value not in (None, "", []), (it["name"], key)
        if cat == "faq":
            assert it["question"].strip().endswith("?"), it["name"]
            assert it["answer"].strip() and it["topic"].strip()
        if cat == "restaurants":
            assert {"cuisine", "location", "hours", "price_range"} <= it.keys(), it["name"]
        if cat == "gaming":
            assert isinstance(it["games"], list) and it["games"], it["name"]


def test_kb_value_types(items):
    for _, it in items:
        for key in ("capacity", "size_sqft", "max_occupancy", "min_age"):
            if key in it:
                assert isinstance(it[key], int) and it[key] > 0, (it["name"], key)
        for key in ("features", "amenities", "games", "benefits"):
            if key in it:
                assert isinstance(it[key], list), (it["name"], key)
                assert all(isinstance(v, str) and v.strip() for v in it[key]), (it["name"], key)


def test_kb_has_long_descriptions(items):
    long = [it["name"] for _, it in items if 600 <= len(it["description"]) <= 1500]
    assert len(long) >= 3, long
    assert all(len(it["description"]) <= 1500 for _, it in items)


def test_kb_gaming_has_no_odds_or_strategy(kb):
    for it in kb["categories"]["gaming"]:
        for text in strings_in(it):
            assert not ODDS_WORDS.search(text), (it["name"], text)


def test_kb_times_and_phones_in_one_style(items, kb):
    for _, it in items:
        for text in strings_in(it):
            for m in TIME.finditer(text):
                assert TIME_OK.match(m.group(0)), (it["name"], m.group(0))
            for m in PHONE.finditer(text):
                assert PHONE_OK.match(m.group(0)), (it["name"], m.group(0))


def test_kb_key_facts(kb, names):
    text = json.dumps(kb, ensure_ascii=False)
    for fact in (
        "1-888-226-7711",
        "1-800-522-4700",
        "Casino of the Earth",
        "Casino of the Sky",
        "Casino of the Wind",
        "Mohegan Sun Arena",
        "Earth Tower",
        "Sky Tower",
        "The Shops at Mohegan Sun",
        "Momentum",
    ):
        assert fact in text, fact
    arena = next(
        it for it in kb["categories"]["entertainment"] if it["name"] == "Mohegan Sun Arena"
    )
    assert arena["capacity"] == 10000
    tiers = [it for it in kb["categories"]["promotions"] if it["type"] == "loyalty tier"]
    assert len(tiers) >= 4


# ---- evaluation sets --------------------------------------------------------------------


def test_retrieval_eval(names, kb):
    rows = read_jsonl(RETRIEVAL)
    assert len(rows) >= 160
    covered: Counter = Counter()
    category_of = {it["name"]: cat for cat, its in kb["categories"].items() for it in its}
    for row in rows:
        assert set(row) == {"query", "relevant"}, row
        assert row["query"].strip()
        assert isinstance(row["relevant"], list) and row["relevant"], row
        for name in row["relevant"]:
            assert name in names, (row["query"], name)
            covered[category_of[name]] += 1
    assert set(covered) == set(MIN_PER_CATEGORY)
    assert len({n for r in rows for n in r["relevant"]}) >= 100
    assert len({fold(r["query"]) for r in rows}) == len(rows)


def test_routing_eval():
    rows = read_jsonl(ROUTING)
    assert len(rows) >= 220
    for row in rows:
        assert set(row) == {"text", "label"}, row
        assert row["label"] in LABELS, row
        assert row["text"].strip()
    per_label = Counter(r["label"] for r in rows)
    assert set(per_label) == LABELS
    assert min(per_label.values()) >= 25, per_label
    assert len({fold(r["text"]) for r in rows}) == len(rows)


def test_answers_eval(kb):
    rows = read_jsonl(ANSWERS)
    assert len(rows) >= 55
    kb_text = json.dumps(kb, ensure_ascii=False).lower()
    threads: Counter = Counter()
    for row in rows:
        assert {"question", "must_include", "must_not_include"} <= row.keys(), row
        assert row.keys() <= {"question", "must_include", "must_not_include", "thread"}, row
        assert 1 <= len(row["must_include"]) <= 2, row
        assert isinstance(row["must_not_include"], list) and row["must_not_include"], row
        for s in row["must_include"]:
            assert s.strip() and len(s) <= 40, row
            assert s.lower() in kb_text, (row["question"], s)
        for s in row["must_not_include"]:
            assert s.strip(), row
            lowered = s.lower()
            assert not any(lowered in i.lower() for i in row["must_include"]), row
        if "thread" in row:
            threads[row["thread"]] += 1
    assert len(threads) >= 3 and all(c >= 2 for c in threads.values()), threads
    helpline = [r for r in rows if "1-800-522-4700" in r["must_include"]]
    main_line = [r for r in rows if "1-888-226-7711" in r["must_include"]]
    assert len(helpline) >= 2 and len(main_line) >= 2


# What the held-out set's `absent` rows ask about: none of it is at the resort, so none of it
# may appear in the knowledge base.
ABSENT_SUBJECTS = [
    "bowling",
    "water park",
    "ice skating",
    "movie theater",
    "sushi",
    "foxwoods",
    "hell's kitchen",
    "nobu",
    "outdoor pool",
    "tennis",
    "bingo",
    "mini golf",
    "escape room",
    "airport shuttle",
    "cheesecake factory",
    "wind tower",
    "rooftop",
    "car rental",
]
HELDOUT_KEYS = {"question", "must_include", "must_not_include", "thread", "absent"}


def test_answers_heldout_eval(kb):
    rows = read_jsonl(ANSWERS_HELDOUT)
    assert len(rows) >= 64
    kb_text = json.dumps(kb, ensure_ascii=False).lower()
    for row in rows:
        assert {"question", "must_include", "must_not_include"} <= row.keys() <= HELDOUT_KEYS, row
        assert row["question"].strip()
        assert row.get("absent", False) in (True, False), row
        for s in row["must_include"]:
            assert s.strip() and len(s) <= 40, row
            assert s.lower() in kb_text, (row["question"], s)  # a typo would never match
        for s in row["must_not_include"]:
            assert s.strip(), row
            assert not any(s.lower() in i.lower() for i in row["must_include"]), row
        if not row.get("absent"):
            assert 1 <= len(row["must_include"]) <= 2, row
    # Rows of one conversation are consecutive turns, and there are several conversations.
    order = [r["thread"] for r in rows if "thread" in r]
    runs = [t for i, t in enumerate(order) if i == 0 or order[i - 1] != t]
    assert len(runs) == len(set(runs)), "a thread's rows must be consecutive"
    counts = Counter(order)
    assert len(counts) >= 6 and all(c >= 2 for c in counts.values()), counts
    included = [s for r in rows for s in r["must_include"]]
    assert sum(1 for s in included if TIME_OK.match(s)) >= 10
    assert sum(1 for s in included if s.startswith("$")) >= 8
    assert sum(1 for s in included if PHONE_OK.match(s)) >= 5
    # `frontdesk eval answers --dataset .../answers_heldout.jsonl` reads it this way.
    cases = load_dataset("answers", ANSWERS_HELDOUT)
    assert [(c.question, c.thread, c.absent) for c in cases] == [
        (r["question"], r.get("thread"), r.get("absent", False)) for r in rows
    ]


def test_answers_heldout_absent_rows_name_something_the_resort_lacks(kb):
    kb_text = json.dumps(kb, ensure_ascii=False).lower()
    for subject in ABSENT_SUBJECTS:
        assert not re.search(rf"\b{re.escape(subject)}", kb_text), subject
    absent = [r for r in read_jsonl(ANSWERS_HELDOUT) if r.get("absent")]
    assert len(absent) >= 16
    for row in absent:
        assert row["must_include"] == [], row  # nothing the knowledge holds answers it
        named = [s for s in ABSENT_SUBJECTS if s in row["question"].lower()]
        assert named, row["question"]


def test_answers_heldout_is_apart_from_the_tuning_set():
    tuned = [r["question"] for r in read_jsonl(ANSWERS)]
    copies = [
        r["question"]
        for r in read_jsonl(ANSWERS_HELDOUT)
        if any(near_duplicate(r["question"], t) for t in tuned)
    ]
    assert copies == []


# ---- router examples ----------------------------------------------------------------------


def test_router_examples():
    rows = read_jsonl(ROUTER)
    for row in rows:
        assert set(row) == {"text", "label", "source"}, row
        assert row["label"] in LABELS, row
        assert row["source"] in {"written", "clinc150"}, row
        assert row["text"].strip()
    written = Counter(r["label"] for r in rows if r["source"] == "written")
    assert set(written) == LABELS
    assert min(written.values()) >= 40, written
    clinc_off = sum(1 for r in rows if r["source"] == "clinc150" and r["label"] == "off_topic")
    assert 150 <= clinc_off <= 260, clinc_off
    assert len({fold(r["text"]) for r in rows}) == len(rows)


def test_router_examples_come_from_clinc_training_splits():
    clinc_path = Path("/work/shared/datasets/clinc_oos_small.json")
    if not clinc_path.exists():
        pytest.skip("CLINC150 copy not available on this machine")
    clinc = json.loads(clinc_path.read_text(encoding="utf-8"))
    allowed = {fold(t) for t, _ in clinc["train"] + clinc["oos_train"]}
    held_out = {
        fold(t) for split in ("val", "test", "oos_val", "oos_test") for t, _ in clinc[split]
    }
    for row in read_jsonl(ROUTER):
        if row["source"] == "clinc150":
            assert fold(row["text"]) in allowed, row
        else:
            assert fold(row["text"]) not in held_out, row


def test_router_examples_do_not_overlap_routing_eval():
    eval_texts = [r["text"] for r in read_jsonl(ROUTING)]
    folded_eval = {fold(t) for t in eval_texts}
    clashes = []
    for row in read_jsonl(ROUTER):
        if fold(row["text"]) in folded_eval or any(
            near_duplicate(row["text"], t) for t in eval_texts
        ):
            clashes.append(row["text"])
    assert clashes == []


def test_near_duplicate_detector_catches_rewordings():
    assert near_duplicate("Hello!", "hello :)")
    assert near_duplicate(
        "Register me for the next slot tournament", "register me for the slot tournament"
    )
    assert near_duplicate("Hi there, how's it going?", "hey there, how's it going")
    assert near_duplicate("When is the box office open on weekends?", "when is the box office open")
    assert not near_duplicate("what time is check in", "how big is the arena")
    assert not near_duplicate("what time does the buffet open", "is the spa open on mondays")
