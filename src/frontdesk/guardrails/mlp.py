"""A small multi-label neural network: one hidden layer (ReLU), a logistic output per label.

The injection guard's linear model draws one flat boundary through the embedding. Risky
guest texts and their harmless look-alikes ("I lost it all at blackjack, need to win it back"
against "I lost track of time at blackjack, is the spa still open") share topic directions,
and what separates them is a combination of several; a hidden layer can draw it, measured
on writers held out (`multilabel_eval`), where the linear one could not.

Fitted by full-batch Adam on a class-balanced cross-entropy per label (a label with few rows
is not drowned by the benign ones) with weight decay, from a seeded start: the same rows give
the same weights. Written here rather than taken from scikit-learn, whose MLPClassifier
weighs no class and would bring scipy for one matrix product at run time.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

HIDDEN = 256
EPOCHS = 300
LEARNING_RATE = 3e-3
WEIGHT_DECAY = 1e-4
SEED = 0


@dataclass(frozen=True, eq=False)
class Mlp:
    hidden_weights: np.ndarray  # (dim, hidden)
    hidden_biases: np.ndarray  # (hidden,)
    output_weights: np.ndarray  # (labels, hidden)
    output_biases: np.ndarray  # (labels,)

    def scores(self, features: np.ndarray) -> np.ndarray:
        """Log-odds per row and label: (rows, labels)."""
        hidden = np.maximum(features @ self.hidden_weights + self.hidden_biases, 0.0)
        return hidden @ self.output_weights.T + self.output_biases


def _balanced(targets: np.ndarray) -> np.ndarray:
    """Per cell, the weight that gives each label's positives and negatives equal mass."""
    rows = len(targets)
    positives = np.maximum(targets.sum(axis=0), 1.0)
    negatives = np.maximum(rows - targets.sum(axis=0), 1.0)
    return targets * (rows / (2 * positives)) + (1 - targets) * (rows / (2 * negatives))


def fit_mlp(
    features: np.ndarray,
    targets: np.ndarray,
    *,
    hidden: int = HIDDEN,
    epochs: int = EPOCHS,
    learning_rate: float = LEARNING_RATE,
    weight_decay: float = WEIGHT_DECAY,
    seed: int = SEED,
) -> Mlp:
    """Fit on `features` (rows, dim) and 0/1 `targets` (rows, labels)."""
    features = np.asarray(features, dtype=np.float64)
    targets = np.asarray(targets, dtype=np.float64)
    rng = np.random.default_rng(seed)
    dim, labels = features.shape[1], targets.shape[1]
    params = [
        rng.normal(0.0, 1.0 / np.sqrt(dim), (dim, hidden)),
        np.zeros(hidden),
        rng.normal(0.0, 1.0 / np.sqrt(hidden), (hidden, labels)),
        np.zeros(labels),
    ]
    first = [np.zeros_like(p) for p in params]
    second = [np.zeros_like(p) for p in params]
    weights = _balanced(targets) / len(targets)
    for step in range(1, epochs + 1):
        w1, b1, w2, b2 = params
        activation = np.maximum(features @ w1 + b1, 0.0)
        logits = activation @ w2 + b2
        error = weights * (1.0 / (1.0 + np.exp(-np.clip(logits, -30, 30))) - targets)
        back = (error @ w2.T) * (activation > 0)
        gradients = [
            features.T @ back + weight_decay * w1,
            back.sum(axis=0),
            activation.T @ error + weight_decay * w2,
            error.sum(axis=0),
        ]
        for i, gradient in enumerate(gradients):
            first[i] = 0.9 * first[i] + 0.1 * gradient
            second[i] = 0.999 * second[i] + 0.001 * gradient * gradient
            corrected = first[i] / (1 - 0.9**step)
            params[i] -= learning_rate * corrected / (np.sqrt(second[i] / (1 - 0.999**step)) + 1e-8)
    w1, b1, w2, b2 = params
    return Mlp(w1, b1, w2.T.copy(), b2)
