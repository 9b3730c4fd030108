"""The durable outbound queue and its dead letters (issue 19, WP1 items 34-37).

Revision ID: 0004_sms_outbound
Revises: 0003_consent_ledger
Create Date: 2026-11-25
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0004_sms_outbound"
down_revision = "0003_consent_ledger"
branch_labels = None
depends_on = None

WHEN = sa.DateTime(timezone=True)


def upgrade() -> None:
    op.create_table(
        "sms_outbound",
        sa.Column("outbound_id", sa.String(36), nullable=False),
        sa.Column("casino_id", sa.String(64), nullable=False),
        sa.Column("guest_uuid", sa.String(36), nullable=False),
        sa.Column("idempotency_key", sa.String(200), nullable=False),
        sa.Column("kind", sa.String(16), nullable=False),
        sa.Column("body", sa.Text(), nullable=False),
        sa.Column("campaign_id", sa.String(64), nullable=True),
        sa.Column("status", sa.String(12), nullable=False),
        sa.Column("attempts", sa.Integer(), nullable=False),
        sa.Column("not_before", WHEN, nullable=False),
        sa.Column("created_at", WHEN, nullable=False),
        sa.Column("updated_at", WHEN, nullable=False),
        sa.Column("sent_at", WHEN, nullable=True),
        sa.Column("provider", sa.String(32), nullable=True),
        sa.Column("provider_message_id", sa.String(128), nullable=True),
        sa.Column("reason", sa.String(200), nullable=True),
        sa.PrimaryKeyConstraint("outbound_id", name="pk_sms_outbound"),
        sa.ForeignKeyConstraint(
            ["casino_id", "guest_uuid"],
            ["guests.casino_id", "guests.guest_uuid"],
            name="fk_sms_outbound_casino_id_guest_uuid",
        ),
        sa.UniqueConstraint(
            "casino_id", "idempotency_key", name="uq_sms_outbound_casino_id_idempotency_key"
        ),
        sa.CheckConstraint(
            "kind IN ('transactional', 'informational', 'marketing', 'keyword')",
            name="ck_sms_outbound_kind",
        ),
        sa.CheckConstraint(
            "status IN ('queued', 'sending', 'sent', 'delivered', 'blocked', 'cancelled', 'dead')",
            name="ck_sms_outbound_status",
        ),
    )
    op.create_index("ix_sms_outbound_status_not_before", "sms_outbound", ["status", "not_before"])
    op.create_index(
        "ix_sms_outbound_casino_id_guest_uuid_status",
        "sms_outbound",
        ["casino_id", "guest_uuid", "status"],
    )
    op.create_index(
        "ix_sms_outbound_casino_id_provider_message_id",
        "sms_outbound",
        ["casino_id", "provider_message_id"],
    )
    op.create_table(
        "sms_dead_letters",
        sa.Column("outbound_id", sa.String(36), nullable=False),
        sa.Column("casino_id", sa.String(64), nullable=False),
        sa.Column("attempts", sa.Integer(), nullable=False),
        sa.Column("last_error", sa.String(200), nullable=True),
        sa.Column("failed_at", WHEN, nullable=False),
        sa.PrimaryKeyConstraint("outbound_id", name="pk_sms_dead_letters"),
        sa.ForeignKeyConstraint(
            ["outbound_id"],
            ["sms_outbound.outbound_id"],
            name="fk_sms_dead_letters_outbound_id",
        ),
    )
    op.create_index(
        "ix_sms_dead_letters_casino_id_failed_at", "sms_dead_letters", ["casino_id", "failed_at"]
    )


def downgrade() -> None:
    op.drop_index("ix_sms_dead_letters_casino_id_failed_at", table_name="sms_dead_letters")
    op.drop_table("sms_dead_letters")
    op.drop_index("ix_sms_outbound_casino_id_provider_message_id", table_name="sms_outbound")
    op.drop_index("ix_sms_outbound_casino_id_guest_uuid_status", table_name="sms_outbound")
    op.drop_index("ix_sms_outbound_status_not_before", table_name="sms_outbound")
    op.drop_table("sms_outbound")
