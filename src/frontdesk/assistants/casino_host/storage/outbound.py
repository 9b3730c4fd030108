"""The durable outbound queue (WP1 items 34-37, T11, T13): what the host will send, has sent,
and gave up on, in the database, so that a restart loses nothing and a retry sends nothing
twice.

    message = store.enqueue_outbound("mohegan_sun", guest_uuid, "marketing", text,
                                     key="campaign:spring:+1…", now=now)
    for due in store.claim_due_outbound("mohegan_sun", now):       # leased: `sending` for LEASE
        ...  # re-run the gate, send, then one of
        store.outbound_sent(casino_id, due.outbound_id, provider="simulator", provider_message_id=…)
        store.outbound_failed(casino_id, due.outbound_id, error="timeout")  # again at 5/25/125 s
        store.outbound_blocked(casino_id, due.outbound_id, reason="quiet hours …")

A STOP cancels every queued, leased or retrying message of the guest in the STOP's own
transaction (`cancel_outbound`), before its reply is acknowledged. A message whose worker
died mid-send is claimed again when its lease runs out.
"""

from __future__ import annotations

import uuid
from datetime import UTC, datetime, timedelta
from typing import Any

from sqlalchemy import Update, bindparam, func, select, update
from sqlalchemy.orm import Session

from frontdesk.assistants.casino_host.storage.base import (
    StoreBase,
    execute,
    insert_new,
    moment,
    public,
)
from frontdesk.assistants.casino_host.storage.records import OutboundMessage
from frontdesk.assistants.casino_host.storage.tables import DeadLetterRow, OutboundRow

RETRY_DELAYS = (timedelta(seconds=5), timedelta(seconds=25), timedelta(seconds=125))
LEASE = timedelta(seconds=60)  # a `sending` message whose worker went quiet is claimed again
OPEN = ("queued", "sending")  # what a STOP cancels
# `reply`: the host's answer to the guest's message (gated as transactional); `keyword`: a
# STOP/HELP/START confirmation (never gated); the others are sent on the host's own initiative.
KINDS = ("transactional", "informational", "marketing", "keyword", "reply")
REASON_CHARS = 200

# Statements of a reply and a STOP, built once (`execute`).
_QUEUE = OutboundRow.__table__
_QUEUED_FIELDS = ("outbound_id", "casino_id", "guest_uuid", "kind", "body", "status", "attempts",
                  "not_before", "created_at", "campaign_id")  # fmt: skip
# The columns to set are the parameters named as columns; the b_ ones select the rows.
_CANCEL = (
    update(_QUEUE)
    .where(
        _QUEUE.c.casino_id == bindparam("b_casino_id"),
        _QUEUE.c.guest_uuid == bindparam("b_guest_uuid"),
        _QUEUE.c.status.in_(OPEN),
        _QUEUE.c.kind != "keyword",  # the STOP's own confirmation still goes
    )
    .values(status="cancelled")
)
_MOVE_ON = update(_QUEUE).where(
    _QUEUE.c.casino_id == bindparam("b_casino_id"),
    _QUEUE.c.outbound_id == bindparam("b_outbound_id"),
    _QUEUE.c.status == "sending",
)
# Queued again with its attempt not counted (nothing went to the provider).
_DEFER = _MOVE_ON.values(attempts=_QUEUE.c.attempts - 1)
_LEASE_OF = select(_QUEUE.c.status, _QUEUE.c.attempts).where(
    _QUEUE.c.casino_id == bindparam("casino_id"), _QUEUE.c.outbound_id == bindparam("outbound_id")
)


def _message(row: OutboundRow) -> OutboundMessage:
    return OutboundMessage(
        outbound_id=row.outbound_id,
        casino_id=row.casino_id,
        guest_uuid=row.guest_uuid,
        kind=row.kind,
        body=row.body,
        status=row.status,
        attempts=row.attempts,
        not_before=row.not_before,
        created_at=row.created_at,
        campaign_id=row.campaign_id,
        sent_at=row.sent_at,
        provider=row.provider,
        provider_message_id=row.provider_message_id,
        reason=row.reason,
    )


def _short(text: str | None) -> str | None:
    return None if text is None else text[:REASON_CHARS]


class OutboundStore(StoreBase):
    @public
    def enqueue_outbound(
        self,
        casino_id: str,
        guest_uuid: str,
        kind: str,
        body: str,
        *,
        key: str,
        not_before: datetime | None = None,
        campaign_id: str | None = None,
        now: datetime | None = None,
        leased: bool = False,
    ) -> tuple[OutboundMessage, bool]:
        """Queue one SMS; (message, True) when new, (the earlier one, False) when `key` was
        queued before (a campaign run twice, a retried turn). `leased`: the caller sends it
        itself at `not_before`, so it is queued already claimed (`sending`, its lease running
        from then): the sweep takes it only if the caller dies."""
        if kind not in KINDS:
            raise ValueError(f"outbound kind must be one of {', '.join(KINDS)}, got {kind!r}")
        if not body.strip():
            raise ValueError("an outbound SMS needs a text")
        if not key or len(key) > 200:
            raise ValueError("an outbound key is 1-200 characters")
        now = moment(now)
        due = moment(not_before) if not_before else now
        message = OutboundMessage(
            outbound_id=str(uuid.uuid4()),
            casino_id=casino_id,
            guest_uuid=guest_uuid,
            kind=kind,
            body=body,
            status="sending" if leased else "queued",
            attempts=1 if leased else 0,
            not_before=(due + LEASE if leased else due).astimezone(UTC),
            created_at=now.astimezone(UTC),
            campaign_id=campaign_id,
        )
        with self._begin() as session:
            self._guest(session, casino_id, guest_uuid)
            # Once per key: a key queued before (or by a concurrent caller that committed
            # first) gives back the earlier message.
            queue = insert_new(session, _QUEUE, ("casino_id", "idempotency_key"),
                               returning=("outbound_id",))  # fmt: skip
            values = {name: getattr(message, name) for name in _QUEUED_FIELDS}
            if execute(session, queue, {**values, "idempotency_key": key,
                                        "updated_at": now}).first():  # fmt: skip
                return message, True
            existing = session.scalars(
                select(OutboundRow).where(
                    OutboundRow.casino_id == casino_id, OutboundRow.idempotency_key == key
                )
            ).one()
            return _message(existing), False

    @public
    def claim_due_outbound(
        self,
        casino_id: str,
        now: datetime | None = None,
        *,
        limit: int = 50,
        outbound_ids: list[str] | None = None,
    ) -> list[OutboundMessage]:
        """Lease the messages due at `now` (queued, or leased by a worker that went quiet) for
        one send attempt each; `outbound_ids` narrows to those. Each is claimed by a
        conditional update, so two workers never send the same one."""
        now = moment(now)
        due = (OutboundRow.status == "queued") | (OutboundRow.status == "sending")
        query = select(OutboundRow.outbound_id).where(
            OutboundRow.casino_id == casino_id, due, OutboundRow.not_before <= now
        )
        if outbound_ids is not None:
            query = query.where(OutboundRow.outbound_id.in_(outbound_ids))
        claimed: list[OutboundMessage] = []
        with self._begin() as session:
            ids = session.scalars(query.order_by(OutboundRow.not_before).limit(limit)).all()
            for outbound_id in ids:
                result = session.execute(
                    update(OutboundRow)
                    .where(
                        OutboundRow.outbound_id == outbound_id, due, OutboundRow.not_before <= now
                    )
                    .values(
                        status="sending",
                        attempts=OutboundRow.attempts + 1,
                        not_before=now + LEASE,
                        updated_at=now,
                    )
                    .execution_options(synchronize_session=False)
                )
                if result.rowcount == 1:
                    row = session.get(OutboundRow, outbound_id, populate_existing=True)
                    assert row is not None
                    claimed.append(_message(row))
        return claimed

    def _finish(self, casino_id: str, outbound_id: str, now: datetime, *,
                statement: Update = _MOVE_ON, **values: Any) -> bool:  # fmt: skip
        """Move a leased message on; False when it is no longer leased (a STOP cancelled it)."""
        with self._begin() as session:
            result = execute(session, statement, {"b_casino_id": casino_id,
                                                 "b_outbound_id": outbound_id,
                                                 "updated_at": now, **values})  # fmt: skip
            return result.rowcount == 1

    @public
    def still_leased(self, casino_id: str, outbound_id: str, attempt: int) -> bool:
        """Whether this claim (`attempt`: the message's `attempts` when it was claimed) may
        still send it: not cancelled since, and not claimed again by another worker after
        the lease ran out (each claim counts an attempt, so the count fences the claim)."""
        with self._begin(read_only=True) as session:
            row = execute(session, _LEASE_OF, {"casino_id": casino_id,
                                               "outbound_id": outbound_id}).first()  # fmt: skip
            return row is not None and row.status == "sending" and row.attempts == attempt

    @public
    def outbound_sent(
        self,
        casino_id: str,
        outbound_id: str,
        *,
        provider: str,
        provider_message_id: str | None,
        now: datetime | None = None,
    ) -> bool:
        now = moment(now)
        return self._finish(
            casino_id,
            outbound_id,
            now,
            status="sent",
            sent_at=now,
            provider=provider,
            provider_message_id=provider_message_id,
            reason=None,
        )

    @public
    def outbound_blocked(
        self, casino_id: str, outbound_id: str, *, reason: str, now: datetime | None = None
    ) -> bool:
        """The gate refused it at send time: kept with the reason, never sent."""
        return self._finish(
            casino_id, outbound_id, moment(now), status="blocked", reason=_short(reason)
        )

    @public
    def outbound_deferred(
        self, casino_id: str, outbound_id: str, *, until: datetime, now: datetime | None = None
    ) -> bool:
        """Not sent yet for want of a slot in the sending number's rate (item 40): queued
        again for `until`, the attempt not counted (nothing went to the provider)."""
        return self._finish(
            casino_id,
            outbound_id,
            moment(now),
            statement=_DEFER,
            status="queued",
            not_before=moment(until),
        )

    @public
    def outbound_failed(
        self, casino_id: str, outbound_id: str, *, error: str, now: datetime | None = None
    ) -> str:
        """A send attempt failed: queued again after 5, 25, then 125 s; after that the message
        is dead and a dead letter records it. Returns the new status."""
        now = moment(now)
        with self._begin() as session:
            row = session.get(OutboundRow, outbound_id, with_for_update=True)
            if row is None or row.casino_id != casino_id:
                return "missing"
            if row.status not in ("sending", "sent"):
                return row.status
            row.reason, row.updated_at = _short(error), now
            if row.attempts <= len(RETRY_DELAYS):
                row.status = "queued"
                row.not_before = now + RETRY_DELAYS[row.attempts - 1]
            else:
                row.status = "dead"
                session.add(
                    DeadLetterRow(
                        outbound_id=outbound_id,
                        casino_id=row.casino_id,
                        attempts=row.attempts,
                        last_error=_short(error),
                        failed_at=now,
                    )
                )
            return row.status

    @public
    def delivery_receipt(
        self,
        casino_id: str,
        provider_message_id: str,
        *,
        delivered: bool,
        error: str | None = None,
        now: datetime | None = None,
    ) -> str | None:
        """A provider's delivery report: `delivered`, or a failure that retries the message
        like a failed send. Returns the message's status, None for an unknown id."""
        now = moment(now)
        with self._begin() as session:
            row = session.scalars(
                select(OutboundRow).where(
                    OutboundRow.casino_id == casino_id,
                    OutboundRow.provider_message_id == provider_message_id,
                )
            ).first()
            if row is None:
                return None
            if row.status != "sent":
                return row.status  # a repeated or late report changes nothing
            if delivered:
                row.status, row.updated_at = "delivered", now
                return row.status
            outbound_id = row.outbound_id
        return self.outbound_failed(casino_id, outbound_id, error=error or "undelivered", now=now)

    @public
    def cancel_outbound(
        self, casino_id: str, guest_uuid: str, *, reason: str, now: datetime | None = None
    ) -> int:
        """Cancel every queued, leased or retrying message to the guest (a STOP); how many."""
        now = moment(now)
        with self._begin() as session:
            result = execute(session, _CANCEL, {"b_casino_id": casino_id, "b_guest_uuid": guest_uuid,
                                                "reason": _short(reason), "updated_at": now})  # fmt: skip
            return int(result.rowcount or 0)

    @public
    def outbound_for(
        self, casino_id: str, guest_uuid: str | None = None, *, statuses: tuple[str, ...] = ()
    ) -> list[OutboundMessage]:
        """The casino's outbound messages (of one guest, in these statuses), oldest first."""
        query = select(OutboundRow).where(OutboundRow.casino_id == casino_id)
        if guest_uuid is not None:
            query = query.where(OutboundRow.guest_uuid == guest_uuid)
        if statuses:
            query = query.where(OutboundRow.status.in_(statuses))
        with self._begin(read_only=True) as session:
            # Queued in one instant (a reply's parts, a campaign): by key (a reply's parts are
            # numbered), so every database lists them alike.
            order = (OutboundRow.created_at, OutboundRow.idempotency_key)
            rows = session.scalars(query.order_by(*order)).all()
            return [_message(row) for row in rows]

    @public
    def sending_history(
        self, casino_id: str, guest_uuid: str, since: datetime
    ) -> tuple[int, datetime | None, datetime | None]:
        """For the gate: promotional messages sent since `since` (the local day's start), and
        when the first and the last message went to the guest."""
        with self._begin(read_only=True) as session:
            sent = self._promotional_sent(session, casino_id, guest_uuid, since)
            sent_at = (
                select(OutboundRow.sent_at)
                .where(
                    OutboundRow.casino_id == casino_id,
                    OutboundRow.guest_uuid == guest_uuid,
                    OutboundRow.sent_at.is_not(None),
                )
                .limit(1)
            )
            first = session.scalar(sent_at.order_by(OutboundRow.sent_at))
            last = session.scalar(sent_at.order_by(OutboundRow.sent_at.desc()))
            return sent, first, last

    @public
    def promotional_sent(self, casino_id: str, guest_uuid: str, since: datetime) -> int:
        """Informational and marketing messages sent to the guest since `since` (the monthly
        cap the host discloses)."""
        with self._begin(read_only=True) as session:
            return self._promotional_sent(session, casino_id, guest_uuid, since)

    @staticmethod
    def _promotional_sent(session: Session, casino_id: str, guest_uuid: str,
                          since: datetime) -> int:  # fmt: skip
        sent = session.scalar(
            select(func.count())
            .select_from(OutboundRow)
            .where(
                OutboundRow.casino_id == casino_id,
                OutboundRow.guest_uuid == guest_uuid,
                OutboundRow.status.in_(("sent", "delivered")),
                OutboundRow.kind.in_(("informational", "marketing")),
                OutboundRow.sent_at >= since,
            )
        )
        return int(sent or 0)
