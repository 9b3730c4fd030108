"""The SQL toolkit on the demo database: what the agent's prompts are built from."""

from __future__ import annotations


def test_the_demo_database_is_seen_through_logical_names(toolkit):
    assert len(toolkit.graph.tables) == 132
    assert "secure_employee" not in toolkit.graph.tables
    assert set(toolkit.secure_map) == {
        "user", "employee", "workOrder", "customer", "customerLocation", "customerContact"
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
        "customer", "workOrder", "workTime"
    }


def test_join_plan_joins_three_tables_in_one_tree(toolkit):
    tables, plan = toolkit.join_plan(["employee", "workTime", "workOrder"])
    assert {"employee", "workTime", "workOrder"} <= set(tables)
    lines = plan.splitlines()
    assert lines[0].startswith("FROM ") and len([x for x in lines if x.startswith("JOIN")]) == 2
    assert "workTime.employeeId = employee.id" in plan or "employee.id = workTime.employeeId" in plan


def test_status_values_are_shown_for_the_sql_writer(toolkit):
    hint = toolkit.sample("workOrder")
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
    assert errors and "Alias already used: w" in errors[0]
