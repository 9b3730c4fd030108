"""`HashEmbeddings`: deterministic, model-free embeddings for tests and quick experiments.

Hashed bag of words plus character trigrams (the "hashing trick"): texts that share words or
word pieces get similar vectors, with no model and the same result on every machine and
process (blake2b, not Python's salted `hash`). L2-normalised, 384 dimensions by default, so
it is a drop-in stand-in for MiniLM wherever only the shape of the pipeline matters.
"""

from __future__ import annotations

import hashlib
import re
from functools import lru_cache

import numpy as np
from langchain_core.embeddings import Embeddings

DIMENSIONS = 384
_WORDS = re.compile(r"\w+", re.UNICODE)
# Whole words carry more meaning than the trigrams that make them up.
_WORD_WEIGHT = 1.0
_TRIGRAM_WEIGHT = 0.5


@lru_cache(maxsize=65536)
def _bucket(feature: str, dimensions: int) -> tuple[int, float]:
    digest = int.from_bytes(hashlib.blake2b(feature.encode("utf-8"), digest_size=8).digest())
    # One hash gives the bucket and a sign; signs keep collisions from only ever adding up.
    return digest % dimensions, 1.0 if (digest >> 63) & 1 else -1.0


def _features(text: str) -> list[tuple[str, float]]:
    features: list[tuple[str, float]] = []
    for word in _WORDS.findall(text.lower()):
        features.append((f"w:{word}", _WORD_WEIGHT))
        padded = f"<{word}>"
        features.extend((f"c:{padded[i : i + 3]}", _TRIGRAM_WEIGHT) for i in range(len(padded) - 2))
    return features


class HashEmbeddings(Embeddings):
    """Deterministic hashed bag-of-words + character-trigram embeddings."""

    def __init__(self, dimensions: int = DIMENSIONS) -> None:
        if dimensions < 2:
            raise ValueError(f"dimensions must be at least 2, got {dimensions}")
        self.dimensions = dimensions

    def embed_one(self, text: str) -> np.ndarray:
        if not isinstance(text, str):
            raise TypeError(f"HashEmbeddings embeds strings, got {type(text).__name__}")
        vector = np.zeros(self.dimensions, dtype=np.float32)
        # Text without any word still gets a fixed unit vector: a zero vector has no
        # direction and would turn cosine similarity into NaN downstream.
        for feature, weight in _features(text) or [("empty:", 1.0)]:
            index, sign = _bucket(feature, self.dimensions)
            vector[index] += sign * weight
        norm = float(np.linalg.norm(vector))
        if norm == 0.0:  # every feature cancelled out: fall back to the fixed vector
            index, sign = _bucket("empty:", self.dimensions)
            vector[index], norm = sign, 1.0
        return vector / norm

    def embed_documents(self, texts: list[str]) -> list[list[float]]:
        if isinstance(texts, str):
            raise TypeError("embed_documents expects a list of strings, not one string")
        return [self.embed_one(text).tolist() for text in texts]

    def embed_query(self, text: str) -> list[float]:
        return self.embed_one(text).tolist()
