"""Offers made to guests and the casino's promotions (items 23, 34, 35).

An offer names the guest message whose turn made it, and (guest, source message) is unique: a
retried or redelivered turn can never create a second offer. `offer_history` gives the offer
rules (profile/incentives.py) what the database knows: past offers, the guest's message
counts, and how many guest messages came since the latest offer was declined.
"""

from __future__ import annotations

import uuid
from datetime import datetime
from decimal import Decimal

from sqlalchemy import case, func, select
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session

from frontdesk.assistants.casino_host.profile import OfferHistory, PastOffer
from frontdesk.assistants.casino_host.storage.base import StoreBase, moment, public
from frontdesk.assistants.casino_host.storage.errors import NotFound, OfferNotFound, UnknownCasino
from frontdesk.assistants.casino_host.storage.records import Offer, Promotion
from frontdesk.assistants.casino_host.storage.tables import (
    CasinoRow,
    MessageRow,
    OfferRow,
    PromotionRow,
)

OFFER_TIERS = ("dining", "freeplay", "hotel", "vip")
OFFER_STATUSES = ("pending", "accepted", "rejected")


def _offer(row: OfferRow) -> Offer:
    return Offer(
        offer_id=row.offer_id,
        casino_id=row.casino_id,
        guest_uuid=row.guest_uuid,
        tier=row.tier,
        value_usd=float(row.value_usd),
        text=row.text,
        redemption_instruction=row.redemption_instruction,
        status=row.status,
        made_at=row.made_at,
        responded_at=row.responded_at,
        source_message_id=row.source_message_id,
    )


def _promotion(row: PromotionRow) -> Promotion:
    return Promotion(
        casino_id=row.casino_id,
        promotion_id=row.promotion_id,
        title=row.title,
        description=row.description,
        category=row.category,
        value_usd=None if row.value_usd is None else float(row.value_usd),
        valid_from=row.valid_from,
        valid_until=row.valid_until,
    )


def _money(value: float) -> Decimal:
    amount = Decimal(str(value)).quantize(Decimal("0.01"))
    if amount < 0:
        raise ValueError("an offer's value cannot be negative")
    return amount


class OfferStore(StoreBase):
    def _offer_by_source(
        self, session: Session, casino_id: str, guest_uuid: str, source_message_id: int
    ) -> OfferRow | None:
        return session.scalar(
            select(OfferRow).where(
                OfferRow.casino_id == casino_id,
                OfferRow.guest_uuid == guest_uuid,
                OfferRow.source_message_id == source_message_id,
            )
        )

    @public
    def create_offer(
        self,
        casino_id: str,
        guest_uuid: str,
        *,
        source_message_id: int,
        tier: str,
        value_usd: float,
        text: str,
        redemption_instruction: str | None = None,
        now: datetime | None = None,
    ) -> tuple[Offer, bool]:
        """Record an offer made in the turn of `source_message_id` (a message of this guest):
        (offer, created). The same source message again returns the first offer unchanged."""
        if tier not in OFFER_TIERS:
            raise ValueError(f"unknown offer tier {tier!r}; expected one of {OFFER_TIERS}")
        amount = _money(value_usd)
        now = moment(now)
        try:
            with self._begin(savepoint=True) as session:
                source = session.scalar(
                    select(MessageRow.message_id).where(
                        MessageRow.casino_id == casino_id,
                        MessageRow.guest_uuid == guest_uuid,
                        MessageRow.message_id == source_message_id,
                    )
                )
                if source is None:
                    raise NotFound(f"no message {source_message_id} of guest {guest_uuid}")
                existing = self._offer_by_source(session, casino_id, guest_uuid, source_message_id)
                if existing is not None:
                    return _offer(existing), False
                row = OfferRow(
                    offer_id=str(uuid.uuid4()),
                    casino_id=casino_id,
                    guest_uuid=guest_uuid,
                    tier=tier,
                    value_usd=amount,
                    text=text,
                    redemption_instruction=redemption_instruction,
                    status="pending",
                    made_at=now,
                    source_message_id=source_message_id,
                )
                session.add(row)
                session.flush()
                return _offer(row), True
        except IntegrityError:
            with self._begin() as session:
                winner = self._offer_by_source(session, casino_id, guest_uuid, source_message_id)
                if winner is None:
                    raise
                return _offer(winner), False

    @public
    def set_offer_status(
        self, casino_id: str, offer_id: str, status: str, *, now: datetime | None = None
    ) -> Offer:
        """Accept or reject a pending offer. Repeating the same answer is harmless; changing
        a recorded answer is refused."""
        if status not in OFFER_STATUSES or status == "pending":
            raise ValueError("status must be 'accepted' or 'rejected'")
        with self._begin() as session:
            row = session.scalar(
                select(OfferRow).where(
                    OfferRow.casino_id == casino_id, OfferRow.offer_id == offer_id
                )
            )
            if row is None:
                raise OfferNotFound(f"no offer {offer_id} in casino {casino_id}")
            if row.status == "pending":
                row.status, row.responded_at = status, moment(now)
            elif row.status != status:
                raise ValueError(f"offer {offer_id} was already {row.status}")
            return _offer(row)

    @public
    def list_offers(self, casino_id: str, guest_uuid: str) -> list[Offer]:
        with self._begin() as session:
            rows = session.scalars(
                select(OfferRow)
                .where(OfferRow.casino_id == casino_id, OfferRow.guest_uuid == guest_uuid)
                .order_by(OfferRow.made_at, OfferRow.offer_id)
            ).all()
            return [_offer(row) for row in rows]

    @public
    def offer_history(self, casino_id: str, guest_uuid: str) -> OfferHistory:
        """What the offer rules need from the database. `substantive_exchanges` counts the
        guest messages recorded with substantive=True; `arc_started_at` is left to the profile."""
        with self._begin() as session:
            self._guest(session, casino_id, guest_uuid)
            offers = session.scalars(
                select(OfferRow)
                .where(OfferRow.casino_id == casino_id, OfferRow.guest_uuid == guest_uuid)
                .order_by(OfferRow.made_at, OfferRow.offer_id)
            ).all()
            inbound = (
                select(func.count())
                .select_from(MessageRow)
                .where(
                    MessageRow.casino_id == casino_id,
                    MessageRow.guest_uuid == guest_uuid,
                    MessageRow.direction == "inbound",
                )
            )
            counts = session.execute(
                inbound.add_columns(func.sum(case((MessageRow.substantive.is_(True), 1), else_=0)))
            ).one()
            replies, substantive = counts[0] or 0, counts[1] or 0
            since_rejection = None
            latest = offers[-1] if offers else None
            if latest is not None and latest.status == "rejected":
                declined_at = latest.responded_at or latest.made_at
                since_rejection = (
                    session.scalar(inbound.where(MessageRow.created_at > declined_at)) or 0
                )
            return OfferHistory(
                offers=tuple(
                    PastOffer(row.tier, float(row.value_usd), row.made_at, row.status)  # type: ignore[arg-type]
                    for row in offers
                ),
                substantive_exchanges=substantive,
                guest_replies=replies,
                messages_since_last_rejection=since_rejection,
            )

    # --- promotions ------------------------------------------------------------------------
    @public
    def put_promotion(
        self,
        casino_id: str,
        promotion_id: str,
        *,
        title: str,
        valid_from: datetime,
        valid_until: datetime,
        description: str = "",
        category: str | None = None,
        value_usd: float | None = None,
        now: datetime | None = None,
    ) -> Promotion:
        """Add or replace one of the casino's promotions."""
        if moment(valid_until) < moment(valid_from):
            raise ValueError("valid_until is before valid_from")
        with self._begin() as session:
            if session.get(CasinoRow, casino_id) is None:
                raise UnknownCasino(f"no casino {casino_id}")
            row = session.get(PromotionRow, (casino_id, promotion_id))
            if row is None:
                row = PromotionRow(casino_id=casino_id, promotion_id=promotion_id)
                session.add(row)
            row.title, row.description, row.category = title, description, category
            row.value_usd = None if value_usd is None else _money(value_usd)
            row.valid_from, row.valid_until, row.updated_at = valid_from, valid_until, moment(now)
            session.flush()
            return _promotion(row)

    @public
    def active_promotions(self, casino_id: str, now: datetime | None = None) -> list[Promotion]:
        """Promotions with valid_from <= now <= valid_until (item 23)."""
        now = moment(now)
        with self._begin() as session:
            rows = session.scalars(
                select(PromotionRow)
                .where(
                    PromotionRow.casino_id == casino_id,
                    PromotionRow.valid_from <= now,
                    PromotionRow.valid_until >= now,
                )
                .order_by(PromotionRow.promotion_id)
            ).all()
            return [_promotion(row) for row in rows]
