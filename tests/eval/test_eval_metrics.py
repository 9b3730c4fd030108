"""Metric functions against rankings and label lists small enough to compute by hand."""

from __future__ import annotations

import math

import numpy as np
import pytest

from frontdesk.eval import metrics as m


def test_dedupe_keeps_each_item_at_its_best_rank() -> None:
    assert m.dedupe_ranked(["a", "b", "a", "c", "b"]) == ["a", "b", "c"]


def test_reciprocal_rank_uses_first_relevant_item() -> None:
    assert m.reciprocal_rank(["x", "y", "a", "b"], {"a", "b"}) == pytest.approx(1 / 3)
    assert m.reciprocal_rank(["a"], {"a"}) == 1.0
    assert m.reciprocal_rank(["x", "y"], {"a"}) == 0.0


def test_reciprocal_rank_counts_repeated_chunks_once() -> None:
    # Three chunks of "x" are one item, so "a" is the second item, not the fourth chunk.
    assert m.reciprocal_rank(["x", "x", "x", "a"], {"a"}) == 0.5
    assert m.first_relevant_rank(["x", "x", "x", "a"], {"a"}) == 2
    assert m.first_relevant_rank(["x"], {"a"}) is None


def test_recall_at_k() -> None:
    ranked = ["a", "x", "b", "y", "z", "c"]
    relevant = {"a", "b", "c"}
    assert m.recall_at_k(ranked, relevant, 1) == pytest.approx(1 / 3)
    assert m.recall_at_k(ranked, relevant, 3) == pytest.approx(2 / 3)
    assert m.recall_at_k(ranked, relevant, 5) == pytest.approx(2 / 3)
    assert m.recall_at_k(ranked, relevant, 6) == 1.0
    # Duplicates of "a" must not push "b" and "c" out of the top 3.
    assert m.recall_at_k(["a", "a", "a", "b", "c"], relevant, 3) == 1.0


def test_ndcg_binary_relevance() -> None:
    # Relevant at ranks 2 and 4 of 5, two relevant items in total.
    dcg = 1 / math.log2(3) + 1 / math.log2(5)
    ideal = 1 / math.log2(2) + 1 / math.log2(3)
    assert m.ndcg_at_k(["x", "a", "y", "b", "z"], {"a", "b"}, 5) == pytest.approx(dcg / ideal)
    assert m.ndcg_at_k(["a", "b", "x"], {"a", "b"}, 5) == pytest.approx(1.0)
    assert m.ndcg_at_k(["x", "y"], {"a"}, 5) == 0.0
    # Ideal is cut at k: with three relevant items and k=1, a hit at rank 1 is perfect.
    assert m.ndcg_at_k(["a"], {"a", "b", "c"}, 1) == 1.0


@pytest.mark.parametrize(
    "call",
    [
        lambda: m.recall_at_k(["a"], set(), 5),
        lambda: m.reciprocal_rank(["a"], []),
        lambda: m.ndcg_at_k(["a"], {"a"}, 0),
    ],
)
def test_ranking_metrics_reject_bad_arguments(call) -> None:
    with pytest.raises(ValueError):
        call()


def test_percentile_interpolates_like_numpy() -> None:
    values = [4.0, 1.0, 3.0, 2.0]
    assert m.percentile(values, 50) == 2.5
    assert m.percentile(values, 99) == pytest.approx(3.97)
    assert m.percentile(values, 0) == 1.0
    assert m.percentile(values, 100) == 4.0
    assert m.percentile([7.0], 95) == 7.0
    sample = [0.3, 9.1, 2.2, 5.5, 1.0, 8.8, 4.4]
    for q in (5, 50, 95, 99):
        assert m.percentile(sample, q) == pytest.approx(float(np.percentile(sample, q)))


def test_percentile_edge_cases() -> None:
    assert m.percentile([], 50) is None
    assert m.percentiles([1.0, 3.0], [50, 99]) == {"p50": 2.0, "p99": pytest.approx(2.98)}
    with pytest.raises(ValueError, match=r"0\.\.100"):
        m.percentile([1.0], 101)


def test_rate_and_mean() -> None:
    assert m.rate(1, 4) == 0.25
    assert m.rate(0, 0) is None
    assert m.mean([]) is None
    assert m.mean([1.0, 2.0]) == 1.5
    with pytest.raises(ValueError):
        m.rate(5, 4)


GOLD = ["wifi", "wifi", "wifi", "spa", "spa", "dining"]
PRED = ["wifi", "wifi", "spa", "spa", "wifi", "dining"]


def test_confusion_matrix_rows_are_gold_columns_predicted() -> None:
    labels, matrix = m.confusion_matrix(GOLD, PRED)
    assert labels == ["dining", "spa", "wifi"]
    assert matrix == [[1, 0, 0], [0, 1, 1], [0, 1, 2]]


def test_confusion_matrix_adds_labels_only_predicted() -> None:
    labels, matrix = m.confusion_matrix(["a", "b"], ["a", "zzz"])
    assert labels == ["a", "b", "zzz"]
    assert matrix == [[1, 0, 0], [0, 0, 1], [0, 0, 0]]


def test_confusion_matrix_errors() -> None:
    with pytest.raises(ValueError, match="gold has 2 labels but predicted has 1"):
        m.confusion_matrix(["a", "b"], ["a"])
    with pytest.raises(ValueError, match="not in the label list"):
        m.confusion_matrix(["a", "b"], ["a", "b"], labels=["a"])


def test_per_label_scores_and_accuracy() -> None:
    labels, matrix = m.confusion_matrix(GOLD, PRED)
    scores = m.per_label_scores(labels, matrix)
    assert scores["wifi"] == {
        "precision": pytest.approx(2 / 3),
        "recall": pytest.approx(2 / 3),
        "f1": pytest.approx(2 / 3),
        "support": 3,
    }
    assert scores["spa"]["precision"] == 0.5 and scores["spa"]["recall"] == 0.5
    assert scores["dining"]["f1"] == 1.0
    assert m.accuracy(GOLD, PRED) == pytest.approx(4 / 6)
    assert m.macro_f1(scores) == pytest.approx((2 / 3 + 0.5 + 1.0) / 3)


def test_per_label_scores_leave_undefined_values_none() -> None:
    # "b" is never predicted (precision undefined); "c" never occurs in gold (recall undefined).
    scores = m.per_label_scores(["a", "b", "c"], [[1, 0, 0], [1, 0, 1], [0, 0, 0]])
    assert scores["b"]["precision"] is None and scores["b"]["recall"] == 0.0
    assert scores["c"]["recall"] is None and scores["c"]["support"] == 0
    assert scores["a"]["precision"] == 0.5
    # Macro-F1 counts "b" as 0 and skips "c", which has no gold rows.
    assert m.macro_f1(scores) == pytest.approx(m.f1(0.5, 1.0) / 2)
