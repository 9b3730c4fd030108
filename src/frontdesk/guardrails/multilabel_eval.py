"""How well a `multilabel.py` detector generalises: leave-one-source-out, or a held-out set.

Leave-one-source-out holds each source out in turn, fits every label's model on the other
sources and chooses each threshold inside that training part only (its own cross-validation,
`fit_labels`), then flags the held rows. No row of the held source reaches the weights
or the thresholds, so the figures estimate text of a style the detector has not seen.

Per label: recall (its rows it flags) and the share of benign rows it flags. Overall: the
share of benign rows flagged by ANY label, each row counted once, since that is what a user
with an ordinary question experiences. Pure numpy over precomputed embeddings.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Literal

import numpy as np

from frontdesk.guardrails.classifier import normalise
from frontdesk.guardrails.multilabel import (
    LabelledText,
    LabelSpec,
    MultiLabelDetector,
    check_labels,
    check_lengths,
    fit_labels,
)

Method = Literal["leave-one-source-out", "held-out"]


@dataclass(frozen=True)
class LabelResult:
    """`recall`: share of this label's rows flagged with it (None without such rows).
    `benign_flag_rate`: share of benign rows this label flags (None without benign rows)."""

    label: str
    rows: int
    recall: float | None
    benign_flag_rate: float | None


@dataclass(frozen=True)
class MultiLabelReport:
    method: Method
    per_label: tuple[LabelResult, ...]
    benign_rows: int
    # Benign rows flagged by any label, each counted once.
    benign_flag_rate: float | None

    def label(self, name: str) -> LabelResult:
        for result in self.per_label:
            if result.label == name:
                return result
        raise KeyError(name)


def _share(flags: np.ndarray) -> float | None:
    return float(flags.mean()) if len(flags) else None


def report_from_flags(
    flags: np.ndarray,
    row_labels: Sequence[str],
    labels: Sequence[str],
    benign: str,
    method: Method,
) -> MultiLabelReport:
    """The report for a (rows, labels) boolean matrix of decisions, column i for `labels[i]`."""
    flags = np.asarray(flags, dtype=bool).reshape(len(row_labels), len(labels))
    row_labels = np.asarray(row_labels, dtype=str)
    is_benign = row_labels == benign
    per_label = tuple(
        LabelResult(
            label=label,
            rows=int((row_labels == label).sum()),
            recall=_share(flags[row_labels == label, i]),
            benign_flag_rate=_share(flags[is_benign, i]),
        )
        for i, label in enumerate(labels)
    )
    return MultiLabelReport(
        method=method,
        per_label=per_label,
        benign_rows=int(is_benign.sum()),
        benign_flag_rate=_share(flags[is_benign].any(axis=1)),
    )


def leave_one_source_out_flags(
    vectors: np.ndarray,
    rows: Sequence[LabelledText],
    spec: LabelSpec,
    *,
    progress: Callable[[str], None] | None = None,
) -> np.ndarray:
    """Each row's (labels,) decisions from models and thresholds fitted without its source."""
    check_lengths(vectors, rows)
    check_labels(rows, spec)
    sources = np.array([row.source for row in rows], dtype=str)
    if len(np.unique(sources)) < 2:
        raise ValueError("leave-one-source-out needs rows from at least two sources")
    features = normalise(vectors)
    labels = [row.label for row in rows]
    flags = np.zeros((len(rows), len(spec.labels)), dtype=bool)
    for source in sorted(set(sources)):
        held = sources == source
        train = np.flatnonzero(~held)
        fitted = fit_labels(features[train], [labels[i] for i in train], sources[train], spec)
        flags[held] = fitted.model.scores(features[held]) > fitted.thresholds
        if progress:
            progress(source)
    return flags


def leave_one_source_out_report(
    vectors: np.ndarray,
    rows: Sequence[LabelledText],
    spec: LabelSpec,
    *,
    progress: Callable[[str], None] | None = None,
) -> MultiLabelReport:
    """Per-label recall and benign flag rates, every row judged by models that never saw its
    source (thresholds chosen inside each fold's training part: no leakage)."""
    flags = leave_one_source_out_flags(vectors, rows, spec, progress=progress)
    return report_from_flags(
        flags, [row.label for row in rows], spec.labels, spec.benign, "leave-one-source-out"
    )


def evaluate(
    detector: MultiLabelDetector, vectors: np.ndarray, rows: Sequence[LabelledText]
) -> MultiLabelReport:
    """Per-label recall and benign flag rates of a fitted detector on held-out rows. Rows the
    detector was trained on give in-sample figures, which must be labelled so."""
    check_lengths(vectors, rows)
    known = {*detector.labels, detector.benign}
    unknown = sorted({row.label for row in rows} - known)
    if unknown:
        raise ValueError(f"rows carry labels the detector does not know: {unknown}")
    flags = np.atleast_2d(detector.scores(vectors)) > detector.thresholds
    return report_from_flags(
        flags, [row.label for row in rows], detector.labels, detector.benign, "held-out"
    )


def format_report(report: MultiLabelReport) -> str:
    """A plain-text table: per label, its rows, recall and benign flag rate; then overall."""

    def cell(value: float | None) -> str:
        return "   -  " if value is None else f"{value:6.3f}"

    lines = [
        f"{report.method}",
        f"{'label':28s} {'rows':>5s}  recall  benign-flagged",
    ]
    for result in report.per_label:
        lines.append(
            f"{result.label:28s} {result.rows:5d}  {cell(result.recall)}  "
            f"{cell(result.benign_flag_rate)}"
        )
    lines.append(
        f"{'benign (any label)':28s} {report.benign_rows:5d}  {'':6s}  "
        f"{cell(report.benign_flag_rate)}"
    )
    return "\n".join(lines)
