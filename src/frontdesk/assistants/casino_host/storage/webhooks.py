"""Webhook idempotency (WP1 items 7-8, C2, C3, T3): a provider's webhook is claimed by a unique
insert before anything acts on it, so a retried or concurrent delivery runs the pipeline once.

    claim = store.claim_webhook("mohegan_sun", "telnyx:40385f64-…", now)
    if claim.claimed:
        ...  # run the pipeline, then
        store.finish_webhook("mohegan_sun", key, ok=True, now=now)

A delivery whose earlier attempt failed is claimed again (C3), as is one whose worker went
quiet for 300 s (it crashed while `processing`); a completed one is a duplicate for 72 h, as
long as providers retry (C2), and `purge_expired_webhooks` removes it after.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Literal

from sqlalchemy import bindparam, delete, update

from frontdesk.assistants.casino_host.storage.base import (
    StoreBase,
    execute,
    insert_new,
    moment,
    public,
)
from frontdesk.assistants.casino_host.storage.tables import WebhookClaimRow

WEBHOOK_TTL = timedelta(hours=72)
STALE_CLAIM = timedelta(seconds=300)
KEY_CHARS = 200

_CLAIMS = WebhookClaimRow.__table__
_FINISH = (
    update(_CLAIMS)
    .where(_CLAIMS.c.casino_id == bindparam("b_casino_id"), _CLAIMS.c.key == bindparam("b_key"))
    .values(status=bindparam("b_status"), completed_at=bindparam("b_completed_at"))
)

ClaimOutcome = Literal["claimed", "duplicate", "in_progress"]


@dataclass(frozen=True)
class WebhookClaim:
    outcome: ClaimOutcome
    attempts: int  # this delivery's attempt number, counting failed and abandoned ones

    @property
    def claimed(self) -> bool:
        return self.outcome == "claimed"


def _check_key(key: str) -> str:
    if not isinstance(key, str) or not key or len(key) > KEY_CHARS:
        raise ValueError(f"a webhook key is 1-{KEY_CHARS} characters")
    return key


class WebhookStore(StoreBase):
    @public
    def claim_webhook(self, casino_id: str, key: str, now: datetime | None = None) -> WebhookClaim:
        """Claim the webhook `key` (provider and its message id) for this attempt."""
        key, now = _check_key(key), moment(now)
        with self._begin() as session:
            claim = insert_new(session, _CLAIMS, ("casino_id", "key"), returning=("key",))
            first = execute(session, claim, {
                "casino_id": casino_id, "key": key, "status": "processing", "attempts": 1,
                "received_at": now, "expires_at": now + WEBHOOK_TTL,
            }).first()  # fmt: skip
            if first is not None:
                return WebhookClaim("claimed", 1)
        # Delivered before: what the existing row says decides.
        with self._begin() as session:
            row = session.get(WebhookClaimRow, (casino_id, key), with_for_update=True)
            if row is None:  # purged in between: a first delivery after all
                row = WebhookClaimRow(casino_id=casino_id, key=key, attempts=0)
                session.add(row)
            expired = row.attempts == 0 or row.expires_at <= now
            abandoned = row.status == "processing" and now - row.received_at >= STALE_CLAIM
            if expired:
                row.attempts, row.expires_at, row.completed_at = 0, now + WEBHOOK_TTL, None
            if expired or row.status == "failed" or abandoned:
                row.status, row.received_at = "processing", now
                row.attempts += 1
                return WebhookClaim("claimed", row.attempts)
            outcome: ClaimOutcome = "duplicate" if row.status == "completed" else "in_progress"
            return WebhookClaim(outcome, row.attempts)

    @public
    def finish_webhook(
        self, casino_id: str, key: str, *, ok: bool, now: datetime | None = None
    ) -> None:
        """Mark the claimed webhook `completed` (ok) or `failed` (processed again when the
        provider retries)."""
        key, now = _check_key(key), moment(now)
        with self._begin() as session:
            changed = execute(session, _FINISH, {
                "b_casino_id": casino_id, "b_key": key,
                "b_status": "completed" if ok else "failed", "b_completed_at": now if ok else None,
            }).rowcount  # fmt: skip
            if changed != 1:
                raise ValueError(f"webhook {key!r} was never claimed in casino {casino_id}")

    @public
    def purge_expired_webhooks(self, casino_id: str, now: datetime | None = None) -> int:
        """Delete this casino's claims past their 72 h; returns how many."""
        now = moment(now)
        with self._begin() as session:
            result = session.execute(
                delete(WebhookClaimRow).where(
                    WebhookClaimRow.casino_id == casino_id, WebhookClaimRow.expires_at <= now
                )
            )
            return int(result.rowcount or 0)
