"""Fixtures of the casino host storage tests: every test runs on SQLite and on the local
PostgreSQL (127.0.0.1:5432, user postgres, trust auth). The PostgreSQL databases are created
with unique names for this session and dropped at its end; PostgreSQL tests skip, saying why,
when the server is unreachable. No tests here: the test_storage*.py modules import these."""

from __future__ import annotations

import os
import threading
import uuid
from collections.abc import Callable, Iterator
from datetime import UTC, datetime

import pytest
from sqlalchemy import create_engine, func, select, text
from sqlalchemy.exc import OperationalError

from frontdesk.assistants.casino_host.storage import Store, upgrade

SERVER = "postgresql+psycopg://postgres@127.0.0.1:5432"
PEPPER = "test-pepper-not-secret"
NOW = datetime(2026, 3, 15, 14, 0, tzinfo=UTC)
PHONE = "+12035551234"


@pytest.fixture(scope="session")
def postgres_server() -> Iterator[Callable[[], str]]:
    """A factory of fresh, uniquely named databases on the local server."""
    admin = create_engine(
        f"{SERVER}/postgres", isolation_level="AUTOCOMMIT", connect_args={"connect_timeout": 3}
    )
    try:
        with admin.connect():
            pass
    except OperationalError as exc:
        admin.dispose()
        pytest.skip(f"PostgreSQL at 127.0.0.1:5432 (user postgres) is unreachable: {exc.orig}")
    created: list[str] = []

    def new_database() -> str:
        name = f"frontdesk_casino_host_test_{os.getpid()}_{uuid.uuid4().hex[:8]}"
        with admin.connect() as conn:
            conn.execute(text(f'CREATE DATABASE "{name}"'))
        created.append(name)
        return f"{SERVER}/{name}"

    yield new_database
    with admin.connect() as conn:
        for name in created:
            conn.execute(text(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))
    admin.dispose()


@pytest.fixture(scope="session")
def postgres_url(postgres_server: Callable[[], str]) -> str:
    """One migrated database for the session; tests keep apart by using their own casino."""
    url = postgres_server()
    upgrade(url)
    return url


@pytest.fixture(params=["sqlite", pytest.param("postgresql", marks=pytest.mark.postgres)])
def database_url(request: pytest.FixtureRequest, tmp_path) -> str:
    if request.param == "sqlite":
        return f"sqlite:///{tmp_path / 'casino_host.sqlite3'}"
    return request.getfixturevalue("postgres_url")


@pytest.fixture(params=["sqlite", pytest.param("postgresql", marks=pytest.mark.postgres)])
def empty_database_url(request: pytest.FixtureRequest, tmp_path) -> str:
    if request.param == "sqlite":
        return f"sqlite:///{tmp_path / 'empty.sqlite3'}"
    return request.getfixturevalue("postgres_server")()


@pytest.fixture
def store(database_url: str) -> Iterator[Store]:
    opened = Store(database_url, phone_pepper=PEPPER)
    yield opened
    opened.close()


def new_casino(store: Store, state: str = "NJ") -> str:
    casino_id = f"casino-{uuid.uuid4().hex[:12]}"
    store.put_casino(casino_id, name="Test Casino", timezone="America/New_York", state=state)
    return casino_id


@pytest.fixture
def casino(store: Store) -> str:
    return new_casino(store)


def in_threads(count: int, work: Callable[[int], object]) -> list[object]:
    """Run work(0..count-1) in threads released together; re-raise the first error."""
    barrier = threading.Barrier(count)
    results: list[object] = [None] * count
    errors: list[BaseException] = []

    def run(index: int) -> None:
        try:
            barrier.wait(timeout=10)
            results[index] = work(index)
        except BaseException as exc:  # noqa: BLE001 - handed to the test thread
            errors.append(exc)

    threads = [threading.Thread(target=run, args=(i,)) for i in range(count)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=60)
    if errors:
        raise errors[0]
    return results


def count(store: Store, model, **where) -> int:
    """Rows of `model` matching `where`, read outside the store."""
    query = select(func.count()).select_from(model)
    for column, value in where.items():
        query = query.where(getattr(model, column) == value)
    with store.engine.connect() as conn:
        return conn.scalar(query)


def lookups_that_miss_first(store: Store, monkeypatch: pytest.MonkeyPatch) -> set[int]:
    """Make each thread's first guest lookup miss, as when two first messages arrive together,
    so that the unique phone_index insert has to decide. Returns the threads that missed."""
    real_find = store._find_guest_uuid
    missed: set[int] = set()

    def find_that_misses_first(casino_id: str, hashed: str):
        if threading.get_ident() not in missed:
            missed.add(threading.get_ident())
            return None
        return real_find(casino_id, hashed)

    monkeypatch.setattr(store, "_find_guest_uuid", find_that_misses_first)
    return missed
