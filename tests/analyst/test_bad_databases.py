"""Bad database settings get a clear message and leave the other assistants serving: a URL
that does not connect, an unknown kind of database, a table of 500 columns."""

from __future__ import annotations

import sqlite3

import httpx
import pytest

from frontdesk.assistants import registry
from frontdesk.assistants.analyst.database import DatabaseUnavailable, connect_checked
from frontdesk.assistants.analyst.service import open_database
from frontdesk.assistants.analyst.sql import check as sqlcheck
from frontdesk.config import Settings
from frontdesk.runtime import Models
from frontdesk.server.app import create_app, serving


@pytest.mark.parametrize(
    "url, says",
    [
        ("postgresql://bob:s3cret@127.0.0.1:5499/x", '127.0.0.1", port 5499 failed'),
        ("mysql+pymysql://root:s3cret@127.0.0.1:3399/x", "not reachable"),
        ("postgresql://postgres@127.0.0.1:5432/no_such_db_here", 'database "no_such_db_here"'),
        ("sqlite:////no/such/dir/x.db", "unable to open database file"),
        ("oracle://u:s3cret@h/x", "runs on SQLite, MySQL/MariaDB or PostgreSQL, not 'oracle'"),
        ("duckdb:///x.db", "not 'duckdb'"),
        ("not a url", "is not a database URL"),
    ],
)
def test_a_database_that_cannot_be_used_says_why_without_the_password(url, says):
    with pytest.raises(DatabaseUnavailable) as caught:
        connect_checked(url, "key")
    assert says in str(caught.value)
    assert "s3cret" not in str(caught.value)


async def test_the_analyst_down_leaves_the_others_serving_and_says_why(tmp_path, monkeypatch):
    monkeypatch.setenv("FRONTDESK_ANALYST_DATABASE_URL", "postgresql://bob:s3cret@127.0.0.1:5499/x")
    settings = Settings(
        data_dir=tmp_path,
        llm_provider="scripted",
        embeddings_provider="hash",
        checkpointer="memory",
        router_llm="never",
        assistant="concierge",
        assistants=["analyst"],
        _env_file=None,
    )
    services = await registry.load_services(settings, Models(settings))
    try:
        assert services["concierge"].ready and not services["analyst"].ready

        async def factory(_settings):
            return services

        app = create_app(settings, service_factory=factory)
        async with serving(app):
            transport = httpx.ASGITransport(app=app)
            async with httpx.AsyncClient(transport=transport, base_url="http://t") as client:
                down = await client.post("/chat", json={"message": "hi", "assistant": "analyst"})
                up = await client.post("/chat", json={"message": "hi", "assistant": "concierge"})
        assert down.status_code == 503
        error = down.json()["error"]
        assert "failed to start" in error and "port 5499" in error and "s3cret" not in error
        assert up.status_code == 200
    finally:
        for service in services.values():
            await service.aclose()


@pytest.fixture(scope="module")
def wide_database(tmp_path_factory):
    path = tmp_path_factory.mktemp("wide") / "wide.db"
    conn = sqlite3.connect(path)
    measures = ", ".join(f"reading_{n:03d} REAL" for n in range(1, 498))
    conn.execute("CREATE TABLE site (id INTEGER PRIMARY KEY, name TEXT)")
    conn.execute(
        f"CREATE TABLE survey (id INTEGER PRIMARY KEY, siteId INTEGER, {measures}, "
        "humidity_percent REAL)"
    )
    conn.execute("INSERT INTO site VALUES (1, 'North'), (2, 'South')")
    values = ", ".join(["1.5"] * 497)
    conn.execute(f"INSERT INTO survey VALUES (1, 1, {values}, 40.0)")
    conn.execute(f"INSERT INTO survey VALUES (2, 2, {values}, 60.0)")
    conn.commit()
    conn.close()
    return f"sqlite:///{path}"


def test_a_table_of_500_columns_is_usable(demo_settings, wide_database):
    tk = open_database(demo_settings, Models(demo_settings), url=wide_database, name="wide")
    try:
        assert len(tk.graph.columns_of("survey")) == 500
        assert [r.key for r in tk.graph.relationships] == [("survey", "siteId", "site", "id")]
        question = "average humidity percent per site"
        schema = tk.schema_text(["survey", "site"], tk.limits.max_columns_in_schema, question)
        survey_line = schema.splitlines()[0]
        # The column the question is about is shown even past the first 50, with the keys,
        # and the prompt says how many were left out.
        assert "humidity_percent" in survey_line and "siteId" in survey_line
        assert "450 more columns" in survey_line
        assert len(survey_line) < 1200
        sql = (
            "SELECT site.name, AVG(survey.humidity_percent) AS humidity FROM survey "
            "JOIN site ON site.id = survey.siteId GROUP BY site.name ORDER BY site.name"
        )
        assert tk.validate(sql) == []
        prepared = tk.prepare(sql)
        assert prepared.ok
        assert tk.execute(prepared.sql).rows == [("North", 40.0), ("South", 60.0)]
        assert sqlcheck.validate("SELECT reading_999 FROM survey", tk.catalog, "sqlite").errors
    finally:
        tk.engine.dispose()
