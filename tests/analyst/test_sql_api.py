"""`POST /analyst/sql/run` and `POST /analyst/sql/csv`: SQL from the client takes the chat's
path (read-only check, personal data by permission, secure views, row cap, time limit), bad
SQL gets a clear 4xx, and the database never changes."""

from __future__ import annotations

import csv
import io
import json
from dataclasses import replace

import pytest

from frontdesk.assistants.analyst import prompts
from frontdesk.assistants.analyst.db.engine import checksums
from frontdesk.assistants.analyst.sql.executor import DatabaseDown
from frontdesk.assistants.analyst.sql_api import to_csv

from .test_analyst_graph import script
from .test_internal_api import serving

RUN, CSV = "/analyst/sql/run", "/analyst/sql/csv"
KEYS = {
    "bi": {"key": "bi-key-0123456789abcdef", "personal_data": True},
    "crm": {"key": "crm-key-0123456789abcdef"},
    "other": {"key": "other-key-0123456789abcdef", "assistants": ["concierge"]},
}
BI = {"Authorization": "Bearer bi-key-0123456789abcdef"}
CRM = {"Authorization": "Bearer crm-key-0123456789abcdef"}
OTHER = {"Authorization": "Bearer other-key-0123456789abcdef"}
WORK_ORDERS = 2065  # rows of workOrder in the demo database
NAMES = "SELECT firstName, lastName FROM employee ORDER BY id LIMIT 3"


def rows_of(response) -> list[list[str]]:
    assert response.headers["content-type"].startswith("text/csv")
    return list(csv.reader(io.StringIO(response.content.decode("utf-8-sig"))))


async def test_a_query_runs_through_the_secure_views_with_the_chats_row_cap(analyst, tmp_path):
    service, llm = analyst(script())
    async with serving(service, tmp_path) as client:
        count = await client.post(RUN, json={"sql": "SELECT COUNT(*) AS n FROM workOrder"})
        many = await client.post(RUN, json={"sql": "SELECT id, status FROM workOrder ORDER BY id"})
    assert count.status_code == 200, count.text
    body = count.json()
    assert body["columns"] == ["n"] and body["rows"] == [[WORK_ORDERS]]
    assert body["truncated"] is False and body["max_rows"] == 100
    assert "secure_workorder" in body["sql"] and "LIMIT 100" in body["sql"]
    listed = many.json()
    assert listed["row_count"] == 100 and listed["truncated"] is True
    assert listed["rows"][0][0] == 1 and len(listed["rows"][0]) == 2
    assert llm.calls == []  # no model involved


HOSTILE = [
    ("DELETE FROM workOrder", 400, "unsafe", "only SELECT"),
    ("SELECT 1; DROP TABLE workOrder", 400, "unsafe", "only one statement"),
    ("UPDATE employee SET isActive = 0", 400, "unsafe", "only SELECT"),
    ("WITH x AS (DELETE FROM invoice RETURNING id) SELECT * FROM x", 400, "unsafe", ""),
    ("SELECT * FROM sqlite_master", 400, "unsafe", ""),
    ("ATTACH DATABASE '/tmp/x.db' AS x", 400, "unsafe", ""),
    ("PRAGMA query_only = OFF", 400, "unsafe", ""),
    ("   ", 400, "invalid", "empty"),
    ("SELECT id FROM workOrder WHERE", 400, "invalid", "near 'WHERE'"),
    ("SELECT * FROM nosuch", 400, "unknown_table", "Table 'nosuch' does not exist"),
    ("SELECT nocolumn FROM workOrder", 400, "unknown_column", "'nocolumn' does not exist"),
    ("SELECT COUNT(COUNT(*)) FROM workOrder", 400, "other", "misuse of aggregate"),
    ("SELECT firstName FROM employee", 403, "personal", "personal data"),
    ("SELECT * FROM customer", 403, "personal", "personal data"),
    ("SELECT email FROM secure_customer", 403, "personal", "personal data"),
]


async def test_hostile_and_bad_sql_get_a_clear_4xx_and_nothing_changes(analyst, toolkit, tmp_path):
    before = checksums(toolkit.engine)
    service, _ = analyst(script())
    async with serving(service, tmp_path) as client:
        for route in (RUN, CSV):
            for sql, status, kind, words in HOSTILE:
                response = await client.post(route, json={"sql": sql})
                assert response.status_code == status, (route, sql, response.text)
                body = response.json()
                assert body["kind"] == kind, (sql, body)
                assert words.lower() in body["error"].lower(), (sql, body)
                assert body["problem"] == prompts.sql_problem(kind)
                assert "sqlglot" not in body["error"] and "Traceback" not in body["error"]
        still = await client.post(RUN, json={"sql": "SELECT COUNT(*) FROM invoice"})
    assert still.status_code == 200 and still.json()["rows"] == [[1800]]
    assert checksums(toolkit.engine) == before


async def test_personal_data_only_for_a_caller_granted_it(analyst, tmp_path):
    service, _ = analyst(script())
    async with serving(service, tmp_path, api_keys=KEYS) as client:
        anonymous = await client.post(RUN, json={"sql": NAMES})
        plain_key = await client.post(RUN, json={"sql": NAMES}, headers=CRM)
        granted = await client.post(RUN, json={"sql": NAMES}, headers=BI)
        counted = await client.post(RUN, json={"sql": "SELECT COUNT(*) FROM employee"}, headers=CRM)
        csv_refused = await client.post(CSV, json={"sql": NAMES}, headers=CRM)
        csv_granted = await client.post(CSV, json={"sql": NAMES}, headers=BI)
        await client.get("/session")  # the web UI's cookie: a web caller, no personal data
        web = await client.post(RUN, json={"sql": NAMES})
        not_this_assistant = await client.post(RUN, json={"sql": NAMES}, headers=OTHER)
        unknown_key = await client.post(
            RUN, json={"sql": NAMES}, headers={"Authorization": "Bearer nope-0123456789abcdef"}
        )
    for refused in (anonymous, plain_key, csv_refused, web):
        assert refused.status_code == 403 and refused.json()["kind"] == "personal"
        assert refused.json()["error"] == prompts.PERSONAL_DATA_SQL
    assert granted.status_code == 200
    assert all(isinstance(v, str) and v for row in granted.json()["rows"] for v in row)
    assert counted.status_code == 200 and counted.json()["rows"] == [[40]]
    table = rows_of(csv_granted)
    assert table[0] == ["firstName", "lastName"] and len(table) == 4
    assert not_this_assistant.status_code == 403 and "may not use" in not_this_assistant.text
    assert unknown_key.status_code == 401


async def test_the_csv_holds_the_full_result_not_the_rows_shown(analyst, tmp_path):
    service, _ = analyst(script())
    async with serving(service, tmp_path) as client:
        full = await client.post(CSV, json={"sql": "SELECT id, status FROM workOrder ORDER BY id"})
        # The chat's own cap (which the SQL writer is told to keep) is lifted; a LIMIT the
        # question asked for is kept.
        chat_cap = await client.post(CSV, json={"sql": "SELECT id FROM workOrder LIMIT 100"})
        top_five = await client.post(CSV, json={"sql": "SELECT id FROM workOrder LIMIT 5"})
    assert full.status_code == 200, full.text
    table = rows_of(full)
    assert table[0] == ["id", "status"] and len(table) == 1 + WORK_ORDERS
    assert table[1][0] == "1" and table[-1][0] == str(WORK_ORDERS)
    assert full.headers["x-result-truncated"] == "false"
    assert full.headers["x-result-rows"] == str(WORK_ORDERS)
    assert full.headers["x-row-limit"] == "10000"
    assert full.headers["content-disposition"] == 'attachment; filename="analyst-result.csv"'
    assert full.content.startswith(b"\xef\xbb\xbf")  # a spreadsheet reads it as UTF-8
    assert len(rows_of(chat_cap)) == 1 + WORK_ORDERS
    assert len(rows_of(top_five)) == 1 + 5


async def test_the_operators_row_cap_cuts_the_csv_and_says_so(
    analyst, toolkit, tmp_path, monkeypatch
):
    monkeypatch.setattr(toolkit, "limits", replace(toolkit.limits, csv_max_rows=50))
    service, _ = analyst(script())
    async with serving(service, tmp_path) as client:
        cut = await client.post(CSV, json={"sql": "SELECT id FROM workOrder ORDER BY id"})
        whole = await client.post(CSV, json={"sql": "SELECT id FROM workOrder WHERE id <= 50"})
    assert len(rows_of(cut)) == 1 + 50 and cut.headers["x-result-truncated"] == "true"
    assert cut.headers["x-row-limit"] == "50"
    assert 'filename="analyst-result-first-50-rows.csv"' in cut.headers["content-disposition"]
    # Exactly the cap: more rows may exist, so it says it may have been cut.
    assert len(rows_of(whole)) == 1 + 50


def test_the_row_cap_is_an_operator_setting():
    from frontdesk.assistants.analyst.settings import AnalystSettings
    from frontdesk.assistants.analyst.sql_agent.toolkit import SQLLimits
    from frontdesk.config import Settings

    assert AnalystSettings().csv_max_rows == 10_000
    settings = Settings(plugin_settings={"analyst": {"csv_max_rows": 500}}, _env_file=None)
    assert SQLLimits.from_settings(AnalystSettings.of(settings)).csv_max_rows == 500
    with pytest.raises(ValueError):
        AnalystSettings(csv_max_rows=0)


async def test_a_slow_query_is_stopped_with_a_clear_message(
    analyst, toolkit, tmp_path, monkeypatch
):
    monkeypatch.setattr(toolkit, "limits", replace(toolkit.limits, query_timeout_s=0.2))
    forever = (
        "WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c) SELECT COUNT(*) FROM c"
    )
    service, _ = analyst(script())
    async with serving(service, tmp_path) as client:
        slow = await client.post(RUN, json={"sql": forever})
        after = await client.post(RUN, json={"sql": "SELECT 1 AS one"})
    assert slow.status_code == 400 and slow.json()["kind"] == "timeout"
    assert "took longer than 0.2 s" in slow.json()["error"]
    assert slow.json()["problem"] == "the query took too long and was stopped"
    assert after.status_code == 200 and after.json()["rows"] == [[1]]


async def test_a_database_that_is_down_is_a_503_without_its_address(
    analyst, toolkit, tmp_path, monkeypatch
):
    down = DatabaseDown("the database at db.internal:3306 is not reachable")
    monkeypatch.setattr(toolkit, "execute", lambda sql, **_: down)
    service, _ = analyst(script())
    async with serving(service, tmp_path) as client:
        response = await client.post(RUN, json={"sql": "SELECT 1"})
    assert response.status_code == 503 and response.json()["error"] == prompts.DATABASE_DOWN
    assert "db.internal" not in response.text


async def test_malformed_bodies_get_422_and_huge_ones_413(analyst, tmp_path):
    service, _ = analyst(script())
    async with serving(service, tmp_path) as client:
        missing = await client.post(RUN, json={})
        extra = await client.post(RUN, json={"sql": "SELECT 1", "max_rows": 10**6})
        wrong_type = await client.post(RUN, json={"sql": ["SELECT 1"]})
        too_long = await client.post(RUN, json={"sql": "SELECT 1 " + " " * 5_000})
        # At the limit, escaped to the most bytes JSON can take: still a 422, not a 413.
        escaped = await client.post(
            RUN,
            content=json.dumps({"sql": "\U0001f600" * 5_001}).encode(),
            headers={"content-type": "application/json"},
        )
        not_json = await client.post(RUN, content=b"sql=SELECT 1")
        huge = await client.post(CSV, json={"sql": "x" * 300_000})
        ok = await client.post(RUN, json={"sql": "SELECT 1 AS one"})
    for response in (missing, extra, wrong_type, too_long, not_json, escaped):
        assert response.status_code == 422, response.text
        assert response.json()["error"]
    assert huge.status_code == 413
    assert ok.status_code == 200


def test_csv_cells_a_spreadsheet_would_run_are_defused():
    text = to_csv(
        ["name", "note"],
        [('=HYPERLINK("http://x")', "+1 555"), ("-12.5", "@SUM(A1)"), (None, "plain, text")],
    )
    rows = list(csv.reader(io.StringIO(text)))
    assert rows[1] == ['\'=HYPERLINK("http://x")', "'+1 555"]
    assert rows[2] == ["-12.5", "'@SUM(A1)"]  # a number stays a number
    assert rows[3] == ["", "plain, text"]
