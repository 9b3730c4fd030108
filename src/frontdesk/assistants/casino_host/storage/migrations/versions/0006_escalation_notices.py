"""Escalations remember who was told and when to tell again (issue 33): the level an alert was
accepted at, the level reminded, failures in a row and the next try, and when a person closed
the escalation.

Revision ID: 0006_escalation_notices
Revises: 0005_outbound_replies
Create Date: 2026-11-28
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0006_escalation_notices"
down_revision = "0005_outbound_replies"
branch_labels = None
depends_on = None

COUNTERS = ("notified_level", "reminded_level", "notice_failures")


def upgrade() -> None:
    with op.batch_alter_table("escalations") as batch:
        for name in COUNTERS:
            batch.add_column(sa.Column(name, sa.Integer(), nullable=False, server_default="0"))
        batch.add_column(sa.Column("next_notice_at", sa.DateTime(timezone=True), nullable=True))
        batch.add_column(sa.Column("notice_error", sa.String(300), nullable=True))
        batch.add_column(sa.Column("closed_at", sa.DateTime(timezone=True), nullable=True))
        batch.add_column(sa.Column("closed_by", sa.String(200), nullable=True))
    # Escalations from before were never notified by anyone: leave them at level 0, and the
    # sweep tells the chain about those still unacknowledged.


def downgrade() -> None:
    with op.batch_alter_table("escalations") as batch:
        for name in (*COUNTERS, "next_notice_at", "notice_error", "closed_at", "closed_by"):
            batch.drop_column(name)
