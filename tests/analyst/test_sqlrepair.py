"""Deterministic repair of a column taken from the wrong table (the seed's first pattern)."""

from __future__ import annotations

import pytest

from frontdesk.assistants.analyst.join_graph import Relationship
from frontdesk.assistants.analyst.sqlrepair import repair_columns
from frontdesk.assistants.analyst.sqlschema import SchemaCatalog

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
