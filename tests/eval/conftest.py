"""Shared helpers for the evaluation harness tests: dataset files and a fake clock."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from frontdesk.eval import suites


class FakeClock:
    """Stands in for time.perf_counter: time only moves when a fake callable says so."""

    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now

    def advance(self, seconds: float) -> None:
        self.now += seconds


@pytest.fixture
def clock(monkeypatch: pytest.MonkeyPatch) -> FakeClock:
    fake = FakeClock()
    monkeypatch.setattr(suites, "clock", fake)
    return fake


@pytest.fixture
def write_jsonl(tmp_path: Path) -> Callable[..., Path]:
    """Write rows (dicts are JSON-encoded, strings written verbatim) to a .jsonl file."""

    def write(rows: list[Any], name: str = "data.jsonl") -> Path:
        path = tmp_path / name
        lines = [row if isinstance(row, str) else json.dumps(row) for row in rows]
        path.write_text("\n".join(lines) + "\n", encoding="utf-8")
        return path

    return write
