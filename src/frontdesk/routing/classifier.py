"""Embedding intent classifier: weighted k-nearest neighbours over labelled example utterances.

A 0.5B chat model is a poor router (slow, and easily swayed), while sentence embeddings separate
intents well when given a few dozen examples per label. The examples ship as data with each
assistant; their vectors are cached on disk, keyed by the examples and the embedding model, so
start-up embeds them once.
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
    # The label's share of the neighbours' similarity mass, for every label that got a vote.
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
        k: int = 9,
        cache_dir: Path | None = None,
        embeddings_id: str = "",
    ):
        if not examples:
            raise ValueError("the intent classifier needs at least one labelled example")
        self.embeddings = embeddings
        self.examples = list(examples)
        self.k = min(k, len(self.examples))
        self.labels = sorted({e.label for e in self.examples})
        self._label_ids = np.array([self.labels.index(e.label) for e in self.examples])
        self._matrix = self._example_vectors(cache_dir, embeddings_id)

    def _example_vectors(self, cache_dir: Path | None, embeddings_id: str) -> np.ndarray:
        digest = hashlib.sha256(
            json.dumps([embeddings_id, [(e.text, e.label) for e in self.examples]]).encode()
        ).hexdigest()[:16]
        cache = cache_dir / f"intent-examples-{digest}.npy" if cache_dir else None
        if cache and cache.exists():
            matrix = np.load(cache)
            if matrix.shape[0] == len(self.examples):
                return matrix
        matrix = _normalise(np.asarray(self.embeddings.embed_documents([e.text for e in self.examples])))
        if cache:
            cache.parent.mkdir(parents=True, exist_ok=True)
            np.save(cache, matrix)
        return matrix

    def predict(self, text: str) -> Prediction:
        vector = _normalise(np.asarray([self.embeddings.embed_query(text)]))[0]
        similarity = self._matrix @ vector
        nearest = np.argsort(-similarity)[: self.k]
        # Similarity-weighted vote; squaring sharpens the weight of close neighbours.
        weights = np.clip(similarity[nearest], 0.0, None) ** 2
        totals = np.zeros(len(self.labels))
        np.add.at(totals, self._label_ids[nearest], weights)
        mass = totals.sum()
        if mass <= 0:
            return Prediction(label=self.labels[self._label_ids[nearest[0]]], confidence=0.0, scores={})
        shares = totals / mass
        best = int(np.argmax(shares))
        return Prediction(
            label=self.labels[best],
            confidence=float(round(shares[best], 4)),
            scores={self.labels[i]: float(round(s, 4)) for i, s in enumerate(shares) if s > 0},
        )


def _normalise(matrix: np.ndarray) -> np.ndarray:
    norms = np.linalg.norm(matrix, axis=1, keepdims=True)
    return matrix / np.where(norms == 0, 1.0, norms)
