"""Fixtures the casino host's tests share."""

from __future__ import annotations

import pytest

from frontdesk.assistants.casino_host.storage import Store


@pytest.fixture
def store(tmp_path):
    """A SQLite store with Mohegan Sun (a module with a `store` of its own uses that one)."""
    opened = Store(tmp_path / "host.db", phone_pepper="test-pepper")
    opened.put_casino("mohegan_sun", name="Mohegan Sun", timezone="America/New_York", state="CT")
    yield opened
    opened.close()
