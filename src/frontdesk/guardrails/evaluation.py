"""How well the guard generalises: leave-one-source-out, the shared dev set unseen, held-out rows.

A random split puts rows of one attack template on both sides and measures memory. Here each
source (JailbreakBench, a BIPIA family, XSTest, each written set) is held out in turn: the
learned layer is fitted without it, its threshold chosen on the remaining (training) sources
only, and the held-out source is scored. Attack sources give detection, benign sources the
false-positive rate. Every figure is given for the rules alone, the learned layer alone and
both (a row is flagged if either layer flags it).

Works on precomputed embeddings, so it is pure numpy and testable on a tiny synthetic set.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass, field

import numpy as np

from frontdesk.guardrails.classifier import choose_threshold, fit_logistic, normalise
from frontdesk.guardrails.datasets import EMBEDDED_ONLY_SOURCES, LabelledRow, trainable

LAYERS = ("rules", "learned", "both")


@dataclass
class SourceResult:
    source: str
    label: str
    rows: int
    # Share of rows flagged, per layer: detection for attacks, false positives for benign rows.
    flagged: dict[str, float]
    threshold: float | None = None


@dataclass
class Summary:
    """Pooled over rows: attack detection (embedded-only sources excluded) and benign FP rate."""

    attack_rows: int = 0
    benign_rows: int = 0
    detection: dict[str, float] = field(default_factory=dict)
    false_positive_rate: dict[str, float] = field(default_factory=dict)


def _flags(
    train: np.ndarray, test: np.ndarray, x: np.ndarray, y: np.ndarray, sources: np.ndarray
) -> tuple[np.ndarray, float]:
    model = fit_logistic(x[train], y[train])
    threshold = choose_threshold(x[train], y[train], sources[train])
    return model.scores(x[test]) > threshold, threshold


def _per_layer(rules: np.ndarray, learned: np.ndarray) -> dict[str, float]:
    both = rules | learned
    return {name: float(flags.mean()) for name, flags in zip(LAYERS, (rules, learned, both))}


def summarise(results: Sequence[SourceResult]) -> Summary:
    summary = Summary()
    hits = {kind: dict.fromkeys(LAYERS, 0.0) for kind in ("injection", "benign")}
    for result in results:
        if result.label not in hits or result.source in EMBEDDED_ONLY_SOURCES:
            continue
        for layer in LAYERS:
            hits[result.label][layer] += result.flagged[layer] * result.rows
        if result.label == "injection":
            summary.attack_rows += result.rows
        else:
            summary.benign_rows += result.rows
    for layer in LAYERS:
        if summary.attack_rows:
            summary.detection[layer] = hits["injection"][layer] / summary.attack_rows
        if summary.benign_rows:
            summary.false_positive_rate[layer] = hits["benign"][layer] / summary.benign_rows
    return summary


def _arrays(rows: Sequence[LabelledRow], vectors: np.ndarray):
    return (
        normalise(vectors),
        np.array([row.is_attack for row in rows], dtype=float),
        np.array([row.source for row in rows]),
        np.array([trainable(row) for row in rows]),
    )


def leave_one_source_out(
    rows: Sequence[LabelledRow],
    vectors: np.ndarray,
    rule_flags: np.ndarray,
    *,
    progress: Callable[[str], None] | None = None,
) -> list[SourceResult]:
    """For each source: fit on the trainable rows of all *other* sources, score this one."""
    x, y, sources, fit_on = _arrays(rows, vectors)
    rule_flags = np.asarray(rule_flags, dtype=bool)
    results = []
    for source in sorted(set(sources)):
        test = sources == source
        learned, threshold = _flags(fit_on & ~test, test, x, y, sources)
        label = rows[int(np.argmax(test))].label
        results.append(
            SourceResult(
                source, label, int(test.sum()), _per_layer(rule_flags[test], learned), threshold
            )
        )
        if progress:
            progress(source)
    return results


def train_then_test(
    train_rows: Sequence[LabelledRow],
    train_vectors: np.ndarray,
    test_rows: Sequence[LabelledRow],
    test_vectors: np.ndarray,
    test_rule_flags: np.ndarray,
) -> list[SourceResult]:
    """Fit on `train_rows` (threshold from their folds), report per source of `test_rows`.
    If the two overlap, the figures are in-sample and must be labelled so."""
    x, y, sources, fit_on = _arrays(train_rows, train_vectors)
    model = fit_logistic(x[fit_on], y[fit_on])
    threshold = choose_threshold(x[fit_on], y[fit_on], sources[fit_on])
    learned = model.scores(normalise(test_vectors)) > threshold
    test_sources = np.array([row.source for row in test_rows])
    rule_flags = np.asarray(test_rule_flags, dtype=bool)
    results = []
    for source in sorted(set(test_sources)):
        test = test_sources == source
        label = test_rows[int(np.argmax(test))].label
        results.append(
            SourceResult(
                source,
                label,
                int(test.sum()),
                _per_layer(rule_flags[test], learned[test]),
                threshold,
            )
        )
    return results


def as_dict(results: Sequence[SourceResult]) -> dict:
    return {"per_source": [asdict(r) for r in results], "summary": asdict(summarise(results))}


def format_table(title: str, results: Sequence[SourceResult]) -> str:
    """A plain-text table: per source, then pooled detection and false-positive rate."""
    lines = [title, f"{'source':34s} {'label':9s} {'rows':>5s}  rules  learned  both"]
    for r in results:
        apart = "  (embedded-only, apart)" if r.source in EMBEDDED_ONLY_SOURCES else ""
        lines.append(
            f"{r.source:34s} {r.label:9s} {r.rows:5d}  {r.flagged['rules']:.3f}  "
            f"{r.flagged['learned']:.3f}    {r.flagged['both']:.3f}{apart}"
        )
    s = summarise(results)
    if s.attack_rows:
        d = s.detection
        lines.append(
            f"{'detection (attacks)':34s} {'':9s} {s.attack_rows:5d}  {d['rules']:.3f}  "
            f"{d['learned']:.3f}    {d['both']:.3f}"
        )
    if s.benign_rows:
        f = s.false_positive_rate
        lines.append(
            f"{'false positives (benign)':34s} {'':9s} {s.benign_rows:5d}  {f['rules']:.3f}  "
            f"{f['learned']:.3f}    {f['both']:.3f}"
        )
    return "\n".join(lines)
