"""The `sql` suite: text-to-SQL execution accuracy.

Rows `{"question", "gold_sql", "db"}` (optional `id`, `tier`). The target runs the agent on the
question against database `db` and executes the gold SQL there too, returning both results;
this runner only compares and counts, so it is testable without a database or a model.

A prediction is correct when its result equals the gold result as a multiset of rows (row
order ignored unless the gold SQL orders them; column order ignored: each row is compared as
the sorted tuple of its values, numbers rounded to 2 decimals). Also reported: validity rate
(the agent's final SQL ran without error), correction rate (of questions whose first SQL
failed validation or execution, the share the correction loop repaired), mean attempts, and
accuracy per tier.
"""

from __future__ import annotations

import asyncio
from collections import Counter, defaultdict
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass
from decimal import Decimal
from typing import Any

from rich.console import Console

from frontdesk.eval import metrics as m
from frontdesk.eval.datasets import SQLCase
from frontdesk.eval.progress import progress_bar
from frontdesk.eval.suites import SuiteResult, _ms, clock


@dataclass
class SQLRun:
    """What the target reports for one case."""

    predicted_rows: list[Sequence[Any]] | None  # None: no query ran successfully
    gold_rows: list[Sequence[Any]]
    sql: str | None = None
    attempts: int = 1
    corrections: int = 0
    needed_correction: bool = False
    outcome: str | None = None
    error: str | None = None
    ordered: bool = False  # the gold SQL orders its rows: order must match too
    # The gold SQL itself failed (a broken row of the dataset): reported, never scored, and the
    # run goes on with the other rows.
    gold_error: str | None = None


PredictFn = Callable[[SQLCase], Awaitable[SQLRun]]


def _value(value: Any) -> str:
    if value is None:
        return "NULL"
    if isinstance(value, bool):
        return str(int(value))
    if isinstance(value, int | float | Decimal):
        number = round(float(value), 2)
        return str(int(number)) if number == int(number) else f"{number:.2f}"
    text = str(value).strip()
    try:  # "12.50" stored as text still equals 12.5
        number = round(float(text), 2)
        return str(int(number)) if number == int(number) else f"{number:.2f}"
    except ValueError:
        return text


def normalise_row(row: Sequence[Any]) -> tuple[str, ...]:
    return tuple(sorted(_value(v) for v in row))


def results_match(
    predicted: Sequence[Sequence[Any]], gold: Sequence[Sequence[Any]], *, ordered: bool
) -> bool:
    left = [normalise_row(r) for r in predicted]
    right = [normalise_row(r) for r in gold]
    if ordered:
        return left == right
    return Counter(left) == Counter(right)


async def run_sql(
    cases: Sequence[SQLCase],
    predict: PredictFn,
    *,
    timeout_s: float = 600.0,
    show_progress: bool = True,
    console: Console | None = None,
) -> SuiteResult:
    details: list[dict[str, Any]] = []
    latencies: list[float] = []
    with progress_bar("sql", len(cases), show=show_progress, console=console) as advance:
        for case in cases:
            t0 = clock()
            try:
                async with asyncio.timeout(timeout_s):
                    run = await predict(case)
            except TimeoutError:
                run = SQLRun(None, [], outcome="timeout", error=f"over {timeout_s:g} s")
            latencies.append(clock() - t0)
            correct = run.predicted_rows is not None and results_match(
                run.predicted_rows, run.gold_rows, ordered=run.ordered
            )
            details.append(
                {
                    "line": case.line,
                    "id": case.id,
                    "tier": case.tier,
                    "db": case.db,
                    "question": case.question,
                    "gold_sql": case.gold_sql,
                    "sql": run.sql,
                    "correct": correct,
                    "valid": run.predicted_rows is not None,
                    "attempts": run.attempts,
                    "corrections": run.corrections,
                    "needed_correction": run.needed_correction,
                    "outcome": run.outcome,
                    "error": run.error,
                    "gold_error": run.gold_error,
                    "predicted_rows": len(run.predicted_rows or []),
                    "gold_rows": len(run.gold_rows),
                    "latency_ms": _ms(latencies[-1]),
                }
            )
            advance()
    return SuiteResult("sql", sql_metrics(details, latencies), details)


def sql_metrics(details: Sequence[dict[str, Any]], latencies: Sequence[float]) -> dict[str, Any]:
    """Scores over the rows whose gold SQL ran; rows with a broken gold are counted apart."""
    broken = [d["line"] for d in details if d.get("gold_error")]
    details = [d for d in details if not d.get("gold_error")]
    n = len(details)
    needed = [d for d in details if d["needed_correction"]]
    by_tier: dict[str, list[bool]] = defaultdict(list)
    by_db: dict[str, list[bool]] = defaultdict(list)
    for d in details:
        by_tier[d["tier"] or "all"].append(d["correct"])
        by_db[d["db"]].append(d["correct"])
    return {
        "cases": n,
        "broken_gold_cases": len(broken),
        "broken_gold_lines": broken,
        "execution_accuracy": sum(d["correct"] for d in details) / n if n else 0.0,
        "validity_rate": sum(d["valid"] for d in details) / n if n else 0.0,
        "needed_correction": len(needed) / n if n else 0.0,
        "correction_rate": (sum(d["valid"] for d in needed) / len(needed)) if needed else None,
        "mean_attempts": sum(d["attempts"] for d in details) / n if n else 0.0,
        "accuracy_by_tier": {t: sum(v) / len(v) for t, v in sorted(by_tier.items())},
        "cases_by_tier": {t: len(v) for t, v in sorted(by_tier.items())},
        "accuracy_by_db": {db: sum(v) / len(v) for db, v in sorted(by_db.items())},
        "latency_p50_ms": _ms(m.percentile(latencies, 50)) if latencies else None,
        "latency_p95_ms": _ms(m.percentile(latencies, 95)) if latencies else None,
    }
