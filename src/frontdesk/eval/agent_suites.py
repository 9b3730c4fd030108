"""Suites for agents that refuse and act: the NO_CONTEXT gate and tool calling.

`no_context`: rows `{"question", "answerable"}`; the target says whether the gate fired
(`gate(question) -> bool`, True = NO_CONTEXT). The positive class is "unanswerable": precision
is the share of fired gates that were right to fire, recall the share of unanswerable questions
it caught. `calibrate_gate` sweeps the threshold over rows scored once.

`tools`: rows `{"messages", "user_id", "expected_tool", "expected_args"}`; the target returns
the agent's decision `(tool or None, args)`. A row is correct when the tool matches and every
expected argument matches (numbers to the cent, strings case-insensitively); extra arguments
the agent supplies (user_id from the request, a description) are not held against it.
"""

from __future__ import annotations

import asyncio
import inspect
from collections.abc import Awaitable, Callable, Sequence
from typing import Any

from rich.console import Console

from frontdesk.eval import metrics as m
from frontdesk.eval.datasets import NoContextCase, ToolCase
from frontdesk.eval.progress import progress_bar
from frontdesk.eval.suites import SuiteResult, _ms, clock, language_of, per_language

GateFn = Callable[[str], bool]
ScoreFn = Callable[[str], tuple[int, float]]  # question -> (hits, relevance)
DecideFn = Callable[[ToolCase], Awaitable[tuple[str | None, dict[str, Any]]]]


def gate_scores(predicted: Sequence[bool], unanswerable: Sequence[bool]) -> dict[str, Any]:
    tp = sum(1 for p, u in zip(predicted, unanswerable, strict=True) if p and u)
    fp = sum(1 for p, u in zip(predicted, unanswerable, strict=True) if p and not u)
    fn = sum(1 for p, u in zip(predicted, unanswerable, strict=True) if not p and u)
    tn = len(predicted) - tp - fp - fn
    precision = tp / (tp + fp) if tp + fp else 0.0
    recall = tp / (tp + fn) if tp + fn else 0.0
    f1 = 2 * precision * recall / (precision + recall) if precision + recall else 0.0
    return {
        "precision": precision,
        "recall": recall,
        "f1": f1,
        "accuracy": (tp + tn) / len(predicted) if predicted else 0.0,
        "true_positives": tp,
        "false_positives": fp,
        "false_negatives": fn,
        "true_negatives": tn,
    }


def run_no_context(
    cases: Sequence[NoContextCase],
    gate: GateFn,
    *,
    show_progress: bool = True,
    console: Console | None = None,
) -> SuiteResult:
    details: list[dict[str, Any]] = []
    started = clock()
    with progress_bar("no_context", len(cases), show=show_progress, console=console) as advance:
        for case in cases:
            t0 = clock()
            fired = bool(gate(case.question))
            details.append(
                {
                    "line": case.line,
                    "question": case.question,
                    "language": language_of(case),
                    "answerable": case.answerable,
                    "no_context": fired,
                    "correct": fired != case.answerable,
                    "latency_ms": _ms(clock() - t0),
                }
            )
            advance()
    metrics: dict[str, Any] = {
        "rows": len(details),
        "answerable": sum(1 for c in cases if c.answerable),
        "unanswerable": sum(1 for c in cases if not c.answerable),
        **gate_scores([d["no_context"] for d in details], [not c.answerable for c in cases]),
        "latency_p50_ms": m.percentile([d["latency_ms"] for d in details], 50),
        "duration_s": clock() - started,
        "per_language": per_language(details, _gate_figures),
    }
    return SuiteResult("no_context", metrics, details)


def _gate_figures(rows: list[dict[str, Any]]) -> dict[str, Any]:
    answerable = [d for d in rows if d["answerable"]]
    return {
        "rows": len(rows),
        "answerable": len(answerable),
        "unanswerable": len(rows) - len(answerable),
        # Of the answerable questions, the share the gate let through (the refusals users see).
        "answered_when_answerable": m.rate(
            sum(1 for d in answerable if not d["no_context"]), len(answerable)
        ),
        **gate_scores([d["no_context"] for d in rows], [not d["answerable"] for d in rows]),
    }


def calibrate_gate(
    cases: Sequence[NoContextCase], score: ScoreFn, *, min_hits: int = 3, step: float = 0.005
) -> dict[str, Any]:
    """Precision/recall/F1 of `hits < min_hits or relevance < t` for every t; best F1 wins.

    Ties go to the middle of the best plateau: the threshold furthest from both edges where
    F1 starts to drop, so a small shift in the score distribution moves it least.
    """
    scored = [(case, *score(case.question)) for case in cases]
    unanswerable = [not case.answerable for case, _, _ in scored]
    low = min(mean for _, _, mean in scored) - step
    high = max(mean for _, _, mean in scored) + step
    sweep = []
    t = low
    while t <= high + 1e-9:
        fired = [hits < min_hits or mean < t for _, hits, mean in scored]
        sweep.append({"threshold": round(t, 4), **gate_scores(fired, unanswerable)})
        t += step
    best_f1 = max(row["f1"] for row in sweep)
    best = [row for row in sweep if row["f1"] == best_f1]
    chosen = best[len(best) // 2]
    return {
        "chosen": chosen,
        "plateau": [best[0]["threshold"], best[-1]["threshold"]],
        "rows": len(scored),
        "scores": [
            {"question": c.question, "answerable": c.answerable, "hits": h, "mean": round(mu, 4)}
            for c, h, mu in scored
        ],
        "sweep": sweep,
    }


def _same(expected: Any, got: Any) -> bool:
    if isinstance(expected, int | float) and not isinstance(expected, bool):
        try:
            return abs(float(got) - float(expected)) < 0.005
        except (TypeError, ValueError):
            return False
    if isinstance(expected, str):
        return isinstance(got, str) and got.strip().casefold() == expected.strip().casefold()
    return expected == got


async def run_tools(
    cases: Sequence[ToolCase],
    decide: DecideFn,
    *,
    timeout_s: float | None = None,
    show_progress: bool = True,
    console: Console | None = None,
) -> SuiteResult:
    details: list[dict[str, Any]] = []
    started = clock()
    with progress_bar("tools", len(cases), show=show_progress, console=console) as advance:
        for case in cases:
            row: dict[str, Any] = {
                "line": case.line,
                "message": case.messages[-1][1],
                "expected_tool": case.expected_tool,
                "expected_args": case.expected_args,
                "tool": None,
                "args": {},
                "error": None,
            }
            t0 = clock()
            try:
                pending = decide(case)
                if inspect.isawaitable(pending):
                    pending = await asyncio.wait_for(pending, timeout_s)
                tool, args = pending
            except Exception as exc:  # noqa: BLE001 - one failed row must not end the run
                row["error"] = f"{type(exc).__name__}: {exc}"
                tool, args = None, {}
            row["latency_s"] = clock() - t0
            wrong = [
                name
                for name, value in case.expected_args.items()
                if not _same(value, (args or {}).get(name))
            ]
            row.update(tool=tool, args=args, wrong_args=wrong)
            row["tool_correct"] = tool == case.expected_tool and row["error"] is None
            row["correct"] = row["tool_correct"] and not wrong
            details.append(row)
            advance()
    rows = len(details)
    metrics: dict[str, Any] = {
        "rows": rows,
        "accuracy": m.rate(sum(d["correct"] for d in details), rows),
        "tool_accuracy": m.rate(sum(d["tool_correct"] for d in details), rows),
        "errors": sum(1 for d in details if d["error"]),
        "latency_p50_s": m.percentile([d["latency_s"] for d in details], 50),
        "duration_s": clock() - started,
    }
    return SuiteResult("tools", metrics, details)
