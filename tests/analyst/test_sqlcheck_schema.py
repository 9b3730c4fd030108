"""Schema validation (sqlcheck): every table and column checked against a `SchemaCatalog`,
the seed's error messages, the toolkit's entry points and validation speed. The read-only
check, secure-view rewriting and LIMIT enforcement are in test_sqlcheck_safety.py."""

from __future__ import annotations

import pytest

from frontdesk.assistants.analyst.sql.check import (
    SchemaCatalog,
    UnknownTable,
    UnsafeSQL,
    UnsupportedSQL,
    benchmark_validation,
    prepare,
    referenced_tables,
    schema_errors,
    validate,
)

from .test_sqlcheck_safety import SECURE

TABLES = {
    "crew": ["id", "workOrderId", "name", "createdBy", "createdAt"],
    "employeeCrew": ["id", "crewId", "employeeId", "isLead", "createdAt"],
    "employee": ["id", "firstName", "lastName", "email", "isActive", "createdAt"],
    "workOrder": ["id", "customerId", "status", "dueDate", "createdAt"],
    "customer": ["id", "name", "email", "createdAt"],
    "inspection": ["id", "workOrderId", "passed"],
}


@pytest.fixture
def catalog() -> SchemaCatalog:
    return SchemaCatalog(TABLES)


# -- validate -------------------------------------------------------------------------------


def test_double_pipe_on_mysql_is_explained(catalog):
    result = validate("SELECT name || email FROM customer", catalog, "mysql")
    assert any("CONCAT" in e for e in result.errors)
    assert validate("SELECT name || email FROM customer", catalog, "sqlite").ok


def test_wrong_table_for_column_message_matches_the_seed(catalog):
    result = validate("SELECT crew.isLead FROM crew", catalog, "mysql", secure_map=SECURE)
    assert not result.ok
    assert result.errors == [
        (
            "Column 'crew.isLead' does NOT exist in table 'crew'. Found in: employeeCrew. "
            "Available columns in crew: id, workOrderId, name, createdBy, createdAt"
        )
    ]


def test_unknown_table_suggests(catalog):
    result = validate("SELECT * FROM employees", catalog, "mysql")
    assert result.errors == ["Table 'employees' does not exist. Did you mean: employee?"]
    assert validate("SELECT * FROM zzz", catalog, "mysql").errors == ["Table 'zzz' does not exist."]


def test_hallucinated_secure_view_in_validation(catalog):
    result = validate("SELECT * FROM secure_inspection", catalog, "mysql", secure_map=SECURE)
    assert result.errors[0].startswith(
        "Table 'secure_inspection' does not exist. Did you mean: inspection?"
    )


def test_aliases_resolve_and_errors_name_the_real_table(catalog):
    ok = validate(
        "SELECT e.firstName, ec.isLead FROM employee e JOIN employeeCrew ec "
        "ON ec.employeeId = e.id",
        catalog,
        "mysql",
        secure_map=SECURE,
    )
    assert ok.ok, ok.errors
    assert ok.tables == ["employee", "employeeCrew"]
    assert ok.sql == (
        "SELECT e.firstName, ec.isLead FROM secure_employee AS e JOIN employeeCrew AS ec "
        "ON ec.employeeId = e.id LIMIT 100"
    )
    bad = validate("SELECT e.frstName FROM employee e", catalog, "mysql")
    assert bad.errors == [
        (
            "Column 'e.frstName' does NOT exist in table 'employee'. Did you mean: e.firstName? "
            "Available columns in employee: id, firstName, lastName, email, isActive, createdAt"
        )
    ]


def test_every_error_is_collected(catalog):
    result = validate(
        "SELECT c.isLead, x.name, nope FROM crew c JOIN employeees e ON e.id = c.createdBy "
        "WHERE c.bogus = 1",
        catalog,
        "mysql",
    )
    text = "\n".join(result.errors)
    assert len(result.errors) == 4, text
    assert "Column 'c.isLead' does NOT exist in table 'crew'" in text
    assert "Unknown table or alias 'x'" in text
    assert "Table 'employees' does not exist" not in text
    assert "Table 'employeees' does not exist. Did you mean: employee" in text
    assert "Column 'c.bogus' does NOT exist in table 'crew'" in text


def test_unqualified_columns(catalog):
    assert validate("SELECT firstName FROM employee", catalog, "mysql").ok
    result = validate(
        "SELECT isLead FROM employee JOIN crew ON crew.id = employee.id", catalog, "mysql"
    )
    assert result.errors == [
        (
            "Column 'isLead' does NOT exist in any table of the query (employee, crew). "
            "Found in: employeeCrew."
        )
    ]


@pytest.mark.parametrize(
    "sql",
    [
        # select-list aliases in ORDER BY / GROUP BY / HAVING
        "SELECT status, COUNT(*) AS n FROM workOrder GROUP BY status HAVING n > 1 ORDER BY n",
        "SELECT YEAR(createdAt) AS y, COUNT(*) FROM workOrder GROUP BY y",
        # CTE and derived-table outputs
        (
            "WITH leads AS (SELECT employeeId AS who FROM employeeCrew WHERE isLead = 1) "
            "SELECT e.firstName FROM leads l JOIN employee e ON e.id = l.who"
        ),
        "SELECT t.n FROM (SELECT COUNT(*) AS n FROM crew) t",
        "WITH x AS (SELECT * FROM crew) SELECT x.anything FROM x",  # unknown: skipped
        # correlated subquery sees the outer alias
        (
            "SELECT e.id FROM employee e WHERE EXISTS (SELECT 1 FROM employeeCrew ec "
            "WHERE ec.employeeId = e.id AND isActive = 1)"
        ),
        "SELECT e.* FROM employee e",
        "SELECT * FROM crew JOIN inspection USING (workOrderId)",
        "SELECT firstName FROM employee UNION SELECT name FROM customer ORDER BY firstName",
    ],
)
def test_valid_queries_pass(sql, catalog):
    result = validate(sql, catalog, "mysql", secure_map=SECURE)
    assert result.ok, result.errors


def test_cte_and_join_errors(catalog):
    cte = validate(
        "WITH t AS (SELECT id, name AS nm FROM crew) SELECT t.name FROM t", catalog, "mysql"
    )
    assert cte.errors == [
        "Column 't.name' does NOT exist in the subquery or CTE 't'. Its columns are: id, nm"
    ]
    on = validate("SELECT 1 FROM crew c JOIN workOrder w ON w.crewId = c.id", catalog, "mysql")
    assert on.errors[0].startswith("Column 'w.crewId' does NOT exist in table 'workOrder'.")
    using = validate("SELECT 1 FROM crew JOIN employee USING (workOrderId)", catalog, "mysql")
    assert using.errors[0].startswith("Column 'employee.workOrderId' does NOT exist")
    qualifier = validate("SELECT employee.id FROM employee e", catalog, "mysql")
    assert "use the alias" in qualifier.errors[0]


def test_available_columns_are_capped():
    wide = SchemaCatalog({"wide": [f"c{i}" for i in range(150)]})
    error = validate("SELECT wide.nope FROM wide", wide, "sqlite", max_columns=100).errors[0]
    assert "c99, … (+50 more)" in error and "c100" not in error


def test_validate_fixes_table_spelling_and_marks_unsafe(catalog):
    result = validate("SELECT id FROM INSPECTION", catalog, "mysql")
    assert result.sql == "SELECT id FROM inspection AS INSPECTION LIMIT 100"
    unsafe = validate("DROP TABLE crew", catalog, "mysql")
    assert unsafe.unsafe and not unsafe.ok and unsafe.sql == ""


# -- the toolkit's entry points --------------------------------------------------------------


def test_prepare_schema_errors_and_referenced_tables(catalog):
    sql = "SELECT e.firstName FROM employee e LIMIT 1000"
    assert prepare(sql, dialect="sqlite", secure_map=SECURE, max_rows=50) == (
        "SELECT e.firstName FROM secure_employee AS e LIMIT 50"
    )
    with pytest.raises(UnsafeSQL):
        prepare("DELETE FROM crew", dialect="mysql")
    with pytest.raises(UnsupportedSQL):
        prepare("SELECT a || b FROM crew", dialect="mysql")
    with pytest.raises(UnknownTable):
        prepare("SELECT * FROM secure_nothing", dialect="mysql", secure_map=SECURE)
    assert schema_errors("SELECT crew.isLead FROM crew", catalog, dialect="mysql")[0].startswith(
        "Column 'crew.isLead'"
    )
    tables = referenced_tables(
        "WITH x AS (SELECT * FROM crew) SELECT * FROM x JOIN secure_employee e ON 1 = 1",
        "mysql",
        SECURE,
    )
    assert tables == ["employee", "crew"] or tables == ["crew", "employee"]
    assert referenced_tables("DELETE FROM crew", "mysql") == []


# -- the catalog --------------------------------------------------------------------------------


def test_catalog_lookups(catalog):
    assert catalog.table("WORKORDER") == "workOrder"
    assert catalog.column("workorder", "DUEDATE") == "dueDate"
    assert catalog.column("workOrder", "nope") is None
    assert catalog.suggest_table("workorders") == ["workOrder"]
    assert catalog.suggest_column("employee", "firstname") == ["firstName"]
    assert catalog.tables_with_column("isLead") == ["employeeCrew"]
    assert "Employee" in catalog and len(catalog) == len(TABLES)


# -- speed ----------------------------------------------------------------------------------------


def test_validation_accepts_valid_joins_on_a_130_table_catalog():
    # Its speed (p50/p95 per query) is measured by `python -m benchmarks.run --only analyst`.
    tables = dict(TABLES)
    for i in range(125):
        tables[f"table{i}"] = ["id", "name", "createdAt"] + [f"col{j}" for j in range(i % 40)]
    big = SchemaCatalog(tables)
    queries = [
        (
            "SELECT e.firstName, e.lastName, COUNT(DISTINCT w.id) AS jobs FROM employee e "
            "JOIN employeeCrew ec ON ec.employeeId = e.id JOIN crew c ON c.id = ec.crewId "
            "JOIN workOrder w ON w.id = c.workOrderId WHERE w.status = 'completed' "
            "GROUP BY e.id, e.firstName, e.lastName ORDER BY jobs DESC LIMIT 10"
        ),
        (
            "SELECT cu.name, w.status, COUNT(*) AS n FROM customer cu JOIN workOrder w "
            "ON w.customerId = cu.id JOIN inspection i ON i.workOrderId = w.id "
            "WHERE i.passed = 0 GROUP BY cu.name, w.status"
        ),
    ]
    stats = benchmark_validation(big, queries, n=40, dialect="mysql", secure_map=SECURE)
    assert stats["invalid_results"] == 0
    assert stats["tables_in_catalog"] >= 130


def test_a_condition_comparing_a_column_with_itself_is_refused(catalog):
    sql = "SELECT c.name, COUNT(*) FROM customer c JOIN workOrder w ON c.id = c.id GROUP BY c.name"
    checked = validate(sql, catalog, "sqlite")
    assert not checked.ok
    assert any("compares a column with itself" in e and "c.id = c.id" in e for e in checked.errors)
    assert any(
        "compares a column with itself" in e for e in schema_errors(sql, catalog, dialect="sqlite")
    )
    right = "SELECT c.name FROM customer c JOIN workOrder w ON w.customerId = c.id"
    assert validate(right, catalog, "sqlite").ok


def test_one_alias_for_two_tables_is_refused_with_the_fix(catalog):
    # The 0.5B model gives customer and contract both "c" when they share an initial.
    sql = "SELECT c.name FROM customer c JOIN workOrder c ON c.customerId = c.id"
    checked = validate(sql, catalog, "sqlite")
    assert not checked.ok
    assert any("'c' is given to 2 tables (customer, workOrder)" in e for e in checked.errors)
    # A subquery's alias is its own scope; the same table twice under two aliases is fine.
    nested = (
        "SELECT c.name, (SELECT COUNT(*) FROM workOrder c WHERE c.customerId = 1) AS n "
        "FROM customer c"
    )
    assert validate(nested, catalog, "sqlite").ok
    twice = "SELECT a.name FROM customer a JOIN customer b ON a.id = b.id"
    assert validate(twice, catalog, "sqlite").ok
