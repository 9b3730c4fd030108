"""What a user writes for a database, as the SQLAlchemy URL Frontdesk connects with.

Settings take a URL or, for SQLite, a plain path. A bare `postgresql://` would make SQLAlchemy
load psycopg2, which is not installed: Frontdesk ships psycopg 3, so the driver is named here,
once, for every store and assistant."""

from __future__ import annotations

from pathlib import Path

from sqlalchemy.engine import URL, make_url


def database_url(configured: str | Path | URL) -> URL:
    """`configured` as a URL: a path without a scheme is a SQLite file; `postgresql://`
    gets the psycopg 3 driver. Raises sqlalchemy's ArgumentError for a malformed URL."""
    if isinstance(configured, URL):
        parsed = configured
    elif "://" not in str(configured):
        parsed = URL.create("sqlite", database=str(configured))
    else:
        parsed = make_url(str(configured))
    if parsed.drivername == "postgresql":
        parsed = parsed.set(drivername="postgresql+psycopg")
    return parsed


def make_sqlite_folder(url: URL) -> None:
    """Create the folder of a SQLite file so the first connection can create the file."""
    if url.get_backend_name() == "sqlite" and url.database not in (None, "", ":memory:"):
        Path(url.database).expanduser().parent.mkdir(parents=True, exist_ok=True)
