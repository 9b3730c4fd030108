"""The casino host's first schema: tenants, guests, phone index, profiles, consent grants,
conversations, messages, offers, promotions, escalations and the append-only audit log.

Written by hand and frozen: it does not import the models, so later model changes cannot
rewrite history. The types are spelled out as `tables.py` spells them.

Revision ID: 0001_initial
Revises:
Create Date: 2026-01-01
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op
from sqlalchemy.dialects import postgresql

revision = "0001_initial"
down_revision = None
branch_labels = None
depends_on = None

JSON = sa.JSON().with_variant(postgresql.JSONB(), "postgresql")
ROW_ID = sa.BigInteger().with_variant(sa.Integer(), "sqlite")
ID = sa.String(36)
CASINO = sa.String(64)
PHONE_HASH = sa.String(69)
MONEY = sa.Numeric(10, 2)


def _time(name: str, nullable: bool = False) -> sa.Column:
    return sa.Column(name, sa.DateTime(timezone=True), nullable=nullable)


def _guest_fk(table: str) -> sa.ForeignKeyConstraint:
    return sa.ForeignKeyConstraint(
        ["casino_id", "guest_uuid"],
        ["guests.casino_id", "guests.guest_uuid"],
        name=f"fk_{table}_casino_id_guest_uuid",
    )


def _tenant_tables() -> None:
    op.create_table(
        "casinos",
        sa.Column("casino_id", CASINO, nullable=False),
        sa.Column("name", sa.String(200), nullable=False),
        sa.Column("timezone", sa.String(64), nullable=False),
        sa.Column("state", sa.String(2), nullable=True),
        _time("created_at"),
        sa.PrimaryKeyConstraint("casino_id", name="pk_casinos"),
    )
    op.create_table(
        "guests",
        sa.Column("guest_uuid", ID, nullable=False),
        sa.Column("casino_id", CASINO, nullable=False),
        sa.Column("phone_hash", PHONE_HASH, nullable=False),
        sa.Column("phone_ciphertext", sa.Text(), nullable=False),
        sa.Column("language", sa.String(8), nullable=True),
        _time("created_at"),
        _time("updated_at"),
        sa.Column("_schema_version", sa.Integer(), nullable=False),
        sa.PrimaryKeyConstraint("guest_uuid", name="pk_guests"),
        sa.UniqueConstraint("casino_id", "guest_uuid", name="uq_guests_casino_id_guest_uuid"),
        sa.ForeignKeyConstraint(["casino_id"], ["casinos.casino_id"], name="fk_guests_casino_id"),
    )
    op.create_table(
        "phone_index",
        sa.Column("casino_id", CASINO, nullable=False),
        sa.Column("phone_hash", PHONE_HASH, nullable=False),
        sa.Column("guest_uuid", ID, nullable=False),
        _time("created_at"),
        sa.PrimaryKeyConstraint("casino_id", "phone_hash", name="pk_phone_index"),
        _guest_fk("phone_index"),
    )
    op.create_table(
        "profiles",
        sa.Column("guest_uuid", ID, nullable=False),
        sa.Column("casino_id", CASINO, nullable=False),
        sa.Column("document", JSON, nullable=False),
        sa.Column("_schema_version", sa.Integer(), nullable=False),
        sa.Column("completeness", sa.Float(), nullable=False),
        sa.Column("conversation_phase", sa.String(32), nullable=False),
        sa.Column("responsible_gaming_triggered", sa.Boolean(), nullable=False),
        _time("updated_at"),
        sa.Column("version", sa.Integer(), nullable=False),
        sa.PrimaryKeyConstraint("guest_uuid", name="pk_profiles"),
        _guest_fk("profiles"),
    )
    op.create_index(
        "ix_profiles_casino_id_conversation_phase", "profiles", ["casino_id", "conversation_phase"]
    )
    op.create_table(
        "consent_grants",
        sa.Column("grant_id", sa.String(64), nullable=False),
        sa.Column("casino_id", CASINO, nullable=False),
        sa.Column("guest_uuid", ID, nullable=False),
        sa.Column("scope", sa.String(32), nullable=False),
        sa.Column("scope_detail", sa.String(200), nullable=False),
        _time("granted_at"),
        sa.Column("granted_via", sa.String(64), nullable=False),
        sa.Column("consent_text_hash", sa.String(80), nullable=True),
        sa.Column("consent_version", sa.Integer(), nullable=False),
        sa.Column("status", sa.String(16), nullable=False),
        _time("revoked_at", nullable=True),
        sa.Column("revoked_reason", sa.Text(), nullable=True),
        sa.Column("fields_covered", JSON, nullable=False),
        sa.PrimaryKeyConstraint("grant_id", name="pk_consent_grants"),
        _guest_fk("consent_grants"),
        sa.CheckConstraint("status IN ('active', 'revoked')", name="ck_consent_grants_status"),
    )
    op.create_index(
        "ix_consent_grants_casino_id_guest_uuid", "consent_grants", ["casino_id", "guest_uuid"]
    )


def _conversation_tables() -> None:
    op.create_table(
        "conversations",
        sa.Column("thread_id", sa.String(160), nullable=False),
        sa.Column("casino_id", CASINO, nullable=False),
        sa.Column("guest_uuid", ID, nullable=False),
        sa.Column("session_uuid", ID, nullable=False),
        _time("started_at"),
        _time("last_message_at"),
        sa.Column("summary", sa.Text(), nullable=True),
        _time("summary_updated_at", nullable=True),
        sa.Column("status", sa.String(16), nullable=False),
        _time("archived_at", nullable=True),
        sa.PrimaryKeyConstraint("thread_id", name="pk_conversations"),
        _guest_fk("conversations"),
        sa.UniqueConstraint("casino_id", "thread_id", name="uq_conversations_casino_id_thread_id"),
        sa.UniqueConstraint("session_uuid", name="uq_conversations_session_uuid"),
        sa.CheckConstraint("status IN ('active', 'archived')", name="ck_conversations_status"),
    )
    op.create_index(
        "ix_conversations_casino_id_guest_uuid_started_at",
        "conversations",
        ["casino_id", "guest_uuid", "started_at"],
    )
    op.create_index(
        "ux_conversations_one_active",
        "conversations",
        ["casino_id", "guest_uuid"],
        unique=True,
        sqlite_where=sa.text("status = 'active'"),
        postgresql_where=sa.text("status = 'active'"),
    )
    op.create_table(
        "messages",
        sa.Column("message_id", ROW_ID, autoincrement=True, nullable=False),
        sa.Column("casino_id", CASINO, nullable=False),
        sa.Column("thread_id", sa.String(160), nullable=False),
        sa.Column("guest_uuid", ID, nullable=False),
        sa.Column("direction", sa.String(8), nullable=False),
        sa.Column("text", sa.Text(), nullable=False),
        sa.Column("pii_redacted", sa.Boolean(), nullable=False),
        sa.Column("external_id", sa.String(128), nullable=True),
        sa.Column("provider_message_id", sa.String(128), nullable=True),
        sa.Column("delivery_status", sa.String(32), nullable=True),
        sa.Column("agent", sa.String(64), nullable=True),
        sa.Column("sms_parts", sa.Integer(), nullable=False),
        sa.Column("substantive", sa.Boolean(), nullable=True),
        _time("created_at"),
        sa.PrimaryKeyConstraint("message_id", name="pk_messages"),
        _guest_fk("messages"),
        sa.ForeignKeyConstraint(
            ["casino_id", "thread_id"],
            ["conversations.casino_id", "conversations.thread_id"],
            name="fk_messages_casino_id_thread_id",
        ),
        sa.UniqueConstraint(
            "casino_id",
            "direction",
            "external_id",
            name="uq_messages_casino_id_direction_external_id",
        ),
        sa.CheckConstraint("direction IN ('inbound', 'outbound')", name="ck_messages_direction"),
        sa.CheckConstraint("sms_parts >= 1", name="ck_messages_sms_parts"),
    )
    for columns in (
        ["casino_id", "thread_id", "message_id"],
        ["casino_id", "guest_uuid", "created_at"],
        ["casino_id", "provider_message_id"],
    ):
        op.create_index("ix_messages_" + "_".join(columns), "messages", columns)


def _offer_tables() -> None:
    op.create_table(
        "offers",
        sa.Column("offer_id", ID, nullable=False),
        sa.Column("casino_id", CASINO, nullable=False),
        sa.Column("guest_uuid", ID, nullable=False),
        sa.Column("tier", sa.String(16), nullable=False),
        sa.Column("value_usd", MONEY, nullable=False),
        sa.Column("text", sa.Text(), nullable=False),
        sa.Column("redemption_instruction", sa.Text(), nullable=True),
        sa.Column("status", sa.String(16), nullable=False),
        _time("made_at"),
        _time("responded_at", nullable=True),
        sa.Column("source_message_id", ROW_ID, nullable=False),
        sa.PrimaryKeyConstraint("offer_id", name="pk_offers"),
        _guest_fk("offers"),
        sa.ForeignKeyConstraint(
            ["source_message_id"], ["messages.message_id"], name="fk_offers_source_message_id"
        ),
        sa.UniqueConstraint(
            "guest_uuid", "source_message_id", name="uq_offers_guest_uuid_source_message_id"
        ),
        sa.CheckConstraint("tier IN ('dining', 'freeplay', 'hotel', 'vip')", name="ck_offers_tier"),
        sa.CheckConstraint(
            "status IN ('pending', 'accepted', 'rejected')", name="ck_offers_status"
        ),
        sa.CheckConstraint("value_usd >= 0", name="ck_offers_value_usd"),
    )
    op.create_index(
        "ix_offers_casino_id_guest_uuid_made_at", "offers", ["casino_id", "guest_uuid", "made_at"]
    )
    op.create_table(
        "promotions",
        sa.Column("casino_id", CASINO, nullable=False),
        sa.Column("promotion_id", sa.String(64), nullable=False),
        sa.Column("title", sa.String(200), nullable=False),
        sa.Column("description", sa.Text(), nullable=False),
        sa.Column("category", sa.String(32), nullable=True),
        sa.Column("value_usd", MONEY, nullable=True),
        _time("valid_from"),
        _time("valid_until"),
        _time("updated_at"),
        sa.PrimaryKeyConstraint("casino_id", "promotion_id", name="pk_promotions"),
        sa.ForeignKeyConstraint(
            ["casino_id"], ["casinos.casino_id"], name="fk_promotions_casino_id"
        ),
        sa.CheckConstraint("valid_until >= valid_from", name="ck_promotions_validity"),
    )
    op.create_index(
        "ix_promotions_casino_id_valid_until", "promotions", ["casino_id", "valid_until"]
    )


def _escalation_and_audit_tables() -> None:
    op.create_table(
        "escalations",
        sa.Column("escalation_id", sa.String(40), nullable=False),
        sa.Column("casino_id", CASINO, nullable=False),
        sa.Column("guest_uuid", ID, nullable=False),
        sa.Column("thread_id", sa.String(160), nullable=True),
        sa.Column("source_message_id", ROW_ID, nullable=True),
        sa.Column("guest_id_hash", sa.String(16), nullable=False),
        sa.Column("guest_last_four", sa.String(4), nullable=False),
        sa.Column("severity", sa.String(2), nullable=False),
        sa.Column("trigger_reason", sa.String(200), nullable=False),
        sa.Column("trigger_source", sa.String(64), nullable=False),
        sa.Column("conversation_excerpt", JSON, nullable=False),
        sa.Column("guest_profile_summary", JSON, nullable=False),
        sa.Column("escalation_level", sa.Integer(), nullable=False),
        _time("created_at"),
        _time("paused_until"),
        sa.Column("acknowledged", sa.Boolean(), nullable=False),
        sa.Column("acknowledged_by", sa.String(200), nullable=True),
        _time("acknowledged_at", nullable=True),
        _time("level_raised_at", nullable=True),
        sa.PrimaryKeyConstraint("escalation_id", name="pk_escalations"),
        _guest_fk("escalations"),
        sa.UniqueConstraint(
            "casino_id", "source_message_id", name="uq_escalations_casino_id_source_message_id"
        ),
        sa.CheckConstraint("severity IN ('P0', 'P1', 'P2', 'P3')", name="ck_escalations_severity"),
        sa.CheckConstraint("escalation_level BETWEEN 1 AND 3", name="ck_escalations_level"),
    )
    op.create_index(
        "ix_escalations_casino_id_guest_uuid_paused_until",
        "escalations",
        ["casino_id", "guest_uuid", "paused_until"],
    )
    op.create_index(
        "ix_escalations_casino_id_acknowledged", "escalations", ["casino_id", "acknowledged"]
    )
    op.create_table(
        "audit_log",
        sa.Column("audit_id", ROW_ID, autoincrement=True, nullable=False),
        sa.Column("casino_id", CASINO, nullable=False),
        sa.Column("event", sa.String(64), nullable=False),
        sa.Column("guest_hash", sa.String(16), nullable=True),
        sa.Column("details", JSON, nullable=False),
        _time("created_at"),
        sa.PrimaryKeyConstraint("audit_id", name="pk_audit_log"),
    )
    op.create_index("ix_audit_log_casino_id_created_at", "audit_log", ["casino_id", "created_at"])
    op.create_index("ix_audit_log_casino_id_event", "audit_log", ["casino_id", "event"])


def _append_only_audit_log() -> None:
    """Rows of the audit log can be added, never changed or removed by the application. The
    retention job (WP4) deletes with the trigger disabled, as the database owner."""
    if op.get_bind().dialect.name == "sqlite":
        for action in ("UPDATE", "DELETE"):
            op.execute(
                f"CREATE TRIGGER audit_log_no_{action.lower()} BEFORE {action} ON audit_log "
                "BEGIN SELECT RAISE(ABORT, 'audit_log is append-only'); END"
            )
        return
    op.execute(
        "CREATE FUNCTION casino_host_audit_log_append_only() RETURNS trigger "
        "LANGUAGE plpgsql AS $$ BEGIN "
        "RAISE EXCEPTION 'audit_log is append-only'; END $$"
    )
    op.execute(
        "CREATE TRIGGER audit_log_append_only BEFORE UPDATE OR DELETE ON audit_log "
        "FOR EACH ROW EXECUTE FUNCTION casino_host_audit_log_append_only()"
    )


def upgrade() -> None:
    _tenant_tables()
    _conversation_tables()
    _offer_tables()
    _escalation_and_audit_tables()
    _append_only_audit_log()


def downgrade() -> None:
    if op.get_bind().dialect.name != "sqlite":
        op.execute("DROP TRIGGER IF EXISTS audit_log_append_only ON audit_log")
        op.execute("DROP FUNCTION IF EXISTS casino_host_audit_log_append_only()")
    for table in (
        "audit_log",
        "escalations",
        "promotions",
        "offers",
        "messages",
        "conversations",
        "consent_grants",
        "profiles",
        "phone_index",
        "guests",
        "casinos",
    ):
        op.drop_table(table)
