"""The demo field-service database on SQLite: schema, ground truth, data, encryption, safety.

One build per module (a few seconds); tests that write work on copies of the file.
"""

from __future__ import annotations

import shutil
import sqlite3
from collections import Counter
from datetime import datetime
from pathlib import Path

import pytest
from sqlalchemy import text
from sqlalchemy.exc import DBAPIError

from frontdesk.assistants.analyst.db.crypto import aes_decrypt, aes_encrypt, mysql_aes_key
from frontdesk.assistants.analyst.db.engine import SCHEMA_KEY, checksums, open_engine
from frontdesk.assistants.analyst.db.secure_views import (
    ENCRYPTED_COLUMNS,
    SECURE_VIEW_MAP,
    view_ddl,
)
from frontdesk.assistants.analyst.demo.build import META_TABLE, build_sqlite, fingerprint
from frontdesk.assistants.analyst.demo.data.generate import generate
from frontdesk.assistants.analyst.demo.schema.tables import (
    TABLE_BY_NAME,
    TABLES,
    column_descriptions,
    relationship_truth,
    table_descriptions,
)

KEY = "frontdesk-test-key-2024"


@pytest.fixture(scope="module")
def rows():
    return generate()


@pytest.fixture(scope="module")
def db_path(tmp_path_factory) -> Path:
    return build_sqlite(tmp_path_factory.mktemp("demo") / "crewos.db", KEY)


@pytest.fixture(scope="module")
def ro_engine(db_path):
    engine = open_engine(f"sqlite:///{db_path}", KEY, read_only=True)
    yield engine
    engine.dispose()


@pytest.fixture
def db_copy(db_path, tmp_path) -> Path:
    copy = tmp_path / "copy.db"
    shutil.copy(db_path, copy)
    return copy


def raw(db_path: Path) -> sqlite3.Connection:
    return sqlite3.connect(f"{db_path.resolve().as_uri()}?mode=ro", uri=True)


# -- schema and ground truth ---------------------------------------------------------------


def test_at_least_125_tables_each_with_integer_id(db_path):
    assert 125 <= len(TABLES) <= 140
    conn = raw(db_path)
    names = {r[0] for r in conn.execute("SELECT name FROM sqlite_master WHERE type='table'")}
    assert {t.name for t in TABLES} | {META_TABLE} <= names
    for table in TABLES:
        info = conn.execute(f'PRAGMA table_info("{table.name}")').fetchall()
        assert [c[1] for c in info] == list(table.column_names)
        assert info[0][1] == "id" and info[0][5] == 1 and info[0][2] == "INTEGER"
    views = {r[0] for r in conn.execute("SELECT name FROM sqlite_master WHERE type='view'")}
    assert views == set(SECURE_VIEW_MAP.values())


def test_documented_schema_facts():
    assert TABLE_BY_NAME["crew"].column_names == (
        "id",
        "workOrderId",
        "name",
        "createdBy",
        "createdAt",
    )
    assert TABLE_BY_NAME["employeeCrew"].column_names == (
        "id",
        "crewId",
        "employeeId",
        "isLead",
        "createdAt",
    )
    work_time = TABLE_BY_NAME["workTime"]
    assert {"employeeId", "workOrderId", "startTime", "endTime", "hours"} <= set(
        work_time.column_names
    )
    assert work_time.column("hours").type.startswith("DECIMAL")
    question = TABLE_BY_NAME["inspectionQuestion"].column_names
    assert "inspectionTemplateId" in question and "inspectionId" not in question
    assert {"inspectionId", "inspectionQuestionId", "answer"} <= set(
        TABLE_BY_NAME["inspectionAnswer"].column_names
    )


def test_descriptions_cover_every_table():
    descriptions = table_descriptions()
    assert set(descriptions) == set(TABLE_BY_NAME)
    assert all(len(d) > 20 for d in descriptions.values())
    assert "hours" in descriptions["workTime"].lower()
    assert "PII" in column_descriptions()["employee"]["firstName"]


def test_relationship_truth_matches_declared_foreign_keys(db_path):
    truth = relationship_truth()
    undeclared = [r for r in truth if not r["declared"]]
    assert 0.2 <= len(undeclared) / len(truth) <= 0.3
    assert len({r["from_table"] for r in undeclared}) >= 30  # spread over many tables
    conn = raw(db_path)
    declared = {
        (t.name, fk[3], fk[2], fk[4])
        for t in TABLES
        for fk in conn.execute(f'PRAGMA foreign_key_list("{t.name}")')
    }
    for r in truth:
        key = (r["from_table"], r["from_column"], r["to_table"], r["to_column"])
        assert (key in declared) == r["declared"], key
    assert len(declared) == len(truth) - len(undeclared)
    pairs = {(r["from_table"], r["from_column"]): (r["to_table"], r["declared"]) for r in truth}
    assert pairs[("crew", "createdBy")] == ("user", False)
    assert pairs[("workOrder", "assignedToId")] == ("employee", False)
    assert pairs[("ticket", "assignedToId")] == ("user", False)
    assert pairs[("workOrder", "parentWorkOrderId")] == ("workOrder", False)
    assert pairs[("workTime", "employeeId")] == ("employee", True)


def test_every_relationship_value_points_at_an_existing_row(db_path):
    conn = raw(db_path)
    assert conn.execute("PRAGMA foreign_key_check").fetchall() == []
    for r in relationship_truth():
        src, col, dst = r["from_table"], r["from_column"], r["to_table"]
        dangling, used = conn.execute(
            f'SELECT SUM(NOT EXISTS (SELECT 1 FROM "{dst}" d WHERE d.id = s."{col}")), '
            f'COUNT(s."{col}") FROM "{src}" s WHERE s."{col}" IS NOT NULL'
        ).fetchone()
        assert used > 0, f"{src}.{col} is never set"
        assert not dangling, f"{src}.{col} has {dangling} dangling values"


# -- data ---------------------------------------------------------------------------------


def test_generation_is_deterministic(rows, ro_engine):
    """The built file came from its own `generate()` call: it must equal this module's one."""
    with ro_engine.connect() as conn:
        for table in TABLES:
            source = SECURE_VIEW_MAP.get(table.name, table.name)
            stored = conn.exec_driver_sql(f'SELECT * FROM "{source}" ORDER BY id').fetchall()
            assert [tuple(r) for r in stored] == [tuple(r.values()) for r in rows[table.name]], (
                table.name
            )


def test_row_counts_and_realism(rows, db_path):
    conn = raw(db_path)
    for table in TABLES:
        count = conn.execute(f'SELECT COUNT(*) FROM "{table.name}"').fetchone()[0]
        assert count == len(rows[table.name]) > 0, table.name
    assert 40_000 < sum(len(v) for v in rows.values()) < 150_000
    employees = rows["employee"]
    assert len(employees) == 40
    techs = [e for e in employees if e["isTechnician"]]
    assert len(techs) == 25 == len(rows["technician"])
    assert Counter(e["isActive"] for e in techs) == {1: 21, 0: 4}
    assert len(rows["customer"]) == 150 and 250 <= len(rows["customerLocation"]) <= 350
    orders = rows["workOrder"]
    assert 1800 <= len(orders) <= 2300
    assert min(o["requestedDate"] for o in orders) >= "2024-01-01"
    assert max(o["requestedDate"] for o in orders) <= "2025-12-31"
    assert {o["status"] for o in orders} == {
        "open",
        "scheduled",
        "in_progress",
        "on_hold",
        "completed",
        "cancelled",
    }
    assert 5000 <= len(rows["workTime"]) <= 8000
    for entry in rows["workTime"]:
        start = datetime.fromisoformat(entry["startTime"])
        end = datetime.fromisoformat(entry["endTime"])
        assert round((end - start).total_seconds() / 3600, 2) == entry["hours"] > 0
    crews = Counter(m["crewId"] for m in rows["employeeCrew"] if m["isLead"])
    assert set(crews.values()) == {1} and len(crews) == len(rows["crew"])
    assert sum(a["isFailed"] for a in rows["inspectionAnswer"]) > 100
    statuses = Counter(i["status"] for i in rows["invoice"])
    assert statuses["overdue"] > 30 and statuses["paid"] > 1000


def test_invoice_amounts_add_up(rows):
    lines: dict[int, float] = {}
    for line in rows["invoiceLine"]:
        assert round(line["quantity"] * line["unitPrice"], 2) == pytest.approx(line["lineTotal"])
        lines[line["invoiceId"]] = lines.get(line["invoiceId"], 0.0) + line["lineTotal"]
    paid: dict[int, float] = {}
    for payment in rows["payment"]:
        paid[payment["invoiceId"]] = paid.get(payment["invoiceId"], 0.0) + payment["amount"]
    for invoice in rows["invoice"]:
        assert lines[invoice["id"]] == pytest.approx(invoice["subtotal"], abs=0.011)
        assert invoice["subtotal"] + invoice["taxAmount"] == pytest.approx(invoice["total"])
        assert paid.get(invoice["id"], 0.0) == pytest.approx(invoice["amountPaid"])
        if invoice["status"] == "paid":
            assert invoice["amountPaid"] == pytest.approx(invoice["total"])


# -- encryption and secure views ----------------------------------------------------------


def test_crypto_matches_mariadb_known_answers():
    # Produced by MariaDB 10.11: SELECT HEX(AES_ENCRYPT('hello', 'secretkey...')).
    assert (
        aes_encrypt("hello", "secretkeythatislongerthan16bytes").hex().upper()
        == "DB5CE97B62AFC2980422B56BAE489394"
    )
    assert aes_encrypt("Zoë", "k").hex().upper() == "46609E5A9C90778832E343AEC8719D76"
    assert mysql_aes_key("k") == b"k" + bytes(15)
    assert mysql_aes_key(b"A" * 17) == bytes([0]) + b"A" * 15
    for value in ("", "a" * 15, "a" * 16, "a" * 17, "Müller O'Brien"):
        assert aes_decrypt(aes_encrypt(value, KEY), KEY) == value.encode()
    assert aes_encrypt(None, KEY) is None and aes_decrypt(None, KEY) is None
    assert aes_decrypt(aes_encrypt("secret", KEY), "wrong key") is None
    assert aes_decrypt(b"short", KEY) is None


def test_base_tables_hold_ciphertext_only(db_path, rows):
    conn = raw(db_path)
    for table, columns in ENCRYPTED_COLUMNS.items():
        names = TABLE_BY_NAME[table].column_names
        stored = conn.execute(f'SELECT * FROM "{table}" ORDER BY id').fetchall()
        for plain, cipher in zip(rows[table], stored, strict=True):
            for column in columns:
                value = cipher[names.index(column)]
                if plain[column] is None:
                    assert value is None
                    continue
                assert isinstance(value, bytes) and plain[column].encode() not in value
                assert aes_decrypt(value, KEY).decode() == plain[column]


def test_secure_views_decrypt_every_column(ro_engine, rows):
    with ro_engine.connect() as conn:
        for table, view in SECURE_VIEW_MAP.items():
            result = conn.execute(text(f'SELECT * FROM "{view}" ORDER BY id'))
            assert list(result.keys()) == list(TABLE_BY_NAME[table].column_names)
            decrypted = [dict(r._mapping) for r in result]
            assert len(decrypted) == len(rows[table])
            for plain, seen in zip(rows[table], decrypted, strict=True):
                for column in ENCRYPTED_COLUMNS[table]:
                    assert seen[column] == plain[column]
        name = conn.execute(
            text(
                "SELECT e.firstName || ' ' || e.lastName FROM workTime w "
                "JOIN secure_employee e ON e.id = w.employeeId ORDER BY w.id LIMIT 1"
            )
        ).scalar()
        assert name and name.isprintable()


def test_views_need_the_key(db_path):
    conn = raw(db_path)
    with pytest.raises(sqlite3.OperationalError, match="no such function"):
        conn.execute("SELECT firstName FROM secure_employee").fetchone()
    wrong = open_engine(f"sqlite:///{db_path}", "not the key", read_only=True)
    with wrong.connect() as c:
        assert (
            c.execute(text("SELECT firstName FROM secure_employee LIMIT 5")).scalars().all()
            == [None] * 5
        )
    wrong.dispose()


def test_view_ddl_per_dialect():
    sqlite_sql = "\n".join(
        view_ddl("user", ["id", "username", "fullName", "email", "phone", "roleId"], "sqlite")
    )
    assert 'CAST(aes_decrypt("fullName", aes_key()) AS TEXT) AS "fullName"' in sqlite_sql
    mysql_sql = "\n".join(view_ddl("user", ["id", "fullName", "email", "phone"], "mysql"))
    assert "AES_DECRYPT(`email`, frontdesk_aes_key())" in mysql_sql
    assert "@aesKey" not in mysql_sql and "CHARACTER SET utf8mb4" in mysql_sql
    with pytest.raises(ValueError):
        view_ddl("user", ["id", "email"], "sqlite")  # encrypted columns missing


# -- safety and idempotence ---------------------------------------------------------------

WRITES = [
    "INSERT INTO tag (id, name, color) VALUES (999, 'x', 'red')",
    "UPDATE employee SET isActive = 0",
    "DELETE FROM workTime",
    "CREATE TABLE sneaky (id INTEGER)",
    "DROP VIEW secure_user",
    "CREATE TEMP TABLE scratch (id INTEGER)",
]


def test_read_only_engine_refuses_writes(ro_engine):
    before = checksums(ro_engine)
    for statement in WRITES:
        with ro_engine.connect() as conn, pytest.raises(DBAPIError):
            conn.execute(text(statement))
            conn.commit()
    assert checksums(ro_engine) == before


def test_checksums_detect_writes(db_copy):
    engine = open_engine(f"sqlite:///{db_copy}", KEY)
    before = checksums(engine)
    assert set(before) == {t.name for t in TABLES} | {META_TABLE, SCHEMA_KEY}
    assert checksums(engine, ["tag"]) == {"tag": before["tag"]}
    with engine.begin() as conn:
        conn.execute(text("UPDATE tag SET color = 'black' WHERE id = 1"))
    after = checksums(engine)
    assert after["tag"] != before["tag"]
    assert {k for k in after if after[k] != before[k]} == {"tag"}
    with engine.begin() as conn:
        conn.execute(text("CREATE TABLE extra (id INTEGER)"))
    assert checksums(engine)[SCHEMA_KEY] != after[SCHEMA_KEY]
    engine.dispose()


def test_build_is_idempotent_and_rebuilds_when_stale(db_path, db_copy):
    stamp = db_path.stat().st_mtime_ns
    assert build_sqlite(db_path, KEY) == db_path
    assert db_path.stat().st_mtime_ns == stamp
    conn = sqlite3.connect(db_copy)
    conn.execute(f"UPDATE \"{META_TABLE}\" SET metaValue = 'stale' WHERE metaKey = 'fingerprint'")
    conn.execute("DELETE FROM tag")
    conn.commit()
    conn.close()
    build_sqlite(db_copy, KEY)
    check = raw(db_copy)
    meta = dict(check.execute(f'SELECT metaKey, metaValue FROM "{META_TABLE}"').fetchall())
    assert meta["fingerprint"] == fingerprint()
    assert check.execute("SELECT COUNT(*) FROM tag").fetchone()[0] > 0
    assert [p.name for p in db_copy.parent.iterdir() if "building" in p.name] == []
