"""The consent ledger (WP1 items 22-24, T6): each guest's consent events as a hash chain.

Event n stores `previous_hash` (event n-1's `content_hash`, "GENESIS" for the first) and
`content_hash` = SHA-256 of the canonical JSON (sorted keys, no spaces) of its payload with
that previous hash. Changing any stored event, or removing one, breaks the chain from there:
`verify_consent_chain` lists the positions that no longer check out. The table is
append-only in the database itself (revision 0003), and the unique chain position makes two
concurrent appends queue instead of forking the chain.
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

from sqlalchemy import bindparam, func, select
from sqlalchemy.exc import IntegrityError

from frontdesk.assistants.casino_host.storage.base import (
    StoreBase,
    check_audit_details,
    execute,
    insert_new,
    moment,
    public,
)
from frontdesk.assistants.casino_host.storage.tables import ConsentEventRow, GuestRow

GENESIS = "GENESIS"
APPEND_ATTEMPTS = 5

# An append's statements, built once (`execute`).
_EVENTS, _GUESTS = ConsentEventRow.__table__, GuestRow.__table__
_LOCK_GUEST = (
    select(_GUESTS.c.guest_uuid)
    .where(
        _GUESTS.c.casino_id == bindparam("casino_id"),
        _GUESTS.c.guest_uuid == bindparam("guest_uuid"),
    )
    .with_for_update()
)
_CHAIN_END = (
    select(_EVENTS.c.chain_position, _EVENTS.c.content_hash)
    .where(
        _EVENTS.c.casino_id == bindparam("casino_id"),
        _EVENTS.c.guest_uuid == bindparam("guest_uuid"),
    )
    .order_by(_EVENTS.c.chain_position.desc())
    .limit(1)
)


def content_hash(payload: dict[str, Any], previous_hash: str) -> str:
    canonical = json.dumps(
        {"payload": payload, "previous_hash": previous_hash},
        sort_keys=True,
        separators=(",", ":"),
        ensure_ascii=False,
    )
    return hashlib.sha256(canonical.encode()).hexdigest()


def _event_id(casino_id: str, guest_uuid: str, digest: str, now: datetime) -> str:
    """`consent_{YYYYmmdd_HHMMSS}_{8 hex}` (item 23). The hex comes from the guest and the
    event's hash: two guests' first STOP in the same second have the same content hash."""
    scoped = hashlib.sha256(f"{casino_id}:{guest_uuid}:{digest}".encode()).hexdigest()
    return f"consent_{now:%Y%m%d_%H%M%S}_{scoped[:8]}"


@dataclass(frozen=True)
class ConsentEvent:
    event_id: str
    chain_position: int
    previous_hash: str
    content_hash: str
    payload: dict[str, Any]
    created_at: datetime


@dataclass(frozen=True)
class ChainVerification:
    valid: bool
    chain_length: int
    broken_links: tuple[int, ...]
    latest_hash: str | None

    def as_dict(self) -> dict[str, Any]:
        return {
            "valid": self.valid,
            "chain_length": self.chain_length,
            "broken_links": list(self.broken_links),
            "latest_hash": self.latest_hash,
        }


def _event(row: ConsentEventRow) -> ConsentEvent:
    return ConsentEvent(
        row.event_id,
        row.chain_position,
        row.previous_hash,
        row.content_hash,
        dict(row.payload),
        row.created_at,
    )


class LedgerStore(StoreBase):
    @public
    def append_consent_event(
        self,
        casino_id: str,
        guest_uuid: str,
        payload: dict[str, Any],
        *,
        now: datetime | None = None,
    ) -> ConsentEvent:
        """Add an event at the end of the guest's chain. The payload is de-identified like an
        audit row (no message text, no number) and hashed as stored (JSON)."""
        now = moment(now)
        payload = check_audit_details(payload)
        keys = {"casino_id": casino_id, "guest_uuid": guest_uuid}
        with self._begin() as session:
            self._guest(session, casino_id, guest_uuid)
            # The guest's row lock queues concurrent appends (PostgreSQL; SQLite's writers
            # queue already), so the unique position is only the last guard.
            execute(session, _LOCK_GUEST, keys)
            for _attempt in range(APPEND_ATTEMPTS):
                last = execute(session, _CHAIN_END, keys).first()
                position = 0 if last is None else last.chain_position + 1
                previous = GENESIS if last is None else last.content_hash
                digest = content_hash(payload, previous)
                event = ConsentEvent(_event_id(casino_id, guest_uuid, digest, now), position,
                                     previous, digest, payload, now.astimezone(UTC))  # fmt: skip
                append = insert_new(session, _EVENTS, ("casino_id", "guest_uuid", "chain_position"),
                                    returning=("event_id",))  # fmt: skip
                if execute(session, append, {**keys, "event_id": event.event_id,
                                             "chain_position": position, "previous_hash": previous,
                                             "content_hash": digest, "payload": payload,
                                             "created_at": now}).first():  # fmt: skip
                    return event
                # Another append took this position first: read the new end and try again.
        raise IntegrityError("consent chain append", None, Exception("the position stayed taken"))

    @public
    def consent_chain(self, casino_id: str, guest_uuid: str) -> list[ConsentEvent]:
        with self._begin() as session:
            rows = session.scalars(
                select(ConsentEventRow)
                .where(
                    ConsentEventRow.casino_id == casino_id,
                    ConsentEventRow.guest_uuid == guest_uuid,
                )
                .order_by(ConsentEventRow.chain_position)
            ).all()
            return [_event(row) for row in rows]

    @public
    def consent_chain_guests(self, casino_id: str) -> list[str]:
        """Every guest of the casino with a consent chain, in a stable order."""
        with self._begin(read_only=True) as session:
            query = (
                select(ConsentEventRow.guest_uuid)
                .where(ConsentEventRow.casino_id == casino_id)
                .distinct()
                .order_by(ConsentEventRow.guest_uuid)
            )
            return list(session.scalars(query).all())

    @public
    def consent_chain_length(self, casino_id: str, guest_uuid: str) -> int:
        with self._begin() as session:
            return int(
                session.scalar(
                    select(func.count()).where(
                        ConsentEventRow.casino_id == casino_id,
                        ConsentEventRow.guest_uuid == guest_uuid,
                    )
                )
                or 0
            )

    @public
    def verify_consent_chain(self, casino_id: str, guest_uuid: str) -> ChainVerification:
        """Recompute every link: a position is broken when its hash does not match its content,
        its previous hash is not the stored hash before it, or a position is missing."""
        events = self.consent_chain(casino_id, guest_uuid)
        broken: list[int] = []
        previous = GENESIS
        for expected_position, event in enumerate(events):
            if (
                event.chain_position != expected_position
                or event.previous_hash != previous
                or content_hash(event.payload, event.previous_hash) != event.content_hash
            ):
                broken.append(event.chain_position)
            previous = event.content_hash
        return ChainVerification(
            valid=not broken,
            chain_length=len(events),
            broken_links=tuple(broken),
            latest_hash=events[-1].content_hash if events else None,
        )
