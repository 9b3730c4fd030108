"""Scoring of the extractor against the JSONL eval sets in `casino_host/data/eval/`.

A row is `{"message", "now", "expected": {path: value}}` (optional "timezone", "language").
`expected` lists every field the message states; anything else extracted is a false positive.
Units: a scalar field is one unit; each list item is one unit; an empty list ("no allergies")
is one unit; a companion is one unit compared on relationship, name and age.
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Callable, Iterable
from datetime import datetime
from pathlib import Path
from typing import Any

from .extractor import extract
from .fields import COMPANIONS, Extracted

EVAL_DIR = Path(__file__).resolve().parents[2] / "data" / "eval"
DEV_SET = EVAL_DIR / "extraction.jsonl"
HELDOUT_SET = EVAL_DIR / "extraction_heldout.jsonl"

Extractor = Callable[..., list[Extracted]]
_EMPTY = "<empty>"


def load_rows(path: Path) -> list[dict[str, Any]]:
    with path.open(encoding="utf-8") as handle:
        return [json.loads(line) for line in handle if line.strip()]


def units(fields: dict[str, Any]) -> Counter[tuple[str, Any]]:
    counted: Counter[tuple[str, Any]] = Counter()
    for path, value in fields.items():
        if path == COMPANIONS:
            for companion in value:
                key = (companion.get("relationship"), companion.get("name"), companion.get("age"))
                counted[(path, key)] += 1
        elif isinstance(value, list):
            if not value:
                counted[(path, _EMPTY)] += 1
            for item in dict.fromkeys(value):
                counted[(path, item)] += 1
        else:
            counted[(path, value)] += 1
    return counted


def predict(row: dict[str, Any], extractor: Extractor = extract) -> dict[str, Any]:
    found = extractor(
        row["message"],
        now=datetime.fromisoformat(row["now"]),
        timezone=row.get("timezone", "America/New_York"),
        language=row.get("language"),
    )
    return {item.path: item.value for item in found}


def score(rows: Iterable[dict[str, Any]], extractor: Extractor = extract) -> dict[str, Any]:
    """{precision, recall, per_field: {path: {precision, recall, tp, fp, fn}}, mismatches}."""
    totals: Counter[str] = Counter()
    per_path: dict[str, Counter[str]] = {}
    mismatches: list[dict[str, Any]] = []
    for row in rows:
        expected, predicted = units(row["expected"]), units(predict(row, extractor))
        hits, missed, extra = expected & predicted, expected - predicted, predicted - expected
        for kind, counter in (("tp", hits), ("fn", missed), ("fp", extra)):
            for (path, _), count in counter.items():
                per_path.setdefault(path, Counter())[kind] += count
                totals[kind] += count
        if missed or extra:
            mismatches.append(
                {
                    "message": row["message"],
                    "missed": sorted(map(str, missed)),
                    "extra": sorted(map(str, extra)),
                }
            )
    return {
        "precision": _ratio(totals["tp"], totals["tp"] + totals["fp"]),
        "recall": _ratio(totals["tp"], totals["tp"] + totals["fn"]),
        "per_field": {
            path: {
                "precision": _ratio(c["tp"], c["tp"] + c["fp"]),
                "recall": _ratio(c["tp"], c["tp"] + c["fn"]),
                "tp": c["tp"],
                "fp": c["fp"],
                "fn": c["fn"],
            }
            for path, c in sorted(per_path.items())
        },
        "mismatches": mismatches,
    }


def _ratio(numerator: int, denominator: int) -> float:
    return round(numerator / denominator, 4) if denominator else 1.0
