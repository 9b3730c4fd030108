"""SQL safety and rewriting (sqlcheck): the read-only check, secure-view rewriting, LIMIT
enforcement and dialect rendering. Schema validation is in test_sqlcheck_schema.py."""

from __future__ import annotations

import sqlite3

import pytest
import sqlglot

from frontdesk.assistants.analyst.sql.check import (
    InvalidSQL,
    UnknownTable,
    UnsafeSQL,
    UnsupportedSQL,
    check_read_only,
    enforce_limit,
    render,
    rewrite_secure,
)

SECURE = {
    "employee": "secure_employee",
    "workOrder": "secure_workorder",
    "customer": "secure_customer",
}


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


def test_mysql_date_parts_run_on_sqlite():
    sql = "SELECT COUNT(*) FROM crew WHERE YEAR(createdAt) = 2025 AND MONTH(createdAt) = 11"
    on_sqlite = final(sql, "sqlite")
    assert "YEAR(" not in on_sqlite and "MONTH(" not in on_sqlite
    assert "CAST(STRFTIME('%Y', createdAt) AS INTEGER) = 2025" in on_sqlite
    rows = sqlite3.connect(":memory:").execute(
        on_sqlite.replace("FROM crew", "FROM (SELECT '2025-11-03 08:00:00' AS createdAt)")
    )
    assert rows.fetchall() == [(1,)]
    assert "YEAR(createdAt)" in final(sql, "mysql")


def test_every_sqlite_date_part_computes_what_mysql_would_at_any_depth():
    on_sqlite = final(
        "SELECT YEAR(d), MONTH(d), DAY(d), DAYOFMONTH(d), EXTRACT(YEAR FROM d), "
        "EXTRACT(MONTH FROM d), EXTRACT(DAY FROM d) FROM (SELECT '2024-03-05 10:30:00' AS d) AS t "
        "GROUP BY YEAR(d)",
        "sqlite",
    )
    assert "YEAR" not in on_sqlite.replace("'%Y'", "")
    rows = sqlite3.connect(":memory:").execute(on_sqlite).fetchall()
    assert rows == [(2024, 3, 5, 5, 2024, 3, 5)]


def test_mysql_clock_and_date_arithmetic_run_on_sqlite():
    on_sqlite = final(
        "SELECT CURDATE() = CURRENT_DATE, NOW() = CURRENT_TIMESTAMP, "
        "DATE_SUB('2024-03-05', INTERVAL 7 DAY), DATE_ADD('2024-01-15', INTERVAL 1 MONTH), "
        "DATE_SUB('2024-03-05', INTERVAL 2 YEAR)",
        "sqlite",
    )
    assert "CURDATE" not in on_sqlite and "NOW(" not in on_sqlite and "INTERVAL" not in on_sqlite
    rows = sqlite3.connect(":memory:").execute(on_sqlite).fetchall()
    assert rows == [(1, 1, "2024-02-27", "2024-02-15", "2022-03-05")]
    # MySQL keeps its own spelling.
    assert "DATE_SUB(" in final("SELECT DATE_SUB(CURDATE(), INTERVAL 7 DAY)", "mysql")


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


def test_rendering_drops_comments():
    sql = final("SELECT 1 -- */ DROP TABLE x\n, 2 /* hi */", "mysql")
    assert sql == "SELECT 1, 2"


def test_sqlglot_is_what_parses():
    # The checks are built on sqlglot's tree; a future major version must be re-verified.
    assert int(sqlglot.__version__.split(".")[0]) >= 25
