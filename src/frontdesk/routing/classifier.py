"""Embedding intent classifier: a softmax-regression head over sentence embeddings.

A 0.5B chat model is a poor router (slow, and easily swayed), while sentence embeddings separate
intents well given a few dozen labelled examples per label. The examples ship as data with each
assistant; the head (a linear layer, class-balanced, L2-regularised) is trained on their
embeddings in well under a second. Vectors and weights are cached on disk, keyed by the examples
and the embedding model, so start-up embeds the examples once. A softmax head measured better
than k-nearest neighbours on the concierge's routing set (0.925 vs 0.899 accuracy).

Domain evidence: sentence embeddings know "soar status" or "wolf den" only as words, so questions
about the property's own names drift towards off_topic. Given the knowledge base's chunk vectors,
the head also sees one more feature, the message's best cosine similarity to any chunk: how much
the knowledge base has to say about it. On the concierge's routing set this lifted accuracy from
0.925 to 0.956.
"""

from __future__ import annotations

import hashlib
import json
import logging
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

import numpy as np
from langchain_core.embeddings import Embeddings

logger = logging.getLogger(__name__)


@dataclass(frozen=True)
class Example:
    text: str
    label: str


@dataclass(frozen=True)
class Prediction:
    label: str
    confidence: float
    # Probability per label (those above 0.001).
    scores: dict[str, float]


def load_examples(path: Path) -> list[Example]:
    examples = []
    with path.open(encoding="utf-8") as handle:
        for number, line in enumerate(handle, start=1):
            if not line.strip():
                continue
            try:
                row = json.loads(line)
                examples.append(Example(text=str(row["text"]), label=str(row["label"])))
            except (json.JSONDecodeError, KeyError) as exc:
                raise ValueError(f"{path}:{number}: expected {{'text', 'label'}}: {exc}") from exc
    return examples


class EmbeddingIntentClassifier:
    def __init__(
        self,
        embeddings: Embeddings,
        examples: Sequence[Example],
        *,
        cache_dir: Path | None = None,
        embeddings_id: str = "",
        regularization: float = 10.0,
        epochs: int = 500,
        domain_vectors: np.ndarray | None = None,
        domain_weight: float = 3.0,
        lexical: Embeddings | None = None,
        lexical_weight: float = 1.0,
    ):
        if not examples:
            raise ValueError("the intent classifier needs at least one labelled example")
        self.embeddings = embeddings
        self.examples = list(examples)
        self.labels = sorted({e.label for e in self.examples})
        self._label_ids = np.array([self.labels.index(e.label) for e in self.examples])
        self._domain = (
            None
            if domain_vectors is None or not len(domain_vectors)
            else _normalise(np.asarray(domain_vectors, dtype=float))
        )
        self._domain_weight = domain_weight
        self._lexical = lexical
        self._lexical_weight = lexical_weight
        vectors = self._features(
            self._example_vectors(cache_dir, embeddings_id), [e.text for e in self.examples]
        )
        self._weights, self._bias = train_softmax(
            vectors, self._label_ids, len(self.labels), c=regularization, epochs=epochs
        )

    def _features(self, vectors: np.ndarray, texts: Sequence[str]) -> np.ndarray:
        """Embeddings, plus the best similarity to the domain's own texts when there are any,
        plus lexical vectors (words and character trigrams) when configured."""
        parts = [vectors]
        if self._domain is not None:
            evidence = (vectors @ self._domain.T).max(axis=1, keepdims=True)
            parts.append(evidence * self._domain_weight)
        if self._lexical is not None:
            lexical = _normalise(np.asarray(self._lexical.embed_documents(list(texts))))
            parts.append(lexical * self._lexical_weight)
        return np.hstack(parts) if len(parts) > 1 else vectors

    def _example_vectors(self, cache_dir: Path | None, embeddings_id: str) -> np.ndarray:
        digest = hashlib.sha256(
            json.dumps([embeddings_id, [(e.text, e.label) for e in self.examples]]).encode()
        ).hexdigest()[:16]
        cache = cache_dir / f"intent-examples-{digest}.npy" if cache_dir else None
        if cache and cache.exists():
            matrix = np.load(cache)
            if matrix.shape[0] == len(self.examples):
                return matrix
        matrix = _normalise(
            np.asarray(self.embeddings.embed_documents([e.text for e in self.examples]))
        )
        if cache:
            cache.parent.mkdir(parents=True, exist_ok=True)
            np.save(cache, matrix)
        return matrix

    def predict(self, text: str) -> Prediction:
        vector = self._features(
            _normalise(np.asarray([self.embeddings.embed_query(text)])), [text]
        )[0]
        probabilities = _softmax(vector @ self._weights + self._bias)
        best = int(np.argmax(probabilities))
        return Prediction(
            label=self.labels[best],
            confidence=float(round(probabilities[best], 4)),
            scores={
                self.labels[i]: float(round(p, 4)) for i, p in enumerate(probabilities) if p > 1e-3
            },
        )


def train_softmax(
    x: np.ndarray,
    y: np.ndarray,
    classes: int,
    *,
    c: float = 10.0,
    epochs: int = 500,
    step: float = 2.0,
) -> tuple[np.ndarray, np.ndarray]:
    """Multinomial logistic regression by full-batch gradient descent (deterministic).

    Classes are weighted inversely to their size, so a label with many borrowed examples
    (off_topic) does not drown the ones written by hand.
    """
    n, dims = x.shape
    weights = np.zeros((dims, classes))
    bias = np.zeros(classes)
    targets = np.eye(classes)[y]
    counts = np.bincount(y, minlength=classes)
    sample_weight = (n / (classes * np.maximum(counts, 1)))[y][:, None]
    for _ in range(epochs):
        probabilities = _softmax(x @ weights + bias)
        gradient = (probabilities - targets) * sample_weight / n
        weights -= step * (x.T @ gradient + weights / (c * n))
        bias -= step * gradient.sum(axis=0)
    return weights, bias


def _softmax(z: np.ndarray) -> np.ndarray:
    z = z - z.max(axis=-1, keepdims=True)
    e = np.exp(z)
    return e / e.sum(axis=-1, keepdims=True)


def _normalise(matrix: np.ndarray) -> np.ndarray:
    norms = np.linalg.norm(matrix, axis=1, keepdims=True)
    return matrix / np.where(norms == 0, 1.0, norms)
