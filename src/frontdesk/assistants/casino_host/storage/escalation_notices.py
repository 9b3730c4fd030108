"""Who was told about an escalation, and what the staff did with it (issue 33).

The turn that escalates alerts the chain and records whether anyone accepted; the sweep tries
again after a failure, reminds, and goes up the chain. The staff page lists the open ones, and
a host acknowledges, answers (which holds the bot back while a person talks) and closes them.
"""

from __future__ import annotations

from datetime import datetime

from sqlalchemy import or_, select, update

from frontdesk.assistants.casino_host.storage.base import moment, public
from frontdesk.assistants.casino_host.storage.escalations import EscalationStore, _escalation
from frontdesk.assistants.casino_host.storage.records import Escalation
from frontdesk.assistants.casino_host.storage.tables import EscalationRow, MessageRow

MAX_ERROR_CHARS = 300


class EscalationNoticeStore(EscalationStore):
    @public
    def record_notice(self, casino_id: str, escalation_id: str, *, level: int, accepted: bool,
                      reminder: bool = False, detail: str = "", retry_at: datetime | None = None,
                      now: datetime | None = None) -> Escalation:  # fmt: skip
        """An alert about the escalation at `level` was accepted by someone, or by no one
        (then the sweep tries again at `retry_at`). Audited either way."""
        now = moment(now)
        with self._begin() as session:
            row = self._escalation_row(session, casino_id, escalation_id)
            if accepted:
                row.notified_level = max(row.notified_level or 0, level)
                if reminder:
                    row.reminded_level = level
                row.notice_failures, row.notice_error, row.next_notice_at = 0, None, None
            else:
                row.notice_failures = (row.notice_failures or 0) + 1
                row.notice_error = detail[:MAX_ERROR_CHARS] or "not accepted"
                row.next_notice_at = retry_at
            self._add_audit(
                session,
                casino_id,
                "escalation_notified" if accepted else "escalation_notice_failed",
                phone_hash=None,
                details={
                    "escalation_id": escalation_id,
                    "level": level,
                    "reminder": reminder,
                    "targets": detail[:MAX_ERROR_CHARS],
                },
                now=now,
            )
            return _escalation(row)

    @public
    def claim_notice(self, casino_id: str, escalation_id: str, *, seen: tuple[int, int, int],
                     until: datetime, now: datetime | None = None) -> bool:  # fmt: skip
        """Take the escalation's next alert until `until`, if it is still as the caller saw it:
        `seen` = (escalation_level, notified_level, reminded_level). False when another sweep
        (another replica) has it or has already sent it, or a person has it. Only the taker
        sends."""
        now = moment(now)
        level, notified, reminded = seen
        with self._begin() as session:
            taken = session.execute(
                update(EscalationRow)
                .where(
                    EscalationRow.casino_id == casino_id,
                    EscalationRow.escalation_id == escalation_id,
                    EscalationRow.acknowledged.is_(False),
                    EscalationRow.closed_at.is_(None),
                    EscalationRow.escalation_level == level,
                    EscalationRow.notified_level == notified,
                    EscalationRow.reminded_level == reminded,
                    or_(EscalationRow.next_notice_at.is_(None), EscalationRow.next_notice_at <= now),
                )
                .values(next_notice_at=moment(until))
            )
            return taken.rowcount == 1

    @public
    def open_escalations(self, casino_id: str, *, limit: int = 200) -> list[Escalation]:
        """Those no person has closed: the unacknowledged first, then by severity and age."""
        with self._begin(read_only=True) as session:
            rows = session.scalars(
                select(EscalationRow)
                .where(EscalationRow.casino_id == casino_id, EscalationRow.closed_at.is_(None))
                .order_by(
                    EscalationRow.acknowledged, EscalationRow.severity, EscalationRow.created_at
                )
                .limit(limit)
            ).all()
            return [_escalation(row) for row in rows]

    @public
    def escalation(self, casino_id: str, escalation_id: str) -> Escalation:
        with self._begin(read_only=True) as session:
            return _escalation(self._escalation_row(session, casino_id, escalation_id))

    @public
    def hold_for_person(self, casino_id: str, escalation_id: str, *, by: str, until: datetime,
                        now: datetime | None = None) -> Escalation:  # fmt: skip
        """A person answered the guest: the escalation is theirs (acknowledged, if it was not)
        and the bot stays quiet until `until` at least."""
        now = moment(now)
        with self._begin() as session:
            row = self._escalation_row(session, casino_id, escalation_id)
            if not row.acknowledged:
                row.acknowledged, row.acknowledged_by, row.acknowledged_at = True, by, now
            row.paused_until = max(row.paused_until, moment(until))
            self._add_audit(session, casino_id, "escalation_answered", phone_hash=None,
                            details={"escalation_id": escalation_id}, now=now)  # fmt: skip
            return _escalation(row)

    @public
    def close_escalation(self, casino_id: str, escalation_id: str, *, by: str,
                         now: datetime | None = None) -> Escalation:  # fmt: skip
        """A person is done with it: closed, and the bot may answer the guest again. Closing
        twice keeps the first."""
        now = moment(now)
        with self._begin() as session:
            row = self._escalation_row(session, casino_id, escalation_id)
            if row.closed_at is None:
                row.closed_at, row.closed_by = now, by
                if not row.acknowledged:
                    row.acknowledged, row.acknowledged_by, row.acknowledged_at = True, by, now
                row.paused_until = min(row.paused_until, now)
                self._add_audit(session, casino_id, "escalation_closed", phone_hash=None,
                                details={"escalation_id": escalation_id}, now=now)  # fmt: skip
            return _escalation(row)

    @public
    def revise_reply(self, casino_id: str, message_id: int, text: str, *, sms_parts: int) -> None:
        """The reply recorded for a turn, reworded before it was sent (the truth about an
        alert, known only once the notifier answered)."""
        with self._begin() as session:
            session.execute(
                update(MessageRow)
                .where(
                    MessageRow.casino_id == casino_id,
                    MessageRow.message_id == message_id,
                    MessageRow.direction == "outbound",
                )
                .values(text=text, sms_parts=max(1, sms_parts))
            )
