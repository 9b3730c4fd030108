"""Run the Alembic migrations programmatically: `upgrade(url)` at start, on SQLite or PostgreSQL."""

from __future__ import annotations

from pathlib import Path

from alembic import command
from alembic.config import Config
from alembic.runtime.migration import MigrationContext
from alembic.script import ScriptDirectory
from sqlalchemy import Connection, Engine, text
from sqlalchemy.engine import URL
from sqlalchemy.exc import DBAPIError

from frontdesk.assistants.casino_host.storage.engine import describe, is_unavailable, make_engine
from frontdesk.assistants.casino_host.storage.engine import unavailable as unavailable_error
from frontdesk.db_url import database_url

MIGRATIONS = Path(__file__).parent / "migrations"
# Its own version table, so the casino host can share a database with other Alembic users.
VERSION_TABLE = "casino_host_alembic_version"
# Any constant: serialises concurrent upgrades from several processes on PostgreSQL.
PG_MIGRATION_LOCK = 0x0CA51A0


def alembic_config(connection: Connection | None = None) -> Config:
    config = Config()
    config.set_main_option("script_location", str(MIGRATIONS))
    if connection is not None:
        config.attributes["connection"] = connection
    return config


def head_revision() -> str:
    head = ScriptDirectory.from_config(alembic_config()).get_current_head()
    assert head is not None
    return head


def current_revision(connection: Connection) -> str | None:
    context = MigrationContext.configure(connection, opts={"version_table": VERSION_TABLE})
    return context.get_current_revision()


def upgrade_engine(engine: Engine, revision: str = "head") -> None:
    try:
        with engine.begin() as connection:
            if connection.dialect.name == "postgresql":
                connection.execute(text(f"SELECT pg_advisory_xact_lock({PG_MIGRATION_LOCK})"))
            command.upgrade(alembic_config(connection), revision)
    except DBAPIError as exc:
        if is_unavailable(exc):
            raise unavailable_error(describe(engine.url), exc) from exc
        raise


def upgrade(url: str | Path | URL, revision: str = "head") -> None:
    """Bring the database at `url` to `revision` (default: the newest). Safe to call at every
    start and from several processes at once. Raises StorageUnavailable when it is down."""
    engine = make_engine(database_url(url))
    try:
        upgrade_engine(engine, revision)
    finally:
        engine.dispose()
