"""SQL checking, secure-view rewriting, LIMIT enforcement and schema validation (sqlcheck)."""

from __future__ import annotations

import sqlite3

import pytest
import sqlglot

from frontdesk.assistants.analyst.sqlcheck import (
    InvalidSQL,
    SchemaCatalog,
    UnknownTable,
    UnsafeSQL,
    UnsupportedSQL,
    benchmark_validation,
    check_read_only,
    enforce_limit,
    prepare,
    referenced_tables,
    render,
    rewrite_secure,
    schema_errors,
    validate,
)

SECURE = {
    "employee": "secure_employee",
    "workOrder": "secure_workorder",
    "customer": "secure_customer",
}
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


def rewritten(sql: str, dialect: str = "mysql") -> str:
    tree = check_read_only(sql, dialect).expression
    return rewrite_secure(tree, SECURE, dialect).sql(dialect)


def limited(sql: str, max_rows: int = 100, dialect: str = "mysql") -> str:
    tree = check_read_only(sql, dialect).expression
    return enforce_limit(tree, max_rows, dialect).sql(dialect)


# -- check_read_only ---------------------------------------------------------------------


@pytest.mark.parametrize(
    "sql",
    [
        "SELECT 1",
        "select id from employee where id = 1;",
        "SELECT 1 UNION SELECT 2",
        "SELECT id FROM employee INTERSECT SELECT id FROM customer",
        "WITH x AS (SELECT id FROM employee) SELECT * FROM x",
        "SELECT * FROM employee -- DROP TABLE employee",
        "SELECT 'DELETE FROM employee' AS text",
        "(SELECT 1) UNION (SELECT 2)",
        "WITH _tmp AS (SELECT 1 AS a) SELECT a FROM _tmp",  # a CTE, not a hidden table
    ],
)
@pytest.mark.parametrize("dialect", ["sqlite", "mysql"])
def test_read_only_queries_pass(sql, dialect):
    assert check_read_only(sql, dialect).expression is not None


@pytest.mark.parametrize(
    ("sql", "fragment"),
    [
        ("SELECT 1; DROP TABLE x", "only one statement"),
        ("DELETE FROM employee", "DELETE"),
        ("WITH x AS (DELETE FROM t RETURNING *) SELECT * FROM x", "DELETE"),
        ("SELECT id INTO @v FROM employee", "INTO"),
        ("SELECT * FROM employee FOR UPDATE", "locking"),
        ("SELECT SLEEP(1)", "SLEEP"),
        ("SELECT `benchmark`(1, 2)", "BENCHMARK"),
        ("SELECT @aesKey", "variables"),
        ("SELECT * FROM information_schema.tables", "system schemas"),
        ("SELECT * FROM sqlite_schema", "system tables"),
        ("SELECT * FROM _secret", "not available"),
        ("/*!50000 DROP TABLE employee */", "executable comments"),
        ("SELECT * FROM employee INTO OUTFILE '/tmp/x'", "OUTFILE"),
    ],
)
def test_unsafe_sql_is_refused_with_a_reason(sql, fragment):
    with pytest.raises(UnsafeSQL) as caught:
        check_read_only(sql, "mysql")
    assert fragment.lower() in caught.value.message.lower()


def test_parse_errors_are_cleaned_for_users():
    with pytest.raises(InvalidSQL) as caught:
        check_read_only("SELECT FROM WHERE", "mysql")
    message = caught.value.message
    assert message.startswith("could not parse the SQL near 'WHERE'")
    assert "<Token" not in message and "\x1b" not in message
    with pytest.raises(InvalidSQL, match="empty"):
        check_read_only("  ;; ", "sqlite")
    with pytest.raises(InvalidSQL, match="unterminated"):
        check_read_only("SELECT 'abc", "sqlite")


# -- rewrite_secure ----------------------------------------------------------------------


@pytest.mark.parametrize(
    ("sql", "expected"),
    [
        (
            "SELECT e.firstName FROM employee e",
            "SELECT e.firstName FROM secure_employee AS e",
        ),
        (
            "SELECT employee.firstName FROM employee",
            "SELECT employee.firstName FROM secure_employee AS employee",
        ),
        (
            (
                "SELECT e.firstName, w.status FROM employee AS e JOIN workOrder w ON w.id = e.id "
                "JOIN crew c ON c.workOrderId = w.id"
            ),
            (
                "SELECT e.firstName, w.status FROM secure_employee AS e JOIN secure_workorder AS w "
                "ON w.id = e.id JOIN crew AS c ON c.workOrderId = w.id"
            ),
        ),
        (
            "SELECT name FROM customer WHERE id IN (SELECT customerId FROM workOrder)",
            (
                "SELECT name FROM secure_customer AS customer WHERE id IN "
                "(SELECT customerId FROM secure_workorder AS workOrder)"
            ),
        ),
        (
            "SELECT x.n FROM (SELECT COUNT(*) AS n FROM employee) AS x",
            "SELECT x.n FROM (SELECT COUNT(*) AS n FROM secure_employee AS employee) AS x",
        ),
        (
            "SELECT firstName FROM employee UNION SELECT name FROM customer",
            (
                "SELECT firstName FROM secure_employee AS employee UNION "
                "SELECT name FROM secure_customer AS customer"
            ),
        ),
        (  # the CTE named like a table is the CTE; its body reads the real table
            (
                "WITH employee AS (SELECT * FROM employee WHERE isActive = 1) "
                "SELECT firstName FROM employee"
            ),
            (
                "WITH employee AS (SELECT * FROM secure_employee AS employee WHERE isActive = 1) "
                "SELECT firstName FROM employee"
            ),
        ),
        (  # already secure, and the map's spelling of a differently cased name
            "SELECT * FROM secure_employee JOIN SECURE_WORKORDER ON 1 = 1",
            "SELECT * FROM secure_employee JOIN secure_workorder ON 1 = 1",
        ),
        (  # case-insensitive logical names keep the written name as the alias
            "SELECT WorkOrder.status FROM WorkOrder",
            "SELECT WorkOrder.status FROM secure_workorder AS WorkOrder",
        ),
        (  # column names equal to table names are untouched
            "SELECT c.employee FROM crew c",
            "SELECT c.employee FROM crew AS c",
        ),
    ],
)
def test_rewrite_secure(sql, expected):
    assert rewritten(sql) == expected


def test_rewrite_secure_is_idempotent_and_leaves_the_input_alone():
    tree = check_read_only("SELECT e.id FROM employee e", "mysql").expression
    once = rewrite_secure(tree, SECURE, "mysql")
    twice = rewrite_secure(once, SECURE, "mysql")
    assert once.sql("mysql") == twice.sql("mysql") == "SELECT e.id FROM secure_employee AS e"
    assert tree.sql("mysql") == "SELECT e.id FROM employee AS e"


def test_hallucinated_secure_view_is_an_error_with_the_logical_name():
    tree = check_read_only("SELECT * FROM secure_inspection", "mysql").expression
    with pytest.raises(UnknownTable, match="Did you mean: inspection"):
        rewrite_secure(tree, SECURE, "mysql")


# -- enforce_limit ------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("sql", "expected"),
    [
        ("SELECT id FROM crew", "SELECT id FROM crew LIMIT 100"),
        ("SELECT id FROM crew LIMIT 5000", "SELECT id FROM crew LIMIT 100"),
        ("SELECT id FROM crew LIMIT 7", "SELECT id FROM crew LIMIT 7"),
        ("SELECT id FROM crew LIMIT 500 OFFSET 20", "SELECT id FROM crew LIMIT 100 OFFSET 20"),
        ("SELECT id FROM crew LIMIT 20, 500", "SELECT id FROM crew LIMIT 100 OFFSET 20"),
        ("SELECT id FROM crew LIMIT ?", "SELECT id FROM crew LIMIT 100"),
        ("SELECT id FROM crew FETCH FIRST 10 ROWS ONLY", "SELECT id FROM crew LIMIT 10"),
        (
            "SELECT id FROM crew UNION SELECT id FROM employee",
            "SELECT id FROM crew UNION SELECT id FROM employee LIMIT 100",
        ),
        (  # only the outermost query
            "SELECT * FROM (SELECT id FROM crew LIMIT 5000) AS x",
            "SELECT * FROM (SELECT id FROM crew LIMIT 5000) AS x LIMIT 100",
        ),
    ],
)
def test_enforce_limit(sql, expected):
    assert limited(sql) == expected


def test_enforce_limit_replaces_expressions():
    assert limited("SELECT id FROM crew LIMIT 1 + 1", dialect="sqlite").endswith("LIMIT 100")


# -- dialects -------------------------------------------------------------------------------


def final(sql: str, dialect: str) -> str:
    return render(check_read_only(sql, dialect).expression, dialect)


def test_faithful_translations_happen():
    assert final("SELECT id::text FROM crew", "mysql") == "SELECT CAST(id AS CHAR) FROM crew"
    assert final("SELECT id FROM crew WHERE name ILIKE '%a%'", "sqlite") == (
        "SELECT id FROM crew WHERE LOWER(name) LIKE LOWER('%a%')"
    )
    assert final("SELECT 1 FROM DUAL", "mysql") == "SELECT 1"


@pytest.mark.parametrize(
    ("sql", "dialect", "feature"),
    [
        ("SELECT * FROM crew FULL OUTER JOIN employee ON 1 = 1", "mysql", "FULL OUTER JOIN"),
        ("SELECT DISTINCT ON (name) name FROM crew", "mysql", "DISTINCT ON"),
        ("SELECT DISTINCT ON (name) name FROM crew", "sqlite", "DISTINCT ON"),
        ("SELECT COUNT(*) FILTER (WHERE id > 1) FROM crew", "mysql", "FILTER"),
        ("SELECT * FROM crew WHERE id = ANY(ARRAY[1, 2])", "mysql", "ARRAY"),
    ],
)
def test_unsupported_features_are_named(sql, dialect, feature):
    with pytest.raises(UnsupportedSQL) as caught:
        final(sql, dialect)
    assert feature in caught.value.message


@pytest.mark.skipif(sqlite3.sqlite_version_info < (3, 39), reason="FULL JOIN needs 3.39")
def test_full_outer_join_runs_on_recent_sqlite():
    sql = final("SELECT * FROM crew FULL OUTER JOIN employee ON 1 = 1", "sqlite")
    assert "FULL OUTER JOIN" in sql


def test_double_pipe_on_mysql_is_explained(catalog):
    result = validate("SELECT name || email FROM customer", catalog, "mysql")
    assert any("CONCAT" in e for e in result.errors)
    assert validate("SELECT name || email FROM customer", catalog, "sqlite").ok


def test_rendering_drops_comments():
    sql = final("SELECT 1 -- */ DROP TABLE x\n, 2 /* hi */", "mysql")
    assert sql == "SELECT 1, 2"


# -- validate -------------------------------------------------------------------------------


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


def test_validation_is_fast_on_a_130_table_catalog():
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
    assert stats["p50_ms"] < 5.0, stats


def test_sqlglot_is_what_parses():
    # The checks are built on sqlglot's tree; a future major version must be re-verified.
    assert int(sqlglot.__version__.split(".")[0]) >= 25
