"""The labelled gold SQL sets stay runnable: `data/eval/sql.jsonl` (demo), `chinook_sql.jsonl`
and `nycflights13_sql.jsonl`.

Every line has the fields the `sql` eval suite reads, ids are unique, each tier is represented,
and every gold SQL passes the same checks as the agent's SQL (`sql.check.prepare` and
`sql.check.schema_errors`, logical table names, secure views for PII) and runs on its database
with 1 to 50 rows. The demo database is built once per module into a temporary directory;
Chinook is read from the shared datasets folder beside the checkout and skipped when absent;
nycflights13 is built once per module from the files vendored in the package (offline).
Equality of the demo results on MariaDB was checked when the set was written (see the data
README); here the demo SQL only has to pass the MySQL dialect checks, which need no server.
"""

from __future__ import annotations

import json
import re
from collections import Counter
from pathlib import Path

import pytest
import sqlalchemy as sa

from frontdesk.assistants.analyst.db.engine import open_engine
from frontdesk.assistants.analyst.db.secure_views import SECURE_VIEW_MAP
from frontdesk.assistants.analyst.demo.build import build_sqlite
from frontdesk.assistants.analyst.demo.schema.tables import TABLES
from frontdesk.assistants.analyst.sample_databases import build_nycflights13
from frontdesk.assistants.analyst.sql import check as sqlcheck
from frontdesk.assistants.analyst.sql.executor import execute_read_only
from frontdesk.eval.datasets import load_dataset

EVAL_DIR = Path(__file__).resolve().parents[2] / "src/frontdesk/assistants/analyst/data/eval"
DEMO_FILE = EVAL_DIR / "sql.jsonl"
CHINOOK_FILE = EVAL_DIR / "chinook_sql.jsonl"
NYCFLIGHTS13_FILE = EVAL_DIR / "nycflights13_sql.jsonl"
SHARED = Path(__file__).resolve().parents[2].parent / "shared"
CHINOOK_DB = SHARED / "datasets" / "chinook" / "Chinook_Sqlite.sqlite"

KEY = "frontdesk-test-key-2024"
FIELDS = {"id", "question", "gold_sql", "db", "tier"}
TIERS = ("easy", "medium", "hard")
MAX_ROWS = 100
# Functions and idioms that do not run the same on SQLite and MariaDB, or depend on the clock.
NOT_PORTABLE = re.compile(
    r"\b(strftime|julianday|date_format|datediff|current_date|current_timestamp|now)\b|\|\|",
    re.IGNORECASE,
)


def _load(path: Path) -> list[dict]:
    with path.open(encoding="utf-8") as handle:
        return [json.loads(line) for line in handle if line.strip()]


DEMO = _load(DEMO_FILE)
CHINOOK = _load(CHINOOK_FILE)
NYCFLIGHTS13 = _load(NYCFLIGHTS13_FILE)


def _ids(rows: list[dict]) -> list[str]:
    return [row.get("id", f"line-{n}") for n, row in enumerate(rows, 1)]


def _check_rows(rows: list[dict], db: str, min_per_tier: int, min_total: int) -> None:
    assert len(rows) >= min_total
    for row in rows:
        assert set(row) == FIELDS, row.get("id")
        assert all(isinstance(row[f], str) and row[f].strip() for f in FIELDS), row["id"]
        assert row["db"] == db, row["id"]
        assert row["tier"] in TIERS, row["id"]
    ids = [row["id"] for row in rows]
    assert len(set(ids)) == len(ids), [i for i, n in Counter(ids).items() if n > 1]
    tiers = Counter(row["tier"] for row in rows)
    assert all(tiers[tier] >= min_per_tier for tier in TIERS), tiers


def _introspected(engine: sa.Engine) -> sqlcheck.SchemaCatalog:
    inspector = sa.inspect(engine)
    return sqlcheck.SchemaCatalog(
        {
            name: [c["name"] for c in inspector.get_columns(name)]
            for name in inspector.get_table_names()
        }
    )


def _run(engine: sa.Engine, sql: str, catalog, secure_map: dict, dialect: str = "sqlite"):
    assert sqlcheck.schema_errors(sql, catalog, dialect=dialect, secure_map=secure_map) == []
    prepared = sqlcheck.prepare(sql, dialect=dialect, secure_map=secure_map, max_rows=MAX_ROWS)
    result = execute_read_only(engine, prepared, max_rows=MAX_ROWS)
    assert result.ok, result.error
    assert 1 <= result.row_count <= 50 and not result.truncated, result.row_count
    return result


# ---- demo database -------------------------------------------------------------------------


@pytest.fixture(scope="module")
def demo_catalog() -> sqlcheck.SchemaCatalog:
    return sqlcheck.SchemaCatalog({t.name: list(t.column_names) for t in TABLES})


@pytest.fixture(scope="module")
def demo_engine(tmp_path_factory):
    path = build_sqlite(tmp_path_factory.mktemp("gold") / "crewos.db", KEY)
    engine = open_engine(f"sqlite:///{path}", KEY, read_only=True)
    yield engine
    engine.dispose()


def test_demo_file_shape():
    _check_rows(DEMO, "demo", min_per_tier=22, min_total=66)
    assert all(re.fullmatch(r"demo-\d{3}", row["id"]) for row in DEMO)


@pytest.mark.parametrize("row", DEMO, ids=_ids(DEMO))
def test_demo_gold_sql_runs(row, demo_engine, demo_catalog):
    sql = row["gold_sql"]
    assert not NOT_PORTABLE.search(sql), "gold SQL must run unchanged on SQLite and MariaDB"
    # The MariaDB side of the checks needs no server: dialect features and the schema.
    sqlcheck.prepare(sql, dialect="mysql", secure_map=SECURE_VIEW_MAP, catalog=demo_catalog)
    assert (
        sqlcheck.schema_errors(sql, demo_catalog, dialect="mysql", secure_map=SECURE_VIEW_MAP) == []
    )
    result = _run(demo_engine, sql, demo_catalog, SECURE_VIEW_MAP)
    if result.row_count > 1:
        assert " ORDER BY " in sql.upper(), "a listing needs a deterministic order"


# ---- Chinook -------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def chinook():
    if not CHINOOK_DB.exists():
        pytest.skip(f"Chinook database not found at {CHINOOK_DB}")
    engine = open_engine(f"sqlite:///{CHINOOK_DB}", "", read_only=True)
    yield engine, _introspected(engine)
    engine.dispose()


def test_chinook_file_shape():
    _check_rows(CHINOOK, "chinook", min_per_tier=1, min_total=30)


@pytest.mark.parametrize("row", CHINOOK, ids=_ids(CHINOOK))
def test_chinook_gold_sql_runs(row, chinook):
    engine, catalog = chinook
    _run(engine, row["gold_sql"], catalog, {})


# ---- nycflights13 (vendored, held out) -----------------------------------------------------


@pytest.fixture(scope="module")
def nycflights13(tmp_path_factory):
    path = build_nycflights13(tmp_path_factory.mktemp("gold") / "nycflights13.sqlite")
    engine = open_engine(f"sqlite:///{path}", "", read_only=True)
    yield engine, _introspected(engine)
    engine.dispose()


def test_nycflights13_file_shape():
    _check_rows(NYCFLIGHTS13, "nycflights13", min_per_tier=10, min_total=30)
    cases = load_dataset("sql", NYCFLIGHTS13_FILE)  # what `frontdesk eval sql` reads
    assert len(cases) == len(NYCFLIGHTS13) and {c.db for c in cases} == {"nycflights13"}
    assert [row["id"] for row in NYCFLIGHTS13] == [
        f"nycflights13-{n:03d}" for n in range(1, len(NYCFLIGHTS13) + 1)
    ]


@pytest.mark.parametrize("row", NYCFLIGHTS13, ids=_ids(NYCFLIGHTS13))
def test_nycflights13_gold_sql_runs(row, nycflights13):
    engine, catalog = nycflights13
    sql = row["gold_sql"]
    result = _run(engine, sql, catalog, {})
    if result.row_count > 1:
        assert " ORDER BY " in sql.upper(), "a listing needs a deterministic order"
