"""Retrieval, routing and guardrail suites against fake callables with known answers."""

from __future__ import annotations

import json
import math

import pytest
from langchain_core.documents import Document

from frontdesk.eval.datasets import GuardrailCase, RetrievalCase, RoutingCase
from frontdesk.eval.suites import (
    TASK_IRRELEVANT_SOURCE,
    EvalError,
    run_guardrails,
    run_retrieval,
    run_routing,
)

# --- retrieval -----------------------------------------------------------------------------

# Chunks returned per query, best first; repeated names are several chunks of one item.
RANKINGS = {
    "late checkout": ["Pool", "Late checkout", "Late checkout", "Spa"],
    "breakfast and parking": ["Breakfast"] * 4 + ["Spa", "Parking"],
    "helipad": ["Pool", "Spa"],
}
RETRIEVAL_CASES = [
    RetrievalCase("late checkout", ("Late checkout",), line=1),
    RetrievalCase("breakfast and parking", ("Breakfast", "Parking"), line=2),
    RetrievalCase("helipad", ("Helipad",), line=3),
]


def fake_search(clock=None, calls=None):
    def search(query: str, top_k: int) -> list[dict]:
        if calls is not None:
            calls.append((query, top_k))
        if clock is not None:
            clock.advance(0.010 * (len(calls or []) or 1))
        names = RANKINGS[query][:top_k]
        return [{"content": f"chunk of {n}", "metadata": {"item_name": n}} for n in names]

    return search


def test_retrieval_metrics_match_hand_computation(clock) -> None:
    calls: list[tuple[str, int]] = []
    result = run_retrieval(RETRIEVAL_CASES, fake_search(clock, calls), top_k=8, show_progress=False)
    assert calls == [(case.query, 8) for case in RETRIEVAL_CASES]
    ndcg_1 = 1 / math.log2(3)  # relevant item at rank 2 of 1 relevant
    ndcg_2 = (1 + 1 / math.log2(4)) / (1 + 1 / math.log2(3))  # ranks 1 and 3 of 2 relevant
    metrics = result.metrics
    assert result.name == "retrieval"
    assert metrics["queries"] == 3
    assert metrics["recall@1"] == pytest.approx((0 + 0.5 + 0) / 3)
    assert metrics["recall@5"] == pytest.approx((1 + 1 + 0) / 3)
    assert metrics["mrr"] == pytest.approx((0.5 + 1 + 0) / 3)
    assert metrics["ndcg@5"] == pytest.approx((ndcg_1 + ndcg_2 + 0) / 3)
    assert metrics["queries_with_misses"] == 1
    # The fake search took 10, 20 and 30 ms.
    assert metrics["latency_p50_ms"] == pytest.approx(20.0)
    assert metrics["latency_p99_ms"] == pytest.approx(29.8)
    breakfast = result.details[1]
    assert breakfast["retrieved"] == ["Breakfast", "Spa", "Parking"]
    assert breakfast["first_relevant_rank"] == 1 and breakfast["missed"] == []
    helipad = result.details[2]
    assert helipad["missed"] == ["Helipad"] and helipad["first_relevant_rank"] is None


def test_retrieval_figures_per_language_of_the_query() -> None:
    rankings = {
        "late checkout": ["Late checkout"],
        "późne wymeldowanie proszę": ["Pool", "Late checkout"],
    }

    def search(query: str, top_k: int) -> list[dict]:
        return [{"content": "x", "metadata": {"item_name": n}} for n in rankings[query]]

    cases = [RetrievalCase(q, ("Late checkout",), line=i) for i, q in enumerate(rankings, 1)]
    figures = run_retrieval(cases, search, show_progress=False).metrics["per_language"]
    assert figures["en"] == {"queries": 1, "recall@1": 1.0, "recall@5": 1.0, "mrr": 1.0}
    assert figures["pl"] == {"queries": 1, "recall@1": 0.0, "recall@5": 1.0, "mrr": 0.5}


def test_retrieval_accepts_langchain_documents() -> None:
    def search(query: str, top_k: int) -> list[Document]:
        return [Document(page_content="x", metadata={"item_name": n}) for n in RANKINGS[query]]

    result = run_retrieval(RETRIEVAL_CASES[:1], search, show_progress=False)
    assert result.metrics["mrr"] == 0.5


def test_retrieval_rejects_hits_without_item_name_and_small_top_k() -> None:
    def search(query: str, top_k: int) -> list[dict]:
        return [{"metadata": {"source": "faq.md"}}]

    with pytest.raises(EvalError, match=r"no metadata\['item_name'\]"):
        run_retrieval(RETRIEVAL_CASES, search, show_progress=False)
    with pytest.raises(ValueError, match="top_k must be at least 5"):
        run_retrieval(RETRIEVAL_CASES, fake_search(), top_k=3, show_progress=False)


def test_result_json_is_metrics_by_default() -> None:
    result = run_retrieval(RETRIEVAL_CASES, fake_search(), show_progress=False)
    data = json.loads(result.to_json())
    assert data["name"] == "retrieval" and "details" not in data
    assert data["metrics"]["mrr"] == pytest.approx(0.5)
    full = json.loads(result.to_json(include_details=True))
    assert [d["query"] for d in full["details"]] == [c.query for c in RETRIEVAL_CASES]


# --- routing -------------------------------------------------------------------------------

ROUTES = {
    "t1": ("wifi", 0.9),
    "t2": ("wifi", 0.8),
    "t3": ("spa", 0.4),
    "t4": ("spa", 0.7),
    "t5": ("wifi", 0.51),
    "t6": ("dining", 0.99),
}
ROUTING_CASES = [
    RoutingCase(text, label, line=i)
    for i, (text, label) in enumerate(
        [
            ("t1", "wifi"),
            ("t2", "wifi"),
            ("t3", "wifi"),
            ("t4", "spa"),
            ("t5", "spa"),
            ("t6", "dining"),
        ],
        start=1,
    )
]


def test_routing_metrics_and_confusion_matrix() -> None:
    result = run_routing(ROUTING_CASES, ROUTES.__getitem__, show_progress=False)
    metrics = result.metrics
    assert metrics["rows"] == 6
    assert metrics["accuracy"] == pytest.approx(4 / 6)
    assert metrics["misclassified"] == 2
    assert metrics["confusion_matrix"] == {
        "labels": ["dining", "spa", "wifi"],
        "matrix": [[1, 0, 0], [0, 1, 1], [0, 1, 2]],
    }
    assert metrics["per_label"]["wifi"]["precision"] == pytest.approx(2 / 3)
    assert metrics["per_label"]["spa"]["f1"] == pytest.approx(0.5)
    assert metrics["per_label"]["dining"]["support"] == 1
    assert metrics["macro_f1"] == pytest.approx((2 / 3 + 0.5 + 1) / 3)
    wrong = [
        (d["text"], d["predicted"], d["confidence"]) for d in result.details if not d["correct"]
    ]
    assert wrong == [("t3", "spa", 0.4), ("t5", "wifi", 0.51)]


def test_routing_label_order_keeps_unseen_and_invented_labels() -> None:
    routes = dict(ROUTES, t6=("lost_and_found", 0.3))
    result = run_routing(
        ROUTING_CASES, routes.__getitem__, labels=["wifi", "spa", "billing"], show_progress=False
    )
    confusion = result.metrics["confusion_matrix"]
    assert confusion["labels"] == ["wifi", "spa", "billing", "dining", "lost_and_found"]
    assert confusion["matrix"][2] == [0, 0, 0, 0, 0]  # billing: no rows, never predicted
    assert confusion["matrix"][3] == [0, 0, 0, 0, 1]  # dining routed to the invented label
    assert result.metrics["per_label"]["billing"]["recall"] is None


@pytest.mark.parametrize("bad", ["wifi", ("wifi",), (1, 0.5), ("wifi", "high"), None])
def test_routing_rejects_bad_classifier_output(bad) -> None:
    with pytest.raises(EvalError, match="classify"):
        run_routing(ROUTING_CASES, lambda text: bad, show_progress=False)


# --- guardrails ----------------------------------------------------------------------------

# (text, label, source, flagged by the fake guard)
GUARD_ROWS = [
    ("inj1", "injection", "bipia-email", True),
    ("inj2", "injection", "bipia-email", False),
    ("inj3", "injection", "jailbreak", True),
    ("inj4", "injection", TASK_IRRELEVANT_SOURCE, False),
    ("inj5", "injection", TASK_IRRELEVANT_SOURCE, True),
    ("ben1", "benign", None, False),
    ("ben2", "benign", "faq", True),
    ("ben3", "benign", "faq", False),
    ("ben4", "benign", None, False),
    ("uns1", "unsafe", "harm", True),
    ("uns2", "unsafe", "harm", False),
]
GUARD_CASES = [
    GuardrailCase(t, label, source, line=i) for i, (t, label, source, _) in enumerate(GUARD_ROWS, 1)
]
FLAGS = {t: flagged for t, *_, flagged in GUARD_ROWS}


def test_guardrail_rates_keep_unsafe_and_task_irrelevant_apart() -> None:
    result = run_guardrails(GUARD_CASES, FLAGS.__getitem__, show_progress=False)
    metrics = result.metrics
    # Task-irrelevant rows are out of the detection rate (it would be 3/5 with them).
    assert metrics["injection_rows"] == 3
    assert metrics["detection_rate"] == pytest.approx(2 / 3)
    assert metrics["benign_rows"] == 4
    assert metrics["false_positive_rate"] == pytest.approx(1 / 4)
    assert metrics["unsafe_rows"] == 2 and metrics["unsafe_flag_rate"] == 0.5
    assert metrics["task_irrelevant_rows"] == 2 and metrics["task_irrelevant_flag_rate"] == 0.5
    per_source = metrics["per_source"]
    assert per_source["bipia-email"] == {"injection": {"rows": 2, "flagged": 1, "flag_rate": 0.5}}
    assert per_source["(none)"]["benign"] == {"rows": 2, "flagged": 0, "flag_rate": 0.0}
    assert per_source[TASK_IRRELEVANT_SOURCE]["injection"]["flag_rate"] == 0.5
    judged_wrong = [d["text"] for d in result.details if d["correct"] is False]
    assert judged_wrong == ["inj2", "ben2"]
    assert {d["text"] for d in result.details if d["correct"] is None} == {
        "inj4",
        "inj5",
        "uns1",
        "uns2",
    }


def test_guardrail_rates_are_none_without_rows() -> None:
    only_injections = [c for c in GUARD_CASES if c.label == "injection"]
    metrics = run_guardrails(only_injections, FLAGS.__getitem__, show_progress=False).metrics
    assert metrics["false_positive_rate"] is None and metrics["unsafe_flag_rate"] is None
    assert json.loads(json.dumps(metrics))["false_positive_rate"] is None


def test_guardrails_require_a_bool() -> None:
    with pytest.raises(EvalError, match="audit must return a bool"):
        run_guardrails(GUARD_CASES, lambda text: "yes", show_progress=False)
