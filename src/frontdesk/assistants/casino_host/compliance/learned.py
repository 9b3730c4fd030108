"""The gate's learned layer: the core multi-label classifier (`guardrails.multilabel`) over
the message's sentence embedding, beside the regex layers.

The patterns know the words a risky text usually has; a guest chasing losses rarely says
"gambling problem". Sentence embeddings place "used the rent money on blackjack, need to win
it back" near the problem-gambling texts it was trained on however it is worded, at the cost
of one matrix-vector product over the embedding the router computes anyway (the embedding
model keeps the query, so the router does not embed it again).

Trained on texts written for it, EN and ES, each file its own source: two writers who never
saw the patterns or the held-out sets (`data/compliance/`), and the development set the
patterns were tuned on (`data/eval/guardrails.jsonl`). PII is not a label: a number is the
regex layer's job, and its rows are left out. The held-out sets are never trained on.

Each label's threshold is chosen by leave-one-writer-out cross-validation so that at most
`FALSE_POSITIVE_RATE` of benign rows, look-alikes included, trip that label; with seven
labels the share of benign texts any label flags stays near 1 % (the target).
"""

from __future__ import annotations

from pathlib import Path
from typing import Protocol

from frontdesk.assistants.casino_host.compliance.gate import REPLY_PRIORITY
from frontdesk.assistants.casino_host.compliance.matching import CHECKED_CHARS, PII
from frontdesk.guardrails.multilabel import (
    LabelledText,
    LabelSpec,
    MultiLabelDetector,
    load_labelled_texts,
)

DATA_DIR = Path(__file__).resolve().parents[1] / "data"
TRAINING_FILES: tuple[Path, ...] = (
    DATA_DIR / "compliance" / "gate_train_writer_b.jsonl",
    DATA_DIR / "compliance" / "gate_train_writer_c.jsonl",
    DATA_DIR / "compliance" / "gate_train_writer_d.jsonl",
    DATA_DIR / "compliance" / "gate_train_writer_e.jsonl",
    DATA_DIR / "eval" / "guardrails.jsonl",
)
# Shipped with the code, so a first start does not embed the training rows; weights gone
# stale (other rows, another recipe, another embedding model) are trained again at start.
SHIPPED_WEIGHTS = DATA_DIR / "compliance" / "weights"
NAME = "casino-host-gate"
# Sentence-embedding models the layer is trained for (hashing vectors carry no meaning).
LEARNED_SPACES = ("embedded-",)
# Every layer of the gate but PII, in the gate's reply priority.
LEARNED_LAYERS: tuple[str, ...] = tuple(layer for layer in REPLY_PRIORITY if layer != PII)
# Per label; chosen by leave-one-writer-out on the training rows (README figures).
FALSE_POSITIVE_RATE = 0.001
SPEC = LabelSpec(labels=LEARNED_LAYERS, false_positive_rate=FALSE_POSITIVE_RATE)


def training_rows() -> list[LabelledText]:
    """Every training row, each file its source; PII rows left out (not a learned label)."""
    rows: list[LabelledText] = []
    for path in TRAINING_FILES:
        rows += [row for row in load_labelled_texts(path) if row.label != PII]
    return rows


class QueryEmbeddings(Protocol):
    """The embedding model's one call the gate makes (the router's model: it keeps the query,
    so the router does not embed it again). No chat model is ever called by the gate."""

    def embed_query(self, text: str) -> list[float]: ...


class LearnedLayer:
    """The detector with the embeddings it was trained for: `flags(text)` are the learned
    layers the text trips, highest margin first."""

    def __init__(self, embeddings: QueryEmbeddings, detector: MultiLabelDetector):
        self.embeddings = embeddings
        self.detector = detector

    def embed(self, text: str) -> list[float]:
        # The head of a long message, as the regex layers' first window.
        return self.embeddings.embed_query(text[:CHECKED_CHARS])

    def flags_of(self, vector: list[float]) -> tuple[str, ...]:
        return self.detector.flags(vector)

    def flags(self, text: str) -> tuple[str, ...]:
        if not text.strip():
            return ()
        return self.flags_of(self.embed(text))
