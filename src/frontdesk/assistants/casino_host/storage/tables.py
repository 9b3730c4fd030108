"""The tables (SQLAlchemy 2 ORM). Alembic owns their creation: change a table here only together
with a new revision under `migrations/versions/` (a test compares the two).

Tenant isolation is also structural: every row carries `casino_id`, and child rows reference
their guest or conversation through (casino_id, id) pairs, so the database itself refuses a
message filed under another casino's conversation.

Raw phone numbers appear in one column only, `guests.phone_ciphertext`, encrypted (phone.py).
Everything else, ids included, uses the guest_uuid or the keyed phone hash.
"""

from __future__ import annotations

from datetime import datetime
from decimal import Decimal
from typing import Any

from sqlalchemy import (
    Boolean,
    CheckConstraint,
    Float,
    ForeignKey,
    ForeignKeyConstraint,
    Index,
    Integer,
    MetaData,
    Numeric,
    String,
    Text,
    UniqueConstraint,
    text,
)
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column

from frontdesk.assistants.casino_host.storage.types import JSONDocument, RowId, UTCDateTime

NAMING = {
    "ix": "ix_%(table_name)s_%(column_0_N_name)s",
    "uq": "uq_%(table_name)s_%(column_0_N_name)s",
    "ck": "ck_%(table_name)s_%(constraint_name)s",
    "fk": "fk_%(table_name)s_%(column_0_N_name)s",
    "pk": "pk_%(table_name)s",
}
ID = String(36)  # uuid4 text
CASINO = String(64)
PHONE_HASH = String(69)  # "hmac:" + 64 hex
MONEY = Numeric(10, 2)


class Base(DeclarativeBase):
    metadata = MetaData(naming_convention=NAMING)


def _guest_fk() -> ForeignKeyConstraint:
    return ForeignKeyConstraint(
        ["casino_id", "guest_uuid"], ["guests.casino_id", "guests.guest_uuid"]
    )


class CasinoRow(Base):
    __tablename__ = "casinos"

    casino_id: Mapped[str] = mapped_column(CASINO, primary_key=True)
    name: Mapped[str] = mapped_column(String(200))
    timezone: Mapped[str] = mapped_column(String(64))  # IANA name, e.g. America/New_York
    state: Mapped[str | None] = mapped_column(String(2))  # US state: quiet hours, NJ cooling-off
    created_at: Mapped[datetime] = mapped_column(UTCDateTime())


class GuestRow(Base):
    __tablename__ = "guests"
    __table_args__ = (UniqueConstraint("casino_id", "guest_uuid"),)

    guest_uuid: Mapped[str] = mapped_column(ID, primary_key=True)
    casino_id: Mapped[str] = mapped_column(ForeignKey("casinos.casino_id"))
    phone_hash: Mapped[str] = mapped_column(PHONE_HASH)  # the current number's
    # Fernet token of the E.164 number, needed to text the guest; never decrypted into logs.
    phone_ciphertext: Mapped[str] = mapped_column(Text)
    language: Mapped[str | None] = mapped_column(String(8))
    created_at: Mapped[datetime] = mapped_column(UTCDateTime())
    updated_at: Mapped[datetime] = mapped_column(UTCDateTime())
    schema_version: Mapped[int] = mapped_column("_schema_version", Integer)


class PhoneIndexRow(Base):
    """X1: the unique (casino, number) -> guest map. Its primary key is what makes two
    concurrent first messages from one number create one guest."""

    __tablename__ = "phone_index"
    __table_args__ = (_guest_fk(),)

    casino_id: Mapped[str] = mapped_column(CASINO, primary_key=True)
    phone_hash: Mapped[str] = mapped_column(PHONE_HASH, primary_key=True)
    guest_uuid: Mapped[str] = mapped_column(ID)
    created_at: Mapped[datetime] = mapped_column(UTCDateTime())


class ProfileRow(Base):
    """The GuestProfile document (without phone and grants, which have their own homes) and the
    few values queries filter on. `version` is the optimistic-concurrency counter."""

    __tablename__ = "profiles"
    __table_args__ = (_guest_fk(), Index(None, "casino_id", "conversation_phase"))

    guest_uuid: Mapped[str] = mapped_column(ID, primary_key=True)
    casino_id: Mapped[str] = mapped_column(CASINO)
    document: Mapped[dict[str, Any]] = mapped_column(JSONDocument)
    schema_version: Mapped[int] = mapped_column("_schema_version", Integer)
    completeness: Mapped[float] = mapped_column(Float)
    conversation_phase: Mapped[str] = mapped_column(String(32))
    responsible_gaming_triggered: Mapped[bool] = mapped_column(Boolean)
    updated_at: Mapped[datetime] = mapped_column(UTCDateTime())
    version: Mapped[int] = mapped_column(Integer)


class ConsentGrantRow(Base):
    __tablename__ = "consent_grants"
    __table_args__ = (
        _guest_fk(),
        Index(None, "casino_id", "guest_uuid"),
        CheckConstraint("status IN ('active', 'revoked')", name="status"),
    )

    grant_id: Mapped[str] = mapped_column(String(64), primary_key=True)  # consent_grant:<uuid>
    casino_id: Mapped[str] = mapped_column(CASINO)
    guest_uuid: Mapped[str] = mapped_column(ID)
    scope: Mapped[str] = mapped_column(String(32))
    scope_detail: Mapped[str] = mapped_column(String(200))
    granted_at: Mapped[datetime] = mapped_column(UTCDateTime())
    granted_via: Mapped[str] = mapped_column(String(64))
    consent_text_hash: Mapped[str | None] = mapped_column(String(80))
    consent_version: Mapped[int] = mapped_column(Integer)
    status: Mapped[str] = mapped_column(String(16))
    revoked_at: Mapped[datetime | None] = mapped_column(UTCDateTime())
    revoked_reason: Mapped[str | None] = mapped_column(Text)
    fields_covered: Mapped[list[str]] = mapped_column(JSONDocument)


class ConversationRow(Base):
    """One session (X2 thread). Archived, never deleted, at 48 h idle (D22); at most one active
    per guest, which the partial unique index enforces under concurrency."""

    __tablename__ = "conversations"
    __table_args__ = (
        _guest_fk(),
        UniqueConstraint("casino_id", "thread_id"),
        Index(None, "casino_id", "guest_uuid", "started_at"),
        Index(
            "ux_conversations_one_active",
            "casino_id",
            "guest_uuid",
            unique=True,
            sqlite_where=text("status = 'active'"),
            postgresql_where=text("status = 'active'"),
        ),
        CheckConstraint("status IN ('active', 'archived')", name="status"),
    )

    thread_id: Mapped[str] = mapped_column(String(160), primary_key=True)
    casino_id: Mapped[str] = mapped_column(CASINO)
    guest_uuid: Mapped[str] = mapped_column(ID)
    session_uuid: Mapped[str] = mapped_column(ID, unique=True)
    started_at: Mapped[datetime] = mapped_column(UTCDateTime())
    last_message_at: Mapped[datetime] = mapped_column(UTCDateTime())
    summary: Mapped[str | None] = mapped_column(Text)  # D21: the rolling summary lives here
    summary_updated_at: Mapped[datetime | None] = mapped_column(UTCDateTime())
    status: Mapped[str] = mapped_column(String(16))
    archived_at: Mapped[datetime | None] = mapped_column(UTCDateTime())


class MessageRow(Base):
    __tablename__ = "messages"
    __table_args__ = (
        _guest_fk(),
        ForeignKeyConstraint(
            ["casino_id", "thread_id"], ["conversations.casino_id", "conversations.thread_id"]
        ),
        # Idempotency: a provider's redelivery of an inbound id (or a retried outbound key)
        # finds the existing row instead of adding one.
        UniqueConstraint("casino_id", "direction", "external_id"),
        Index(None, "casino_id", "thread_id", "message_id"),
        Index(None, "casino_id", "guest_uuid", "created_at"),
        Index(None, "casino_id", "provider_message_id"),
        CheckConstraint("direction IN ('inbound', 'outbound')", name="direction"),
        CheckConstraint("sms_parts >= 1", name="sms_parts"),
    )

    message_id: Mapped[int] = mapped_column(RowId, primary_key=True, autoincrement=True)
    casino_id: Mapped[str] = mapped_column(CASINO)
    thread_id: Mapped[str] = mapped_column(String(160))
    guest_uuid: Mapped[str] = mapped_column(ID)
    direction: Mapped[str] = mapped_column(String(8))
    # Inbound text is stored redacted when PII was found (pii_redacted says so).
    text: Mapped[str] = mapped_column(Text)
    pii_redacted: Mapped[bool] = mapped_column(Boolean)
    external_id: Mapped[str | None] = mapped_column(String(128))
    provider_message_id: Mapped[str | None] = mapped_column(String(128))
    delivery_status: Mapped[str | None] = mapped_column(String(32))
    agent: Mapped[str | None] = mapped_column(String(64))
    sms_parts: Mapped[int] = mapped_column(Integer)
    substantive: Mapped[bool | None] = mapped_column(Boolean)
    created_at: Mapped[datetime] = mapped_column(UTCDateTime())


class OfferRow(Base):
    __tablename__ = "offers"
    __table_args__ = (
        _guest_fk(),
        # One message can never create two offers, however often its turn is retried.
        UniqueConstraint("guest_uuid", "source_message_id"),
        Index(None, "casino_id", "guest_uuid", "made_at"),
        CheckConstraint("tier IN ('dining', 'freeplay', 'hotel', 'vip')", name="tier"),
        CheckConstraint("status IN ('pending', 'accepted', 'rejected')", name="status"),
        CheckConstraint("value_usd >= 0", name="value_usd"),
    )

    offer_id: Mapped[str] = mapped_column(ID, primary_key=True)
    casino_id: Mapped[str] = mapped_column(CASINO)
    guest_uuid: Mapped[str] = mapped_column(ID)
    tier: Mapped[str] = mapped_column(String(16))
    value_usd: Mapped[Decimal] = mapped_column(MONEY)
    text: Mapped[str] = mapped_column(Text)
    redemption_instruction: Mapped[str | None] = mapped_column(Text)
    status: Mapped[str] = mapped_column(String(16))
    made_at: Mapped[datetime] = mapped_column(UTCDateTime())
    responded_at: Mapped[datetime | None] = mapped_column(UTCDateTime())
    source_message_id: Mapped[int] = mapped_column(RowId, ForeignKey("messages.message_id"))


class PromotionRow(Base):
    """The casino's current promotions, which offer verification matches replies against."""

    __tablename__ = "promotions"
    __table_args__ = (
        Index(None, "casino_id", "valid_until"),
        CheckConstraint("valid_until >= valid_from", name="validity"),
    )

    casino_id: Mapped[str] = mapped_column(ForeignKey("casinos.casino_id"), primary_key=True)
    promotion_id: Mapped[str] = mapped_column(String(64), primary_key=True)
    title: Mapped[str] = mapped_column(String(200))
    description: Mapped[str] = mapped_column(Text)
    category: Mapped[str | None] = mapped_column(String(32))
    value_usd: Mapped[Decimal | None] = mapped_column(MONEY)
    valid_from: Mapped[datetime] = mapped_column(UTCDateTime())
    valid_until: Mapped[datetime] = mapped_column(UTCDateTime())
    updated_at: Mapped[datetime] = mapped_column(UTCDateTime())


class EscalationRow(Base):
    """Item 38's EscalationPayload, plus the pause it starts and the SLA level (item 39)."""

    __tablename__ = "escalations"
    __table_args__ = (
        _guest_fk(),
        UniqueConstraint("casino_id", "source_message_id"),
        Index(None, "casino_id", "guest_uuid", "paused_until"),
        Index(None, "casino_id", "acknowledged"),
        CheckConstraint("severity IN ('P0', 'P1', 'P2', 'P3')", name="severity"),
        CheckConstraint("escalation_level BETWEEN 1 AND 3", name="level"),
    )

    escalation_id: Mapped[str] = mapped_column(String(40), primary_key=True)
    casino_id: Mapped[str] = mapped_column(CASINO)
    guest_uuid: Mapped[str] = mapped_column(ID)
    thread_id: Mapped[str | None] = mapped_column(String(160))
    source_message_id: Mapped[int | None] = mapped_column(RowId)
    guest_id_hash: Mapped[str] = mapped_column(String(16))  # log_hash of the phone hash
    guest_last_four: Mapped[str] = mapped_column(String(4))
    severity: Mapped[str] = mapped_column(String(2))
    trigger_reason: Mapped[str] = mapped_column(String(200))
    trigger_source: Mapped[str] = mapped_column(String(64))
    conversation_excerpt: Mapped[list[dict[str, Any]]] = mapped_column(JSONDocument)
    guest_profile_summary: Mapped[dict[str, Any]] = mapped_column(JSONDocument)
    escalation_level: Mapped[int] = mapped_column(Integer)
    created_at: Mapped[datetime] = mapped_column(UTCDateTime())
    paused_until: Mapped[datetime] = mapped_column(UTCDateTime())
    acknowledged: Mapped[bool] = mapped_column(Boolean)
    acknowledged_by: Mapped[str | None] = mapped_column(String(200))
    acknowledged_at: Mapped[datetime | None] = mapped_column(UTCDateTime())
    level_raised_at: Mapped[datetime | None] = mapped_column(UTCDateTime())
    notified_level: Mapped[int] = mapped_column(Integer, default=0, server_default="0")
    reminded_level: Mapped[int] = mapped_column(Integer, default=0, server_default="0")
    notice_failures: Mapped[int] = mapped_column(Integer, default=0, server_default="0")
    next_notice_at: Mapped[datetime | None] = mapped_column(UTCDateTime())
    notice_error: Mapped[str | None] = mapped_column(String(300))
    closed_at: Mapped[datetime | None] = mapped_column(UTCDateTime())
    closed_by: Mapped[str | None] = mapped_column(String(200))


class AuditRow(Base):
    """Append-only (triggers in the first revision reject UPDATE and DELETE). De-identified at
    write time: a 16-hex phone-hash prefix, never message text or a number."""

    __tablename__ = "audit_log"
    __table_args__ = (Index(None, "casino_id", "created_at"), Index(None, "casino_id", "event"))

    audit_id: Mapped[int] = mapped_column(RowId, primary_key=True, autoincrement=True)
    casino_id: Mapped[str] = mapped_column(CASINO)
    event: Mapped[str] = mapped_column(String(64))
    guest_hash: Mapped[str | None] = mapped_column(String(16))
    details: Mapped[dict[str, Any]] = mapped_column(JSONDocument)
    created_at: Mapped[datetime] = mapped_column(UTCDateTime())


class WebhookClaimRow(Base):
    """One provider webhook, claimed by a unique insert before anything acts on it (WP1 item 7):
    `processing` while a worker has it, `completed` once answered, `failed` to be processed
    again on the provider's next delivery. Kept 72 h, as long as providers retry (C2)."""

    __tablename__ = "webhook_dedup"
    __table_args__ = (
        Index(None, "expires_at"),
        CheckConstraint("status IN ('processing', 'completed', 'failed')", name="status"),
    )

    casino_id: Mapped[str] = mapped_column(CASINO, primary_key=True)
    key: Mapped[str] = mapped_column(String(200), primary_key=True)  # provider:message id
    status: Mapped[str] = mapped_column(String(12))
    attempts: Mapped[int] = mapped_column(Integer)
    received_at: Mapped[datetime] = mapped_column(UTCDateTime())  # this attempt's claim
    completed_at: Mapped[datetime | None] = mapped_column(UTCDateTime())
    expires_at: Mapped[datetime] = mapped_column(UTCDateTime())


class ConsentEventRow(Base):
    """The consent ledger (WP1 items 22-24): per guest, a hash chain of consent events, each
    hashing its payload with the previous event's hash ("GENESIS" first). Append-only (triggers
    in revision 0003); a unique chain position serialises appends."""

    __tablename__ = "consent_events"
    __table_args__ = (
        _guest_fk(),
        UniqueConstraint("casino_id", "guest_uuid", "chain_position"),
    )

    event_id: Mapped[str] = mapped_column(String(40), primary_key=True)
    casino_id: Mapped[str] = mapped_column(CASINO)
    guest_uuid: Mapped[str] = mapped_column(ID)
    chain_position: Mapped[int] = mapped_column(Integer)
    previous_hash: Mapped[str] = mapped_column(String(64))
    content_hash: Mapped[str] = mapped_column(String(64))
    payload: Mapped[dict[str, Any]] = mapped_column(JSONDocument)
    created_at: Mapped[datetime] = mapped_column(UTCDateTime())


class OutboundRow(Base):
    """The durable outbound queue (WP1 items 34-37): every SMS the host sends waits here until
    it is sent, so a restart loses none and a retry sends none twice. `queued` (due at
    `not_before`) -> `sending` (leased until `not_before`) -> `sent` -> `delivered`; or
    `blocked` (the gate said no at send time), `cancelled` (STOP), `dead` (retries spent)."""

    __tablename__ = "sms_outbound"
    __table_args__ = (
        _guest_fk(),
        UniqueConstraint("casino_id", "idempotency_key"),
        Index(None, "status", "not_before"),
        Index(None, "casino_id", "guest_uuid", "status"),
        Index(None, "casino_id", "provider_message_id"),
        CheckConstraint(
            "kind IN ('transactional', 'informational', 'marketing', 'keyword', 'reply')",
            name="kind",
        ),
        CheckConstraint(
            "status IN ('queued', 'sending', 'sent', 'delivered', 'blocked', 'cancelled', 'dead')",
            name="status",
        ),
    )

    outbound_id: Mapped[str] = mapped_column(ID, primary_key=True)
    casino_id: Mapped[str] = mapped_column(CASINO)
    guest_uuid: Mapped[str] = mapped_column(ID)
    idempotency_key: Mapped[str] = mapped_column(String(200))
    kind: Mapped[str] = mapped_column(String(16))
    body: Mapped[str] = mapped_column(Text)
    campaign_id: Mapped[str | None] = mapped_column(String(64))
    status: Mapped[str] = mapped_column(String(12))
    attempts: Mapped[int] = mapped_column(Integer)
    not_before: Mapped[datetime] = mapped_column(UTCDateTime())
    created_at: Mapped[datetime] = mapped_column(UTCDateTime())
    updated_at: Mapped[datetime] = mapped_column(UTCDateTime())
    sent_at: Mapped[datetime | None] = mapped_column(UTCDateTime())
    provider: Mapped[str | None] = mapped_column(String(32))
    provider_message_id: Mapped[str | None] = mapped_column(String(128))
    reason: Mapped[str | None] = mapped_column(String(200))  # the gate's, STOP's or the error


class DeadLetterRow(Base):
    """An outbound SMS whose retries (5, 25, 125 s) were spent: kept for a person to look at."""

    __tablename__ = "sms_dead_letters"
    __table_args__ = (Index(None, "casino_id", "failed_at"),)

    outbound_id: Mapped[str] = mapped_column(
        ForeignKey("sms_outbound.outbound_id"), primary_key=True
    )
    casino_id: Mapped[str] = mapped_column(CASINO)
    attempts: Mapped[int] = mapped_column(Integer)
    last_error: Mapped[str | None] = mapped_column(String(200))
    failed_at: Mapped[datetime] = mapped_column(UTCDateTime())
