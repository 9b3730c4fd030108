"""Non-field parts of the guest profile (item 28): engagement counters, session pause state, and
the conversation-phase bookkeeping the phase machine needs between messages."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Any

from frontdesk.assistants.casino_host.profile._time import from_iso, to_iso


@dataclass
class Engagement:
    total_conversations: int = 0
    total_messages_sent: int = 0
    total_messages_received: int = 0
    last_message_at: datetime | None = None  # last *guest* message: the dormancy clock
    profile_completeness: float = 0.0
    offers_sent: int = 0
    offers_redeemed: int = 0
    escalations: int = 0
    sentiment_trend: str | None = None
    # The last guest message whose turn was applied to the profile: a retried delivery of
    # the same message is not counted, extracted or confirmed twice.
    last_message_id: int | None = None

    def to_dict(self) -> dict[str, Any]:
        return {
            "total_conversations": self.total_conversations,
            "total_messages_sent": self.total_messages_sent,
            "total_messages_received": self.total_messages_received,
            "last_message_at": to_iso(self.last_message_at),
            "profile_completeness": self.profile_completeness,
            "offers_sent": self.offers_sent,
            "offers_redeemed": self.offers_redeemed,
            "escalations": self.escalations,
            "sentiment_trend": self.sentiment_trend,
            "last_message_id": self.last_message_id,
        }

    @classmethod
    def from_dict(cls, raw: dict[str, Any] | None) -> Engagement:
        raw = dict(raw or {})
        raw["last_message_at"] = from_iso(raw.get("last_message_at"))
        known = set(cls.__dataclass_fields__)
        return cls(**{k: v for k, v in raw.items() if k in known})


@dataclass
class SessionState:
    """The 30-minute escalation pause (WP2 item 38) lives on the profile."""

    paused: bool = False
    paused_at: datetime | None = None
    pause_reason: str | None = None

    def to_dict(self) -> dict[str, Any]:
        return {
            "paused": self.paused,
            "paused_at": to_iso(self.paused_at),
            "pause_reason": self.pause_reason,
        }

    @classmethod
    def from_dict(cls, raw: dict[str, Any] | None) -> SessionState:
        raw = raw or {}
        return cls(
            bool(raw.get("paused", False)), from_iso(raw.get("paused_at")), raw.get("pause_reason")
        )


@dataclass
class PhaseState:
    """Where the conversation is in its arc, and the counters the transitions read."""

    phase: str = "pre_visit"
    entered_at: datetime | None = None
    exchanges: int = 0  # guest messages since entering the phase
    substantive: int = 0  # of which substantive
    arc_started_at: datetime | None = None  # offers since then belong to the current arc

    def to_dict(self) -> dict[str, Any]:
        return {
            "phase": self.phase,
            "entered_at": to_iso(self.entered_at),
            "exchanges": self.exchanges,
            "substantive": self.substantive,
            "arc_started_at": to_iso(self.arc_started_at),
        }

    @classmethod
    def from_dict(cls, raw: dict[str, Any] | None) -> PhaseState:
        raw = raw or {}
        return cls(
            phase=raw.get("phase") or "pre_visit",
            entered_at=from_iso(raw.get("entered_at")),
            exchanges=int(raw.get("exchanges") or 0),
            substantive=int(raw.get("substantive") or 0),
            arc_started_at=from_iso(raw.get("arc_started_at")),
        )
