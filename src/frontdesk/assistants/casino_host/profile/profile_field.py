"""One collected profile fact with its confidence and consent (item 29) and the confidence rules
(item 30, D18).

Decay is stored as a count: `decay_steps_applied` says how many of the ×0.90 steps have been
folded into `confidence` since the field was last verified (written or confirmed). Step k is due
once the field has gone more than k×90 days unverified, so the number of steps due depends only
on the field's age, never on how often a decay check runs: a nightly job and an hourly job give
the same confidence, and a second check on the same day changes nothing. Reads never write;
`effective_confidence(now)` shows what the stored value will become once the due steps are
applied, which is what the prompt view filters on.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field, replace
from datetime import datetime, timedelta
from typing import Any, Literal

from frontdesk.assistants.casino_host.profile._time import from_iso, require_aware, to_iso
from frontdesk.assistants.casino_host.profile.fields import (
    SOURCE_CONFIDENCE_RANGES,
    ConsentScope,
    Source,
    normalise_scope,
)

WRITE_THRESHOLD = 0.5  # seed §9.7: the extractor writes a field only when confidence > 0.5
PROMPT_THRESHOLD = 0.40  # seed §2.2: below this a field is unreliable and kept out of prompts
CONFIRM_BOOST = 0.15
CONTRADICT_PENALTY = 0.30
DECAY_FACTOR = 0.90
DECAY_AFTER = timedelta(days=90)
# seed §9.3 counts a present value with no confidence at 0.5; such a value is read as 'inferred'.
UNSCORED_CONFIDENCE = 0.5

ConsentStatus = Literal["active", "withdrawn"]


def _round(confidence: float) -> float:
    # 0.8 - 0.3 is 0.5000000000000001 in binary; four places is plenty for a confidence.
    return round(confidence, 4)


def clamp_to_source(confidence: float, source: str) -> float:
    """Clamp a claimed confidence into the range its source may claim (D18)."""
    if source not in SOURCE_CONFIDENCE_RANGES:
        raise ValueError(f"unknown source {source!r}")
    bounds = SOURCE_CONFIDENCE_RANGES[source] or (0.0, 1.0)
    return _round(min(max(confidence, bounds[0]), bounds[1]))


@dataclass
class ProfileField:
    value: Any
    confidence: float
    source: Source
    collected_at: datetime
    consent_scope: ConsentScope = "personalization"
    consent_ref: str | None = None  # "consent_grant:{uuid}"
    consent_version: int = 1
    consent_scope_detail: str = ""
    consent_status: ConsentStatus = "active"
    consent_withdrawn_at: datetime | None = None
    verified_at: datetime | None = None  # last confirmation by a second source
    decay_steps_applied: int = 0
    needs_review: bool = False
    review_reason: str | None = None
    contradicted_at: datetime | None = None
    extra: dict[str, Any] = field(default_factory=dict, repr=False)

    def __post_init__(self) -> None:
        if not 0.0 <= float(self.confidence) <= 1.0:
            raise ValueError(f"confidence {self.confidence} outside 0..1")
        if self.source not in SOURCE_CONFIDENCE_RANGES:
            raise ValueError(f"unknown source {self.source!r}")
        if self.consent_status not in ("active", "withdrawn"):
            raise ValueError(f"unknown consent_status {self.consent_status!r}")
        self.consent_scope = normalise_scope(self.consent_scope)
        require_aware(self.collected_at, "collected_at")

    # --- consent -------------------------------------------------------------------------
    @property
    def withdrawn(self) -> bool:
        return self.consent_status == "withdrawn"

    def withdraw(self, now: datetime) -> bool:
        """Mark consent withdrawn; the value stays for the audit trail (seed §2.14)."""
        if self.withdrawn:
            return False
        self.consent_status = "withdrawn"
        self.consent_withdrawn_at = require_aware(now)
        return True

    # --- decay ---------------------------------------------------------------------------
    @property
    def decay_clock_start(self) -> datetime:
        return self.verified_at or self.collected_at

    def decay_steps_due(self, now: datetime) -> int:
        """Steps owed for the time unverified: one for every full 90 days *exceeded*."""
        age = require_aware(now) - self.decay_clock_start
        if age <= DECAY_AFTER:
            return 0
        return math.ceil(age / DECAY_AFTER) - 1

    def effective_confidence(self, now: datetime) -> float:
        pending = max(0, self.decay_steps_due(now) - self.decay_steps_applied)
        return _round(self.confidence * DECAY_FACTOR**pending)

    def apply_decay(self, now: datetime) -> bool:
        """Fold the due decay steps into the stored confidence; True when it changed."""
        due = self.decay_steps_due(now)
        if due <= self.decay_steps_applied:
            return False
        self.confidence = self.effective_confidence(now)
        self.decay_steps_applied = due
        return True

    # --- confirmation and contradiction (seed §2.2) ---------------------------------------
    def confirm(self, now: datetime) -> float:
        """A second source agrees: +0.15, capped at 1.0, and the decay clock restarts."""
        self.apply_decay(now)
        self.confidence = _round(min(1.0, self.confidence + CONFIRM_BOOST))
        self.verified_at = require_aware(now)
        self.decay_steps_applied = 0
        return self.confidence

    def contradict(self, now: datetime, reason: str = "contradicted") -> float:
        """A source disagrees: −0.30, floored at 0, and a human is asked to review. The decay
        clock keeps running: a contradiction is not a confirmation."""
        self.apply_decay(now)
        self.confidence = _round(max(0.0, self.confidence - CONTRADICT_PENALTY))
        self.needs_review = True
        self.review_reason = reason
        self.contradicted_at = require_aware(now)
        return self.confidence

    def copy(self) -> ProfileField:
        return replace(self, extra=dict(self.extra))

    # --- JSON ----------------------------------------------------------------------------
    def to_dict(self) -> dict[str, Any]:
        data = {
            "value": self.value,
            "confidence": self.confidence,
            "source": self.source,
            "collected_at": to_iso(self.collected_at),
            "consent_scope": self.consent_scope,
            "consent_ref": self.consent_ref,
            "consent_version": self.consent_version,
            "consent_scope_detail": self.consent_scope_detail,
            "consent_status": self.consent_status,
            "consent_withdrawn_at": to_iso(self.consent_withdrawn_at),
            "verified_at": to_iso(self.verified_at),
            "decay_steps_applied": self.decay_steps_applied,
            "needs_review": self.needs_review,
            "review_reason": self.review_reason,
            "contradicted_at": to_iso(self.contradicted_at),
        }
        data.update(self.extra)
        return data

    @classmethod
    def from_dict(cls, raw: Any, *, default_time: datetime | None = None) -> ProfileField:
        """Read a stored field. A bare value, or a dict without a confidence, is a value nobody
        scored: it is read at 0.5 as 'inferred' (the seed's completeness default, seed §9.3).
        Unknown keys are kept in `extra` so a newer writer's data survives an older reader."""
        if not isinstance(raw, dict) or "value" not in raw:
            raw = {"value": raw}
        known = {f for f in cls.__dataclass_fields__ if f != "extra"}
        collected_at = from_iso(raw.get("collected_at")) or default_time
        if collected_at is None:
            raise ValueError("stored field has no collected_at and no default time was given")
        confidence = raw.get("confidence")
        return cls(
            value=raw["value"],
            confidence=UNSCORED_CONFIDENCE if confidence is None else float(confidence),
            source=raw.get("source") or "inferred",
            collected_at=collected_at,
            consent_scope=raw.get("consent_scope") or "personalization",
            consent_ref=raw.get("consent_ref"),
            consent_version=int(raw.get("consent_version") or 1),
            consent_scope_detail=raw.get("consent_scope_detail") or "",
            consent_status=raw.get("consent_status") or "active",
            consent_withdrawn_at=from_iso(raw.get("consent_withdrawn_at")),
            verified_at=from_iso(raw.get("verified_at")),
            decay_steps_applied=int(raw.get("decay_steps_applied") or 0),
            needs_review=bool(raw.get("needs_review", False)),
            review_reason=raw.get("review_reason"),
            contradicted_at=from_iso(raw.get("contradicted_at")),
            extra={k: v for k, v in raw.items() if k not in known},
        )
