"""The SQL graph agent on server copies of the demo database, MariaDB (production's engine)
and PostgreSQL: introspection, the secure views with the session key, LIMIT, read-only
execution, sample rows without personal columns. An unreachable server is a failure."""

from __future__ import annotations

import os
from collections.abc import Callable
from dataclasses import dataclass

import pytest
from sqlalchemy import create_engine, text
from sqlalchemy.exc import DBAPIError

from frontdesk.assistants.analyst.db.engine import checksums
from frontdesk.assistants.analyst.demo.build import build_mysql, build_postgres
from frontdesk.assistants.analyst.service import open_database
from frontdesk.runtime import Models

from .conftest import DEMO_KEY, make_service
from .test_analyst_graph import ACTIVE_TECHS, script
from .test_toolkit import with_samples

# Per process: two test runs on one machine (developers, CI) must not share a database.
DATABASE = f"frontdesk_test_agent_{os.getpid()}"


@dataclass(frozen=True)
class Server:
    name: str
    dialect: str
    url: str  # without the database
    build: Callable[[str, str], None]
    admin_url: str
    drop: str


SERVERS = [
    pytest.param(
        Server(
            "MariaDB", "mysql", "mysql+pymysql://root:@127.0.0.1:3306", build_mysql,
            "mysql+pymysql://root:@127.0.0.1:3306", f"DROP DATABASE IF EXISTS `{DATABASE}`",
        ),
        marks=pytest.mark.mariadb,
        id="mariadb",
    ),
    pytest.param(
        Server(
            "PostgreSQL", "postgres", "postgresql+psycopg://postgres@127.0.0.1:5432",
            build_postgres, "postgresql+psycopg://postgres@127.0.0.1:5432/postgres",
            f'DROP DATABASE IF EXISTS "{DATABASE}" WITH (FORCE)',
        ),
        marks=pytest.mark.postgres,
        id="postgres",
    ),
]  # fmt: skip


@pytest.fixture(scope="module", params=SERVERS)
def server_toolkit(request, demo_settings):
    server: Server = request.param
    url = f"{server.url}/{DATABASE}"
    try:
        server.build(url, DEMO_KEY)
    except DBAPIError as exc:  # an unreachable server is a failure, not a skip
        pytest.fail(f"{server.name} is not usable: {exc}", pytrace=False)
    tk = open_database(demo_settings, Models(demo_settings), url=url, name=server.name.lower())
    assert tk.dialect == server.dialect
    yield tk
    tk.engine.dispose()
    admin = create_engine(server.admin_url, isolation_level="AUTOCOMMIT")
    with admin.connect() as conn:
        conn.execute(text(server.drop))
    admin.dispose()


async def test_agent_answers_through_the_secure_views(server_toolkit, manual, hash_embeddings):
    tk = server_toolkit
    assert set(tk.secure_map) >= {"employee", "workOrder", "customer"}
    assert len(tk.graph.tables) >= 120
    names = "SELECT firstName, lastName FROM employee WHERE isTechnician = 1 ORDER BY id LIMIT 2"
    service, _ = make_service(tk, manual, hash_embeddings, script(sql=[ACTIVE_TECHS, names]))
    first = await service.ask("how many technicians are active", "m1")
    assert first.extra["final_structured_data"] == [{"technicians": 21}]
    second = await service.ask("how many technicians are active", "m2")
    rows = second.extra["final_structured_data"]
    # Decrypted by the view with the session's key: readable names, not ciphertext.
    assert len(rows) == 2 and all(r["firstName"].isalpha() for r in rows)


async def test_writes_from_the_model_change_nothing(server_toolkit, manual, hash_embeddings):
    before = checksums(server_toolkit.engine)
    hostile = [
        "DELETE FROM workOrder",
        "SELECT 1; DROP TABLE workOrder",
        "UPDATE employee SET hourlyRate = 0",
    ]
    for sql in hostile:
        service, _ = make_service(server_toolkit, manual, hash_embeddings, script(sql=[sql]))
        answer = await service.ask("list overdue invoices", "w")
        assert answer.extra["sql_report"]["outcome"] == "refused", sql
    assert checksums(server_toolkit.engine) == before


def test_sample_rows_read_the_secure_view_without_personal_columns(server_toolkit):
    schema = with_samples(server_toolkit, 1).schema_text(["employee", "workOrder"], 50)
    assert "row: id=1, userId=" in schema and "employeeNumber='E1001'" in schema
    assert "row: id=1, workOrderNumber='WO-" in schema
    for column in ("firstName=", "lastName=", "email=", "phone=", "notes=", "contactName="):
        assert column not in schema
