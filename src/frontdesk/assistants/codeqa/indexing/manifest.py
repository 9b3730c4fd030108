"""What was indexed from each file, by its content hash: a file whose bytes did not change is
neither parsed nor embedded again.

One JSON file per repository id holds, per path, the sha256 of the bytes, the chunks and the
symbols they gave. It is written whole to a temporary file and moved into place, so an
interrupted run leaves the previous manifest intact."""

from __future__ import annotations

import hashlib
import json
import os
from dataclasses import asdict
from pathlib import Path
from typing import Any

from frontdesk.assistants.codeqa.indexing.chunker import CodeChunk, FileChunks
from frontdesk.assistants.codeqa.indexing.symbols import Definition, FileSymbols, Reference

__all__ = ["FORMAT", "Manifest", "content_hash"]

# Bumped when chunking or symbols change shape, so every file is parsed again.
# 2: windows of a long leaf (a docstring, a doc section) are even, no small tail.
FORMAT = 2


def content_hash(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


class Manifest:
    def __init__(self, path: Path, entries: dict[str, dict[str, Any]] | None = None,
                 root: str = "") -> None:  # fmt: skip
        self.path = path
        self.entries = entries or {}
        self.root = root

    @classmethod
    def load(cls, path: Path, *, budget: int) -> Manifest:
        """The manifest at `path`; an empty one when missing, unreadable, or written by
        another chunking (format or budget)."""
        try:
            data = json.loads(path.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            return cls(path)
        if data.get("format") != FORMAT or data.get("budget") != budget:
            return cls(path)
        return cls(path, data.get("files") or {}, data.get("root") or "")

    def cached(self, relative: str, sha: str) -> FileChunks | None:
        entry = self.entries.get(relative)
        if not entry or entry.get("sha") != sha:
            return None
        return FileChunks(
            chunks=tuple(_chunk(c) for c in entry["chunks"]),
            symbols=FileSymbols(
                tuple(Definition(**d) for d in entry["definitions"]),
                tuple(Reference(*r) for r in entry["references"]),
            ),
            parsed=entry["parsed"],
        )

    @staticmethod
    def entry(sha: str, result: FileChunks) -> dict[str, Any]:
        return {
            "sha": sha,
            "parsed": result.parsed,
            "chunks": [asdict(c) for c in result.chunks],
            "definitions": [asdict(d) for d in result.symbols.definitions],
            "references": [[r.name, r.line] for r in result.symbols.references],
        }

    def save(self, entries: dict[str, dict[str, Any]], *, root: str, budget: int) -> None:
        self.path.parent.mkdir(parents=True, exist_ok=True)
        temp = self.path.with_name(f".{self.path.name}.{os.getpid()}.tmp")
        payload = {"format": FORMAT, "budget": budget, "root": root, "files": entries}
        temp.write_text(json.dumps(payload, separators=(",", ":")), encoding="utf-8")
        os.replace(temp, self.path)
        self.entries, self.root = entries, root


def _chunk(data: dict[str, Any]) -> CodeChunk:
    return CodeChunk(**{**data, "symbols": tuple(data.get("symbols") or ())})
