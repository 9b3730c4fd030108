"""Deterministic repairs: a column taken from the wrong table (the seed's first pattern), in
another spelling style or with its table's name as prefix, a table name for its alias."""

from __future__ import annotations

import pytest

from frontdesk.assistants.analyst.joins.graph import Relationship
from frontdesk.assistants.analyst.sql.check import validate
from frontdesk.assistants.analyst.sql.repair import repair_columns
from frontdesk.assistants.analyst.sql.schema import SchemaCatalog

CATALOG = SchemaCatalog(
    {
        "crew": ["id", "workOrderId", "name", "createdBy", "createdAt"],
        "employeeCrew": ["id", "crewId", "employeeId", "isLead", "createdAt"],
        "employee": ["id", "firstName", "isActive", "isTechnician"],
        "technician": ["id", "employeeId", "licenseNumber"],
        "customer": ["id", "name", "isActive"],
        "workOrder": ["id", "customerId", "status"],
    }
)
RELATIONSHIPS = [
    Relationship("employeeCrew", "crewId", "crew", "id"),
    Relationship("employeeCrew", "employeeId", "employee", "id"),
    Relationship("technician", "employeeId", "employee", "id"),
    Relationship("workOrder", "customerId", "customer", "id"),
    Relationship("crew", "workOrderId", "workOrder", "id"),
]


def repair(sql, preferred=()):
    return repair_columns(sql, CATALOG, RELATIONSHIPS, dialect="sqlite", preferred=preferred)


def test_a_column_is_requalified_to_the_query_table_that_has_it():
    sql = "SELECT COUNT(*) FROM crew c JOIN employeeCrew ec ON ec.crewId = c.id WHERE c.isLead = 1"
    assert repair(sql).endswith("WHERE ec.isLead = 1")


def test_a_table_that_has_the_column_is_joined_in():
    fixed = repair("SELECT COUNT(*) FROM technician WHERE isActive = 1")
    assert fixed == (
        "SELECT COUNT(*) FROM technician JOIN employee ON technician.employeeId = employee.id "
        "WHERE employee.isActive = 1"
    )


@pytest.mark.parametrize(
    "sql",
    [
        "SELECT COUNT(*) FROM employee WHERE isActive = 1",  # nothing wrong
        "SELECT COUNT(*) FROM crew WHERE crew.nosuch = 1",  # no table has it
        "SELECT name FROM workOrder",  # crew and customer both have it and both join directly
        "SELECT * FROM (SELECT isActive FROM technician) t",  # nested: left to the agent
        "SELECT COUNT(*) FROM",  # does not parse
        "SELECT id FROM workOrder WHERE status = 'open",  # does not even tokenise
    ],
)
def test_nothing_ambiguous_or_unrelated_is_touched(sql):
    assert repair(sql) is None


def test_the_agents_chosen_tables_break_a_tie():
    sql = "SELECT COUNT(*) FROM workOrder JOIN crew ON crew.workOrderId = workOrder.id WHERE isActive = 1"
    # customer (via workOrder) has isActive; so would employee via a longer path: only direct
    # joins count, so customer is the one candidate.
    assert "JOIN customer ON workOrder.customerId = customer.id" in repair(sql)
    assert repair(sql).endswith("WHERE customer.isActive = 1")


def test_a_nested_exists_is_not_taken_for_a_flat_select():
    # The inner table is not visible to the outer WHERE: moving crew.isLead there is wrong.
    sql = (
        "SELECT id FROM crew WHERE crew.isLead = 1 "
        "AND EXISTS (SELECT 1 FROM employeeCrew WHERE employeeCrew.crewId = crew.id)"
    )
    assert repair(sql) is None


def test_sql_the_checker_refuses_as_unsafe_is_not_repaired():
    sql = "SELECT load_extension('evil') FROM crew c JOIN employeeCrew ec ON ec.crewId = c.id WHERE c.isLead = 1"
    assert repair(sql) is None


NAMES = SchemaCatalog(
    {
        "invoice": ["id", "customerId", "total", "amountPaid", "issuedAt"],
        "payment": ["id", "invoiceId", "amount_paid"],
        "branch": ["id", "name", "city"],
        "staff": ["id", "branchId", "name"],
        "part": ["id", "name", "price", "partNumber"],
        "supplier": ["id", "partId", "partName"],
        "priority": ["id", "name", "level", "createdAt"],
        "ticket": ["id", "priorityId", "title", "createdAt"],
    }
)
NAME_RELATIONSHIPS = [
    Relationship("payment", "invoiceId", "invoice", "id"),
    Relationship("staff", "branchId", "branch", "id"),
    Relationship("supplier", "partId", "part", "id"),
    Relationship("ticket", "priorityId", "priority", "id"),
]


def fix(sql, dialect="sqlite"):
    fixed = repair_columns(sql, NAMES, NAME_RELATIONSHIPS, dialect=dialect)
    if fixed is not None:  # whatever the repair writes passes the checks
        assert validate(fixed, NAMES, dialect).ok, fixed
    return fixed


@pytest.mark.parametrize(
    ("sql", "expected"),
    [
        (
            "SELECT SUM(total - amount_paid) FROM invoice",
            "SELECT SUM(total - amountPaid) FROM invoice",
        ),
        (
            "SELECT i.amount_paid FROM invoice AS i WHERE i.Issued_At > '2024-01-01'",
            "SELECT i.amountPaid FROM invoice AS i WHERE i.issuedAt > '2024-01-01'",
        ),
        (  # an unknown qualifier takes the alias of the one table with the column
            "SELECT x.amount_paid FROM invoice AS i JOIN staff AS s ON s.id = i.customerId",
            "SELECT i.amountPaid FROM invoice AS i JOIN staff AS s ON s.id = i.customerId",
        ),
    ],
)
def test_a_column_in_another_case_or_underscore_style_is_respelled(sql, expected):
    assert fix(sql) == expected


@pytest.mark.parametrize(
    "sql",
    [
        # only the qualifier's table counts: ticket.createdAt is not invoice's
        "SELECT i.created_at FROM invoice AS i JOIN ticket AS t ON t.id = i.id",
        # both tables have a createdAt
        "SELECT created_at FROM ticket AS t JOIN priority AS p ON t.priorityId = p.id",
        # invoice.amountPaid, or payment.amount_paid as written?
        "SELECT i.amount_paid FROM invoice AS i JOIN payment AS p ON p.invoiceId = i.id",
        # a self-join: which side's createdAt?
        "SELECT created_at FROM ticket AS a JOIN ticket AS b ON a.id = b.id",
    ],
)
def test_a_restyled_column_that_fits_twice_is_left_alone(sql):
    assert fix(sql) is None


@pytest.mark.parametrize(
    ("sql", "expected"),
    [
        ("SELECT T4.branchName FROM branch AS T4", "SELECT T4.name FROM branch AS T4"),
        ("SELECT partName, price FROM part", "SELECT part.name, price FROM part"),
        (
            "SELECT s.name, branch_name FROM staff AS s JOIN branch AS b ON s.branchId = b.id",
            "SELECT s.name, b.name FROM staff AS s JOIN branch AS b ON s.branchId = b.id",
        ),
        (  # a self-join: the alias written says which side
            "SELECT a.staffName FROM staff AS a JOIN staff AS b ON a.branchId = b.id",
            "SELECT a.name FROM staff AS a JOIN staff AS b ON a.branchId = b.id",
        ),
        (  # the prefix names the table, whatever alias the column was given
            "SELECT s.branchCity FROM staff AS s JOIN branch AS b ON s.branchId = b.id",
            "SELECT b.city FROM staff AS s JOIN branch AS b ON s.branchId = b.id",
        ),
    ],
)
def test_a_column_prefixed_with_its_tables_name_loses_the_prefix(sql, expected):
    assert fix(sql) == expected


def test_a_column_some_table_has_as_written_is_not_unprefixed():
    sql = "SELECT p.partName FROM part AS p JOIN supplier AS s ON s.partId = p.id"
    assert fix(sql) == "SELECT s.partName FROM part AS p JOIN supplier AS s ON s.partId = p.id"


@pytest.mark.parametrize(
    "sql",
    [
        "SELECT branchName FROM staff",  # branch is not in the query
        "SELECT staffName FROM staff AS a JOIN staff AS b ON a.branchId = b.id",  # which side?
    ],
)
def test_a_prefix_is_only_dropped_for_a_table_of_the_query(sql):
    assert fix(sql) is None


@pytest.mark.parametrize(
    ("sql", "expected"),
    [
        (
            "SELECT priority.name FROM ticket AS T2 JOIN priority AS T1 ON T2.priorityId = T1.id",
            "SELECT T1.name FROM ticket AS T2 JOIN priority AS T1 ON T2.priorityId = T1.id",
        ),
        (
            "SELECT T1.priority.name, COUNT(*) FROM priority AS T1 GROUP BY T1.priority.name",
            "SELECT T1.name, COUNT(*) FROM priority AS T1 GROUP BY T1.name",
        ),
        ("SELECT priority.* FROM priority AS T1", "SELECT T1.* FROM priority AS T1"),
        (  # both tables have createdAt: the qualifier says which
            "SELECT priority.createdAt FROM ticket AS T2 JOIN priority AS T1 ON T2.priorityId = T1.id",
            "SELECT T1.createdAt FROM ticket AS T2 JOIN priority AS T1 ON T2.priorityId = T1.id",
        ),
        (
            "SELECT t1.createdAt FROM ticket AS T1 JOIN priority AS T2 ON T1.priorityId = T2.id",
            "SELECT T1.createdAt FROM ticket AS T1 JOIN priority AS T2 ON T1.priorityId = T2.id",
        ),
    ],
)
def test_a_table_name_used_for_its_alias_becomes_the_alias(sql, expected):
    assert fix(sql) == expected


@pytest.mark.parametrize(
    "sql",
    [
        "SELECT staff.name FROM staff AS a JOIN staff AS b ON a.branchId = b.id",  # which one?
        "SELECT T1.ticket.title FROM priority AS T1",  # T1 is not ticket
        "SELECT main.priority.name FROM priority",  # a schema, not an alias
    ],
)
def test_a_qualifier_that_could_mean_two_tables_is_left_alone(sql):
    assert fix(sql) is None


def test_a_declared_key_wins_over_a_guessed_join_to_another_holder():
    # Both employee (declared key) and branch (a guessed join, 0.8) have isActive and join
    # technician directly: the surer relationship decides; equal ones leave it to the agent.
    catalog = SchemaCatalog(
        {
            **CATALOG._columns,
            "branch": ["id", "name", "isActive"],
            "technician": ["id", "employeeId", "homeBranchId"],
        }
    )
    guessed = Relationship("technician", "homeBranchId", "branch", "id", "manual", 0.8)
    sql = "SELECT COUNT(*) FROM technician WHERE isActive = 1"
    fixed = repair_columns(sql, catalog, [*RELATIONSHIPS, guessed], dialect="sqlite")
    assert fixed.endswith(
        "JOIN employee ON technician.employeeId = employee.id WHERE employee.isActive = 1"
    )
    # ... even when the agent chose branch for its context.
    assert repair_columns(
        sql,
        catalog,
        [*RELATIONSHIPS, guessed],
        dialect="sqlite",
        preferred=["technician", "branch"],
    ).endswith("employee.isActive = 1")
    tie = Relationship("technician", "homeBranchId", "branch", "id", "foreign_key", 1.0)
    assert repair_columns(sql, catalog, [*RELATIONSHIPS, tie], dialect="sqlite") is None


@pytest.mark.parametrize(
    "sql, grouped",
    [
        (
            (
                "SELECT c.name AS customer, COUNT(*) AS n FROM customer c "
                "JOIN workOrder w ON w.customerId = c.id ORDER BY n DESC LIMIT 5"
            ),
            "GROUP BY c.name ORDER BY n DESC LIMIT 5",
        ),
        ("SELECT status, COUNT(*) FROM workOrder WHERE customerId = 2", "GROUP BY status"),
    ],
)
def test_a_forgotten_group_by_is_added(sql, grouped):
    from frontdesk.assistants.analyst.sql.repair import add_missing_group_by

    fixed = add_missing_group_by(sql, dialect="sqlite")
    assert grouped in fixed and validate(fixed, CATALOG, "sqlite").ok


@pytest.mark.parametrize(
    "sql",
    [
        "SELECT COUNT(*) FROM workOrder",
        "SELECT status, COUNT(*) FROM workOrder GROUP BY status",
        "SELECT status, COUNT(*) OVER () FROM workOrder",
        "SELECT name FROM customer WHERE id IN (SELECT MAX(id) FROM customer)",
    ],
)
def test_a_query_with_nothing_to_group_is_left_alone(sql):
    from frontdesk.assistants.analyst.sql.repair import add_missing_group_by

    assert add_missing_group_by(sql, dialect="sqlite") is None
    assert validate(sql, CATALOG, "sqlite").ok


def test_the_checker_explains_a_forgotten_group_by():
    errors = validate("SELECT status, COUNT(*) FROM workOrder", CATALOG, "sqlite").errors
    assert any("has no GROUP BY: add GROUP BY status" in e for e in errors)
