"""The schema comes from Alembic: from an empty database to head, idempotent, matching the
models, with an append-only audit log; and the default database location and URL override."""

from __future__ import annotations

from pathlib import Path

import pytest
from alembic.autogenerate import compare_metadata
from alembic.runtime.migration import MigrationContext
from sqlalchemy import Column, Integer, MetaData, create_engine, inspect, text
from sqlalchemy.exc import DBAPIError
from tests.casino_host import test_storage_support as support
from tests.casino_host.test_storage_support import NOW, PEPPER, PHONE

from frontdesk.assistants.casino_host.storage import Store, head_revision, upgrade
from frontdesk.assistants.casino_host.storage.migrate import VERSION_TABLE, current_revision
from frontdesk.assistants.casino_host.storage.tables import Base
from frontdesk.config import Settings
from frontdesk.db_url import database_url as to_url

# The shared fixtures (SQLite and PostgreSQL), used here by name.
casino = support.casino
database_url = support.database_url
empty_database_url = support.empty_database_url
postgres_server = support.postgres_server
postgres_url = support.postgres_url
store = support.store

TABLES = {
    "casinos",
    "guests",
    "phone_index",
    "profiles",
    "consent_grants",
    "conversations",
    "messages",
    "offers",
    "promotions",
    "escalations",
    "audit_log",
}


def _diff(url: str, metadata: MetaData) -> list:
    engine = create_engine(to_url(url))
    try:
        with engine.connect() as conn:
            context = MigrationContext.configure(
                conn, opts={"compare_type": True, "version_table": VERSION_TABLE}
            )
            return compare_metadata(context, metadata)
    finally:
        engine.dispose()


def test_upgrade_from_empty_creates_every_table_at_head(empty_database_url: str):
    engine = create_engine(to_url(empty_database_url))
    try:
        assert not TABLES & set(inspect(engine).get_table_names())
        upgrade(empty_database_url)
        upgrade(empty_database_url)  # at head already: nothing to do, no error
        tables = set(inspect(engine).get_table_names())
        assert TABLES | {VERSION_TABLE} <= tables
        with engine.connect() as conn:
            assert current_revision(conn) == head_revision()
    finally:
        engine.dispose()


def test_the_models_match_the_migrations(empty_database_url: str):
    upgrade(empty_database_url)
    assert _diff(empty_database_url, Base.metadata) == []
    # The comparison can fail: a column the migration lacks is reported.
    changed = MetaData()
    for table in Base.metadata.tables.values():
        table.to_metadata(changed)
    changed.tables["guests"].append_column(Column("surprise", Integer))
    assert any(diff[0] == "add_column" for diff in _diff(empty_database_url, changed))


def test_the_audit_log_rejects_update_and_delete(store: Store, casino: str):
    store.audit(casino, "profile_updated", details={"version": 2}, now=NOW)
    for statement in (
        "UPDATE audit_log SET event = 'changed' WHERE casino_id = :c",
        "DELETE FROM audit_log WHERE casino_id = :c",
    ):
        with pytest.raises(DBAPIError, match="append-only"), store.engine.begin() as conn:
            conn.execute(text(statement), {"c": casino})
    assert [entry.event for entry in store.audit_entries(casino)] == ["profile_updated"]


def test_the_default_database_is_a_file_in_the_data_dir(tmp_path: Path, monkeypatch):
    monkeypatch.delenv("FRONTDESK_CASINO_HOST_DATABASE_URL", raising=False)
    settings = Settings(data_dir=tmp_path / "data", _env_file=None)
    with Store.from_settings(settings) as opened:
        assert opened.url.database == str(tmp_path / "data" / "casino_host.sqlite3")
        opened.put_casino("c1", name="C", timezone="UTC")
    assert (tmp_path / "data" / "casino_host.sqlite3").is_file()


def test_the_url_setting_overrides_the_default(tmp_path: Path, monkeypatch):
    target = tmp_path / "elsewhere.sqlite3"
    monkeypatch.setenv("FRONTDESK_CASINO_HOST_DATABASE_URL", f"sqlite:///{target}")
    monkeypatch.setenv("FRONTDESK_CASINO_HOST_PHONE_PEPPER", PEPPER)
    settings = Settings(data_dir=tmp_path / "data", _env_file=None)
    with Store.from_settings(settings) as opened:
        opened.put_casino("c1", name="C", timezone="UTC")
        guest, _ = opened.get_or_create_guest("c1", PHONE, now=NOW)
        with Store(target, phone_pepper=PEPPER, migrate=False) as direct:
            assert opened.phone_hash("c1", PHONE) == direct.phone_hash("c1", PHONE)
        assert opened.guest_phone("c1", guest) == PHONE
    assert target.is_file()
    assert not (tmp_path / "data" / "casino_host.sqlite3").exists()


def test_a_casino_needs_a_real_time_zone_and_state(store: Store):
    with pytest.raises(ValueError, match="time zone"):
        store.put_casino("c1", name="C", timezone="Mars/Olympus")
    with pytest.raises(ValueError, match="state"):
        store.put_casino("c1", name="C", timezone="America/New_York", state="New Jersey")
    stored = store.put_casino("c1", name="C", timezone="America/New_York", state="NJ")
    assert store.get_casino("c1") == stored


def test_an_in_memory_sqlite_database_is_refused():
    with pytest.raises(ValueError, match="SQLite file"):
        Store("sqlite://", phone_pepper=PEPPER, migrate=False)


def test_replies_join_the_outbound_queue_without_losing_a_queued_message(
    empty_database_url: str,
):
    """0005: the queue's kinds gain `reply`; a database at 0004 keeps its rows (SQLite copies
    the table in batch mode) and still refuses an unknown kind."""
    upgrade(empty_database_url, "0004_sms_outbound")
    with Store(empty_database_url, phone_pepper=PEPPER, migrate=False) as old:
        old.put_casino("c1", name="C", timezone="UTC")
        guest, _ = old.get_or_create_guest("c1", PHONE, now=NOW)
        queued, _ = old.enqueue_outbound("c1", guest, "marketing", "Buffet Friday", key="k1",
                                         now=NOW)  # fmt: skip
        with pytest.raises(DBAPIError), old.engine.begin() as conn:
            conn.execute(text("UPDATE sms_outbound SET kind = 'reply'"))
    upgrade(empty_database_url)
    with Store(empty_database_url, phone_pepper=PEPPER) as new:
        [kept] = new.outbound_for("c1", guest)
        assert (kept.outbound_id, kept.kind, kept.body) == (
            queued.outbound_id,
            "marketing",
            "Buffet Friday",
        )
        reply, _ = new.enqueue_outbound("c1", guest, "reply", "It opens at 11", key="r1", now=NOW)
        assert reply.kind == "reply"
        with pytest.raises(DBAPIError), new.engine.begin() as conn:
            conn.execute(text("UPDATE sms_outbound SET kind = 'nonsense'"))
