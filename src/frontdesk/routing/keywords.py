"""Keyword evidence for intent classifiers: how many words of a message start with a stem.

MiniLM is an English model: Polish words ("sieć", "faktura", "zwrot") embed as word pieces
with little meaning, so a Polish message drifts between intents. A few stems per intent, in
both languages, give the classifier head a signal it cannot get from the embedding. As extra
features beside the embedding (not as rules), they lifted 5-fold cross-validated accuracy on
telecom's routing examples from 0.909 to 0.935 (weight 0.5; 1.0 and 2.0 gave 0.922).
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from langchain_core.embeddings import Embeddings

_WORD = re.compile(r"[\w-]+")


class KeywordCounts(Embeddings):
    """Per group, the number of words starting with one of its stems; plus a constant 1
    (so a message without any keyword still has a direction)."""

    def __init__(self, groups: Sequence[Sequence[str]]):
        self.groups = [tuple(stem.casefold() for stem in group) for group in groups]

    def counts(self, text: str) -> list[int]:
        words = _WORD.findall(text.casefold())
        return [sum(1 for w in words if w.startswith(group)) for group in self.groups]

    def _vector(self, text: str) -> list[float]:
        return [float(c) for c in self.counts(text)] + [1.0]

    def embed_documents(self, texts: list[str]) -> list[list[float]]:
        return [self._vector(text) for text in texts]

    def embed_query(self, text: str) -> list[float]:
        return self._vector(text)
