"""The semantic file's question-to-SQL examples, found by meaning for the SQL writer.

A small model copies the shape of a close example far more reliably than it follows rules:
"top 5 customers by number of work orders" next to an example ranking technicians by jobs
gets the GROUP BY / ORDER BY / LIMIT right. The examples are embedded once, at start.
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

    def closest(self, question: str, k: int) -> list[Example]:
        """The `k` examples whose questions are closest in meaning, closest first."""
        if k <= 0 or not self.examples:
            return []
        query = self._embeddings.embed_query(question)
        scores = [sum(a * b for a, b in zip(query, v, strict=False)) for v in self._vectors]
        order = sorted(range(len(scores)), key=lambda i: -scores[i])
        return [self.examples[i] for i in order[:k]]
