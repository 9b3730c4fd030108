"""Build a SQLite file so that a reader never opens a half-built one."""

from __future__ import annotations

import os
import sqlite3
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path


@contextmanager
def atomic_sqlite(path: Path) -> Iterator[sqlite3.Connection]:
    """A connection to a temporary file beside `path` that replaces `path` when the block ends
    without an error; on an error the temporary file goes and `path` stays as it was. The
    block commits its own work; the file is named per process, so two builds never share one."""
    path.parent.mkdir(parents=True, exist_ok=True)
    temp = path.with_name(f".{path.name}.{os.getpid()}.building")
    temp.unlink(missing_ok=True)
    try:
        conn = sqlite3.connect(temp)
        try:
            yield conn
        finally:
            conn.close()
        os.replace(temp, path)
    finally:
        temp.unlink(missing_ok=True)
