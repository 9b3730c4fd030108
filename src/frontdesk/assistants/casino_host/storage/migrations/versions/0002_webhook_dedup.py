"""Webhook idempotency claims (issue 19, WP1 item 7): one row per provider webhook, claimed by
a unique insert before the graph runs, kept 72 h.

Revision ID: 0002_webhook_dedup
Revises: 0001_initial
Create Date: 2026-11-25
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0002_webhook_dedup"
down_revision = "0001_initial"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "webhook_dedup",
        sa.Column("casino_id", sa.String(64), nullable=False),
        sa.Column("key", sa.String(200), nullable=False),
        sa.Column("status", sa.String(12), nullable=False),
        sa.Column("attempts", sa.Integer(), nullable=False),
        sa.Column("received_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("completed_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("expires_at", sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint("casino_id", "key", name="pk_webhook_dedup"),
        sa.CheckConstraint(
            "status IN ('processing', 'completed', 'failed')", name="ck_webhook_dedup_status"
        ),
    )
    op.create_index("ix_webhook_dedup_expires_at", "webhook_dedup", ["expires_at"])


def downgrade() -> None:
    op.drop_index("ix_webhook_dedup_expires_at", table_name="webhook_dedup")
    op.drop_table("webhook_dedup")
