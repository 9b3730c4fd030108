"""The semantic file's question-to-SQL examples, found by meaning for the SQL writer.

A small model copies the shape of a close example far more reliably than it follows rules,
but it copies a distant one too: on the demo's easy questions, the three closest examples
(about other tables) took the 0.5B model from 0.885 to 0.615, joining tables the question never
needed. So an example is shown only when its question is close in meaning to the user's
(SQL_FEW_SHOT_MIN_SIMILARITY, cosine): a question the person who wrote the file expected. The
examples are embedded once, at start.
"""

from __future__ import annotations

from collections.abc import Sequence

from langchain_core.embeddings import Embeddings

from frontdesk.assistants.analyst.semantic.model import Example


class ExampleSearch:
    def __init__(self, embeddings: Embeddings, examples: Sequence[Example]):
        self.examples = list(examples)
        self._embeddings = embeddings
        texts = [e.question for e in self.examples]
        self._vectors = embeddings.embed_documents(texts) if texts else []

    def __len__(self) -> int:
        return len(self.examples)

    def closest(self, question: str, k: int, min_similarity: float = 0.0) -> list[Example]:
        """At most `k` examples whose questions are at least `min_similarity` close in meaning
        (cosine), closest first."""
        if k <= 0 or not self.examples:
            return []
        query = self._embeddings.embed_query(question)
        scores = [_cosine(query, v) for v in self._vectors]
        order = sorted(range(len(scores)), key=lambda i: -scores[i])
        return [self.examples[i] for i in order[:k] if scores[i] >= min_similarity]


def _cosine(a: list[float], b: list[float]) -> float:
    dot = sum(x * y for x, y in zip(a, b, strict=False))
    norm = (sum(x * x for x in a) * sum(y * y for y in b)) ** 0.5
    return dot / norm if norm else 0.0
