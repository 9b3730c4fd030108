"""What the store returns: frozen snapshots, never live ORM rows, and never a phone number."""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import datetime
from typing import Any, Literal

from frontdesk.assistants.casino_host.profile import GuestProfile

Direction = Literal["inbound", "outbound"]
ConversationStatus = Literal["active", "archived"]
OpeningKind = Literal["new_guest", "continued", "new_session"]
Severity = Literal["P0", "P1", "P2", "P3"]
SEVERITIES: tuple[str, ...] = ("P0", "P1", "P2", "P3")
MAX_ESCALATION_LEVEL = 3

_CASINO_ID = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$")


def valid_casino_id(casino_id: object) -> bool:
    # No ":" (the thread id's separator, X2) and at most 64 characters (the column).
    return isinstance(casino_id, str) and bool(_CASINO_ID.match(casino_id))


def thread_id_for(casino_id: str, guest_uuid: str, session_uuid: str) -> str:
    """X2: `{casino_id}:{guest_uuid}:{session_uuid}`: no phone in any id."""
    return f"{casino_id}:{guest_uuid}:{session_uuid}"


@dataclass(frozen=True)
class Casino:
    casino_id: str
    name: str
    timezone: str
    state: str | None


@dataclass(frozen=True)
class LoadedProfile:
    """A profile and the version it was read at; pass the version back to `save_profile`."""

    profile: GuestProfile
    version: int


@dataclass(frozen=True)
class Conversation:
    thread_id: str
    casino_id: str
    guest_uuid: str
    session_uuid: str
    started_at: datetime
    last_message_at: datetime
    summary: str | None
    status: ConversationStatus
    archived_at: datetime | None


@dataclass(frozen=True)
class ConversationOpening:
    """`kind`: new_guest (the guest's first conversation), continued (the active one, within
    the idle limit) or new_session (the previous one went idle and was archived). `previous`
    is that archived conversation, for a warm resume (item 43)."""

    conversation: Conversation
    kind: OpeningKind
    previous: Conversation | None = None

    @property
    def thread_id(self) -> str:
        return self.conversation.thread_id


@dataclass(frozen=True)
class StoredMessage:
    message_id: int
    thread_id: str
    direction: Direction
    text: str
    pii_redacted: bool
    created_at: datetime
    agent: str | None
    sms_parts: int
    external_id: str | None
    delivery_status: str | None


@dataclass(frozen=True)
class Offer:
    offer_id: str
    casino_id: str
    guest_uuid: str
    tier: str
    value_usd: float
    text: str
    redemption_instruction: str | None
    status: str
    made_at: datetime
    responded_at: datetime | None
    source_message_id: int


@dataclass(frozen=True)
class Promotion:
    casino_id: str
    promotion_id: str
    title: str
    description: str
    category: str | None
    value_usd: float | None
    valid_from: datetime
    valid_until: datetime


@dataclass(frozen=True)
class Escalation:
    """Item 38's EscalationPayload (`timestamp` is `created_at`) and the pause it started."""

    escalation_id: str
    casino_id: str
    guest_uuid: str
    guest_id_hash: str
    guest_last_four: str
    severity: Severity
    trigger_reason: str
    trigger_source: str
    conversation_excerpt: list[dict[str, Any]]
    guest_profile_summary: dict[str, Any]
    escalation_level: int
    created_at: datetime
    paused_until: datetime
    acknowledged: bool
    acknowledged_by: str | None
    acknowledged_at: datetime | None
    thread_id: str | None
    # Who was told (issue 33): the top level an alert was accepted at (0: none yet), the level
    # last reminded, failed attempts in a row, when the sweep tries again, the last failure.
    notified_level: int = 0
    reminded_level: int = 0
    notice_failures: int = 0
    next_notice_at: datetime | None = None
    notice_error: str | None = None
    closed_at: datetime | None = None
    closed_by: str | None = None

    def payload(self) -> dict[str, Any]:
        """The notification payload of item 38, JSON-ready."""
        return {
            "escalation_id": self.escalation_id,
            "casino_id": self.casino_id,
            "guest_id_hash": self.guest_id_hash,
            "guest_last_four": self.guest_last_four,
            "severity": self.severity,
            "trigger_reason": self.trigger_reason,
            "trigger_source": self.trigger_source,
            "conversation_excerpt": [dict(turn) for turn in self.conversation_excerpt],
            "guest_profile_summary": dict(self.guest_profile_summary),
            "escalation_level": self.escalation_level,
            "timestamp": self.created_at.isoformat(),
            "acknowledged": self.acknowledged,
            "acknowledged_by": self.acknowledged_by,
            "acknowledged_at": self.acknowledged_at.isoformat() if self.acknowledged_at else None,
        }


@dataclass(frozen=True)
class AuditEntry:
    audit_id: int
    casino_id: str
    event: str
    guest_hash: str | None
    details: dict[str, Any]
    created_at: datetime


@dataclass(frozen=True)
class OutboundMessage:
    outbound_id: str
    casino_id: str
    guest_uuid: str
    kind: str
    body: str
    status: str
    attempts: int
    not_before: datetime
    created_at: datetime
    campaign_id: str | None = None
    sent_at: datetime | None = None
    provider: str | None = None
    provider_message_id: str | None = None
    reason: str | None = None

    def as_dict(self) -> dict[str, Any]:
        return {
            "outbound_id": self.outbound_id,
            "kind": self.kind,
            "status": self.status,
            "attempts": self.attempts,
            "not_before": self.not_before.isoformat(),
            "sent_at": self.sent_at.isoformat() if self.sent_at else None,
            "provider": self.provider,
            "campaign_id": self.campaign_id,
            "reason": self.reason,
            "body": self.body,
        }
