"""Alembic environment of the casino host storage.

`migrate.upgrade(url)` hands over an open connection in `config.attributes["connection"]`; the
Alembic CLI works too, given the URL: `alembic -c <ini> -x url=sqlite:///casino_host.sqlite3
upgrade head` with `script_location` pointing at this folder.
"""

from __future__ import annotations

from alembic import context
from sqlalchemy import create_engine

from frontdesk.assistants.casino_host.storage.migrate import VERSION_TABLE
from frontdesk.assistants.casino_host.storage.tables import Base
from frontdesk.db_url import database_url


def _run(connection) -> None:
    context.configure(
        connection=connection,
        target_metadata=Base.metadata,
        version_table=VERSION_TABLE,
        # SQLite cannot ALTER most things; batch mode rebuilds the table in later revisions.
        render_as_batch=connection.dialect.name == "sqlite",
        compare_type=True,
    )
    with context.begin_transaction():
        context.run_migrations()


def main() -> None:
    connection = context.config.attributes.get("connection")
    if connection is not None:
        _run(connection)
        return
    url = context.get_x_argument(as_dictionary=True).get("url") or context.config.get_main_option(
        "sqlalchemy.url"
    )
    if not url:
        raise RuntimeError("no database: pass -x url=... or use migrate.upgrade(url)")
    engine = create_engine(database_url(url))
    try:
        with engine.begin() as connection:
            _run(connection)
    finally:
        engine.dispose()


main()
