"""Pure metric functions for the evaluation suites.

Everything here works on plain Python values (ranked names, label lists, latencies) so it can be
checked by hand in tests; the suites in `suites.py` do the calling and timing.
"""

from __future__ import annotations

import math
from collections.abc import Collection, Hashable, Iterable, Sequence
from typing import TypeVar

T = TypeVar("T", bound=Hashable)


# --- ranking -------------------------------------------------------------------------------


def dedupe_ranked(ranked: Iterable[T]) -> list[T]:
    """Keep each item once, at its best (first) rank.

    A retriever returns chunks; several chunks of one item must count as one hit, otherwise a
    single long document could fill the whole top-k and inflate or deflate every metric.
    """
    seen: set[T] = set()
    unique: list[T] = []
    for item in ranked:
        if item not in seen:
            seen.add(item)
            unique.append(item)
    return unique


def _check_ranking_args(relevant: Collection[object], k: int | None = None) -> None:
    if not relevant:
        raise ValueError(
            "relevant must name at least one item; a query with no answer has no recall"
        )
    if k is not None and k < 1:
        raise ValueError(f"k must be at least 1, got {k}")


def recall_at_k(ranked: Sequence[T], relevant: Collection[T], k: int) -> float:
    """Share of the relevant items found among the first k distinct ranked items."""
    _check_ranking_args(relevant, k)
    top = set(dedupe_ranked(ranked)[:k])
    wanted = set(relevant)
    return len(top & wanted) / len(wanted)


def first_relevant_rank(ranked: Sequence[T], relevant: Collection[T]) -> int | None:
    """1-based rank of the first relevant item after de-duplication, or None when absent."""
    wanted = set(relevant)
    for position, item in enumerate(dedupe_ranked(ranked), start=1):
        if item in wanted:
            return position
    return None


def reciprocal_rank(ranked: Sequence[T], relevant: Collection[T]) -> float:
    """1 / rank of the first relevant item; 0.0 when no relevant item was retrieved."""
    _check_ranking_args(relevant)
    rank = first_relevant_rank(ranked, relevant)
    return 0.0 if rank is None else 1.0 / rank


def ndcg_at_k(ranked: Sequence[T], relevant: Collection[T], k: int) -> float:
    """Normalised discounted cumulative gain at k with binary relevance.

    DCG sums 1/log2(rank + 1) over relevant items in the top k; the ideal ranking puts all
    relevant items first, so IDCG sums the same over min(k, |relevant|) ranks.
    """
    _check_ranking_args(relevant, k)
    wanted = set(relevant)
    top = dedupe_ranked(ranked)[:k]
    dcg = sum(1.0 / math.log2(rank + 1) for rank, item in enumerate(top, start=1) if item in wanted)
    ideal = sum(1.0 / math.log2(rank + 1) for rank in range(1, min(k, len(wanted)) + 1))
    return dcg / ideal


# --- summaries -----------------------------------------------------------------------------


def mean(values: Sequence[float]) -> float | None:
    """Arithmetic mean, or None for no values (a metric over zero rows is undefined, not 0)."""
    return sum(values) / len(values) if values else None


def rate(count: int, total: int) -> float | None:
    """count / total, or None when total is 0 so an empty slice never reads as a perfect score."""
    if count < 0 or total < 0:
        raise ValueError(f"rate needs non-negative counts, got {count}/{total}")
    if count > total:
        raise ValueError(f"rate count {count} exceeds total {total}")
    return count / total if total else None


def percentile(values: Sequence[float], q: float) -> float | None:
    """q-th percentile (0..100) with linear interpolation between closest ranks.

    Same definition as numpy.percentile's default ("linear"), so figures match other tools.
    Returns None for no values.
    """
    if not 0 <= q <= 100:
        raise ValueError(f"percentile q must be within 0..100, got {q}")
    if not values:
        return None
    ordered = sorted(values)
    position = (len(ordered) - 1) * q / 100
    lower = math.floor(position)
    upper = math.ceil(position)
    fraction = position - lower
    return ordered[lower] + (ordered[upper] - ordered[lower]) * fraction


def percentiles(values: Sequence[float], qs: Iterable[float]) -> dict[str, float | None]:
    """Several percentiles at once, keyed "p50", "p99", ..."""
    return {f"p{q:g}": percentile(values, q) for q in qs}


# --- classification ------------------------------------------------------------------------


def label_order(gold: Sequence[str], predicted: Sequence[str]) -> list[str]:
    """Gold labels sorted, then any label only ever predicted (a router inventing a label)."""
    gold_labels = sorted(set(gold))
    extra = sorted(set(predicted) - set(gold_labels))
    return gold_labels + extra


def confusion_matrix(
    gold: Sequence[str], predicted: Sequence[str], labels: Sequence[str] | None = None
) -> tuple[list[str], list[list[int]]]:
    """Counts with rows = gold label, columns = predicted label.

    Returns the label order used together with the matrix so callers cannot mix them up.
    """
    if len(gold) != len(predicted):
        raise ValueError(f"gold has {len(gold)} labels but predicted has {len(predicted)}")
    order = list(labels) if labels is not None else label_order(gold, predicted)
    index = {label: i for i, label in enumerate(order)}
    missing = (set(gold) | set(predicted)) - set(index)
    if missing:
        raise ValueError(f"labels {sorted(missing)} occur but are not in the label list {order}")
    matrix = [[0] * len(order) for _ in order]
    for truth, guess in zip(gold, predicted, strict=True):
        matrix[index[truth]][index[guess]] += 1
    return order, matrix


def accuracy(gold: Sequence[str], predicted: Sequence[str]) -> float | None:
    if len(gold) != len(predicted):
        raise ValueError(f"gold has {len(gold)} labels but predicted has {len(predicted)}")
    correct = sum(truth == guess for truth, guess in zip(gold, predicted, strict=True))
    return rate(correct, len(gold))


def f1(precision: float | None, recall: float | None) -> float | None:
    if precision is None or recall is None:
        return None
    if precision + recall == 0:
        return 0.0
    return 2 * precision * recall / (precision + recall)


def per_label_scores(
    labels: Sequence[str], matrix: Sequence[Sequence[int]]
) -> dict[str, dict[str, float | int | None]]:
    """Precision, recall, F1 and support for each label of a confusion matrix.

    Precision is None for a label never predicted and recall None for a label with no gold
    rows: those are undefined, and reporting them as 0 would hide which case it is.
    """
    if len(matrix) != len(labels) or any(len(row) != len(labels) for row in matrix):
        raise ValueError(
            f"confusion matrix must be {len(labels)}x{len(labels)} for labels {labels}"
        )
    scores: dict[str, dict[str, float | int | None]] = {}
    for i, label in enumerate(labels):
        true_positive = matrix[i][i]
        support = sum(matrix[i])
        predicted_count = sum(row[i] for row in matrix)
        precision = rate(true_positive, predicted_count)
        recall = rate(true_positive, support)
        scores[label] = {
            "precision": precision,
            "recall": recall,
            "f1": f1(precision, recall),
            "support": support,
        }
    return scores


def macro_f1(scores: dict[str, dict[str, float | int | None]]) -> float | None:
    """Mean F1 over labels that have gold rows (labels only ever predicted have no support)."""
    values = [
        float(s["f1"]) if s["f1"] is not None else 0.0 for s in scores.values() if s["support"]
    ]
    return mean(values)
