"""The consent ledger (issue 19, WP1 items 22-25): per-guest hash chains of consent events,
append-only like the audit log (the database rejects UPDATE and DELETE).

Revision ID: 0003_consent_ledger
Revises: 0002_webhook_dedup
Create Date: 2026-11-25
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op
from sqlalchemy.dialects import postgresql

revision = "0003_consent_ledger"
down_revision = "0002_webhook_dedup"
branch_labels = None
depends_on = None

JSON = sa.JSON().with_variant(postgresql.JSONB(), "postgresql")


def upgrade() -> None:
    op.create_table(
        "consent_events",
        sa.Column("event_id", sa.String(40), nullable=False),
        sa.Column("casino_id", sa.String(64), nullable=False),
        sa.Column("guest_uuid", sa.String(36), nullable=False),
        sa.Column("chain_position", sa.Integer(), nullable=False),
        sa.Column("previous_hash", sa.String(64), nullable=False),
        sa.Column("content_hash", sa.String(64), nullable=False),
        sa.Column("payload", JSON, nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint("event_id", name="pk_consent_events"),
        sa.ForeignKeyConstraint(
            ["casino_id", "guest_uuid"],
            ["guests.casino_id", "guests.guest_uuid"],
            name="fk_consent_events_casino_id_guest_uuid",
        ),
        sa.UniqueConstraint(
            "casino_id",
            "guest_uuid",
            "chain_position",
            name="uq_consent_events_casino_id_guest_uuid_chain_position",
        ),
    )
    if op.get_bind().dialect.name == "sqlite":
        for action in ("UPDATE", "DELETE"):
            op.execute(
                f"CREATE TRIGGER consent_events_no_{action.lower()} BEFORE {action} "
                "ON consent_events BEGIN SELECT RAISE(ABORT, 'consent_events is append-only'); END"
            )
        return
    op.execute(
        "CREATE FUNCTION casino_host_consent_events_append_only() RETURNS trigger "
        "LANGUAGE plpgsql AS $$ BEGIN "
        "RAISE EXCEPTION 'consent_events is append-only'; END $$"
    )
    op.execute(
        "CREATE TRIGGER consent_events_append_only BEFORE UPDATE OR DELETE ON consent_events "
        "FOR EACH ROW EXECUTE FUNCTION casino_host_consent_events_append_only()"
    )


def downgrade() -> None:
    if op.get_bind().dialect.name != "sqlite":
        op.execute("DROP TRIGGER IF EXISTS consent_events_append_only ON consent_events")
        op.execute("DROP FUNCTION IF EXISTS casino_host_consent_events_append_only()")
    op.drop_table("consent_events")
