"""The table pre-filter's word bonuses and the tables a question names (pure functions)."""

from __future__ import annotations

import pytest

from frontdesk.assistants.analyst.sql_agent.table_search import named_tables, words_of_name

COLUMNS = {
    "workOrder": ["id", "workOrderNumber", "status", "priorityId", "workOrderTypeId"],
    "workOrderType": ["id", "name"],
    "priority": ["id", "name", "level", "responseHours"],
    "slaPolicy": ["id", "priorityId", "responseHours"],
    "employee": ["id", "firstName", "lastName", "jobTitle", "hourlyRate"],
    "customerContact": ["id", "firstName", "lastName"],
    "payRate": ["id", "employeeId", "rate"],
    "branch": ["id", "name"],
}
TABLES = list(COLUMNS)


def test_words_of_name_split_camel_and_snake_case():
    assert words_of_name("workOrderLine") == ["work", "order", "line"]
    assert words_of_name("invoice_items") == ["invoice", "items"]


@pytest.mark.parametrize(
    ("question", "named"),
    [
        # The longest name wins its words; "work orders" elsewhere still names workOrder.
        ("How many work orders are there of each work order type?", ["workOrder", "workOrderType"]),
        ("List each priority's name and target response hours", ["priority"]),
        ("How many employees does each branch have?", ["employee", "branch"]),
        # No table named: a two-word column only one table has names it.
        ("What are the job title and hourly rate of Kevin Reed?", ["employee"]),
        # ...but not a column several tables share, nor a one-word one.
        ("Who has the first name Kevin?", []),
        ("What is the rate?", []),
    ],
)
def test_named_tables(question, named):
    assert named_tables(question, TABLES, COLUMNS) == named


def test_named_tables_keep_the_callers_order_and_cap():
    tables = ["branch", "priority", "employee", "workOrder", "slaPolicy"]
    question = "sla policy, work order, employee, priority and branch"
    assert named_tables(question, tables, COLUMNS) == tables[:4]


@pytest.mark.parametrize(
    ("plural", "singular"),
    [
        ("employees", "employee"),
        ("invoices", "invoice"),
        ("types", "type"),
        ("categories", "category"),
        ("branches", "branch"),
        ("statuses", "status"),
        ("boxes", "box"),
        ("address", "address"),
        ("hours", "hour"),
    ],
)
def test_plurals_match_singular_names(plural, singular):
    assert named_tables(f"the {plural}", [singular], {}) == [singular]
