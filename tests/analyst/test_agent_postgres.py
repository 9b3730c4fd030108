"""The SQL graph agent on the PostgreSQL copy of the demo database:
introspection, the secure views with the session key, LIMIT, read-only execution."""

from __future__ import annotations

import os

import pytest
from sqlalchemy import create_engine, text
from sqlalchemy.exc import DBAPIError

from frontdesk.assistants.analyst.db.engine import checksums
from frontdesk.assistants.analyst.demo.build import build_postgres
from frontdesk.assistants.analyst.service import open_database
from frontdesk.runtime import Models

from .conftest import DEMO_KEY, make_service
from .test_analyst_graph import ACTIVE_TECHS, script

pytestmark = pytest.mark.postgres

SERVER = "postgresql+psycopg://postgres@127.0.0.1:5432"
# Per process: two test runs on one machine (developers, CI) must not share a schema.
SCHEMA = f"frontdesk_test_agent_pg_{os.getpid()}"


@pytest.fixture(scope="module")
def postgres_toolkit(demo_settings):
    url = f"{SERVER}/{SCHEMA}"
    try:
        build_postgres(url, DEMO_KEY)
    except DBAPIError as exc:  # an unreachable server is a failure, not a skip
        pytest.fail(f"PostgreSQL at 127.0.0.1:5432 is not usable: {exc}", pytrace=False)
    tk = open_database(demo_settings, Models(demo_settings), url=url, name="postgres")
    yield tk
    tk.engine.dispose()
    admin = create_engine(f"{SERVER}/postgres", isolation_level="AUTOCOMMIT")
    with admin.connect() as conn:
        conn.execute(text(f'DROP DATABASE IF EXISTS "{SCHEMA}" WITH (FORCE)'))
    admin.dispose()


async def test_agent_answers_through_postgres_secure_views(
    postgres_toolkit, manual, hash_embeddings
):
    tk = postgres_toolkit
    assert tk.dialect == "postgres" and set(tk.secure_map) >= {"employee", "workOrder", "customer"}
    assert len(tk.graph.tables) >= 120
    names = "SELECT firstName, lastName FROM employee WHERE isTechnician = 1 ORDER BY id LIMIT 2"
    service, _ = make_service(tk, manual, hash_embeddings, script(sql=[ACTIVE_TECHS, names]))
    first = await service.ask("how many technicians are active", "m1")
    assert first.extra["final_structured_data"] == [{"technicians": 21}]
    second = await service.ask("how many technicians are active", "m2")
    rows = second.extra["final_structured_data"]
    # Decrypted by the view with the session's key: readable names, not ciphertext.
    assert len(rows) == 2 and all(r["firstName"].isalpha() for r in rows)


async def test_writes_from_the_model_change_nothing_on_postgres(
    postgres_toolkit, manual, hash_embeddings
):
    before = checksums(postgres_toolkit.engine)
    hostile = [
        "DELETE FROM workOrder",
        "SELECT 1; DROP TABLE workOrder",
        "UPDATE employee SET hourlyRate = 0",
    ]
    for sql in hostile:
        service, _ = make_service(postgres_toolkit, manual, hash_embeddings, script(sql=[sql]))
        answer = await service.ask("list overdue invoices", "w")
        assert answer.extra["sql_report"]["outcome"] == "refused", sql
    assert checksums(postgres_toolkit.engine) == before


def test_sample_rows_on_postgres_read_the_secure_view_without_personal_columns(postgres_toolkit):
    schema = postgres_toolkit.schema_text(["employee", "workOrder"], 50)
    assert "row: id=1, userId=" in schema and "employeeNumber='E1001'" in schema
    assert "row: id=1, workOrderNumber='WO-" in schema
    for column in ("firstName=", "lastName=", "email=", "phone=", "notes=", "contactName="):
        assert column not in schema
