"""A small repository written for the codeqa tests, and its manifest entries (no model)."""

from __future__ import annotations

from pathlib import Path

import pytest

from frontdesk.assistants.codeqa.indexing.chunker import chunk_file
from frontdesk.assistants.codeqa.indexing.manifest import Manifest, content_hash
from frontdesk.assistants.codeqa.indexing.walker import walk_repository

SMALL_REPO = {
    "pkg/__init__.py": '"""The pkg package."""\nfrom pkg.client import HTTPClient\n',
    "pkg/client.py": '''"""A tiny HTTP client."""

import json


class HTTPClient:
    """Sends requests and decodes JSON, retrying failed requests."""

    def __init__(self, base_url, retries=3):
        self.base_url = base_url
        self.retries = retries

    def get_json(self, path):
        """GET `path` and decode the body."""
        return json.loads(self._fetch(path))

    def _fetch(self, path):
        for attempt in range(self.retries):
            try:
                return transport_get(self.base_url + path)
            except ConnectionError:
                continue
        raise ConnectionError(path)


def make_client(url):
    """The one place clients are built."""
    return HTTPClient(url)


def transport_get(url):
    raise ConnectionError(url)
''',
    "pkg/config.py": '''"""Settings from config.toml."""

import tomllib


def load_settings(path="config.toml"):
    """Read the TOML settings file and fill in defaults."""
    with open(path, "rb") as handle:
        data = tomllib.load(handle)
    data.setdefault("timeout", 10)
    return data
''',
    "tests/test_client.py": """from pkg.client import make_client


def test_make_client_keeps_the_url():
    client = make_client("http://x")
    assert client.base_url == "http://x"
""",
    "config.toml": 'timeout = 5\nbase_url = "http://localhost"\n',
    "README.md": "# pkg\n\nA tiny HTTP client with retries.\n\n## Settings\n\nSee config.toml.\n",
}


def write_repo(root: Path, files: dict[str, str] = SMALL_REPO) -> Path:
    for name, text in files.items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)
    return root


def manifest_entries(root: Path) -> tuple[dict, dict[str, str]]:
    walk = walk_repository(root)
    entries, types = {}, {}
    for f in walk.files:
        data = f.absolute.read_bytes()
        entries[f.path] = Manifest.entry(content_hash(data), chunk_file(f, data.decode()))
        types[f.path] = f.source_type
    return entries, types


@pytest.fixture
def small_repo(tmp_path) -> Path:
    return write_repo(tmp_path / "small")
