"""Opening the analyst's database for a user: a read-only engine that has answered once, or
an error that says in the user's terms what is wrong, without any password.

Its own module because it joins the engine (`db.engine`) with the driver-error wording
(`sql.errors`), which the `db` package may not import.
"""

from __future__ import annotations

from sqlalchemy import Engine
from sqlalchemy.engine import URL, make_url
from sqlalchemy.exc import ArgumentError, NoSuchModuleError, SQLAlchemyError

from frontdesk.assistants.analyst.db.engine import open_engine
from frontdesk.assistants.analyst.sql.errors import classify_error
from frontdesk.errors import FrontdeskError

__all__ = ["SUPPORTED", "DatabaseUnavailable", "connect_checked"]


class DatabaseUnavailable(FrontdeskError):
    """The analyst's database cannot be used; the message says why, without any password."""


SUPPORTED = "SQLite, MySQL/MariaDB or PostgreSQL"


def connect_checked(url: str | URL, aes_key: str) -> Engine:
    """A read-only engine on `url` that has answered once, or DatabaseUnavailable saying, in
    the user's terms, what is wrong: not a URL, a kind of database the analyst cannot check
    SQL for, or a server or file that does not answer."""
    try:
        parsed = make_url(url)
    except ArgumentError:
        raise DatabaseUnavailable(
            "the analyst's database URL is not a database URL (expected e.g. "
            "postgresql://user@host:5432/name or sqlite:///path/to/file.db)"
        ) from None
    shown = parsed.render_as_string(hide_password=True)
    backend = parsed.get_backend_name()
    if backend not in ("sqlite", "mysql", "mariadb", "postgresql"):
        raise DatabaseUnavailable(f"the analyst runs on {SUPPORTED}, not '{backend}' ({shown})")
    try:
        engine = open_engine(parsed, aes_key, read_only=True)
        with engine.connect() as conn:
            conn.exec_driver_sql("SELECT 1")
    except (NoSuchModuleError, ImportError) as exc:
        raise DatabaseUnavailable(
            f"the driver for {shown} is not installed ({exc}); the analyst runs on {SUPPORTED}"
        ) from None
    except SQLAlchemyError as exc:
        _, reason = classify_error(getattr(exc, "orig", None) or exc)
        raise DatabaseUnavailable(
            f"the analyst's database {shown} is not reachable: {reason or type(exc).__name__}"
        ) from None
    return engine
