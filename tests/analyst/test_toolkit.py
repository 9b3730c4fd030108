"""The SQL toolkit on the demo database: what the agent's prompts are built from."""

from __future__ import annotations

import logging
import sqlite3
from contextlib import closing
from dataclasses import replace

import pytest

from frontdesk.assistants.analyst.db.secure_views import ENCRYPTED_COLUMNS
from frontdesk.assistants.analyst.service import open_database
from frontdesk.assistants.analyst.settings import AnalystSettings
from frontdesk.assistants.analyst.sql.executor import DatabaseDown
from frontdesk.assistants.analyst.sql_agent.samples import (
    SAMPLE_PROMPT_CHARS,
    SAMPLE_ROW_CHARS,
    SAMPLE_VALUE_CHARS,
    may_sample,
)
from frontdesk.assistants.analyst.sql_agent.toolkit import SQLLimits, SQLToolkit
from frontdesk.runtime import Models


def test_the_demo_database_is_seen_through_logical_names(toolkit):
    assert len(toolkit.graph.tables) == 132
    assert "secure_employee" not in toolkit.graph.tables
    assert set(toolkit.secure_map) == {
        "user",
        "employee",
        "workOrder",
        "customer",
        "customerLocation",
        "customerContact",
    }


def test_correction_context_adds_the_table_that_has_the_missing_column(toolkit):
    error = (
        "Column 'crew.isLead' does NOT exist in table 'crew'. Found in: employeeCrew. "
        "Available columns in crew: id, workOrderId, name, createdBy, createdAt"
    )
    tables = toolkit.focus_tables("SELECT COUNT(*) FROM crew WHERE crew.isLead = 1", error, [])
    assert tables[:2] == ["crew", "employeeCrew"]


def test_chosen_tables_without_a_direct_join_get_the_tables_between_them(toolkit):
    tables, paths = toolkit.connect_pairs(["customer", "workTime"], 10)
    assert tables[:2] == ["customer", "workTime"] and "workOrder" in tables
    assert paths and {r["to_table"] for r in paths[0]} | {r["from_table"] for r in paths[0]} >= {
        "customer",
        "workOrder",
        "workTime",
    }


def test_join_plan_joins_three_tables_in_one_tree(toolkit):
    tables, plan = toolkit.join_plan(["employee", "workTime", "workOrder"])
    assert {"employee", "workTime", "workOrder"} <= set(tables)
    lines = plan.splitlines()
    assert lines[0].startswith("FROM ") and len([x for x in lines if x.startswith("JOIN")]) == 2
    assert (
        "workTime.employeeId = employee.id" in plan or "employee.id = workTime.employeeId" in plan
    )


def test_status_values_are_shown_for_the_sql_writer(toolkit):
    hint = toolkit.sample("workOrder").values
    for status in ("'open'", "'completed'", "'cancelled'"):
        assert status in hint


def test_prepare_refuses_writes_and_maps_secure_views(toolkit):
    assert toolkit.prepare("DELETE FROM employee").kind == "unsafe"
    prepared = toolkit.prepare("SELECT e.firstName FROM employee e")
    assert prepared.ok and "secure_employee AS e" in prepared.sql and "LIMIT 100" in prepared.sql
    assert toolkit.validate("SELECT nope FROM employee") != []


def test_sql_the_checker_cannot_analyse_gets_an_error_not_an_exception(toolkit):
    sql = "SELECT w.id FROM workOrder w JOIN workOrderType w ON w.workOrderTypeId = w.id"
    errors = toolkit.validate(sql)
    # Once sqlglot's "Alias already used: w"; now the shape check names both tables.
    assert errors == [
        (
            "The name 'w' is given to 2 tables (workOrder, workOrderType): give each table its "
            "own alias."
        )
    ]


# -- sample rows (SQL_SAMPLE_ROWS) -------------------------------------------------------------


def with_samples(toolkit, rows: int) -> SQLToolkit:
    """The demo toolkit with another SQL_SAMPLE_ROWS and a cache of its own."""
    return SQLToolkit(
        name=toolkit.name,
        engine=toolkit.engine,
        graph=toolkit.graph,
        search=toolkit.search,
        descriptions=toolkit.descriptions,
        secure_map=toolkit.secure_map,
        limits=replace(toolkit.limits, sample_rows=rows),
    )


def rows_under(schema: str, table: str) -> list[str]:
    """The `  row: ...` lines that follow `table(...)` in a schema text."""
    lines = schema.splitlines()
    start = next(i for i, line in enumerate(lines) if line.startswith(f"{table}("))
    found = []
    for line in lines[start + 1 :]:
        if not line.startswith("  "):
            break
        if line.startswith("  row: "):
            found.append(line)
    return found


def test_the_setting_reaches_the_toolkit(monkeypatch):
    assert SQLLimits.from_settings(AnalystSettings(_env_file=None)).sample_rows == 0
    monkeypatch.setenv("FRONTDESK_ANALYST_SQL_SAMPLE_ROWS", "2")
    assert SQLLimits.from_settings(AnalystSettings(_env_file=None)).sample_rows == 2



def test_every_limit_has_its_setting_and_the_same_default(monkeypatch):
    """A limit added without a setting, or with a default of its own, would drift unseen."""
    assert SQLLimits.from_settings(AnalystSettings(_env_file=None)) == SQLLimits()
    monkeypatch.setenv("FRONTDESK_ANALYST_SQL_MAX_HOPS", "2")
    monkeypatch.setenv("FRONTDESK_ANALYST_MAX_QUERY_ROWS", "7")
    limits = SQLLimits.from_settings(AnalystSettings(_env_file=None))
    assert (limits.max_hops, limits.max_query_rows) == (2, 7)

def test_sample_rows_zero_shows_none_and_two_shows_two(toolkit):
    none = with_samples(toolkit, 0).schema_text(["workOrder", "invoice"], 50)
    assert "row:" not in none
    assert "status: 'cancelled' | 'completed'" in none  # the status values stay
    two = with_samples(toolkit, 2).schema_text(["workOrder", "invoice"], 50)
    assert len(rows_under(two, "workOrder")) == 2 and len(rows_under(two, "invoice")) == 2
    assert "workOrderNumber='WO-" in two and "status='" in two
    assert rows_under(toolkit.schema_text(["workOrder"], 50), "workOrder") == []  # default


def test_sample_rows_show_only_the_columns_shown(toolkit):
    schema = with_samples(toolkit, 1).schema_text(["workOrder"], 3)
    (row,) = rows_under(schema, "workOrder")
    assert row.startswith("  row: id=") and "customerId=" in row and "status=" not in row


def test_personal_columns_are_never_sampled(toolkit):
    sampler = with_samples(toolkit, 2)
    secure = sorted(toolkit.secure_map)
    schemas = {table: sampler.schema_text([table], 100) for table in secure}
    schema = "\n".join(schemas.values())
    rows = {table: rows_under(schemas[table], table) for table in secure}
    assert all(rows.values()), "the tables with personal data still show their other columns"
    for table, lines in rows.items():
        shown = {pair.split("=")[0] for line in lines for pair in line[7:].split(", ")}
        assert not shown & set(ENCRYPTED_COLUMNS[table]), table
        # Personal or free text by their names: never sampled either.
        assert not shown & {"description", "username", "billingZip", "latitude", "notes"}, table
    # Nor their values: the decrypted names, e-mails and phones of the rows sampled (the test
    # acts as the operator, who may read them, so the sample could have).
    personal = "SELECT firstName, lastName, email, phone FROM employee ORDER BY id LIMIT 2"
    people = toolkit.execute(toolkit.prepare(personal).sql)
    assert people.ok and len(people.rows) == 2
    for value in (v for row in people.rows for v in row):
        assert str(value) not in schema


@pytest.mark.parametrize(
    ("table", "column", "sampled"),
    [
        ("emailLog", "emailType", True),  # status-like: its values are not personal
        ("vendor", "name", True),
        ("customers", "name", False),  # the name of a table of people
        ("customerContact", "name", False),
        ("customerType", "name", True),
        ("patient", "maritalStatus", False),  # sensitive even though status-like
        ("shipment", "recipient_email", False),
        ("customer", "name", False),  # encrypted in the demo database
        ("technician", "licenseNumber", False),
    ],
)
def test_which_columns_may_be_sampled(table, column, sampled):
    assert may_sample(table, column) is sampled


def test_sample_rows_are_bounded(toolkit):
    sampler = with_samples(toolkit, 5)
    tables = sorted(toolkit.graph.tables)[:40]
    schema = sampler.schema_text(tables, 100)
    rows = [line for line in schema.splitlines() if line.startswith("  row: ")]
    assert rows and sum(len(line) - len("  row: ") for line in rows) <= SAMPLE_PROMPT_CHARS
    assert all(len(line) - len("  row: ") <= SAMPLE_ROW_CHARS + 3 for line in rows)
    for line in rows:
        for pair in line[len("  row: ") :].split(", "):
            value = pair.partition("=")[2].strip("'")
            assert len(value) <= SAMPLE_VALUE_CHARS


def test_samples_are_cached_per_table(toolkit, monkeypatch):
    sampler = with_samples(toolkit, 1)
    first = sampler.schema_text(["invoice"], 50)
    monkeypatch.setattr(sampler, "execute", lambda sql: pytest.fail(f"ran again: {sql}"))
    assert sampler.schema_text(["invoice"], 50) == first


def test_samples_are_retried_after_the_database_was_down(toolkit, monkeypatch):
    sampler = with_samples(toolkit, 1)
    down = DatabaseDown("the database at db:3306 is not reachable")
    monkeypatch.setattr(sampler, "execute", lambda sql: down)
    schema = sampler.schema_text(["invoice"], 50)
    assert schema.startswith("invoice(") and "row:" not in schema and "values:" not in schema
    monkeypatch.undo()
    schema = sampler.schema_text(["invoice"], 50)
    assert "row: " in schema and "values: status:" in schema


@pytest.fixture
def small_toolkit(demo_settings, tmp_path):
    """A database of three tables without secure views, one of people, one with long text."""
    path = tmp_path / "small.sqlite"
    with closing(sqlite3.connect(path)) as db:
        db.executescript(
            """
            CREATE TABLE depot (id INTEGER PRIMARY KEY, city TEXT, kind TEXT);
            CREATE TABLE customers (id INTEGER PRIMARY KEY, name TEXT, email TEXT, city TEXT);
            CREATE TABLE shipment (id INTEGER PRIMARY KEY, depot_id INTEGER REFERENCES depot(id),
                                   status TEXT, label TEXT);
            INSERT INTO depot VALUES (1, 'Dallas', 'hub'), (2, 'Austin', 'spoke');
            INSERT INTO customers VALUES (1, 'Jane Roe', 'jane@example.com', 'Waco');
            """
        )
        db.execute(
            "INSERT INTO shipment VALUES (1, 1, 'sent', ?), (2, 2, 'held', 'short')",
            ("Fragile: keep upright, handle with care, signed on arrival " * 3,),
        )
        db.commit()
    opened = open_database(
        demo_settings, Models(demo_settings), url=f"sqlite:///{path}", name="small"
    )
    tk = with_samples(opened, 1)  # the default shows none
    yield tk, path
    opened.engine.dispose()


def test_a_personal_table_without_secure_views_keeps_names_and_emails_out(small_toolkit):
    tk, _ = small_toolkit
    schema = tk.schema_text(["customers"], 50)
    assert "row: id=1, city='Waco'" in schema
    assert "Jane" not in schema and "example.com" not in schema


def test_long_values_are_cut(small_toolkit):
    tk, _ = small_toolkit
    (row,) = rows_under(tk.schema_text(["shipment"], 50), "shipment")
    assert "label='Fragile: keep upright,…'" in row and len(row) < 100


def test_a_failing_sample_query_costs_only_the_sample(small_toolkit, caplog):
    tk, path = small_toolkit
    with closing(sqlite3.connect(path)) as db:
        db.execute("DROP TABLE depot")
        db.commit()
    with caplog.at_level(logging.INFO, logger="frontdesk.assistants.analyst.sql_agent.toolkit"):
        schema = tk.schema_text(["depot", "shipment"], 50)
    assert schema.splitlines()[0] == "depot(id, city, kind)"
    assert rows_under(schema, "depot") == []
    assert len(rows_under(schema, "shipment")) == 1 and "values: status: 'held' | 'sent'" in schema
    assert "no sample of depot" in caplog.text
