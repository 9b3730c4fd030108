"""Shared fixtures: deterministic embeddings, a small knowledge file, test settings."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

# A real local SMTP server and webhook receiver, for every test of alerts to people.
from tests.notify_servers import hook, smtp  # noqa: F401

from frontdesk.config import Settings

FIXTURES = Path(__file__).parent / "fixtures"


@pytest.fixture
def small_kb(tmp_path: Path) -> Path:
    target = tmp_path / "kb_small.json"
    shutil.copy(FIXTURES / "kb_small.json", target)
    return target


@pytest.fixture
def hash_embeddings():
    from frontdesk.embeddings import build_embeddings

    return build_embeddings(Settings(embeddings_provider="hash"))


class RecordingEmbeddings:
    """Hash embeddings that remember every text they embedded."""

    def __init__(self):
        from frontdesk.embeddings.hashing import HashEmbeddings

        self.inner = HashEmbeddings()
        self.embedded: list[str] = []

    def embed_documents(self, texts):
        self.embedded.extend(texts)
        return self.inner.embed_documents(texts)

    def embed_query(self, text):
        return self.inner.embed_query(text)


@pytest.fixture
def recording_embeddings() -> RecordingEmbeddings:
    return RecordingEmbeddings()


@pytest.fixture
def test_settings(tmp_path: Path) -> Settings:
    """Offline, fast settings: scripted model, hash embeddings, in-memory conversations."""
    return Settings(
        data_dir=tmp_path / "frontdesk",
        llm_provider="scripted",
        embeddings_provider="hash",
        checkpointer="memory",
        router_llm="never",
        _env_file=None,
    )


@pytest.fixture
def offline_cli_env(monkeypatch, tmp_path: Path):
    """The environment a `frontdesk` command reads, made offline and fast: scripted model, hash
    embeddings, conversations in SQLite under tmp_path (the cached settings are re-read)."""
    from frontdesk.config import get_settings

    monkeypatch.setenv("FRONTDESK_LLM_PROVIDER", "scripted")
    monkeypatch.setenv("FRONTDESK_EMBEDDINGS_PROVIDER", "hash")
    monkeypatch.setenv("FRONTDESK_CHECKPOINTER", "sqlite")
    monkeypatch.setenv("FRONTDESK_ROUTER_LLM", "never")
    monkeypatch.setenv("FRONTDESK_DATA_DIR", str(tmp_path / "data"))
    get_settings.cache_clear()
    yield
    get_settings.cache_clear()


@pytest.fixture(scope="session")
def real_model_settings():
    """`make(data_dir, **values)`: settings for a test of the installed embedded models, all
    else under `data_dir`, routed by the classifier alone (no LLM router), no .env file."""
    from frontdesk.config import get_settings

    def make(data_dir: Path, **values) -> Settings:
        return Settings(
            data_dir=data_dir,
            models_dir=get_settings().models_dir,
            router_llm="never",
            _env_file=None,
            **values,
        )

    return make
