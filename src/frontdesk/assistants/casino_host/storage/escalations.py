"""Escalations to a human host (items 38-39) and the audit log.

Creating an escalation writes the payload, starts the bot's pause (30 minutes by default) and
audits `escalation_triggered`, in one transaction. The payload identifies the guest the way a
notification may: the 16-hex hash and the last four digits, never the number; phone numbers
typed into the excerpt or summary are masked.

The pause runs to `paused_until` whether or not a host acknowledged: acknowledging says a human
has it, which is no reason for the bot to start talking again.
"""

from __future__ import annotations

import uuid
from collections.abc import Mapping, Sequence
from datetime import datetime, timedelta
from typing import Any

from sqlalchemy import select
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session

from frontdesk.assistants.casino_host.storage.base import StoreBase, moment, public
from frontdesk.assistants.casino_host.storage.errors import (
    ConversationNotFound,
    EscalationNotFound,
    NotFound,
)
from frontdesk.assistants.casino_host.storage.phone import E164_IN_TEXT, last_four, log_hash
from frontdesk.assistants.casino_host.storage.records import (
    MAX_ESCALATION_LEVEL,
    SEVERITIES,
    AuditEntry,
    Escalation,
)
from frontdesk.assistants.casino_host.storage.tables import (
    AuditRow,
    ConversationRow,
    EscalationRow,
    MessageRow,
)

BOT_PAUSE = timedelta(minutes=30)  # seed §7.10
NOTICE_GRACE = timedelta(seconds=30)  # the turn's own alert has this long to be recorded
EXCERPT_MESSAGES = 6  # the last 3 turns (item 38)
PHONE_MASK = "[phone]"


def _mask_phones(value: Any) -> Any:
    if isinstance(value, str):
        return E164_IN_TEXT.sub(PHONE_MASK, value)
    if isinstance(value, Mapping):
        return {str(key): _mask_phones(inner) for key, inner in value.items()}
    if isinstance(value, list | tuple):
        return [_mask_phones(inner) for inner in value]
    return value


def _escalation(row: EscalationRow) -> Escalation:
    return Escalation(
        escalation_id=row.escalation_id,
        casino_id=row.casino_id,
        guest_uuid=row.guest_uuid,
        guest_id_hash=row.guest_id_hash,
        guest_last_four=row.guest_last_four,
        severity=row.severity,  # type: ignore[arg-type]
        trigger_reason=row.trigger_reason,
        trigger_source=row.trigger_source,
        conversation_excerpt=list(row.conversation_excerpt or []),
        guest_profile_summary=dict(row.guest_profile_summary or {}),
        escalation_level=row.escalation_level,
        created_at=row.created_at,
        paused_until=row.paused_until,
        acknowledged=row.acknowledged,
        acknowledged_by=row.acknowledged_by,
        acknowledged_at=row.acknowledged_at,
        thread_id=row.thread_id,
        notified_level=row.notified_level or 0,
        reminded_level=row.reminded_level or 0,
        notice_failures=row.notice_failures or 0,
        next_notice_at=row.next_notice_at,
        notice_error=row.notice_error,
        closed_at=row.closed_at,
        closed_by=row.closed_by,
    )


class EscalationStore(StoreBase):
    def _escalation_row(
        self, session: Session, casino_id: str, escalation_id: str
    ) -> EscalationRow:
        row = session.scalar(
            select(EscalationRow).where(
                EscalationRow.casino_id == casino_id, EscalationRow.escalation_id == escalation_id
            )
        )
        if row is None:
            raise EscalationNotFound(f"no escalation {escalation_id} in casino {casino_id}")
        return row

    @staticmethod
    def _excerpt(session: Session, casino_id: str, thread_id: str) -> list[dict[str, Any]]:
        rows = session.scalars(
            select(MessageRow)
            .where(MessageRow.casino_id == casino_id, MessageRow.thread_id == thread_id)
            .order_by(MessageRow.message_id.desc())
            .limit(EXCERPT_MESSAGES)
        ).all()
        # Inbound text is stored already redacted (record_inbound), so it may be shown.
        return [
            {"direction": row.direction, "text": row.text, "at": row.created_at.isoformat()}
            for row in reversed(rows)
        ]

    @staticmethod
    def _check_refs(
        session: Session,
        casino_id: str,
        guest_uuid: str,
        thread_id: str | None,
        source_message_id: int | None,
    ) -> None:
        """The thread and message named must be this guest's, in this casino."""
        if thread_id is not None:
            owner = session.scalar(
                select(ConversationRow.guest_uuid).where(
                    ConversationRow.casino_id == casino_id, ConversationRow.thread_id == thread_id
                )
            )
            if owner != guest_uuid:
                raise ConversationNotFound(f"no conversation {thread_id} of guest {guest_uuid}")
        if source_message_id is not None:
            owner = session.scalar(
                select(MessageRow.guest_uuid).where(
                    MessageRow.casino_id == casino_id, MessageRow.message_id == source_message_id
                )
            )
            if owner != guest_uuid:
                raise NotFound(f"no message {source_message_id} of guest {guest_uuid}")

    @public
    def create_escalation(
        self,
        casino_id: str,
        guest_uuid: str,
        *,
        severity: str,
        trigger_reason: str,
        trigger_source: str,
        conversation_excerpt: Sequence[Mapping[str, Any]] | None = None,
        guest_profile_summary: Mapping[str, Any] | None = None,
        thread_id: str | None = None,
        source_message_id: int | None = None,
        pause: timedelta = BOT_PAUSE,
        notice_grace: timedelta = NOTICE_GRACE,
        now: datetime | None = None,
    ) -> tuple[Escalation, bool]:
        """Escalate a guest: (escalation, created). Without an excerpt, the last 3 turns of
        `thread_id` are used. With `source_message_id`, a retried turn gets the first
        escalation back instead of a second one (and no second notification). The turn that
        escalates tells the chain itself; the sweep takes over after `notice_grace` if it
        did not record that it had."""
        if severity not in SEVERITIES:
            raise ValueError(f"severity must be one of {SEVERITIES}")
        now = moment(now)
        try:
            with self._begin(savepoint=True) as session:
                guest = self._guest(session, casino_id, guest_uuid)
                self._check_refs(session, casino_id, guest_uuid, thread_id, source_message_id)
                if source_message_id is not None:
                    existing = session.scalar(
                        select(EscalationRow).where(
                            EscalationRow.casino_id == casino_id,
                            EscalationRow.source_message_id == source_message_id,
                        )
                    )
                    if existing is not None:
                        return _escalation(existing), False
                if conversation_excerpt is None:
                    conversation_excerpt = (
                        self._excerpt(session, casino_id, thread_id) if thread_id else []
                    )
                row = EscalationRow(
                    escalation_id=f"esc_{uuid.uuid4().hex}",
                    casino_id=casino_id,
                    guest_uuid=guest_uuid,
                    thread_id=thread_id,
                    source_message_id=source_message_id,
                    guest_id_hash=log_hash(guest.phone_hash),
                    guest_last_four=last_four(self._cipher.decrypt(guest.phone_ciphertext)),
                    severity=severity,
                    trigger_reason=trigger_reason,
                    trigger_source=trigger_source,
                    conversation_excerpt=_mask_phones(list(conversation_excerpt)),
                    guest_profile_summary=_mask_phones(dict(guest_profile_summary or {})),
                    escalation_level=1,
                    created_at=now,
                    paused_until=now + pause,
                    acknowledged=False,
                    notified_level=0,
                    reminded_level=0,
                    notice_failures=0,
                    next_notice_at=now + notice_grace,
                )
                session.add(row)
                self._add_audit(
                    session,
                    casino_id,
                    "escalation_triggered",
                    phone_hash=guest.phone_hash,
                    details={
                        "escalation_id": row.escalation_id,
                        "severity": severity,
                        "trigger_reason": trigger_reason,
                        "trigger_source": trigger_source,
                        "escalation_level": 1,
                        "paused_until": row.paused_until.isoformat(),
                    },
                    now=now,
                )
                session.flush()
                return _escalation(row), True
        except IntegrityError:
            if source_message_id is None:
                raise
            with self._begin() as session:
                winner = session.scalar(
                    select(EscalationRow).where(
                        EscalationRow.casino_id == casino_id,
                        EscalationRow.source_message_id == source_message_id,
                    )
                )
                if winner is None:
                    raise
                return _escalation(winner), False

    @public
    def active_pause(
        self, casino_id: str, guest_uuid: str, now: datetime | None = None
    ) -> Escalation | None:
        """The escalation whose pause covers `now` (created_at <= now < paused_until), the one
        that ends last; None when the bot may answer."""
        now = moment(now)
        with self._begin(read_only=True) as session:
            row = session.scalars(
                select(EscalationRow)
                .where(
                    EscalationRow.casino_id == casino_id,
                    EscalationRow.guest_uuid == guest_uuid,
                    EscalationRow.created_at <= now,
                    EscalationRow.paused_until > now,
                )
                .order_by(EscalationRow.paused_until.desc())
            ).first()
            return None if row is None else _escalation(row)

    @public
    def acknowledge(
        self, casino_id: str, escalation_id: str, *, by: str, now: datetime | None = None
    ) -> Escalation:
        """A host took the escalation. The first acknowledgement is kept."""
        now = moment(now)
        with self._begin() as session:
            row = self._escalation_row(session, casino_id, escalation_id)
            if not row.acknowledged:
                row.acknowledged, row.acknowledged_by, row.acknowledged_at = True, by, now
                self._add_audit(
                    session,
                    casino_id,
                    "escalation_acknowledged",
                    phone_hash=None,
                    details={
                        "escalation_id": escalation_id,
                        "escalation_level": row.escalation_level,
                        "seconds_to_ack": round((now - row.created_at).total_seconds(), 1),
                    },
                    now=now,
                )
            return _escalation(row)

    @public
    def raise_level(
        self, casino_id: str, escalation_id: str, *, now: datetime | None = None
    ) -> Escalation:
        """Item 39: an unacknowledged escalation past its SLA goes up one level (max 3) and
        audits `escalation_auto_escalated`. Acknowledged or at level 3: unchanged."""
        now = moment(now)
        with self._begin() as session:
            row = self._escalation_row(session, casino_id, escalation_id)
            if not row.acknowledged and row.escalation_level < MAX_ESCALATION_LEVEL:
                row.escalation_level += 1
                row.level_raised_at = now
                self._add_audit(
                    session,
                    casino_id,
                    "escalation_auto_escalated",
                    phone_hash=None,
                    details={
                        "escalation_id": escalation_id,
                        "escalation_level": row.escalation_level,
                    },
                    now=now,
                )
            return _escalation(row)

    @public
    def unacknowledged_escalations(self, casino_id: str) -> list[Escalation]:
        with self._begin() as session:
            rows = session.scalars(
                select(EscalationRow)
                .where(
                    EscalationRow.casino_id == casino_id,
                    EscalationRow.acknowledged.is_(False),
                    EscalationRow.closed_at.is_(None),
                )
                .order_by(EscalationRow.created_at)
            ).all()
            return [_escalation(row) for row in rows]

    # --- audit -----------------------------------------------------------------------------
    @public
    def audit(
        self,
        casino_id: str,
        event: str,
        *,
        guest_uuid: str | None = None,
        phone_hash: str | None = None,
        details: Mapping[str, Any] | None = None,
        now: datetime | None = None,
    ) -> int:
        """Append an audit row. The guest is named by `guest_uuid` (its current number's hash
        is looked up) or by a `phone_hash` (a number with no guest yet, e.g. an unknown STOP);
        the row keeps 16 hex of the hash. Details may not carry message text or a number
        (AuditContentError)."""
        now = moment(now)
        with self._begin() as session:
            if guest_uuid is not None:
                phone_hash = self._guest(session, casino_id, guest_uuid).phone_hash
            return self._add_audit(
                session, casino_id, event, phone_hash=phone_hash, details=details or {}, now=now
            )

    @public
    def audit_entries(
        self,
        casino_id: str,
        *,
        event: str | None = None,
        guest_uuid: str | None = None,
        limit: int = 100,
    ) -> list[AuditEntry]:
        """The casino's newest audit rows first (of one guest: by its number's hash)."""
        with self._begin() as session:
            query = select(AuditRow).where(AuditRow.casino_id == casino_id)
            if event is not None:
                query = query.where(AuditRow.event == event)
            if guest_uuid is not None:
                phone_hash = self._guest(session, casino_id, guest_uuid).phone_hash
                query = query.where(AuditRow.guest_hash == log_hash(phone_hash))
            rows = session.scalars(query.order_by(AuditRow.audit_id.desc()).limit(limit)).all()
            return [
                AuditEntry(
                    row.audit_id,
                    row.casino_id,
                    row.event,
                    row.guest_hash,
                    dict(row.details),
                    row.created_at,
                )
                for row in rows
            ]
