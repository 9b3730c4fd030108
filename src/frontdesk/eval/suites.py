"""Suite runners: feed dataset cases to a plain callable, time it, and compute metrics.

The runners know nothing about assistants; the CLI builds the callables (a retriever's search,
a router's classify, a guard's audit, an assistant's ask) and passes them in, so every suite
can be tested with fakes.
"""

from __future__ import annotations

import asyncio
import inspect
import json
import re
import time
import uuid
from collections import defaultdict
from collections.abc import Awaitable, Callable, Mapping, Sequence
from dataclasses import asdict, dataclass, field
from typing import Any

import numpy as np
from rich.console import Console

from frontdesk.agentkit.language import detect_language
from frontdesk.eval import metrics as m
from frontdesk.eval.datasets import AnswerCase, GuardrailCase, RetrievalCase, RoutingCase
from frontdesk.eval.progress import progress_bar

# Harmless-looking indirect-injection payloads from BIPIA ("summarise this in French"): a
# guard that flags them is over-eager as often as it is right, so they get their own rate
# instead of dragging the headline detection rate around.
TASK_IRRELEVANT_SOURCE = "bipia-text-task-irrelevant"
NO_SOURCE = "(none)"
# Retrieval metrics are reported at these cut-offs.
RECALL_CUTOFFS = (1, 5)
NDCG_CUTOFF = 5

# Latency clock; a module attribute so tests can substitute a deterministic one.
clock: Callable[[], float] = time.perf_counter

SearchFn = Callable[[str, int], Sequence[Any]]
ClassifyFn = Callable[[str], tuple[str, float]]
AuditFn = Callable[[str], bool]
AskFn = Callable[[str, str], Awaitable[Any]]


class EvalError(RuntimeError):
    """The callable under test broke its contract (wrong return shape or type)."""


@dataclass
class SuiteResult:
    """One suite run: headline `metrics` (JSON-safe) and one `details` entry per dataset row."""

    name: str
    metrics: dict[str, Any]
    details: list[dict[str, Any]] = field(default_factory=list)

    def to_dict(self, *, include_details: bool = True) -> dict[str, Any]:
        data = asdict(self)
        if not include_details:
            data.pop("details")
        return data

    def to_json(self, *, include_details: bool = False, indent: int | None = 2) -> str:
        """The JSON object `frontdesk eval --json` prints: suite name and metrics, and
        per-row details when asked (they can be long: answers carry the whole reply)."""
        data = self.to_dict(include_details=include_details)
        return json.dumps(data, indent=indent, ensure_ascii=False, default=str)


def language_of(case: AnswerCase | Any) -> str:
    """The case's `language`, else the one its question is written in."""
    return case.language or detect_language(case.question, among=("en", "es", "pl"))


def per_language(
    details: Sequence[dict[str, Any]], measure: Callable[[list[dict[str, Any]]], dict[str, Any]]
) -> dict[str, dict[str, Any]]:
    """`measure` over the detail rows of each language (rows carry a "language" key)."""
    groups: dict[str, list[dict[str, Any]]] = defaultdict(list)
    for row in details:
        groups[row["language"]].append(row)
    return {language: measure(rows) for language, rows in sorted(groups.items())}


def _ms(seconds: float | None) -> float | None:
    return None if seconds is None else seconds * 1000.0


# --- retrieval -----------------------------------------------------------------------------


def _item_name(hit: Any, query: str, relevant: Sequence[str] = ()) -> str:
    """What a hit is, in the dataset's terms.

    Structured knowledge: `metadata["item_name"]`. Documents (markdown): `doc_id#heading`,
    where the heading is any of the sections the chunk covers (`metadata["sections"]`,
    " | "-separated), so a relevant "doc#heading" matches the chunk holding that section; a
    hit matching nothing relevant is named by its own section path. LangChain `Document`s
    (`hit.metadata`) are accepted too.
    """
    metadata = hit.get("metadata") if isinstance(hit, Mapping) else getattr(hit, "metadata", None)
    if not isinstance(metadata, Mapping):
        metadata = {}
    name = metadata.get("item_name")
    if isinstance(name, str) and name:
        return name
    doc_id = metadata.get("doc_id")
    if isinstance(doc_id, str) and doc_id:
        sections = [s.strip() for s in str(metadata.get("sections", "")).split(" | ") if s.strip()]
        keys = [doc_id] + [f"{doc_id}#{section}" for section in sections]
        for key in keys:
            if key in relevant:
                return key
        return f"{doc_id}#{metadata.get('section_path', '')}"
    raise EvalError(
        f"search result for query {query!r} has no metadata['item_name'] or ['doc_id']: "
        f"{hit!r:.200}"
    )


def run_retrieval(
    cases: Sequence[RetrievalCase],
    search: SearchFn,
    *,
    top_k: int = 5,
    show_progress: bool = True,
    console: Console | None = None,
) -> SuiteResult:
    """recall@1, recall@5, MRR and nDCG@5 over distinct items, plus search latency.

    `top_k` is what `search` is asked for: 5, what an assistant's tools ask for, so the suite
    measures the ranking the model sees. Hits are deduplicated by item name before scoring.
    """
    if top_k < NDCG_CUTOFF:
        raise ValueError(
            f"top_k must be at least {NDCG_CUTOFF} to score @{NDCG_CUTOFF}, got {top_k}"
        )
    cutoffs = tuple(sorted({*RECALL_CUTOFFS, top_k}))
    details: list[dict[str, Any]] = []
    latencies: list[float] = []
    started = clock()
    with progress_bar("retrieval", len(cases), show=show_progress, console=console) as advance:
        for case in cases:
            t0 = clock()
            hits = search(case.query, top_k)
            latencies.append(clock() - t0)
            if not isinstance(hits, Sequence):
                raise EvalError(f"search must return a list, got {type(hits).__name__}")
            ranked = m.dedupe_ranked(_item_name(hit, case.query, case.relevant) for hit in hits)
            top = ranked[: max(NDCG_CUTOFF, top_k)]
            row: dict[str, Any] = {
                "line": case.line,
                "query": case.query,
                "language": detect_language(case.query, among=("en", "es", "pl")),
                "relevant": list(case.relevant),
                "retrieved": top,
                "first_relevant_rank": m.first_relevant_rank(ranked, case.relevant),
                "reciprocal_rank": m.reciprocal_rank(ranked, case.relevant),
            }
            for k in cutoffs:
                row[f"recall@{k}"] = m.recall_at_k(ranked, case.relevant, k)
            row[f"ndcg@{NDCG_CUTOFF}"] = m.ndcg_at_k(ranked, case.relevant, NDCG_CUTOFF)
            row["missed"] = [name for name in case.relevant if name not in top]
            row["latency_ms"] = _ms(latencies[-1])
            details.append(row)
            advance()
    metrics: dict[str, Any] = {"queries": len(details)}
    for k in cutoffs:
        metrics[f"recall@{k}"] = m.mean([d[f"recall@{k}"] for d in details])
    metrics["mrr"] = m.mean([d["reciprocal_rank"] for d in details])
    metrics[f"ndcg@{NDCG_CUTOFF}"] = m.mean([d[f"ndcg@{NDCG_CUTOFF}"] for d in details])
    metrics["queries_with_misses"] = sum(1 for d in details if d["missed"])
    metrics["latency_p50_ms"] = _ms(m.percentile(latencies, 50))
    metrics["latency_p99_ms"] = _ms(m.percentile(latencies, 99))
    metrics["duration_s"] = clock() - started
    metrics["per_language"] = per_language(details, _retrieval_figures)
    return SuiteResult("retrieval", metrics, details)


def _retrieval_figures(rows: list[dict[str, Any]]) -> dict[str, Any]:
    return {
        "queries": len(rows),
        "recall@1": m.mean([d["recall@1"] for d in rows]),
        "recall@5": m.mean([d["recall@5"] for d in rows]),
        "mrr": m.mean([d["reciprocal_rank"] for d in rows]),
    }


# --- routing -------------------------------------------------------------------------------


def _classification(result: Any, text: str) -> tuple[str, float]:
    if not isinstance(result, Sequence) or isinstance(result, str) or len(result) != 2:
        raise EvalError(
            f"classify must return (label, confidence); for {text!r:.80} got {result!r:.200}"
        )
    label, confidence = result
    if not isinstance(label, str):
        raise EvalError(f"classify returned a {type(label).__name__} label for {text!r:.80}")
    if isinstance(confidence, bool) or not isinstance(confidence, int | float | np.floating):
        raise EvalError(
            f"classify returned confidence {confidence!r} for {text!r:.80}; want a number"
        )
    return label, float(confidence)


def run_routing(
    cases: Sequence[RoutingCase],
    classify: ClassifyFn,
    *,
    labels: Sequence[str] | None = None,
    show_progress: bool = True,
    console: Console | None = None,
) -> SuiteResult:
    """Accuracy, macro-F1, per-label precision/recall/F1/support and a confusion matrix.

    `labels` fixes the matrix order (e.g. the router's categories, so a category absent from
    the dataset still shows); by default it is the gold labels, then any only-predicted ones.
    """
    details: list[dict[str, Any]] = []
    latencies: list[float] = []
    started = clock()
    with progress_bar("routing", len(cases), show=show_progress, console=console) as advance:
        for case in cases:
            t0 = clock()
            result = classify(case.text)
            latencies.append(clock() - t0)
            predicted, confidence = _classification(result, case.text)
            details.append(
                {
                    "line": case.line,
                    "text": case.text,
                    "label": case.label,
                    "predicted": predicted,
                    "confidence": confidence,
                    "correct": predicted == case.label,
                    "latency_ms": _ms(latencies[-1]),
                }
            )
            advance()
    gold = [d["label"] for d in details]
    predicted_labels = [d["predicted"] for d in details]
    if labels is not None:
        # Keep the caller's order but never drop a label that occurred.
        labels = list(labels) + m.label_order(
            [g for g in gold if g not in labels], [p for p in predicted_labels if p not in labels]
        )
    order, matrix = m.confusion_matrix(gold, predicted_labels, labels)
    per_label = m.per_label_scores(order, matrix)
    metrics: dict[str, Any] = {
        "rows": len(details),
        "accuracy": m.accuracy(gold, predicted_labels),
        "macro_f1": m.macro_f1(per_label),
        "misclassified": sum(1 for d in details if not d["correct"]),
        "latency_p50_ms": _ms(m.percentile(latencies, 50)),
        "latency_p99_ms": _ms(m.percentile(latencies, 99)),
        "duration_s": clock() - started,
        "per_label": per_label,
        "confusion_matrix": {"labels": order, "matrix": matrix},
    }
    return SuiteResult("routing", metrics, details)


# --- guardrails ----------------------------------------------------------------------------


def _flag(result: Any, text: str) -> bool:
    if not isinstance(result, bool | np.bool_):
        raise EvalError(f"audit must return a bool (flagged); for {text!r:.80} got {result!r:.200}")
    return bool(result)


def run_guardrails(
    cases: Sequence[GuardrailCase],
    audit: AuditFn,
    *,
    show_progress: bool = True,
    console: Console | None = None,
) -> SuiteResult:
    """Detection rate on injections, false-positive rate on benign text, and apart from those
    the flag rate on unsafe text and on BIPIA task-irrelevant payloads; rates per source."""
    details: list[dict[str, Any]] = []
    latencies: list[float] = []
    started = clock()
    with progress_bar("guardrails", len(cases), show=show_progress, console=console) as advance:
        for case in cases:
            t0 = clock()
            flagged = _flag(audit(case.text), case.text)
            latencies.append(clock() - t0)
            task_irrelevant = case.source == TASK_IRRELEVANT_SOURCE
            # Only injection and benign rows have a right answer; unsafe and task-irrelevant
            # rows are measured, not judged.
            if task_irrelevant or case.label == "unsafe":
                correct = None
            else:
                correct = flagged == (case.label == "injection")
            details.append(
                {
                    "line": case.line,
                    "text": case.text,
                    "label": case.label,
                    "source": case.source,
                    "task_irrelevant": task_irrelevant,
                    "flagged": flagged,
                    "correct": correct,
                    "latency_ms": _ms(latencies[-1]),
                }
            )
            advance()

    def flag_rate(rows: list[dict[str, Any]]) -> float | None:
        return m.rate(sum(1 for d in rows if d["flagged"]), len(rows))

    headline = [d for d in details if not d["task_irrelevant"]]
    injection = [d for d in headline if d["label"] == "injection"]
    benign = [d for d in headline if d["label"] == "benign"]
    unsafe = [d for d in headline if d["label"] == "unsafe"]
    task_irrelevant_rows = [d for d in details if d["task_irrelevant"]]

    by_source: dict[str, dict[str, list[dict[str, Any]]]] = defaultdict(lambda: defaultdict(list))
    for d in details:
        by_source[d["source"] or NO_SOURCE][d["label"]].append(d)
    per_source = {
        source: {
            label: {
                "rows": len(rows),
                "flagged": sum(1 for d in rows if d["flagged"]),
                "flag_rate": flag_rate(rows),
            }
            for label, rows in sorted(labels.items())
        }
        for source, labels in sorted(by_source.items())
    }
    metrics: dict[str, Any] = {
        "rows": len(details),
        "injection_rows": len(injection),
        "detection_rate": flag_rate(injection),
        "benign_rows": len(benign),
        "false_positive_rate": flag_rate(benign),
        "unsafe_rows": len(unsafe),
        "unsafe_flag_rate": flag_rate(unsafe),
        "task_irrelevant_rows": len(task_irrelevant_rows),
        "task_irrelevant_flag_rate": flag_rate(task_irrelevant_rows),
        "latency_p50_ms": _ms(m.percentile(latencies, 50)),
        "latency_p99_ms": _ms(m.percentile(latencies, 99)),
        "duration_s": clock() - started,
        "per_source": per_source,
    }
    return SuiteResult("guardrails", metrics, details)


# --- answers -------------------------------------------------------------------------------


def check_answer(
    answer: str, must_include: Sequence[str], must_not_include: Sequence[str]
) -> tuple[list[str], list[str]]:
    """(required strings missing, forbidden strings present), compared case-insensitively."""
    folded = answer.casefold()
    missing = [s for s in must_include if s.casefold() not in folded]
    forbidden = [s for s in must_not_include if s.casefold() in folded]
    return missing, forbidden


# How a reply says that something is not there: "Mohegan Sun does not have a bowling alley",
# "there is no water park", "I don't see an ice rink among the amenities". A reply that only
# says it lacks information ("I don't have details on that") does not count: the guest asked
# whether the thing exists, and such a reply leaves the question open.
ABSENCE = re.compile(
    r"\b(?:does\s*n[o']t|do\s*n[o']t|did\s*n[o']t|is\s*n[o']t|are\s*n[o']t|not)\s+"
    r"(?:currently\s+|actually\s+)?(?:have|has|offer|feature|include|provide|operate|host|"
    r"available|part\s+of|located|defined|on\s+(?:the\s+)?(?:property|site)|at\s+(?:the\s+)?resort)\b"
    r"(?!\s+(?:any\s+|more\s+|specific\s+)?(?:details|information|info|data|specifics))"
    r"|\bthere\s*(?:is|are|'s)\s+no\b|\bthere\s+(?:is|are)\s*n[o']t\b"
    r"|\bno\s+(?:\w+\s+){0,3}(?:on[\s-]site|at\s+(?:the\s+)?(?:resort|property)|here)\b"
    r"|\b(?:do\s*n[o']t|can\s*n[o']t|cannot|could\s*n[o']t)\s+(?:see|find)\s+(?:an?y?\s+)?\w"
    # A repository's: "parse_token is not defined anywhere", "no code there does it".
    r"|\bno\s+code\b"
    # Spanish: "Mohegan Sun no tiene bolera", "no ofrece «bolera»", "no hay cine"; Polish: "nie
    # ma", "nie oferujemy". As in English, a reply that only lacks information ("no tengo
    # información", "nie mam informacji") leaves the question open.
    r"|\bno\s+(?:(?:lo\s+|la\s+)?(?:tiene|tienen|tenemos|hay|ofrece|ofrecen|ofrecemos|cuenta|"
    r"cuentan|contamos|existe|existen|dispone|disponemos))\b"
    r"|\bnie\s+(?:ma|mamy|oferuje|oferujemy|posiada|posiadamy|istnieje)\b",
    re.IGNORECASE,
)
# Lacking information is not lacking the thing, in any language.
_ONLY_NO_INFORMATION = re.compile(
    r"\b(?:no|nie)\s+(?:\w+\s+){0,2}(?:informaci[oó]n|informacji|datos|detalles|danych)\b",
    re.IGNORECASE,
)


def states_absence(answer: str) -> bool:
    """Does the reply say that the thing asked about does not exist here?"""
    text = _ONLY_NO_INFORMATION.sub(" ", answer.replace("\u2019", "'"))
    return ABSENCE.search(text) is not None


def _answer_text(result: Any) -> str:
    """The reply text from a `str`, an object with `.answer` (an `Answer`) or {"answer": ...}."""
    text = (
        result.get("answer") if isinstance(result, Mapping) else getattr(result, "answer", result)
    )
    if not isinstance(text, str):
        raise EvalError(f"ask must return a str or an object with .answer; got {result!r:.200}")
    return text


async def run_answers(
    cases: Sequence[AnswerCase],
    ask: AskFn,
    *,
    thread_prefix: str | None = None,
    timeout_s: float | None = None,
    show_progress: bool = True,
    console: Console | None = None,
) -> SuiteResult:
    """Ask every question and check the reply for required and forbidden strings.

    Rows are asked one at a time in file order. Rows sharing a `thread` value share one
    thread id, so later ones are follow-ups in the same conversation; every other row gets a
    fresh id. Ids start with `thread_prefix` (default: a random one per run) so a run never
    continues a conversation a previous run left in a persistent checkpointer.

    An exception from `ask` (or passing `timeout_s`) fails that row and the run goes on: a
    long evaluation against a slow model should not be lost to one bad turn. A reply of the
    wrong type still raises `EvalError`, since that is a wiring bug, not a model failure.
    """
    prefix = thread_prefix or f"eval-{uuid.uuid4().hex[:8]}"
    turns: dict[str, int] = defaultdict(int)
    details: list[dict[str, Any]] = []
    started = clock()
    with progress_bar("answers", len(cases), show=show_progress, console=console) as advance:
        for index, case in enumerate(cases):
            if case.thread is not None:
                thread_id = f"{prefix}-thread-{case.thread}"
            else:
                thread_id = f"{prefix}-row-{index}"
            turns[thread_id] += 1
            row: dict[str, Any] = {
                "line": case.line,
                "question": case.question,
                "language": language_of(case),
                "thread": case.thread,
                "thread_id": thread_id,
                "turn": turns[thread_id],
                "absent": case.absent,
                "answer": None,
                "passed": False,
                "missing": [],
                "forbidden": [],
                "error": None,
                "latency_s": None,
            }
            t0 = clock()
            try:
                pending = ask(case.question, thread_id)
                if inspect.isawaitable(pending):
                    pending = await asyncio.wait_for(pending, timeout_s)
                result = pending
            except Exception as exc:  # noqa: BLE001 - recorded per row, see the docstring
                row["error"] = f"{type(exc).__name__}: {exc}" if str(exc) else type(exc).__name__
            else:
                row["latency_s"] = clock() - t0
                answer = _answer_text(result)
                missing, forbidden = check_answer(answer, case.must_include, case.must_not_include)
                if case.absent and not states_absence(answer):
                    missing = [*missing, "(a statement that it is not there)"]
                row.update(
                    answer=answer,
                    missing=missing,
                    forbidden=forbidden,
                    passed=not missing and not forbidden,
                )
                for extra in ("route", "sources"):  # shown in the report when the reply has them
                    if hasattr(result, extra):
                        row[extra] = getattr(result, extra)
            details.append(row)
            advance()
    latencies = [d["latency_s"] for d in details if d["latency_s"] is not None]
    passed = sum(1 for d in details if d["passed"])
    absent_rows = [d for d in details if d["absent"]]
    metrics: dict[str, Any] = {
        "rows": len(details),
        "passed": passed,
        "pass_rate": m.rate(passed, len(details)),
        "errors": sum(1 for d in details if d["error"]),
        "conversations": sum(1 for count in turns.values() if count > 1),
        # Of the questions about things the knowledge lacks, the share answered as absent.
        "absent_rows": len(absent_rows),
        "absent_answered_as_absent": m.rate(
            sum(1 for d in absent_rows if d["passed"]), len(absent_rows)
        ),
        "latency_p50_s": m.percentile(latencies, 50),
        "latency_p95_s": m.percentile(latencies, 95),
        "duration_s": clock() - started,
        "per_language": per_language(details, _answer_figures),
    }
    return SuiteResult("answers", metrics, details)


def _answer_figures(rows: list[dict[str, Any]]) -> dict[str, Any]:
    passed = sum(1 for d in rows if d["passed"])
    return {"rows": len(rows), "passed": passed, "pass_rate": m.rate(passed, len(rows))}
