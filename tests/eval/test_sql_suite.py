"""The sql suite: execution accuracy as multisets, validity, correction rate, per tier."""

from __future__ import annotations

import json

from frontdesk.eval.datasets import SQLCase, load_dataset
from frontdesk.eval.sql_suite import SQLRun, results_match, run_sql


def test_results_compare_as_multisets_of_rows():
    assert results_match([(1, "a"), (2, "b")], [(2, "b"), (1, "a")], ordered=False)
    assert not results_match([(1, "a"), (2, "b")], [(2, "b"), (1, "a")], ordered=True)
    # Duplicates count: a multiset, not a set.
    assert not results_match([(1,), (1,)], [(1,)], ordered=False)
    # Column order does not matter; numbers compare at 2 decimals, text numbers as numbers.
    assert results_match([("Ann", 12.5)], [(12.50, "Ann")], ordered=False)
    assert results_match([("12.50",)], [(12.5,)], ordered=False)
    assert not results_match([(12.51,)], [(12.5,)], ordered=False)


async def test_metrics_per_tier_and_correction_rate():
    cases = [
        SQLCase("q1", "SELECT 1", "demo", tier="easy", line=1),
        SQLCase("q2", "SELECT 2", "demo", tier="easy", line=2),
        SQLCase("q3", "SELECT 3", "demo", tier="hard", line=3),
        SQLCase("q4", "SELECT 4", "demo", tier="hard", line=4),
    ]
    runs = {
        "q1": SQLRun([(1,)], [(1,)], attempts=1),
        "q2": SQLRun([(5,)], [(2,)], attempts=2, corrections=1, needed_correction=True),
        "q3": SQLRun(None, [(3,)], attempts=4, corrections=3, needed_correction=True),
        "q4": SQLRun([(4,)], [(4,)], attempts=1),
    }

    async def predict(case):
        return runs[case.question]

    result = await run_sql(cases, predict, show_progress=False)
    metrics = result.metrics
    assert metrics["execution_accuracy"] == 0.5
    assert metrics["validity_rate"] == 0.75
    assert metrics["needed_correction"] == 0.5
    assert metrics["correction_rate"] == 0.5  # q2 repaired (valid), q3 not
    assert metrics["mean_attempts"] == 2.0
    assert metrics["accuracy_by_tier"] == {"easy": 0.5, "hard": 0.5}
    assert [d["correct"] for d in result.details] == [True, False, False, True]


def test_sql_rows_load(tmp_path):
    path = tmp_path / "sql.jsonl"
    rows = [
        {"question": "How many?", "gold_sql": "SELECT COUNT(*) FROM t", "db": "demo", "tier": "easy"},
        {"question": "Names?", "gold_sql": "SELECT name FROM t", "db": "chinook"},
    ]
    path.write_text("\n".join(json.dumps(r) for r in rows))
    cases = load_dataset("sql", path)
    assert cases[0].tier == "easy" and cases[1].tier is None and cases[1].db == "chinook"


async def test_a_broken_gold_row_is_listed_and_the_rest_are_scored():
    cases = [SQLCase(f"q{i}", f"SELECT {i}", "demo", line=i) for i in (1, 2, 3)]
    runs = {
        "q1": SQLRun([(1,)], [(1,)]),
        "q2": SQLRun(None, [], outcome="gold_error", gold_error="the gold SQL failed: boom"),
        "q3": SQLRun([(9,)], [(3,)]),
    }

    async def predict(case):
        return runs[case.question]

    result = await run_sql(cases, predict, show_progress=False)
    metrics = result.metrics
    assert metrics["cases"] == 2 and metrics["execution_accuracy"] == 0.5
    assert metrics["broken_gold_cases"] == 1 and metrics["broken_gold_lines"] == [2]
    assert result.details[1]["gold_error"] == "the gold SQL failed: boom"
