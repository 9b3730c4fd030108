"""The data analyst's query tools: a query that did not run shows the last SQL tried (labelled,
with why and the technical words folded), an answer's SQL can be edited and run again, and the
whole result downloads as CSV. The server's SQL routes are answered in the browser here (their
checks are tests/analyst/test_sql_api.py's)."""

from __future__ import annotations

import json

import pytest

from .conftest import assistant_messages, expect, open_page, send, wait_for_answer
from .scripted import (
    FAILED_A,
    FAILED_ERRORS,
    FAILED_Q,
    FAILED_SQL,
    FAILED_WRITTEN,
    HOURS_A,
    HOURS_Q,
    HOURS_SQL,
)

pytestmark = pytest.mark.browser

EDITED = "SELECT status, COUNT(*) AS n FROM workOrder GROUP BY status"
EDITED_RAN = (
    "SELECT status, COUNT(*) AS n FROM secure_workorder AS workOrder GROUP BY status LIMIT 100"
)
CSV_BODY = "status,n\r\nopen,17\r\ncompleted,1850\r\n"


class SQLRoutes:
    """POST /analyst/sql/run and /csv, answered in the page; `sent` has each body's SQL."""

    def __init__(self, page) -> None:
        self.sent: list[tuple[str, str]] = []
        page.route("**/analyst/sql/run", self._run)
        page.route("**/analyst/sql/csv", self._csv)

    def _run(self, route) -> None:
        sql = json.loads(route.request.post_data)["sql"]
        self.sent.append(("run", sql))
        if sql.startswith("DELETE"):
            body = {
                "error": "Only SELECT queries are allowed; this is DELETE.",
                "kind": "unsafe",
                "problem": "it was not a read-only query",
            }
            route.fulfill(status=400, json=body)
            return
        route.fulfill(
            json={
                "sql": EDITED_RAN,
                "columns": ["status", "n"],
                "rows": [["open", 17], ["completed", 1850]],
                "row_count": 2,
                "truncated": False,
                "max_rows": 100,
                "elapsed_ms": 1.5,
            }
        )

    def _csv(self, route) -> None:
        self.sent.append(("csv", json.loads(route.request.post_data)["sql"]))
        route.fulfill(
            body=CSV_BODY,
            headers={
                "Content-Type": "text/csv; charset=utf-8",
                "Content-Disposition": 'attachment; filename="analyst-result-first-2-rows.csv"',
                "X-Result-Truncated": "true",
                "X-Result-Rows": "2",
                "X-Row-Limit": "2",
            },
        )


@pytest.fixture
def analyst_page(browser, live_server, problems):
    page = open_page(
        browser,
        live_server,
        problems,
        assistant="analyst",
        accept_downloads=True,
        viewport={"width": 1100, "height": 800},
    )
    expect(page.locator("#property-name")).to_have_text("Data analyst")
    page.sql_routes = SQLRoutes(page)
    yield page
    page.context.close()


def test_a_query_that_did_not_run_shows_the_last_sql_tried(analyst_page):
    page = analyst_page
    send(page, FAILED_Q)
    answer = wait_for_answer(page, FAILED_A)

    def check(answer) -> None:
        block = answer.locator("details.sql-block")
        summary = block.locator("> summary")
        expect(summary).to_have_text("Last SQL tried: it failed, so nothing ran")
        summary.click()
        expect(block.locator(".sql-problem")).to_have_text(
            "Why: the database could not run the query as written."
        )
        expect(block.locator("> pre code")).to_have_text(FAILED_SQL)
        debug = block.locator("details.sql-debug")
        expect(debug.locator("pre")).to_be_hidden()  # folded inside the folded block
        debug.locator("summary").click()
        expect(debug.locator("pre")).to_have_text(FAILED_ERRORS[0])
        # No result: nothing to download, no empty table; the SQL can be fixed.
        expect(answer.locator("table")).to_have_count(0)
        expect(answer.get_by_role("button", name="Download CSV")).to_be_hidden()
        expect(answer.get_by_role("button", name="Fix the SQL")).to_be_visible()
        # The answer itself carries none of the database's words.
        assert "misuse" not in answer.locator(".bubble-text").inner_text()

    check(answer)
    page.reload()
    expect(page.locator("#status")).to_have_attribute("data-state", "online")
    check(assistant_messages(page).last)


def test_a_fixed_query_runs_and_replaces_what_is_shown(analyst_page, problems):
    page = analyst_page
    send(page, FAILED_Q)
    answer = wait_for_answer(page, FAILED_A)
    fix = answer.get_by_role("button", name="Fix the SQL")
    expect(fix).to_have_attribute("aria-expanded", "false")
    fix.click()
    expect(fix).to_have_attribute("aria-expanded", "true")
    area = answer.get_by_label("Edit the SQL, then run it (read-only, like every query here)")
    expect(area).to_be_focused()
    expect(area).to_have_value(FAILED_WRITTEN)  # as written: logical tables, no forced LIMIT

    # A write: the server's 400 is shown as it says, and what was shown stays.
    area.fill("DELETE FROM workOrder")
    answer.get_by_role("button", name="Run").click()
    status = answer.locator(".sql-run-status")
    expect(status).to_have_text("Only SELECT queries are allowed; this is DELETE.")
    expect(status).to_have_class("sql-run-status failed")
    expect(answer.locator("details.sql-block > summary")).to_have_text(
        "Last SQL tried: it failed, so nothing ran"
    )
    # Chromium logs every 4xx response as a console error; this one was expected.
    problems[:] = [p for p in problems if "status of 400" not in p]

    area.fill(EDITED)
    area.press("Control+Enter")  # runs, like the Run button
    expect(status).to_have_text("Ran: 2 rows.")
    block = answer.locator("details.sql-block")
    expect(block.locator("> summary")).to_have_text("SQL that ran (edited)")
    expect(block.locator("> pre code")).to_have_text(EDITED_RAN)
    expect(block.locator(".sql-problem, .sql-debug")).to_have_count(0)
    table = answer.locator("table.result-table")
    expect(table.locator("thead th")).to_have_text(["status", "n"])
    expect(table.locator("tbody tr").nth(1).locator("td")).to_have_text(["completed", "1850"])
    assert page.sql_routes.sent == [("run", "DELETE FROM workOrder"), ("run", EDITED)]

    # Now there is a result: it downloads, from the SQL as the person wrote it.
    with page.expect_download() as download:
        answer.get_by_role("button", name="Download CSV").click()
    assert download.value.suggested_filename == "analyst-result-first-2-rows.csv"
    assert page.sql_routes.sent[-1] == ("csv", EDITED)
    answer.get_by_role("button", name="Cancel").click()
    expect(area).to_be_hidden()
    expect(fix).to_be_focused()


def test_an_answers_whole_result_downloads_as_csv(analyst_page, tmp_path):
    page = analyst_page
    send(page, HOURS_Q)
    answer = wait_for_answer(page, HOURS_A)
    csv = answer.get_by_role("button", name="Download CSV")
    with page.expect_download() as download:
        csv.click()
    saved = tmp_path / download.value.suggested_filename
    download.value.save_as(saved)
    assert saved.read_bytes().decode() == CSV_BODY
    # The file was cut at the operator's limit: the page says so.
    expect(answer.locator(".query-note")).to_have_text(
        "Downloaded the first 2 rows: downloads stop at 2 rows."
    )
    assert page.sql_routes.sent == [("csv", HOURS_SQL)]
    expect(csv).to_be_enabled()
