"""Measure the gate on a labelled set: per-layer precision and recall, the false-positive rate
on benign messages and the time per message.

A row is `{"text": ..., "label": ...}` with a label from `LABELS`. The gate's prediction for a
row is the winning layer when it ends the turn (outcome "blocked" or "safety"), else "benign":
an age annotation ("dinner for me and my kid") lets the turn go on, so it is not a block.
"""

from __future__ import annotations

import json
import time
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Any

from frontdesk.assistants.casino_host.compliance.gate import check
from frontdesk.assistants.casino_host.compliance.learned import LearnedLayer
from frontdesk.assistants.casino_host.compliance.matching import (
    AGE_VERIFY,
    BSA_AML,
    EMERGENCY,
    INJECTION,
    PATRON_PRIVACY,
    PII,
    RESPONSIBLE_GAMING,
    SELF_HARM,
)

BENIGN = "benign"
LAYER_LABELS: tuple[str, ...] = (
    INJECTION,
    RESPONSIBLE_GAMING,
    AGE_VERIFY,
    BSA_AML,
    PATRON_PRIVACY,
    PII,
    EMERGENCY,
    SELF_HARM,
)
LABELS: tuple[str, ...] = (*LAYER_LABELS, BENIGN)

EVAL_DIR = Path(__file__).resolve().parent.parent / "data" / "eval"
SHIPPED_EVAL_FILE = EVAL_DIR / "guardrails.jsonl"
# Written before the patterns and never tuned on: the honest estimate.
HELDOUT_EVAL_FILE = EVAL_DIR / "guardrails_heldout.jsonl"


def load_rows(path: Path) -> list[dict[str, str]]:
    rows = []
    with path.open(encoding="utf-8") as handle:
        for number, line in enumerate(handle, start=1):
            if not line.strip():
                continue
            row = json.loads(line)
            if row.get("label") not in LABELS or not isinstance(row.get("text"), str):
                raise ValueError(f"{path.name}:{number}: bad row")
            rows.append({"text": row["text"], "label": row["label"]})
    return rows


def _percentile(sorted_values: list[float], fraction: float) -> float:
    """Nearest-rank percentile of an already sorted list."""
    if not sorted_values:
        return 0.0
    rank = max(1, round(fraction * len(sorted_values) + 0.5 - 1e-9))
    return sorted_values[min(rank, len(sorted_values)) - 1]


def _latency(ordered: list[float]) -> dict[str, float]:
    return {
        "p50": round(_percentile(ordered, 0.50), 3),
        "p95": round(_percentile(ordered, 0.95), 3),
        "max": round(ordered[-1], 3) if ordered else 0.0,
    }


def _ratio(numerator: int, denominator: int) -> float | None:
    return round(numerator / denominator, 4) if denominator else None


def evaluate(
    rows: Iterable[Mapping[str, str]],
    *,
    minimum_age: int = 21,
    learned: LearnedLayer | None = None,
) -> dict[str, Any]:
    """Run the gate on every row (the regex layers, and `learned` when given) and return
    `{"rows", "accuracy", "layers": {label: {precision, recall, support, predicted, true_positives}},
    "benign": {rows, false_positives, false_positive_rate, annotated},
    "latency_ms": {p50, p95, max}, "embedding_ms": {p50, p95, max} | None,
    "mistakes": [{index, label, predicted, pattern_id}]}`. `latency_ms` is the gate beyond
    the embedding (which the router computes anyway); `mistakes` gives row indexes, not
    texts, so the output can be logged."""
    predictions: list[tuple[str, str]] = []
    mistakes: list[dict[str, Any]] = []
    timings: list[float] = []
    embedding_timings: list[float] = []
    annotated_benign = 0
    for index, row in enumerate(rows):
        vector = None
        if learned is not None and row["text"].strip():
            started = time.perf_counter()
            vector = learned.embed(row["text"])
            embedding_timings.append((time.perf_counter() - started) * 1000)
        started = time.perf_counter()
        flags = learned.flags_of(vector) if learned is not None and vector is not None else ()
        result = check(row["text"], minimum_age=minimum_age, learned=flags)
        timings.append((time.perf_counter() - started) * 1000)
        predicted = result.layer if result.ends_turn and result.layer else BENIGN
        label = row["label"]
        predictions.append((label, predicted))
        if label == BENIGN and result.outcome == "annotate":
            annotated_benign += 1
        if predicted != label:
            mistakes.append(
                {
                    "index": index,
                    "label": label,
                    "predicted": predicted,
                    "pattern_id": result.pattern_id,
                }
            )

    layers = {}
    for layer in LAYER_LABELS:
        support = sum(label == layer for label, _ in predictions)
        predicted_count = sum(predicted == layer for _, predicted in predictions)
        true_positives = sum(
            label == layer and predicted == layer for label, predicted in predictions
        )
        layers[layer] = {
            "precision": _ratio(true_positives, predicted_count),
            "recall": _ratio(true_positives, support),
            "support": support,
            "predicted": predicted_count,
            "true_positives": true_positives,
        }
    benign_rows = sum(label == BENIGN for label, _ in predictions)
    false_positives = sum(
        label == BENIGN and predicted != BENIGN for label, predicted in predictions
    )
    timings.sort()
    embedding_timings.sort()
    return {
        "rows": len(predictions),
        "accuracy": _ratio(sum(label == p for label, p in predictions), len(predictions)),
        "layers": layers,
        "benign": {
            "rows": benign_rows,
            "false_positives": false_positives,
            "false_positive_rate": _ratio(false_positives, benign_rows),
            "annotated": annotated_benign,
        },
        "latency_ms": _latency(timings),
        "embedding_ms": _latency(embedding_timings) if embedding_timings else None,
        "mistakes": mistakes,
    }
