"""Deterministic plaintext rows for the demo field-service database.

`generate(seed)` plays a small field-service company (four Texas branches, 40 staff of whom
25 are technicians, 150 customers) through 2024 and 2025 as seen on `AS_OF` (2025-12-15
17:00). Only `random.Random(seed)` drives it: no clock, no Faker, no set or hash ordering,
so the same seed gives the same rows on every run and machine.

The steps run in dependency order; each module's docstring says what it adds. The rows are
plaintext: the builder encrypts the PII columns when it writes them.
"""

from __future__ import annotations

from typing import Any

from frontdesk.assistants.analyst.demo.data.assets import add_fleet
from frontdesk.assistants.analyst.demo.data.billing import add_invoices
from frontdesk.assistants.analyst.demo.data.catalog import add_catalog
from frontdesk.assistants.analyst.demo.data.common import AS_OF, Demo, finalize
from frontdesk.assistants.analyst.demo.data.customers import add_customers
from frontdesk.assistants.analyst.demo.data.inspections import add_inspections
from frontdesk.assistants.analyst.demo.data.inventory import add_inventory_movements
from frontdesk.assistants.analyst.demo.data.misc import add_misc
from frontdesk.assistants.analyst.demo.data.payroll import add_payroll
from frontdesk.assistants.analyst.demo.data.people import add_people
from frontdesk.assistants.analyst.demo.data.reference import add_reference
from frontdesk.assistants.analyst.demo.data.work import add_work_orders

__all__ = ["AS_OF", "DEFAULT_SEED", "generate"]

DEFAULT_SEED = 2024
STEPS = (
    add_reference,
    add_catalog,
    add_people,
    add_customers,
    add_fleet,
    add_work_orders,
    add_inspections,
    add_invoices,
    add_payroll,
    add_inventory_movements,
    add_misc,
)


def generate(seed: int = DEFAULT_SEED) -> dict[str, list[dict[str, Any]]]:
    """Table name -> rows (dicts in schema column order; dates as ISO text, booleans 0/1)."""
    demo = Demo(seed)
    for step in STEPS:
        step(demo)
    return finalize(demo.rows)
