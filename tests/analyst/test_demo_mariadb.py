"""The demo database on a real MariaDB (127.0.0.1:3306, root, empty password).

Proves what SQLite cannot: Python's AES is byte-compatible with MariaDB's AES_ENCRYPT and
AES_DECRYPT in both directions, the views decrypt through `frontdesk_aes_key()` and the
session's `@aesKey`, the same rows land in both engines, and READ ONLY sessions refuse
writes. Builds into its own schema, dropped at the end. An unreachable server is a failure,
not a skip: production runs on MariaDB.
"""

from __future__ import annotations

import os

import pytest
from sqlalchemy import create_engine, text
from sqlalchemy.exc import DBAPIError, OperationalError

from frontdesk.assistants.analyst.db.crypto import aes_decrypt, aes_encrypt
from frontdesk.assistants.analyst.db.engine import checksums, open_engine
from frontdesk.assistants.analyst.db.secure_views import ENCRYPTED_COLUMNS, SECURE_VIEW_MAP
from frontdesk.assistants.analyst.demo.build import META_TABLE, build_mysql, build_sqlite
from frontdesk.assistants.analyst.demo.data.generate import generate
from frontdesk.assistants.analyst.demo.schema.tables import TABLES, relationship_truth

from .test_demo_postgres import GOLD_ROWS, sqlite_engine  # noqa: F401 (a fixture)
from .test_demo_postgres import _rows as gold_rows

pytestmark = pytest.mark.mariadb

SERVER = "mysql+pymysql://root:@127.0.0.1:3306"
# Per process: two test runs on one machine (developers, CI) must not share a schema.
SCHEMA = f"frontdesk_test_demo_{os.getpid()}"
URL = f"{SERVER}/{SCHEMA}"
KEY = "frontdesk-test-key-2024"


def _require_server() -> None:
    admin = create_engine(SERVER, connect_args={"connect_timeout": 3})
    try:
        with admin.connect() as conn:
            conn.execute(text("SELECT 1"))
    except OperationalError as exc:
        pytest.fail(
            f"MariaDB at 127.0.0.1:3306 (root, no password) is unreachable: {exc.orig}. "
            "Start it, or deselect these tests with -m 'not mariadb'.",
            pytrace=False,
        )
    finally:
        admin.dispose()


def test_server_is_reachable():
    _require_server()


@pytest.fixture(scope="module")
def built():
    _require_server()
    build_mysql(URL, KEY)
    yield URL
    admin = create_engine(SERVER, isolation_level="AUTOCOMMIT")
    with admin.connect() as conn:
        conn.execute(text(f"DROP DATABASE IF EXISTS `{SCHEMA}`"))
    admin.dispose()


@pytest.fixture(scope="module")
def engine(built):
    engine = open_engine(built, KEY)
    yield engine
    engine.dispose()


@pytest.fixture(scope="module")
def rows():
    return generate()


def test_secure_views_decrypt_with_the_session_key(engine, rows):
    with engine.connect() as conn:
        for table, view in SECURE_VIEW_MAP.items():
            result = conn.execute(text(f"SELECT * FROM `{view}` ORDER BY id"))
            assert list(result.keys()) == list(rows[table][0].keys())
            seen = [dict(r._mapping) for r in result]
            for plain, row in zip(rows[table], seen, strict=True):
                for column in ENCRYPTED_COLUMNS[table]:
                    assert row[column] == plain[column], (table, column, plain["id"])
        names = (
            conn.execute(
                text(
                    "SELECT firstName FROM secure_employee WHERE firstName IN ('José', 'Zoë', 'Renée', "
                    "'André')"
                )
            )
            .scalars()
            .all()
        )
        assert names, "accented names survive the round trip"


def test_views_without_the_key_show_nothing(built):
    plain = create_engine(built)  # no @aesKey on these connections
    with plain.connect() as conn:
        assert conn.execute(text("SELECT DISTINCT email FROM secure_user")).scalars().all() == [
            None
        ]
    plain.dispose()


def test_python_ciphertext_decrypts_in_mariadb(engine, rows):
    with engine.connect() as conn:
        stored = conn.execute(
            text(
                "SELECT id, CAST(AES_DECRYPT(lastName, :key) AS CHAR(80) CHARACTER SET utf8mb4) "
                "FROM employee ORDER BY id"
            ),
            {"key": KEY},
        ).fetchall()
        assert [r[1] for r in stored] == [e["lastName"] for e in rows["employee"]]
        for value in ("", "x" * 15, "x" * 16, "x" * 17, "Zoë Müller-O'Brien", "Ünïcødé ✓"):
            blob = aes_encrypt(value, KEY)
            back = conn.execute(
                text("SELECT CAST(AES_DECRYPT(:blob, :key) AS CHAR CHARACTER SET utf8mb4)"),
                {"blob": blob, "key": KEY},
            ).scalar()
            assert back == value


def test_mariadb_ciphertext_decrypts_in_python(engine):
    with engine.connect() as conn:
        for value in ("", "x" * 16, "Zoë Müller-O'Brien", "(512) 555-0100"):
            blob = conn.execute(
                text("SELECT AES_ENCRYPT(:value, :key)"), {"value": value, "key": KEY}
            ).scalar()
            assert blob == aes_encrypt(value, KEY)
            assert aes_decrypt(blob, KEY).decode() == value
        # With the session key, through the function the views use.
        blob = conn.execute(text("SELECT AES_ENCRYPT('via session', frontdesk_aes_key())")).scalar()
        assert aes_decrypt(blob, KEY) == b"via session"


def test_row_counts_equal_sqlite(engine, tmp_path):
    lite = open_engine(f"sqlite:///{build_sqlite(tmp_path / 'crewos.db', KEY)}", KEY)
    names = [t.name for t in TABLES] + [META_TABLE]
    with engine.connect() as maria, lite.connect() as sqlite:
        for name in names:
            count = f"SELECT COUNT(*) FROM {{q}}{name}{{q}}"
            assert (
                maria.exec_driver_sql(count.format(q="`")).scalar()
                == sqlite.exec_driver_sql(count.format(q='"')).scalar()
            ), name
    lite.dispose()


def test_declared_foreign_keys_exist_and_undeclared_do_not(engine):
    with engine.connect() as conn:
        found = set(
            conn.execute(
                text(
                    "SELECT TABLE_NAME, COLUMN_NAME, REFERENCED_TABLE_NAME FROM "
                    "information_schema.KEY_COLUMN_USAGE WHERE TABLE_SCHEMA = :s AND "
                    "REFERENCED_TABLE_NAME IS NOT NULL"
                ),
                {"s": SCHEMA},
            ).fetchall()
        )
        types = dict(
            conn.execute(
                text(
                    "SELECT CONCAT(TABLE_NAME, '.', COLUMN_NAME), DATA_TYPE FROM "
                    "information_schema.COLUMNS WHERE TABLE_SCHEMA = :s"
                ),
                {"s": SCHEMA},
            ).fetchall()
        )
    truth = relationship_truth()
    assert found == {
        (r["from_table"], r["from_column"], r["to_table"]) for r in truth if r["declared"]
    }
    assert types["workTime.hours"] == "decimal" and types["invoice.total"] == "decimal"
    assert types["workTime.startTime"] == "datetime" and types["invoice.dueDate"] == "date"
    assert types["employee.firstName"] == "varbinary"


def test_read_only_engine_refuses_writes(built):
    engine = open_engine(built, KEY, read_only=True)
    tables = ["tag", "employee", "workTime"]
    before = checksums(engine, tables)
    for statement in (
        "INSERT INTO tag (id, name, color) VALUES (999, 'x', 'red')",
        "UPDATE employee SET isActive = 0",
        "DELETE FROM workTime",
        "CREATE TABLE sneaky (id INT)",
        "DROP VIEW secure_user",
    ):
        with engine.connect() as conn, pytest.raises(DBAPIError, match="READ ONLY"):
            conn.execute(text(statement))
            conn.commit()
    with engine.connect() as conn:
        assert conn.execute(text("SELECT COUNT(*) FROM secure_user")).scalar() > 0
        assert conn.execute(text("SHOW TABLES LIKE 'sneaky'")).fetchall() == []
    assert checksums(engine, tables) == before
    engine.dispose()


def test_checksums_change_after_a_write(engine):
    before = checksums(engine, ["tag"])
    with engine.begin() as conn:
        conn.execute(text("UPDATE tag SET color = 'black' WHERE id = 1"))
    assert checksums(engine, ["tag"]) != before


@pytest.mark.parametrize("row", GOLD_ROWS, ids=[r["id"] for r in GOLD_ROWS])
def test_every_demo_gold_query_gives_the_sqlite_rows_on_mariadb(row, engine, sqlite_engine):  # noqa: F811
    # The checks rewrite names, views and dialect for each target: the rows stay the same.
    sql = row["gold_sql"]
    on_mariadb, on_sqlite = gold_rows(engine, sql, "mysql"), gold_rows(sqlite_engine, sql, "sqlite")
    if " ORDER BY " not in sql.upper():
        on_mariadb, on_sqlite = sorted(on_mariadb, key=repr), sorted(on_sqlite, key=repr)
    assert on_mariadb == on_sqlite
