"""Intent routing in three tiers: fast paths, the embedding classifier, then (maybe) the LLM.

1. Fast paths: exact patterns for the unmistakable ("hi", "thanks") cost nothing.
2. The embedding classifier decides everything it is confident about; reroutes then correct
   the labels it is known to confuse by a property of the message it cannot see (the form
   of a question, for one).
3. The LLM router runs when configured to always run, or when the classifier is unsure; if it
   fails, the classifier's best guess stands.
"""

from __future__ import annotations

import logging
import re
from collections.abc import Awaitable, Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import Literal

from frontdesk.guardrails import normalize_text
from frontdesk.routing.classifier import EmbeddingIntentClassifier

logger = logging.getLogger(__name__)

RouterMode = Literal["auto", "always", "never"]
LLMRoute = Callable[[str], Awaitable[tuple[str, float]]]


@dataclass(frozen=True)
class RouteDecision:
    label: str
    confidence: float
    method: Literal["fast_path", "classifier", "reroute", "llm"]


@dataclass(frozen=True)
class FastPath:
    pattern: str
    label: str

    def matches(self, normalized: str) -> bool:
        return re.fullmatch(self.pattern, normalized) is not None


@dataclass(frozen=True)
class Reroute:
    """A classifier decision of `source` becomes `target` for messages `applies` to."""

    source: str
    target: str
    applies: Callable[[str], bool]


class IntentRouter:
    def __init__(
        self,
        classifier: EmbeddingIntentClassifier,
        *,
        fast_paths: Sequence[FastPath] = (),
        reroutes: Sequence[Reroute] = (),
        llm_route: LLMRoute | None = None,
        mode: RouterMode = "auto",
        min_confidence: float = 0.55,
    ):
        self.classifier = classifier
        self.fast_paths = list(fast_paths)
        self.reroutes = list(reroutes)
        self.llm_route = llm_route
        self.mode = mode
        self.min_confidence = min_confidence

    @property
    def labels(self) -> list[str]:
        return self.classifier.labels

    @property
    def embeddings(self):
        """The embeddings the classifier routes with (the injection guard reuses them)."""
        return self.classifier.embeddings

    def fast_path(self, text: str) -> RouteDecision | None:
        normalized = _for_matching(text)
        for path in self.fast_paths:
            if path.matches(normalized):
                return RouteDecision(path.label, 1.0, "fast_path")
        return None

    def classify(self, text: str) -> RouteDecision:
        """Fast paths and the classifier only: no model call, deterministic."""
        decided = self.fast_path(text)
        if decided:
            return decided
        prediction = self.classifier.predict(text)
        for reroute in self.reroutes:
            if prediction.label == reroute.source and reroute.applies(text):
                return RouteDecision(reroute.target, prediction.confidence, "reroute")
        return RouteDecision(prediction.label, prediction.confidence, "classifier")

    async def route(self, text: str) -> RouteDecision:
        decided = self.classify(text)
        if (
            decided.method in ("fast_path", "reroute")
            or self.llm_route is None
            or self.mode == "never"
        ):
            return decided
        if self.mode == "auto" and decided.confidence >= self.min_confidence:
            return decided
        try:
            label, confidence = await self.llm_route(text)
        except Exception as exc:  # noqa: BLE001 - a broken LLM router must not break the turn
            logger.warning(
                "LLM router failed (%s); keeping the classifier's %s", exc, decided.label
            )
            return decided
        if label not in self.labels:
            logger.warning("LLM router returned unknown label %r; keeping the classifier's", label)
            return decided
        return RouteDecision(label, confidence, "llm")


def lazy_llm_route(
    models, route: Callable[..., Awaitable[tuple[str, float]]], *, enabled: bool
) -> LLMRoute | None:
    """`route(models.chat, text)` as an LLM router, or None when not `enabled`.

    Bound lazily: the chat model loads only if the LLM router is ever consulted."""
    if not enabled:
        return None

    async def llm_route(text: str) -> tuple[str, float]:
        return await route(models.chat, text)

    return llm_route


def fast_paths_for(label: str, patterns: Iterable[str]) -> list[FastPath]:
    return [FastPath(pattern, label) for pattern in patterns]


def _for_matching(text: str) -> str:
    # Normalised as the guardrail sees it (case-folded, accents stripped), punctuation dropped.
    folded = normalize_text(text)
    return " ".join(re.sub(r"[^\w\s']", " ", folded).split())
