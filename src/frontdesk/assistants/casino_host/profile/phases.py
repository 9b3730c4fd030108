"""Conversation phases (item 36, seed §9.5.1) as pure functions, with D23's split:

- `advance_phase` runs on each guest message and handles the message-driven transitions.
- `sweep` runs on a schedule and handles the timed ones, because per-message code never sees
  silence. Timed transitions are checked before dormancy, and the two phases that are waiting
  on the calendar (offer: the visit; post_visit: the 7-day reset) do not go dormant at all:
  otherwise 48 h of expected silence would always win and post_visit→pre_visit (and the
  post-visit follow-up) could never happen, the contradiction D23 records. After a reset the
  48 h silence clock starts at the reset, so a new arc's outbound gets its own two days.

Recommended order on an inbound message: `sweep(...)` first (a guest returning after 3 days is
dormant, then reactivated), then `advance_phase(...)`.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from datetime import date, datetime, timedelta
from typing import Any, Literal

from frontdesk.assistants.casino_host.profile._time import (
    as_instant,
    from_iso,
    require_aware,
    to_iso,
)
from frontdesk.assistants.casino_host.profile.fields import FIELDS

Phase = Literal["pre_visit", "active", "rapport", "discovery", "offer", "post_visit", "dormant"]
PHASES: tuple[str, ...] = (
    "pre_visit",
    "active",
    "rapport",
    "discovery",
    "offer",
    "post_visit",
    "dormant",
)
Trigger = Literal["goal", "fallback", "timed"]

DORMANT_AFTER = timedelta(hours=48)
POST_VISIT_AFTER_VISIT = timedelta(hours=24)
OFFER_PHASE_LIMIT = timedelta(days=14)
POST_VISIT_RESET_AFTER = timedelta(days=7)
DORMANT_CAMPAIGN_COOLDOWN = timedelta(days=7)
# Phases whose exit is timed by the calendar, not by the guest talking.
CALENDAR_PHASES: frozenset[str] = frozenset({"offer", "post_visit"})

ACTIVE_TO_RAPPORT_SUBSTANTIVE = 2
ACTIVE_TO_RAPPORT_FALLBACK = 5
RAPPORT_SCORE_THRESHOLD = 0.6
RAPPORT_FALLBACK = 3
DISCOVERY_FIELDS = 3
DISCOVERY_READINESS = 0.5
DISCOVERY_FALLBACK = 7

# "Preference fields" of the discovery→offer rule: dining, entertainment, gaming, occasions,
# companions (seed §9.5.1). Counted per field, so dietary + cuisine + interests is 3.
PREFERENCE_GROUPS: frozenset[str] = frozenset(
    {
        "dining_preferences",
        "entertainment_preferences",
        "gaming_preferences",
        "special_occasion",
        "companion_details",
    }
)


@dataclass(frozen=True)
class PhaseSignals:
    """What one guest message tells the phase machine. Counts include the current message."""

    is_stop: bool = False
    exchanges_in_phase: int = 0
    substantive_in_phase: int = 0
    rapport_score: float = 0.0
    identity_known: bool = False  # name or visit date collected (rapport→discovery guard)
    preference_fields: int = 0
    offer_readiness_score: float = 0.0
    escalated: bool = False
    next_visit_interest: bool = False


@dataclass(frozen=True)
class PhaseChange:
    from_phase: Phase
    to_phase: Phase
    trigger: Trigger
    reason: str
    at: datetime

    @property
    def starts_new_arc(self) -> bool:
        """A reset after a visit opens a new conversation arc (one offer per arc, D14)."""
        return self.from_phase == "post_visit" and self.to_phase == "pre_visit"

    def span_event(self) -> dict[str, Any]:
        """Attributes for the per-transition span event (item 36)."""
        return {
            "name": "conversation_phase_transition",
            "attributes": {
                "phase.from": self.from_phase,
                "phase.to": self.to_phase,
                "phase.trigger": self.trigger,
                "phase.reason": self.reason,
            },
        }

    def to_dict(self) -> dict[str, Any]:
        return {
            "from_phase": self.from_phase,
            "to_phase": self.to_phase,
            "trigger": self.trigger,
            "reason": self.reason,
            "at": to_iso(self.at),
        }

    @classmethod
    def from_dict(cls, raw: dict[str, Any]) -> PhaseChange:
        return cls(
            raw["from_phase"], raw["to_phase"], raw["trigger"], raw["reason"], from_iso(raw["at"])
        )  # type: ignore[arg-type]


def _check_phase(phase: str) -> None:
    if phase not in PHASES:
        raise ValueError(f"unknown phase {phase!r}")


def _change(phase: str, to: str, trigger: str, reason: str, now: datetime) -> PhaseChange:
    return PhaseChange(phase, to, trigger, reason, now)  # type: ignore[arg-type]


def advance_phase(phase: str, signals: PhaseSignals, now: datetime) -> PhaseChange | None:
    """The message-driven transition for this guest message, or None to stay."""
    _check_phase(phase)
    require_aware(now)
    if signals.is_stop:
        return None  # STOP never advances a conversation (and is handled before the graph)
    if phase in ("pre_visit", "dormant"):
        return _change(phase, "active", "goal", "guest replied", now)
    if phase == "active":
        if signals.escalated:
            return None
        if signals.substantive_in_phase >= ACTIVE_TO_RAPPORT_SUBSTANTIVE:
            return _change(phase, "rapport", "goal", "2 substantive replies", now)
        if signals.exchanges_in_phase >= ACTIVE_TO_RAPPORT_FALLBACK:
            return _change(phase, "rapport", "fallback", "5 exchanges", now)
    elif phase == "rapport":
        if not signals.identity_known:
            return None
        if signals.rapport_score > RAPPORT_SCORE_THRESHOLD:
            return _change(phase, "discovery", "goal", "rapport score above 0.6", now)
        if signals.exchanges_in_phase >= RAPPORT_FALLBACK:
            return _change(phase, "discovery", "fallback", "3 exchanges in rapport", now)
    elif phase == "discovery":
        if (
            signals.preference_fields >= DISCOVERY_FIELDS
            and signals.offer_readiness_score > DISCOVERY_READINESS
        ):
            return _change(phase, "offer", "goal", "3 preference fields, readiness > 0.5", now)
        if signals.exchanges_in_phase >= DISCOVERY_FALLBACK and signals.preference_fields >= 1:
            return _change(phase, "offer", "fallback", "7 exchanges with a field", now)
    elif phase == "post_visit" and signals.next_visit_interest:
        return _change(phase, "pre_visit", "goal", "guest interested in next visit", now)
    return None


def sweep(
    phase: str,
    last_message_at: datetime | None,
    visit_date: date | datetime | str | None,
    now: datetime,
    *,
    phase_entered_at: datetime | None = None,
) -> PhaseChange | None:
    """The timed transition due now, or None. Run by the scheduler (D23)."""
    _check_phase(phase)
    require_aware(now)
    if phase == "offer":
        visit = as_instant(visit_date)
        if visit is not None and now >= visit + POST_VISIT_AFTER_VISIT:
            return _change(phase, "post_visit", "timed", "24 h after the visit date", now)
        if phase_entered_at is not None and now - phase_entered_at >= OFFER_PHASE_LIMIT:
            return _change(phase, "post_visit", "fallback", "14 days in offer", now)
        return None
    if phase == "post_visit":
        if phase_entered_at is not None and now - phase_entered_at >= POST_VISIT_RESET_AFTER:
            return _change(phase, "pre_visit", "timed", "7 days after the visit", now)
        return None
    if phase == "dormant" or phase in CALENDAR_PHASES:
        return None
    clocks = [moment for moment in (last_message_at, phase_entered_at) if moment is not None]
    if not clocks:
        return None
    if now - max(clocks) >= DORMANT_AFTER:
        return _change(phase, "dormant", "timed", "48 h without a guest message", now)
    return None


def campaign_reengagement_allowed(
    phase: str, phase_entered_at: datetime | None, now: datetime
) -> bool:
    """A dormant guest may get a re-engagement campaign after 7 days dormant (seed §9.5.1)."""
    require_aware(now)
    return (
        phase == "dormant"
        and phase_entered_at is not None
        and now - phase_entered_at >= DORMANT_CAMPAIGN_COOLDOWN
    )


def count_preference_fields(paths: Iterable[str]) -> int:
    """Known preference fields among canonical paths, for `PhaseSignals.preference_fields`."""
    return sum(
        1
        for path in set(paths)
        if path in FIELDS and FIELDS[path].completeness_group in PREFERENCE_GROUPS
    )
