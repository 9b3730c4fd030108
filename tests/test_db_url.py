"""One reading of a configured database: a plain path is SQLite, and a bare postgresql:// URL
gets psycopg 3 (SQLAlchemy's default, psycopg2, is not installed, so every store failed on it)."""

from __future__ import annotations

import os

import pytest
from sqlalchemy import create_engine, text
from sqlalchemy.exc import ArgumentError

from frontdesk.db_url import database_url, make_sqlite_folder
from frontdesk.memory.threads import ThreadStore


@pytest.mark.parametrize(
    ("configured", "driver", "database"),
    [
        ("data/threads.db", "sqlite", "data/threads.db"),
        ("/srv/frontdesk/threads.db", "sqlite", "/srv/frontdesk/threads.db"),
        ("sqlite:///:memory:", "sqlite", ":memory:"),
        ("postgresql://postgres@127.0.0.1:5432/app", "postgresql+psycopg", "app"),
        ("postgresql+psycopg://postgres@127.0.0.1/app", "postgresql+psycopg", "app"),
        ("mysql+pymysql://root@127.0.0.1:3306/app", "mysql+pymysql", "app"),
    ],
)
def test_a_configured_database_becomes_the_url_frontdesk_connects_with(
    configured, driver, database
):
    url = database_url(configured)
    assert (url.drivername, url.database) == (driver, database)


def test_a_malformed_url_is_sqlalchemys_clear_error():
    with pytest.raises(ArgumentError):
        database_url("postgres ql://user@host/db")


def test_the_folder_of_a_sqlite_file_is_made_and_nothing_else(tmp_path):
    make_sqlite_folder(database_url(tmp_path / "a" / "b" / "threads.db"))
    assert (tmp_path / "a" / "b").is_dir()
    make_sqlite_folder(database_url("sqlite:///:memory:"))
    make_sqlite_folder(database_url("postgresql://postgres@127.0.0.1/x"))
    assert not (tmp_path / "x").exists()


@pytest.mark.postgres
def test_the_conversation_store_runs_on_a_bare_postgresql_url():
    server = "postgresql+psycopg://postgres@127.0.0.1:5432"
    name = f"frontdesk_test_threads_{os.getpid()}"
    admin = create_engine(f"{server}/postgres", isolation_level="AUTOCOMMIT")
    with admin.connect() as conn:
        conn.execute(text(f'DROP DATABASE IF EXISTS "{name}"'))
        conn.execute(text(f'CREATE DATABASE "{name}"'))
    try:
        store = ThreadStore(f"postgresql://postgres@127.0.0.1:5432/{name}")
        try:
            assert store.claim_sync("concierge", "t1", "thread-1", "alice", "Pool hours")
            assert store.owner_sync("concierge", "t1") == "alice"
        finally:
            store.close()
    finally:
        with admin.connect() as conn:
            conn.execute(text(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))
        admin.dispose()
