"""A learned multi-label classifier over the query's sentence embedding, for any assistant.

The injection guard (`classifier.py`) answers one question: attack or not. An assistant often
needs several ("is this asking for medical advice? for a booking? for a competitor's
prices?"), each with its own training rows. This module is the guard's recipe made
multi-label: the assistant declares its labels (`LabelSpec`) and its rows (`LabelledText`,
JSONL), and gets a `MultiLabelDetector` that scores every label with one matrix-vector
product over the embedding the router computes anyway. The core names no assistant.

    spec = LabelSpec(labels=("medical", "legal"))
    rows = load_labelled_texts(path, spec)
    detector = load_or_train(embeddings, rows, weights_dir, "my-assistant-topics", spec=spec)
    detector.flags(embeddings.embed_query(text))      # ("medical",) or ()

Training fits one small network over every label (`mlp.fit_mlp`): for each risky label, its
rows are the positives and every other row (benign rows and rows of the other labels) the
negatives, class-balanced per label, so a label with few rows is not drowned.

Each label's threshold is chosen on cross-validated scores of the training rows, never
in-sample ones: a model has fitted its own benign rows, so they score lower than new benign
text will, and an in-sample threshold would flag more real traffic than the target. Folds
leave one *source* out when there are two or more sources, because rows of one source share a
template, and a random split would put near-copies on both sides and measure memory; with a
single source, seeded k-fold is the best available. The threshold keeps at most the target
share of BENIGN rows above it (`classifier.threshold_at`): a false alarm on ordinary traffic
is the cost being controlled, while a row of another risky label that also trips this label
is still risky text being stopped.
"""

from __future__ import annotations

import hashlib
import json
import logging
import os
import re
import uuid
import zipfile
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

import numpy as np
from langchain_core.embeddings import Embeddings

from frontdesk.guardrails.classifier import embed_in_batches, normalise, threshold_at
from frontdesk.guardrails.datasets import DatasetError, rows_digest
from frontdesk.guardrails.guard import current_weights, vector_space_id, weights_file
from frontdesk.guardrails.mlp import Mlp, fit_mlp

logger = logging.getLogger(__name__)

# Bumped when the fitting recipe here or in `mlp.py` changes: weights saved under another are
# stale.
RECIPE = "multilabel-mlp-v2"
DEFAULT_FALSE_POSITIVE_RATE = 0.01
# Folds when the rows come from one source (leave-one-source-out is impossible), and their seed.
K_FOLDS = 5
FOLD_SEED = 0
# The detector's name is part of a file name: keep it to characters safe everywhere.
_NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9_.-]*")


@dataclass(frozen=True)
class LabelledText:
    """One training or evaluation row. `source` is the unit of leave-one-source-out."""

    text: str
    label: str
    source: str


@dataclass(frozen=True)
class LabelSpec:
    """An assistant's declaration: its risky labels, the name of the benign label, and the
    target share of benign rows each label may flag (`label_rates` overrides it per label)."""

    labels: tuple[str, ...]
    benign: str = "benign"
    false_positive_rate: float = DEFAULT_FALSE_POSITIVE_RATE
    label_rates: tuple[tuple[str, float], ...] = ()

    def __post_init__(self) -> None:
        if not self.labels or len(set(self.labels)) != len(self.labels):
            raise ValueError(f"labels must be distinct and not empty, got {self.labels!r}")
        if self.benign in self.labels:
            raise ValueError(f"the benign label {self.benign!r} cannot also be a risky label")
        unknown = {label for label, _ in self.label_rates} - set(self.labels)
        if unknown:
            raise ValueError(f"label_rates names undeclared labels {sorted(unknown)}")
        rates = [self.false_positive_rate, *(rate for _, rate in self.label_rates)]
        if not all(0.0 <= rate < 1.0 for rate in rates):
            raise ValueError(f"false-positive rates must be in [0, 1), got {rates}")

    @property
    def all_labels(self) -> frozenset[str]:
        return frozenset((*self.labels, self.benign))

    def rate(self, label: str) -> float:
        return dict(self.label_rates).get(label, self.false_positive_rate)

    def digest(self, rows: Sequence[LabelledText]) -> str:
        """Identifies rows *and* declaration: another label set or target rate is stale too."""
        rates = [self.rate(label) for label in self.labels]
        payload = json.dumps([rows_digest(rows), self.labels, self.benign, rates])
        return hashlib.sha256(payload.encode("utf-8")).hexdigest()[:16]


def load_labelled_texts(path: Path, spec: LabelSpec | None = None) -> list[LabelledText]:
    """Rows of a JSONL file of `{"text", "label", "source"?}`; `source` defaults to the file's
    stem. A bad row raises `DatasetError` naming the file and line; with `spec`, so does a
    label it does not declare (a typo would otherwise silently train a wrong negative)."""
    path = Path(path)
    rows = []
    with path.open(encoding="utf-8") as handle:
        for number, line in enumerate(handle, start=1):
            if line.strip():
                rows.append(_parse(line, f"{path}:{number}", path.stem, spec))
    return rows


def _parse(line: str, where: str, default_source: str, spec: LabelSpec | None) -> LabelledText:
    try:
        row = json.loads(line)
    except json.JSONDecodeError as error:
        raise DatasetError(f"{where}: not valid JSON ({error.msg})") from None
    if not isinstance(row, dict):
        raise DatasetError(f"{where}: expected an object, got {type(row).__name__}")
    text, label, source = row.get("text"), row.get("label"), row.get("source", default_source)
    for key, value in (("text", text), ("label", label), ("source", source)):
        if type(value) is not str or not value.strip():
            raise DatasetError(f"{where}: {key!r} must be a non-empty string, got {value!r}")
    if spec is not None and label not in spec.all_labels:
        raise DatasetError(f"{where}: label {label!r} is not one of {sorted(spec.all_labels)}")
    return LabelledText(text=str(text), label=str(label), source=str(source))


def check_labels(rows: Sequence[LabelledText], spec: LabelSpec) -> None:
    """Reject rows whose label the spec does not declare (a typo is not a negative)."""
    unknown = sorted({row.label for row in rows} - spec.all_labels)
    if unknown:
        raise ValueError(f"rows carry undeclared labels {unknown}; declared {spec.labels}")


def check_lengths(vectors: np.ndarray, rows: Sequence[LabelledText]) -> None:
    if len(vectors) != len(rows):
        raise ValueError(f"{len(vectors)} vectors for {len(rows)} rows")


def validation_folds(
    sources: Sequence[str], *, k: int = K_FOLDS, seed: int = FOLD_SEED
) -> np.ndarray:
    """A fold name per row: its source when there are two or more, else a seeded k-fold
    split (deterministic: the same rows always give the same folds, hence the same weights)."""
    sources = np.asarray(sources, dtype=str)
    if len(np.unique(sources)) >= 2:
        return sources
    order = np.random.default_rng(seed).permutation(len(sources))
    folds = np.empty(len(sources), dtype=object)
    folds[order] = [f"fold-{i % max(min(k, len(sources)), 1)}" for i in range(len(sources))]
    return folds.astype(str)


@dataclass(frozen=True, eq=False)
class FittedLabels:
    """The network over every label (`mlp.Mlp`, output i for `labels[i]`) and each label's
    threshold. A label with no positive rows gets an infinite threshold: it can flag nothing
    it was never shown."""

    model: Mlp
    thresholds: np.ndarray  # (labels,)


def label_targets(labels: np.ndarray, spec: LabelSpec) -> np.ndarray:
    """0/1 per row and declared label: (rows, labels)."""
    return np.stack([(labels == label).astype(np.float64) for label in spec.labels], axis=1)


def out_of_fold_scores(features: np.ndarray, targets: np.ndarray, folds: np.ndarray) -> np.ndarray:
    """Each row's scores from a network fitted without its fold."""
    scores = np.empty(targets.shape)
    for fold in np.unique(folds):
        held = folds == fold
        scores[held] = fit_mlp(features[~held], targets[~held]).scores(features[held])
    return scores


def fit_labels(
    features: np.ndarray, labels: Sequence[str], sources: Sequence[str], spec: LabelSpec
) -> FittedLabels:
    """The network over normalised `features`, and each label's threshold from out-of-fold
    scores of these rows (see the module docstring). With no benign rows `threshold_at` falls
    back to log-odds 0, the balanced boundary."""
    labels = np.asarray(labels, dtype=str)
    targets = label_targets(labels, spec)
    out_of_fold = out_of_fold_scores(features, targets, validation_folds(sources))
    benign = labels == spec.benign
    thresholds = np.full(len(spec.labels), np.inf)
    for i, label in enumerate(spec.labels):
        if targets[:, i].any():
            column = out_of_fold[:, i]
            thresholds[i] = threshold_at(column[benign], spec.rate(label), column)
    return FittedLabels(fit_mlp(features, targets), thresholds)


@dataclass(frozen=True, eq=False)
class MultiLabelDetector:
    """Fitted weights for `labels`, their thresholds (on log-odds), and what they were fitted
    on, for staleness checks. A label is flagged when its score is above its threshold."""

    labels: tuple[str, ...]
    model: Mlp  # applied to the L2-normalised embedding
    thresholds: np.ndarray  # (labels,)
    embeddings_id: str
    data_digest: str
    benign: str = "benign"
    recipe: str = RECIPE

    def __post_init__(self) -> None:
        count = len(self.labels)
        model = self.model
        if (
            model.output_weights.shape[0] != count
            or model.output_biases.shape != (count,)
            or self.thresholds.shape != (count,)
            or model.hidden_weights.shape[1] != model.output_weights.shape[1]
        ):
            raise ValueError(
                f"inconsistent shapes for {count} labels: hidden {model.hidden_weights.shape}, "
                f"output {model.output_weights.shape}, thresholds {self.thresholds.shape}"
            )

    def scores(self, vectors: np.ndarray | Sequence[float]) -> np.ndarray:
        """Log-odds per label: shape (labels,) for one vector, (rows, labels) for a matrix.
        One vector costs two small matrix-vector products (well under a millisecond)."""
        array = np.asarray(vectors, dtype=np.float64)
        scores = self.model.scores(normalise(array))
        return scores[0] if array.ndim == 1 else scores

    def margins(self, vector: np.ndarray | Sequence[float]) -> np.ndarray:
        """Score minus threshold per label: positive means flagged."""
        return self.scores(vector) - self.thresholds

    def flags(self, vector: np.ndarray | Sequence[float]) -> tuple[str, ...]:
        """The labels over their threshold, highest margin first."""
        margins = self.margins(vector)
        order = np.argsort(-margins, kind="stable")
        return tuple(self.labels[i] for i in order if margins[i] > 0)

    def top(self, vector: np.ndarray | Sequence[float]) -> str | None:
        """The flagged label with the highest margin, or None when no label is flagged."""
        margins = self.margins(vector)
        best = int(np.argmax(margins))
        return self.labels[best] if margins[best] > 0 else None

    def save(self, path: Path) -> None:
        """Written to a uniquely named temporary file in the same folder, then renamed over
        `path`, so a concurrent reader never sees half a file and concurrent writers (two
        processes training at once) never write into the same one."""
        path.parent.mkdir(parents=True, exist_ok=True)
        temporary = path.with_name(f"{path.name}.{os.getpid()}.{uuid.uuid4().hex}.tmp")
        try:
            with temporary.open("xb") as file:
                # float64 (unlike the guard's float32): exact round trip, and it is tiny.
                np.savez(
                    file,
                    labels=np.array(self.labels, dtype=str),
                    hidden_weights=self.model.hidden_weights.astype(np.float64),
                    hidden_biases=self.model.hidden_biases.astype(np.float64),
                    output_weights=self.model.output_weights.astype(np.float64),
                    output_biases=self.model.output_biases.astype(np.float64),
                    thresholds=self.thresholds.astype(np.float64),
                    embeddings_id=np.str_(self.embeddings_id),
                    data_digest=np.str_(self.data_digest),
                    benign=np.str_(self.benign),
                    recipe=np.str_(self.recipe),
                )
            os.replace(temporary, path)
        except BaseException:
            temporary.unlink(missing_ok=True)
            raise

    @classmethod
    def load(cls, path: Path) -> MultiLabelDetector:
        """Raises OSError, KeyError or ValueError for a file that is not such weights."""
        try:
            with np.load(path, allow_pickle=False) as saved:
                return cls(
                    labels=tuple(str(label) for label in np.atleast_1d(saved["labels"])),
                    model=Mlp(
                        saved["hidden_weights"].astype(np.float64),
                        saved["hidden_biases"].astype(np.float64),
                        saved["output_weights"].astype(np.float64),
                        saved["output_biases"].astype(np.float64),
                    ),
                    thresholds=saved["thresholds"].astype(np.float64),
                    embeddings_id=str(saved["embeddings_id"]),
                    data_digest=str(saved["data_digest"]),
                    benign=str(saved["benign"]),
                    recipe=str(saved["recipe"]),
                )
        except (EOFError, zipfile.BadZipFile) as error:
            raise ValueError(f"{path}: not a weights file ({error})") from error

    def is_current(self, embeddings_id: str, data_digest: str) -> bool:
        return (self.embeddings_id, self.data_digest, self.recipe) == (
            embeddings_id,
            data_digest,
            RECIPE,
        )


def train(
    vectors: np.ndarray,
    rows: Sequence[LabelledText],
    spec: LabelSpec,
    *,
    embeddings_id: str,
) -> MultiLabelDetector:
    """Fit the detector on embedded `rows` (deterministic: the same rows give the same
    weights). Every declared label needs rows, and the thresholds need benign rows."""
    check_lengths(vectors, rows)
    check_labels(rows, spec)
    present = {row.label for row in rows}
    missing = [label for label in (*spec.labels, spec.benign) if label not in present]
    if missing:
        raise ValueError(f"no training rows for {missing}")
    fitted = fit_labels(
        normalise(vectors), [row.label for row in rows], [row.source for row in rows], spec
    )
    return MultiLabelDetector(
        labels=spec.labels,
        model=fitted.model,
        thresholds=fitted.thresholds,
        embeddings_id=embeddings_id,
        data_digest=spec.digest(rows),
        benign=spec.benign,
    )


def load_or_train(
    embeddings: Embeddings,
    rows: Sequence[LabelledText],
    weights_dir: Path,
    name: str,
    *,
    spec: LabelSpec | None = None,
    shipped_dir: Path | None = None,
    space: str | None = None,
) -> MultiLabelDetector | None:
    """The detector called `name` for `embeddings` and `rows`: saved weights when current
    (`shipped_dir`, read-only, first, then `weights_dir`), else embedded, trained and saved
    under `weights_dir`. `spec` defaults to every non-"benign" label in `rows`, sorted.

    None (logged) when the vector space has no stable id (`guard.vector_space_id`) and no
    `space` is given: weights could not be keyed, so a detector for another model's vectors
    could be reused silently."""
    if not _NAME.fullmatch(name):
        raise ValueError(f"name must be letters, digits, '.', '_' or '-', got {name!r}")
    if spec is None:
        spec = LabelSpec(labels=tuple(sorted({row.label for row in rows} - {"benign"})))
    check_labels(rows, spec)
    space = space or vector_space_id(embeddings)
    if space is None:
        logger.warning("%s: no learned labels for %s embeddings", name, type(embeddings).__name__)
        return None
    digest = spec.digest(rows)
    local = weights_file(weights_dir, space, name)
    candidates = [weights_file(shipped_dir, space, name)] if shipped_dir is not None else []
    for path in (*candidates, local):
        detector = current_weights(path, space, digest, MultiLabelDetector.load)
        if detector is not None:
            return detector
    logger.info("%s: no current weights for %s, training on %d rows", name, space, len(rows))
    vectors = embed_in_batches(
        embeddings.embed_documents, [row.text for row in rows], progress=_progress(name)
    )
    detector = train(vectors, rows, spec, embeddings_id=space)
    detector.save(local)
    logger.info("%s: weights written to %s", name, local)
    return detector


def _progress(name: str) -> Callable[[int, int], None]:
    def report(done: int, total: int) -> None:
        logger.info("%s: embedded %d/%d training rows", name, done, total)

    return report
