"""Replies in the outbound queue are their own kind (issue 19): a YES confirms an outbound the
host sent on its own (T19), never the host's reply to the guest's last message.

Revision ID: 0005_outbound_replies
Revises: 0004_sms_outbound
Create Date: 2026-11-25
"""

from __future__ import annotations

from alembic import op

revision = "0005_outbound_replies"
down_revision = "0004_sms_outbound"
branch_labels = None
depends_on = None

OLD = "kind IN ('transactional', 'informational', 'marketing', 'keyword')"
NEW = "kind IN ('transactional', 'informational', 'marketing', 'keyword', 'reply')"


def _kinds(check: str) -> None:
    # Batch mode: SQLite cannot alter a constraint, so the table is copied (PostgreSQL alters).
    with op.batch_alter_table("sms_outbound") as batch:
        batch.drop_constraint("ck_sms_outbound_kind", type_="check")
        batch.create_check_constraint("ck_sms_outbound_kind", check)


def upgrade() -> None:
    _kinds(NEW)


def downgrade() -> None:
    op.execute("UPDATE sms_outbound SET kind = 'transactional' WHERE kind = 'reply'")
    _kinds(OLD)
