"""The checker never turns a valid query into an invalid one on PostgreSQL: names the query
gives itself (output aliases, a subquery's columns) used in another case ("AS month ... GROUP
BY MONTH") still meet once the catalog's mixed-case names are quoted. Each query runs checked
on a real PostgreSQL and unchecked on SQLite (which matches names in any case), over the same
rows, and must give the same answer. Builds its own database, dropped at the end.
"""

from __future__ import annotations

import os
import sqlite3

import pytest
from sqlalchemy import create_engine, text
from sqlalchemy.exc import OperationalError

from frontdesk.assistants.analyst.sql import check as sqlcheck

pytestmark = pytest.mark.postgres

SERVER = "postgresql+psycopg://postgres@127.0.0.1:5432"
DATABASE = f"frontdesk_test_aliases_{os.getpid()}"
CATALOG = sqlcheck.SchemaCatalog(
    {"workOrder": ["id", "status", "openedMonth"], "Invoice": ["InvoiceId", "Total"]}
)
ROWS = {
    "workOrder": [(1, "open", 1), (2, "open", 2), (3, "closed", 2), (4, "open", 3)],
    "Invoice": [(1, 10), (2, 25), (3, 5)],
}
QUERIES = [
    "SELECT openedMonth AS month, COUNT(*) AS n FROM workOrder GROUP BY MONTH ORDER BY Month",
    "SELECT status AS Status, COUNT(*) FROM workOrder GROUP BY STATUS ORDER BY status",
    "SELECT COUNT(*) AS Total FROM Invoice ORDER BY Total",
    "SELECT InvoiceId AS total FROM Invoice ORDER BY TOTAL DESC",
    "SELECT Total AS total FROM Invoice ORDER BY total",
    "SELECT m, COUNT(*) FROM (SELECT openedMonth AS M FROM workOrder) AS t GROUP BY M ORDER BY m",
    (
        "WITH big AS (SELECT InvoiceId AS Id, Total FROM Invoice WHERE Total > 6) "
        "SELECT big.id, big.total FROM big ORDER BY ID"
    ),
    (
        "SELECT status AS s, SUM(openedMonth) AS MonthSum FROM workOrder GROUP BY S "
        "HAVING SUM(openedMonth) > 1 ORDER BY monthsum"
    ),
]


@pytest.fixture(scope="module")
def databases():
    admin = create_engine(f"{SERVER}/postgres", isolation_level="AUTOCOMMIT",
                          connect_args={"connect_timeout": 3})  # fmt: skip
    try:
        with admin.connect() as conn:
            conn.execute(text(f'DROP DATABASE IF EXISTS "{DATABASE}"'))
            conn.execute(text(f'CREATE DATABASE "{DATABASE}"'))
    except OperationalError as exc:
        pytest.fail(f"PostgreSQL at 127.0.0.1:5432 is unreachable: {exc.orig}", pytrace=False)
    postgres = create_engine(f"{SERVER}/{DATABASE}")
    lite = sqlite3.connect(":memory:")
    with postgres.begin() as conn:
        conn.execute(text('CREATE TABLE "workOrder" (id int, status text, "openedMonth" int)'))
        conn.execute(text('CREATE TABLE "Invoice" ("InvoiceId" int, "Total" int)'))
        for table, rows in ROWS.items():
            marks = ", ".join(f":v{i}" for i in range(len(rows[0])))
            for row in rows:
                conn.execute(text(f'INSERT INTO "{table}" VALUES ({marks})'),
                             {f"v{i}": value for i, value in enumerate(row)})  # fmt: skip
    lite.execute("CREATE TABLE workOrder (id int, status text, openedMonth int)")
    lite.execute("CREATE TABLE Invoice (InvoiceId int, Total int)")
    for table, rows in ROWS.items():
        lite.executemany(f"INSERT INTO {table} VALUES ({', '.join('?' * len(rows[0]))})", rows)
    yield postgres, lite
    postgres.dispose()
    lite.close()
    with admin.connect() as conn:
        conn.execute(text(f'DROP DATABASE IF EXISTS "{DATABASE}" WITH (FORCE)'))
    admin.dispose()


@pytest.mark.parametrize("query", QUERIES)
def test_a_valid_query_gives_the_same_rows_checked_on_postgres(databases, query):
    postgres, lite = databases
    checked = sqlcheck.validate(query, CATALOG, "postgres")
    assert checked.ok, checked.errors
    with postgres.connect() as conn:
        got = [tuple(row) for row in conn.execute(text(checked.sql))]
    assert got == lite.execute(query).fetchall(), checked.sql


def test_the_case_in_the_issue_keeps_its_alias_unquoted():
    sql = sqlcheck.validate("SELECT openedMonth AS month FROM workOrder GROUP BY MONTH",
                            CATALOG, "postgres").sql  # fmt: skip
    assert 'GROUP BY month' in sql and '"MONTH"' not in sql
