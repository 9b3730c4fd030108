"""Decrypted personal data only for callers allowed it: other callers' queries that would read
an encrypted column are refused before they run (the CLI operator and granted keys read it)."""

from __future__ import annotations

import pytest

from frontdesk.agentkit import permissions
from frontdesk.assistants.analyst.db.secure_views import ENCRYPTED_COLUMNS, SECURE_VIEW_MAP
from frontdesk.assistants.analyst.prompts import PERSONAL_DATA
from frontdesk.assistants.analyst.sql.personal import reads_personal_data


@pytest.mark.parametrize(
    ("sql", "personal"),
    [
        ("SELECT firstName, lastName FROM employee", True),
        ("SELECT e.email FROM employee AS e", True),
        ("SELECT * FROM customer", True),
        ("SELECT c.* FROM customer c", True),
        ("SELECT name FROM secure_customer", True),
        ("SELECT w.id FROM workOrder w JOIN customer c ON c.id = w.customerId WHERE c.name LIKE 'A%'", True),
        ("SELECT COUNT(*) FROM employee", False),
        ("SELECT e.id, e.hireDate FROM employee e", False),
        ("SELECT status, COUNT(*) FROM workOrder GROUP BY status", False),
        ("SELECT name FROM workOrderType", False),  # `name` is personal only in customer
        ("SELECT * FROM workOrderType", False),
        ("SELEC broken", False),  # the checker refuses it on its own
    ],
)
def test_what_counts_as_reading_personal_data(sql, personal):
    assert reads_personal_data(sql, "sqlite", ENCRYPTED_COLUMNS, SECURE_VIEW_MAP) is personal


def test_a_caller_without_the_right_is_refused_and_the_operator_is_not(toolkit):
    sql = "SELECT firstName, lastName FROM employee LIMIT 3"
    token = permissions._current.set(permissions.NOBODY)
    try:
        refused = toolkit.prepare(sql)
        counted = toolkit.prepare("SELECT COUNT(*) FROM employee")
    finally:
        permissions._current.reset(token)
    assert not refused.ok and refused.kind == "personal" and refused.error == PERSONAL_DATA
    assert counted.ok
    allowed = toolkit.prepare(sql)  # the fixture acts as the operator
    assert allowed.ok and "secure_employee" in allowed.sql


def test_the_default_outside_any_request_is_nobody():
    import contextvars

    assert contextvars.Context().run(permissions.current) == permissions.NOBODY
