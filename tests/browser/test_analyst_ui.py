"""The data analyst's module: the SQL agent's steps as progress, the SQL that ran, its rows
as a table (text only, capped), kept across a reload."""

from __future__ import annotations

import pytest

from .conftest import CHATS_KEY, PHONE, assistant_messages, expect, open_page, send, wait_for_answer
from .scripted import HOURS_A, HOURS_Q, HOURS_SQL, MANUAL_A, MANUAL_Q, XSS

pytestmark = pytest.mark.browser


@pytest.fixture
def analyst_page(browser, live_server, problems):
    page = open_page(browser, live_server, problems, assistant="analyst")
    expect(page.locator("#property-name")).to_have_text("Data analyst")
    yield page
    page.context.close()


def test_analyst_progress_sql_and_rows_survive_reload(analyst_page, services):
    page = analyst_page
    analyst = services.analyst
    analyst.gate.clear()  # hold the answer after the progress events
    try:
        send(page, HOURS_Q)
        answer = assistant_messages(page).last
        status = answer.locator(".progress-status")
        # Every step went by; the last one (after a correction) is what is shown, quietly.
        expect(status).to_have_text("Running the corrected query…")
        expect(status).to_have_attribute("aria-hidden", "true")
        expect(answer).to_have_attribute("data-status", "streaming")
        expect(answer.locator(".bubble-text")).to_have_text("")
        expect(answer.locator(".query-result")).to_have_count(0)
    finally:
        analyst.gate.set()

    answer = wait_for_answer(page, HOURS_A)
    expect(answer.locator(".progress-status")).to_have_count(0)
    expect(answer.locator(".typing")).to_have_count(0)
    expect(answer.locator(".sources")).to_have_count(0)  # no manual pages for SQL

    def check(answer) -> None:
        sql = answer.locator("details.sql-block")
        expect(sql.locator("summary")).to_have_text("SQL that ran")
        code = sql.locator("pre code")
        expect(code).to_be_hidden()  # folded until asked for
        assert code.text_content() == HOURS_SQL
        sql.locator("summary").click()
        expect(code).to_be_visible()
        table = answer.locator("table.result-table")
        expect(table.locator("thead th")).to_have_text(["name", "hours"])
        expect(table.locator("tbody tr")).to_have_count(2)
        expect(table.locator("caption")).to_have_text("2 rows")
        expect(table.locator("tbody tr").nth(0).locator("td")).to_have_text(["Ann", "12.5"])
        bob = table.locator("tbody tr").nth(1).locator("td")
        expect(bob).to_have_text(["Bob", "—"])
        # The numeric column is right-aligned, its null too; text is not.
        aligns = table.locator("td, th").evaluate_all(
            "cells => cells.map(c => getComputedStyle(c).textAlign)"
        )
        assert aligns == ["left", "right", "left", "right", "left", "right"]

    check(answer)

    stored = page.evaluate(f"JSON.parse(localStorage.getItem('{CHATS_KEY}'))")
    saved = stored["analyst"]["messages"][-1]
    assert saved["data"]["sql"] == HOURS_SQL and saved["data"]["columns"] == ["name", "hours"]
    assert saved["data"]["rows"][1] == {"name": "Bob", "hours": None}
    assert saved["data"]["truncated"] is False and "progress" not in saved

    page.reload()
    expect(page.locator("#status")).to_have_attribute("data-state", "online")
    expect(page.get_by_label("Assistant", exact=True)).to_have_value("analyst")
    restored = assistant_messages(page).last
    expect(restored.locator(".bubble-text")).to_have_text(HOURS_A)
    check(restored)

    # A manual answer: its pages as chips, no SQL and no table; the conversation goes on.
    send(page, MANUAL_Q)
    manual = wait_for_answer(page, MANUAL_A)
    expect(manual.locator(".source-chip")).to_have_text(["Work logs — Overtime"])
    expect(manual.locator(".query-result")).to_have_count(0)
    assert analyst.calls[-1][1] == analyst.calls[-2][1]


def test_analyst_rows_are_text_and_capped(analyst_page):
    page = analyst_page
    page.evaluate("window.__xss = 0; window.alert = () => { window.__xss += 1; }")
    send(page, "Show the html note")
    answer = wait_for_answer(page, "One note found.")
    cell = answer.locator("tbody td").nth(1)
    expect(cell).to_have_text(XSS)
    assert cell.evaluate("td => td.children.length") == 0
    assert answer.locator("img").count() == 0
    expect(answer.locator("tbody td").first).to_have_text("7")

    send(page, "Show many work orders")
    many = wait_for_answer(page, "Here are the work orders.")
    table = many.locator("table.result-table")
    expect(table.locator("tbody tr")).to_have_count(100)
    expect(table.locator("caption")).to_have_text("first 100 rows")

    page.reload()
    expect(page.locator("#status")).to_have_attribute("data-state", "online")
    expect(assistant_messages(page)).to_have_count(2)
    expect(assistant_messages(page).first.locator("tbody td").nth(1)).to_have_text(XSS)
    assert page.locator("#messages img").count() == 0
    expect(assistant_messages(page).last.locator("tbody tr")).to_have_count(100)
    expect(assistant_messages(page).last.locator("caption")).to_have_text("first 100 rows")
    assert page.evaluate("window.__xss || 0") == 0


def test_analyst_wide_table_scrolls_inside_on_a_phone(browser, live_server, problems):
    width = 360
    page = open_page(browser, live_server, problems, assistant="analyst", **PHONE)
    try:
        expect(page.locator("#property-name")).to_have_text("Data analyst")
        send(page, "Show the wide asset register")
        wait_for_answer(page, "Here is the asset register.")
        page.locator(".sql-block summary").click()
        # The table is wider than the phone: its own box scrolls, the page does not.
        wrap = page.locator(".result-table-wrap")
        assert wrap.evaluate("w => w.scrollWidth > w.clientWidth")
        assert page.evaluate("document.documentElement.scrollWidth") <= width
        for selector in [".sql-block", ".result-table-wrap"]:
            box = page.locator(selector).first.bounding_box()
            assert box and box["x"] >= 0 and box["x"] + box["width"] <= width + 0.5, selector
    finally:
        page.context.close()
