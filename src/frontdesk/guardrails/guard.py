"""`InjectionGuard`: the two-layer prompt-injection check every assistant runs before any model.

1. Rules (`audit_input`): named, explainable regex families; a hit names the technique.
2. Learned: logistic regression over the message's MiniLM embedding (`classifier.py`), for
   paraphrases no family describes. The router embeds the same text next, so with MiniLM's
   query cache the embedding is computed once per turn.

    guard = guard_for(embeddings)            # shared per embeddings object
    verdict = guard.check(text)              # GuardVerdict(flagged, layer, family, ...)

Weights are keyed on the vector space (`vector_space_id`) and the training data's digest.
The repository ships them for MiniLM (`data/weights/`); if those are missing or stale the guard
trains on first use (about half a minute, logged as it goes) and keeps the result under
`<data_dir>/guard/`. Other spaces (the `hash` test embeddings, hosted models) have no learned
layer unless `frontdesk guard train` was run for them: rules alone, and `learned_off` says why.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Literal, Protocol, TypeVar

import numpy as np
from langchain_core.embeddings import Embeddings

from frontdesk.guardrails.audit import audit_input
from frontdesk.guardrails.classifier import LearnedDetector, embed_in_batches, train_detector
from frontdesk.guardrails.datasets import DATA_DIR, rows_digest, trainable, training_rows

logger = logging.getLogger(__name__)

SHIPPED_WEIGHTS_DIR = DATA_DIR / "weights"
LEARNED_FAMILY = "learned"
# Spaces the guard may train for on first use: local, so training sends no data anywhere.
_AUTO_TRAIN_PREFIXES = ("embedded-",)


@dataclass(frozen=True)
class GuardVerdict:
    """`layer` says which layer flagged (None when nothing did). `family` is the rule family,
    or "learned"; `matched` the rule's snippet or the learned score against its threshold, for
    logs. `score` is the learned layer's log-odds when it ran."""

    flagged: bool
    layer: Literal["rules", "learned"] | None
    family: str | None
    matched: str | None
    score: float | None = None


def vector_space_id(embeddings: Embeddings) -> str | None:
    """`runtime.embeddings_id` of the model behind `embeddings`, named after the model itself so
    the default and its explicit name share weights; None for spaces with no known name."""
    from frontdesk.embeddings import HashEmbeddings, MiniLMEmbeddings
    from frontdesk.embeddings.minilm import MODEL_KEY

    if isinstance(embeddings, MiniLMEmbeddings):
        return f"embedded-{MODEL_KEY}"
    if isinstance(embeddings, HashEmbeddings):
        return f"hash-{embeddings.dimensions}"
    return None


def weights_file(directory: Path, space: str, name: str = "injection-guard") -> Path:
    """Where weights called `name` for vector space `space` live under `directory`
    (`name` keeps other learned classifiers, such as `multilabel.py`'s, apart from the guard's)."""
    return directory / f"{name}-{space}.npz"


class SavedWeights(Protocol):
    def is_current(self, embeddings_id: str, data_digest: str) -> bool: ...


Saved = TypeVar("Saved", bound=SavedWeights)


def current_weights(
    path: Path, space: str, digest: str, load: Callable[[Path], Saved]
) -> Saved | None:
    """The weights at `path` if readable and current for this space and data, else None: a
    missing, unreadable or stale file means "train again", never an error at load time."""
    if not path.is_file():
        return None
    try:
        saved = load(path)
    except (OSError, ValueError, KeyError) as error:
        logger.warning("ignoring unreadable guard weights %s (%s)", path, error)
        return None
    return saved if saved.is_current(space, digest) else None


def train_for(
    embeddings: Embeddings, space: str, *, progress: Callable[[int, int], None] | None = None
) -> LearnedDetector:
    """Embed the shipped training rows and fit the learned layer (deterministic)."""
    rows = [row for row in training_rows() if trainable(row)]
    vectors = embed_in_batches(
        embeddings.embed_documents, [row.text for row in rows], progress=progress
    )
    return train_detector(
        vectors,
        np.array([row.is_attack for row in rows], dtype=float),
        [row.source for row in rows],
        embeddings_id=space,
        data_digest=rows_digest(rows),
    )


def _log_progress(done: int, total: int) -> None:
    logger.info("injection guard: embedded %d/%d training rows", done, total)


def load_or_train(
    embeddings: Embeddings,
    *,
    data_dir: Path,
    auto_train: bool | None = None,
    shipped_dir: Path = SHIPPED_WEIGHTS_DIR,
) -> tuple[LearnedDetector | None, str | None]:
    """The learned detector for `embeddings`, or None and the reason it is off."""
    space = vector_space_id(embeddings)
    if space is None:
        return None, f"no learned layer for {type(embeddings).__name__} embeddings"
    digest = rows_digest([row for row in training_rows() if trainable(row)])
    local = weights_file(data_dir / "guard", space)
    for path in (weights_file(shipped_dir, space), local):
        detector = current_weights(path, space, digest, LearnedDetector.load)
        if detector is not None:
            return detector, None
    if auto_train is None:
        auto_train = space.startswith(_AUTO_TRAIN_PREFIXES)
    if not auto_train:
        return None, f"no current weights for {space}: run `frontdesk guard train`"
    logger.info("injection guard: no current weights for %s, training them (about 30 s)", space)
    detector = train_for(embeddings, space, progress=_log_progress)
    detector.save(local)
    logger.info("injection guard: weights written to %s", local)
    return detector, None


class InjectionGuard:
    def __init__(
        self,
        embeddings: Embeddings,
        detector: LearnedDetector | None,
        *,
        learned_off: str | None = None,
    ) -> None:
        self.embeddings = embeddings
        self.detector = detector
        self.learned_off = learned_off if detector is None else None

    @classmethod
    def load(cls, embeddings: Embeddings, *, data_dir: Path | None = None) -> InjectionGuard:
        if data_dir is None:
            from frontdesk.config import get_settings

            data_dir = get_settings().data_dir
        detector, reason = load_or_train(embeddings, data_dir=data_dir)
        if reason:
            logger.info("injection guard: rules only (%s)", reason)
        return cls(embeddings, detector, learned_off=reason)

    def check(self, text: str) -> GuardVerdict:
        """Rules first (cheap, explainable); the learned layer only if they pass."""
        verdict = self.check_rules(text)
        if verdict.flagged or self.detector is None or not text.strip():
            return verdict
        return self.check_learned(self.embeddings.embed_query(text))

    def check_rules(self, text: str) -> GuardVerdict:
        """The rule families alone (`audit_input`)."""
        audit = audit_input(text)
        if audit.flagged:
            return GuardVerdict(True, "rules", audit.family, audit.matched)
        return GuardVerdict(False, None, None, None)

    def check_learned(self, vector: list[float] | np.ndarray) -> GuardVerdict:
        """The learned layer alone, on an embedding already computed."""
        if self.detector is None:
            raise RuntimeError(f"the learned layer is off: {self.learned_off}")
        score = float(self.detector.scores(np.asarray(vector))[0])
        threshold = self.detector.threshold
        if score > threshold:
            snippet = f"score {score:.2f} > {threshold:.2f}"
            return GuardVerdict(True, "learned", LEARNED_FAMILY, snippet, score)
        return GuardVerdict(False, None, None, None, score)


_SHARED: dict[int, tuple[Embeddings, InjectionGuard]] = {}
_SHARED_LOCK = threading.Lock()


_RULES_ONLY = InjectionGuard(None, None, learned_off="no embeddings given")  # type: ignore[arg-type]


def guard_for(embeddings: Embeddings | None) -> InjectionGuard:
    """The process-wide guard for this embeddings object (assistants sharing `Models` share it);
    rules only for None. Built once, under a lock, so concurrent first turns train once."""
    if embeddings is None:
        return _RULES_ONLY
    key = id(embeddings)
    shared = _SHARED.get(key)
    if shared is not None and shared[0] is embeddings:
        return shared[1]
    with _SHARED_LOCK:
        shared = _SHARED.get(key)
        if shared is None or shared[0] is not embeddings:
            # The embeddings object is kept with its guard, so its id cannot be reused.
            shared = (embeddings, InjectionGuard.load(embeddings))
            _SHARED[key] = shared
        return shared[1]
