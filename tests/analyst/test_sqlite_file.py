"""A database file is replaced whole or not at all: a reader never opens a half-built one."""

from __future__ import annotations

import sqlite3

import pytest

from frontdesk.assistants.analyst.db.sqlite_file import atomic_sqlite


def _rows(path):
    conn = sqlite3.connect(path)
    try:
        return conn.execute("SELECT v FROM t").fetchall()
    finally:
        conn.close()


def test_a_finished_build_replaces_the_file(tmp_path):
    path = tmp_path / "nested" / "db.sqlite"
    with atomic_sqlite(path) as conn:
        conn.execute("CREATE TABLE t (v)")
        conn.execute("INSERT INTO t VALUES (1)")
        conn.commit()
        assert not path.exists()  # nothing is visible while the build runs
    assert _rows(path) == [(1,)]
    assert [p.name for p in path.parent.iterdir()] == ["db.sqlite"]


def test_a_failed_build_leaves_the_old_file_and_no_leftovers(tmp_path):
    path = tmp_path / "db.sqlite"
    with atomic_sqlite(path) as conn:
        conn.execute("CREATE TABLE t (v)")
        conn.execute("INSERT INTO t VALUES ('old')")
        conn.commit()
    with pytest.raises(RuntimeError), atomic_sqlite(path) as conn:
        conn.execute("CREATE TABLE t (v)")
        conn.execute("INSERT INTO t VALUES ('half')")
        conn.commit()
        raise RuntimeError("the source data ran out")
    assert _rows(path) == [("old",)]
    assert [p.name for p in tmp_path.iterdir()] == ["db.sqlite"]
