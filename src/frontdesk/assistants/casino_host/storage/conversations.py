"""Conversations (X2 threads, sessions of item 43) and their messages.

A conversation idle for 48 hours is archived, never deleted (D22: a warm resume reads its last
messages; only WP4's retention deletes), and the guest's next message opens a new session. The
partial unique index allows one active conversation per guest, so two concurrent openings
cannot both start one: the loser retries and continues the winner's.

Messages are idempotent by their external id: a provider's redelivery of an inbound message,
or a retried outbound key, returns the existing row with is_new=False.
"""

from __future__ import annotations

import uuid
from datetime import datetime, timedelta

from sqlalchemy import bindparam, select
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session

from frontdesk.assistants.casino_host.storage.base import (
    StoreBase,
    execute,
    external_key,
    insert_new,
    moment,
    pinned,
    public,
)
from frontdesk.assistants.casino_host.storage.errors import ConversationNotFound
from frontdesk.assistants.casino_host.storage.records import (
    Conversation,
    ConversationOpening,
    Direction,
    StoredMessage,
    thread_id_for,
)
from frontdesk.assistants.casino_host.storage.tables import ConversationRow, MessageRow

SESSION_IDLE_LIMIT = timedelta(hours=48)  # item 43, seed §2.3
OPEN_ATTEMPTS = 3

# A turn's statements, built once (`execute`).
_MESSAGES = MessageRow.__table__
_INSERT_MESSAGE = _MESSAGES.insert()
_EXISTING_MESSAGE = select(_MESSAGES.c.message_id).where(
    _MESSAGES.c.casino_id == bindparam("casino_id"),
    _MESSAGES.c.direction == bindparam("direction"),
    _MESSAGES.c.external_id == bindparam("key"),
)
_ACTIVE_CONVERSATION = (
    select(ConversationRow)
    .where(
        ConversationRow.casino_id == bindparam("casino_id"),
        ConversationRow.guest_uuid == bindparam("guest_uuid"),
        ConversationRow.status == "active",
    )
    .with_for_update()
)
_LATEST_CONVERSATION = (
    select(ConversationRow)
    .where(
        ConversationRow.casino_id == bindparam("casino_id"),
        ConversationRow.guest_uuid == bindparam("guest_uuid"),
    )
    .order_by(ConversationRow.started_at.desc())
    .limit(1)
)


def _conversation(row: ConversationRow) -> Conversation:
    return Conversation(
        thread_id=row.thread_id,
        casino_id=row.casino_id,
        guest_uuid=row.guest_uuid,
        session_uuid=row.session_uuid,
        started_at=row.started_at,
        last_message_at=row.last_message_at,
        summary=row.summary,
        status=row.status,  # type: ignore[arg-type]
        archived_at=row.archived_at,
    )


def _going_on(session: Session, active: ConversationRow | None, now: datetime,
              idle_limit: timedelta) -> ConversationOpening | None:  # fmt: skip
    """The active conversation, continued, unless it has been idle for `idle_limit`."""
    if active is None or now - active.last_message_at >= idle_limit:
        return None
    pinned(session, active)  # the turn records its message on it next
    return ConversationOpening(_conversation(active), "continued")


def _message(row: MessageRow) -> StoredMessage:
    return StoredMessage(
        message_id=row.message_id,
        thread_id=row.thread_id,
        direction=row.direction,  # type: ignore[arg-type]
        text=row.text,
        pii_redacted=row.pii_redacted,
        created_at=row.created_at,
        agent=row.agent,
        sms_parts=row.sms_parts,
        external_id=row.external_id,
        delivery_status=row.delivery_status,
    )


class ConversationStore(StoreBase):
    @staticmethod
    def _thread(session: Session, casino_id: str, thread_id: str) -> ConversationRow:
        row = pinned(session, session.get(ConversationRow, thread_id))
        if row is None or row.casino_id != casino_id:
            raise ConversationNotFound(f"no conversation {thread_id} in casino {casino_id}")
        return row

    @public
    def open_or_resume_conversation(
        self,
        casino_id: str,
        guest_uuid: str,
        now: datetime | None = None,
        *,
        idle_limit: timedelta = SESSION_IDLE_LIMIT,
    ) -> ConversationOpening:
        """The guest's active conversation, or a new one when there is none or the active one
        has been idle for `idle_limit` (it is archived first)."""
        now = moment(now)
        with self._begin() as session:
            active = self._active(session, casino_id, guest_uuid)
            if (continued := _going_on(session, active, now, idle_limit)) is not None:
                return continued  # most messages: read with no savepoint
        for attempt in range(OPEN_ATTEMPTS):
            try:
                # Within a turn's transaction the first attempt opens from what was just read
                # (SQLite holds the write lock since; on PostgreSQL the one-active index catches
                # a concurrent opening); a retry reads the winner's.
                return self._open(casino_id, guest_uuid, now, idle_limit,
                                  read=(session, active) if attempt == 0 else None)  # fmt: skip
            except IntegrityError:
                # Another request opened the guest's conversation first; read it next time.
                if attempt == OPEN_ATTEMPTS - 1:
                    raise
        raise AssertionError("unreachable")

    def _active(self, session: Session, casino_id: str, guest_uuid: str) -> ConversationRow | None:
        self._guest(session, casino_id, guest_uuid)
        return session.scalars(
            _ACTIVE_CONVERSATION, {"casino_id": casino_id, "guest_uuid": guest_uuid}
        ).first()

    def _open(self, casino_id: str, guest_uuid: str, now: datetime, idle_limit: timedelta, *,
              read: tuple[Session, ConversationRow | None] | None) -> ConversationOpening:  # fmt: skip
        """A new conversation for the guest. `read`: the session that just read the active
        conversation, and what it read: used when this runs in that same session (else the
        row is read again, here)."""
        with self._begin(savepoint=True) as session:
            if read is not None and read[0] is session:
                active = read[1]
            else:
                active = self._active(session, casino_id, guest_uuid)
                if (continued := _going_on(session, active, now, idle_limit)) is not None:
                    return continued
            previous = active
            if active is not None:
                active.status, active.archived_at = "archived", now
                session.flush()  # before the new active row, for the one-active index
            else:
                keys = {"casino_id": casino_id, "guest_uuid": guest_uuid}
                previous = session.scalars(_LATEST_CONVERSATION, keys).first()
            session_uuid = str(uuid.uuid4())
            row = ConversationRow(
                thread_id=thread_id_for(casino_id, guest_uuid, session_uuid),
                casino_id=casino_id,
                guest_uuid=guest_uuid,
                session_uuid=session_uuid,
                started_at=now,
                last_message_at=now,
                status="active",
            )
            session.add(row)
            session.flush()
            return ConversationOpening(
                _conversation(row),
                "new_guest" if previous is None else "new_session",
                _conversation(previous) if previous is not None else None,
            )

    @public
    def get_conversation(self, casino_id: str, thread_id: str) -> Conversation:
        with self._begin() as session:
            return _conversation(self._thread(session, casino_id, thread_id))

    @public
    def archive_idle_conversations(
        self,
        casino_id: str,
        now: datetime | None = None,
        *,
        idle_limit: timedelta = SESSION_IDLE_LIMIT,
    ) -> list[str]:
        """The scheduled sweep: archive every active conversation idle for `idle_limit`;
        returns their thread ids."""
        now = moment(now)
        with self._begin() as session:
            rows = session.scalars(
                select(ConversationRow).where(
                    ConversationRow.casino_id == casino_id,
                    ConversationRow.status == "active",
                    ConversationRow.last_message_at <= now - idle_limit,
                )
            ).all()
            for row in rows:
                row.status, row.archived_at = "archived", now
            return sorted(row.thread_id for row in rows)

    @public
    def set_summary(
        self, casino_id: str, thread_id: str, summary: str, *, now: datetime | None = None
    ) -> None:
        """The rolling summary of the conversation's older messages (D21, item 42)."""
        with self._begin() as session:
            row = self._thread(session, casino_id, thread_id)
            row.summary, row.summary_updated_at = summary, moment(now)

    # --- messages --------------------------------------------------------------------------
    @public
    def record_inbound(
        self,
        casino_id: str,
        external_id: str,
        *,
        thread_id: str,
        text: str,
        pii_redacted: bool = False,
        substantive: bool | None = None,
        sms_parts: int = 1,
        now: datetime | None = None,
    ) -> tuple[int, bool]:
        """Store a guest's message once per provider message id: (message_id, is_new). `text`
        is what may be kept: the redacted text when PII was found (then pii_redacted=True)."""
        key = external_key(external_id, "external_id")
        return self._record(
            casino_id,
            "inbound",
            key,
            thread_id,
            text,
            pii_redacted,
            substantive,
            None,
            sms_parts,
            None,
            moment(now),
        )

    @public
    def record_outbound(
        self,
        casino_id: str,
        *,
        thread_id: str,
        text: str,
        agent: str | None = None,
        sms_parts: int = 1,
        idempotency_key: str | None = None,
        provider_message_id: str | None = None,
        now: datetime | None = None,
    ) -> tuple[int, bool]:
        """Store a host message: (message_id, is_new). With `idempotency_key`, a retried turn
        that records the same reply again gets the first row back."""
        key = external_key(idempotency_key, "idempotency_key")
        provider_id = external_key(provider_message_id, "provider_message_id")
        return self._record(
            casino_id,
            "outbound",
            key,
            thread_id,
            text,
            False,
            None,
            agent,
            sms_parts,
            provider_id,
            moment(now),
        )

    def _record(
        self,
        casino_id: str,
        direction: Direction,
        key: str | None,
        thread_id: str,
        text: str,
        pii_redacted: bool,
        substantive: bool | None,
        agent: str | None,
        sms_parts: int,
        provider_id: str | None,
        now: datetime,
    ) -> tuple[int, bool]:
        if not isinstance(text, str):
            raise TypeError("message text must be a string")
        if sms_parts < 1:
            raise ValueError("sms_parts must be at least 1")
        with self._begin() as session:
            conversation = self._thread(session, casino_id, thread_id)
            values = {
                "casino_id": casino_id,
                "thread_id": thread_id,
                "guest_uuid": conversation.guest_uuid,
                "direction": direction,
                "text": text,
                "pii_redacted": pii_redacted,
                "external_id": key,
                "provider_message_id": provider_id,
                "agent": agent,
                "sms_parts": sms_parts,
                "substantive": substantive,
                "created_at": now,
            }
            if key is None:
                message_id = execute(session, _INSERT_MESSAGE, values).inserted_primary_key[0]
            else:
                # Once per key: a redelivery (or a concurrent one that committed first) finds
                # the existing row.
                insert = insert_new(session, _MESSAGES, ("casino_id", "direction", "external_id"),
                                    returning=("message_id",))  # fmt: skip
                inserted = execute(session, insert, values).first()
                if inserted is None:
                    existing = execute(session, _EXISTING_MESSAGE, {
                        "casino_id": casino_id, "direction": direction, "key": key,
                    }).scalar_one()  # fmt: skip
                    return int(existing), False
                message_id = inserted[0]
            conversation.last_message_at = max(conversation.last_message_at, now)
            return int(message_id), True

    @public
    def set_delivery_status(
        self, casino_id: str, provider_message_id: str, status: str
    ) -> int | None:
        """Record a delivery receipt on the outbound message the provider knows by this id;
        returns its message_id, or None when no such message exists in this casino."""
        with self._begin() as session:
            row = session.scalars(
                select(MessageRow).where(
                    MessageRow.casino_id == casino_id,
                    MessageRow.provider_message_id == provider_message_id,
                )
            ).first()
            if row is None:
                return None
            row.delivery_status = status
            return row.message_id

    @public
    def recent_messages(self, casino_id: str, thread_id: str, n: int = 20) -> list[StoredMessage]:
        """The last `n` messages of a conversation, oldest first."""
        if n <= 0:
            return []
        with self._begin() as session:
            self._thread(session, casino_id, thread_id)
            rows = session.scalars(
                select(MessageRow)
                .where(MessageRow.casino_id == casino_id, MessageRow.thread_id == thread_id)
                .order_by(MessageRow.message_id.desc())
                .limit(n)
            ).all()
            return [_message(row) for row in reversed(rows)]

    @public
    def guest_messages(self, casino_id: str, guest_uuid: str, n: int = 100) -> list[StoredMessage]:
        """The guest's last `n` messages over every conversation, oldest first."""
        with self._begin() as session:
            rows = session.scalars(
                select(MessageRow)
                .where(MessageRow.casino_id == casino_id, MessageRow.guest_uuid == guest_uuid)
                .order_by(MessageRow.message_id.desc())
                .limit(n)
            ).all()
            return [_message(row) for row in reversed(rows)]

    @public
    def find_outbound(self, casino_id: str, idempotency_key: str) -> StoredMessage | None:
        """The host message recorded under `idempotency_key`, if any: a retried turn finds
        the reply it already sent."""
        key = external_key(idempotency_key, "idempotency_key")
        with self._begin() as session:
            row = session.scalar(
                select(MessageRow).where(
                    MessageRow.casino_id == casino_id,
                    MessageRow.direction == "outbound",
                    MessageRow.external_id == key,
                )
            )
            return None if row is None else _message(row)
