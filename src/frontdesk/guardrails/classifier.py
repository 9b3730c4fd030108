"""The guard's learned layer: logistic regression over the message's sentence embedding.

The regex families name techniques they have seen; a paraphrase with none of their words
passes them. Sentence embeddings place "repeat your pre-prompt" near "print your
instructions" however it is worded, so a linear model over the embedding the router already
computes catches attack *styles* at the cost of one dot product.

Fit by Newton's method (iteratively reweighted least squares) rather than gradient descent:
it converges in a dozen steps to the same optimum every time, fast enough that the
leave-one-source-out evaluation (hundreds of fits) and the threshold search take seconds.
Classes are weighted inversely to their size, so the many JailbreakBench rows do not drown
the rest. The decision threshold is chosen on out-of-fold scores of the training rows only
(leave one training source out), at most `TARGET_FALSE_POSITIVE_RATE` of benign rows above it.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

import numpy as np

# Version of the feature layout and fitting recipe: weights saved under another are stale.
RECIPE = "minilm-logreg-v2"
# Ridge penalty on the weights (not the bias), relative to the weighted row count.
L2_PENALTY = 0.05
NEWTON_STEPS = 30
TARGET_FALSE_POSITIVE_RATE = 0.01


@dataclass(frozen=True)
class LinearModel:
    weights: np.ndarray
    bias: float

    def scores(self, features: np.ndarray) -> np.ndarray:
        """Log-odds of injection per row."""
        return features @ self.weights + self.bias


def normalise(vectors: np.ndarray) -> np.ndarray:
    vectors = np.atleast_2d(np.asarray(vectors, dtype=np.float64))
    norms = np.linalg.norm(vectors, axis=1, keepdims=True)
    return vectors / np.where(norms == 0, 1.0, norms)


def fit_logistic(
    features: np.ndarray, attacks: np.ndarray, *, l2: float = L2_PENALTY
) -> LinearModel:
    """Class-balanced, L2-regularised binary logistic regression (deterministic)."""
    x = np.hstack([features, np.ones((len(features), 1))])
    y = np.asarray(attacks, dtype=np.float64)
    positives = max(float(y.sum()), 1.0)
    negatives = max(float(len(y) - y.sum()), 1.0)
    row_weight = np.where(y == 1, len(y) / (2 * positives), len(y) / (2 * negatives))
    penalty = np.full(x.shape[1], l2 * len(y))
    penalty[-1] = 1e-6  # the bias is (almost) free
    theta = np.zeros(x.shape[1])
    for _ in range(NEWTON_STEPS):
        p = 1.0 / (1.0 + np.exp(-np.clip(x @ theta, -30, 30)))
        gradient = x.T @ (row_weight * (p - y)) + penalty * theta
        curvature = row_weight * p * (1 - p)
        hessian = (x * curvature[:, None]).T @ x + np.diag(penalty)
        step = np.linalg.solve(hessian, gradient)
        theta -= step
        if float(np.max(np.abs(step))) < 1e-5:
            break
    return LinearModel(weights=theta[:-1], bias=float(theta[-1]))


def out_of_fold_scores(
    features: np.ndarray, attacks: np.ndarray, sources: Sequence[str], *, l2: float = L2_PENALTY
) -> np.ndarray:
    """Each row's score from a model fit without its source (leave one source out)."""
    sources = np.asarray(sources)
    scores = np.empty(len(features))
    for source in np.unique(sources):
        held = sources == source
        model = fit_logistic(features[~held], attacks[~held], l2=l2)
        scores[held] = model.scores(features[held])
    return scores


def threshold_at(
    benign_scores: np.ndarray, false_positive_rate: float, scores: np.ndarray | None = None
) -> float:
    """A threshold with at most `false_positive_rate` of benign scores above it (a flag is
    score > threshold): halfway between the highest benign score allowed below it and the
    next score of any row above that, so a new row that ties a training row is not decided
    by rounding."""
    ordered = np.sort(np.asarray(benign_scores))
    if not len(ordered):
        return 0.0
    allowed = math.floor(false_positive_rate * len(ordered))
    cutoff = float(ordered[len(ordered) - 1 - allowed])
    pool = np.asarray(ordered if scores is None else scores)
    above = pool[pool > cutoff + 1e-9]
    return (cutoff + float(above.min())) / 2 if len(above) else cutoff


def choose_threshold(
    features: np.ndarray,
    attacks: np.ndarray,
    sources: Sequence[str],
    *,
    false_positive_rate: float = TARGET_FALSE_POSITIVE_RATE,
    l2: float = L2_PENALTY,
) -> float:
    """Threshold from out-of-fold scores of these (training) rows: unseen benign styles score
    higher than seen ones, so in-sample scores would put it too low."""
    scores = out_of_fold_scores(features, attacks, sources, l2=l2)
    return threshold_at(scores[np.asarray(attacks) == 0], false_positive_rate, scores)


@dataclass(frozen=True)
class LearnedDetector:
    """A fitted model, its threshold, and what it was fitted on (for staleness checks)."""

    model: LinearModel
    threshold: float
    embeddings_id: str
    data_digest: str
    recipe: str = RECIPE

    def scores(self, vectors: np.ndarray) -> np.ndarray:
        return self.model.scores(normalise(vectors))

    def save(self, path: Path) -> None:
        path.parent.mkdir(parents=True, exist_ok=True)
        temporary = path.with_name(path.name + ".tmp.npz")
        np.savez(
            temporary,
            weights=self.model.weights.astype(np.float32),
            bias=np.float64(self.model.bias),
            threshold=np.float64(self.threshold),
            embeddings_id=np.str_(self.embeddings_id),
            data_digest=np.str_(self.data_digest),
            recipe=np.str_(self.recipe),
        )
        temporary.replace(path)  # a concurrent reader never sees half a file

    @classmethod
    def load(cls, path: Path) -> LearnedDetector:
        with np.load(path) as saved:
            return cls(
                model=LinearModel(saved["weights"].astype(np.float64), float(saved["bias"])),
                threshold=float(saved["threshold"]),
                embeddings_id=str(saved["embeddings_id"]),
                data_digest=str(saved["data_digest"]),
                recipe=str(saved["recipe"]),
            )

    def is_current(self, embeddings_id: str, data_digest: str) -> bool:
        return (self.embeddings_id, self.data_digest, self.recipe) == (
            embeddings_id,
            data_digest,
            RECIPE,
        )


def train_detector(
    vectors: np.ndarray,
    attacks: np.ndarray,
    sources: Sequence[str],
    *,
    embeddings_id: str,
    data_digest: str,
) -> LearnedDetector:
    features = normalise(vectors)
    attacks = np.asarray(attacks, dtype=np.float64)
    return LearnedDetector(
        model=fit_logistic(features, attacks),
        threshold=choose_threshold(features, attacks, sources),
        embeddings_id=embeddings_id,
        data_digest=data_digest,
    )


def embed_in_batches(
    embed: Callable[[list[str]], list[list[float]]],
    texts: Sequence[str],
    *,
    batch: int = 64,
    progress: Callable[[int, int], None] | None = None,
) -> np.ndarray:
    """`embed` over `texts` a batch at a time, reporting (done, total) after each batch."""
    parts = []
    for start in range(0, len(texts), batch):
        parts.append(np.asarray(embed(list(texts[start : start + batch])), dtype=np.float64))
        if progress:
            progress(min(start + batch, len(texts)), len(texts))
    return np.vstack(parts) if parts else np.zeros((0, 0))
