"""Each assistant's UI module (and the generic fallback), switching assistants, sources that
open (telecom's once), queue progress, the telecom sign-in picker, and past conversations."""

from __future__ import annotations

import json

import pytest

from .conftest import (
    CHATS_KEY,
    PHONE,
    assistant_messages,
    expect,
    open_page,
    send,
    wait_for_answer,
)
from .scripted import (
    DINNER_A,
    DINNER_Q,
    POOL_A,
    POOL_Q,
    REFUND_Q,
    ROUTER_A,
    ROUTER_ANSWER_TEXT,
    ROUTER_Q,
)

pytestmark = pytest.mark.browser


def test_each_assistant_loads_its_module_and_one_without_falls_back(page):
    picker = page.get_by_label("Assistant", exact=True)
    expect(picker.locator("option")).to_have_text(
        ["Resort concierge", "Telecom support", "Data analyst", "Helpdesk"]
    )
    # The concierge's module: its welcome and chips.
    expect(page.locator("#welcome-text")).to_have_text(
        "I'm the virtual concierge for Seaside Grand Hotel. Ask me anything, or start with a topic:"
    )
    picker.select_option("telecom")
    expect(page.locator("#welcome-title")).to_have_text("How can we help?")
    expect(page.locator(".suggestion")).to_have_text(["Troubleshooting", "Plans and billing"])
    picker.select_option("analyst")
    expect(page.locator("#hint-source")).to_have_text(
        "Answers come from the database and its documentation."
    )
    expect(page.locator(".suggestion")).to_have_text(["Your data", "How to use the app"])
    # No plug-in, no module: the shell's generic welcome, chips and sources.
    picker.select_option("helpdesk")
    expect(page.locator("#property-name")).to_have_text("Helpdesk")
    expect(page.locator("#welcome-text")).to_have_text(
        "I'm the Helpdesk assistant. Ask me anything, or start with a topic:"
    )
    expect(page.locator(".suggestion")).to_have_text(["It Support"])
    send(page, POOL_Q)
    answer = wait_for_answer(page, POOL_A)
    expect(answer.locator(".source-chip")).to_have_text(["Indoor pool"])


def test_switching_assistants_keeps_each_chat(page, services):
    picker = page.get_by_label("Assistant", exact=True)
    send(page, DINNER_Q)
    wait_for_answer(page, DINNER_A)
    concierge_thread = services.concierge.calls[-1][1]
    picker.select_option("telecom")
    expect(page.locator("#messages li")).to_have_count(0)
    send(page, ROUTER_Q)
    wait_for_answer(page, ROUTER_A)
    telecom_thread = services.telecom.calls[-1][1]
    assert telecom_thread != concierge_thread

    picker.select_option("concierge")
    expect(page.locator("#messages .bubble-text")).to_have_text([DINNER_Q, DINNER_A])
    send(page, POOL_Q)
    wait_for_answer(page, POOL_A)
    assert services.concierge.calls[-1][1] == concierge_thread

    page.reload()
    expect(picker).to_have_value("concierge")
    expect(assistant_messages(page)).to_have_count(2)
    picker.select_option("telecom")
    expect(page.locator("#messages .bubble-text")).to_have_text([ROUTER_Q, ROUTER_A])


def test_sources_open_in_a_dialog(page):
    send(page, DINNER_Q)
    answer = wait_for_answer(page, DINNER_A)
    expect(answer.locator(".source-chip")).to_have_text(["Salt & Pine", "Harbor Tavern"])
    chip = answer.get_by_role("button", name="Harbor Tavern")
    chip.click()
    dialog = page.get_by_role("dialog")
    expect(dialog.get_by_role("heading", name="Harbor Tavern")).to_be_visible()
    expect(dialog.locator("#document-category")).to_have_text("restaurants")
    expect(dialog.locator("#document-text")).to_have_text("Casual pub.")
    page.keyboard.press("Escape")
    expect(dialog).to_be_hidden()
    expect(chip).to_be_focused()  # focus goes back to what opened it

    page.get_by_label("Assistant", exact=True).select_option("telecom")
    send(page, ROUTER_Q)
    technical = wait_for_answer(page, ROUTER_A)
    expect(technical.locator(".citation-open")).to_have_text(
        ["Router LED Indicators — Troubleshooting", "Power and Connections — Cables"]
    )
    expect(technical.locator(".citation-where").first).to_have_text("02_router_wifi.md · v2.1")
    technical.get_by_role("button", name="Router LED Indicators — Troubleshooting").click()
    expect(dialog.locator("#document-text")).to_have_text("Text of Router LED Indicators.")
    dialog.get_by_role("button", name="Close source").click()
    expect(dialog).to_be_hidden()

    page.get_by_label("Assistant", exact=True).select_option("analyst")
    send(page, "What does the manual say about overtime?")
    manual = wait_for_answer(page, "Overtime is logged as a separate work entry.")
    expect(manual.locator(".sources-label")).to_have_text("From the manual")
    manual.get_by_role("button", name="Work logs — Overtime").click()
    expect(dialog.locator("#document-text h4")).to_have_text("Overtime")
    expect(dialog.locator("#document-text")).to_contain_text("<script>window.__xss=5</script>")


def test_telecom_sources_show_once_under_the_answer(browser, live_server, problems):
    page = open_page(
        browser,
        live_server,
        problems,
        viewport={"width": 1100, "height": 800},
        permissions=["clipboard-read", "clipboard-write"],
    )
    try:
        page.get_by_label("Assistant", exact=True).select_option("telecom")
        send(page, ROUTER_Q)
        # The answer's text ends with its Sources section; the bubble leaves it to the list.
        technical = wait_for_answer(page, ROUTER_A)
        expect(technical.locator(".citation-open")).to_have_count(2)
        assert technical.inner_text().count("Router LED Indicators") == 1
        assert "Sources:" not in technical.inner_text()
        # Copy gives the whole answer, its sources included, as the API does.
        technical.get_by_role("button", name="Copy").click()
        expect(technical.get_by_role("button", name="Copied")).to_be_visible()
        assert page.evaluate("navigator.clipboard.readText()") == ROUTER_ANSWER_TEXT

        page.reload()
        technical = wait_for_answer(page, ROUTER_A)
        expect(technical.locator(".citation-open")).to_have_count(2)
        assert technical.inner_text().count("Router LED Indicators") == 1

        # An answer saved without its list (stopped before it came) keeps its own section.
        stored = {"role": "assistant", "text": ROUTER_ANSWER_TEXT, "status": "stopped"}
        chats = {"telecom": {"threadId": None, "messages": [stored]}}
        page.evaluate(f"() => localStorage.setItem('{CHATS_KEY}', {json.dumps(json.dumps(chats))})")
        page.reload()
        bare = assistant_messages(page).last
        expect(bare.locator(".bubble-text")).to_contain_text("Sources:")
        expect(bare.locator(".bubble-text")).to_contain_text(
            "Router LED Indicators — Troubleshooting — 02_router_wifi.md (2.1)"
        )
        expect(bare.locator(".citation-open")).to_have_count(0)
    finally:
        page.context.close()


def test_queue_place_and_steps_show_while_waiting(page, services):
    services.concierge.gate.clear()
    try:
        send(page, "waiting in the queue")
        status = assistant_messages(page).last.locator(".progress-status")
        expect(status).to_have_text("Waiting for the model: 1 ahead of you")
        expect(status).to_have_attribute("aria-hidden", "true")
    finally:
        services.concierge.gate.set()
    expect(assistant_messages(page).last).to_have_attribute("data-status", "done")

    services.analyst.gate.clear()
    page.get_by_label("Assistant", exact=True).select_option("analyst")
    try:
        send(page, "How many hours did each technician log last week?")
        status = assistant_messages(page).last.locator(".progress-status")
        expect(status).to_have_text("Running the corrected query…")
    finally:
        services.analyst.gate.set()


def test_telecom_sign_in_picker(page, services):
    picker = page.get_by_label("Assistant", exact=True)
    customer = page.get_by_label("Customer")
    expect(customer).to_be_hidden()  # the concierge signs nobody in
    picker.select_option("telecom")
    expect(customer).to_be_visible()
    expect(customer.locator("option")).to_have_text(
        ["Not signed in", "Anna Kowalska (u123)", "Piotr Nowak (u777)"]
    )
    expect(customer).to_have_value("")
    send(page, ROUTER_Q)
    wait_for_answer(page, ROUTER_A)

    customer.select_option("u777")
    # Another customer: a new conversation, so one customer's data never mixes with another's.
    expect(page.locator("#messages li")).to_have_count(0)
    assert page.accounts.sent("/session/sign-in") == [{"assistant": "telecom", "user_id": "u777"}]
    send(page, REFUND_Q)
    billing = assistant_messages(page).last
    expect(billing).to_have_attribute("data-status", "done")
    tools = billing.locator(".tools")
    expect(tools.locator(".tool-name")).to_have_text(["open_refund_case"])
    expect(tools.locator(".tool-status")).to_have_text(["ok"])

    page.reload()
    expect(customer).to_have_value("u777")
    customer.select_option("")
    expect(customer).to_have_value("")
    page.wait_for_function("() => document.querySelectorAll('#messages li').length === 0")
    assert page.accounts.sent("/session/sign-out") == [{"assistant": "telecom"}]


def test_past_conversations_list_and_reopen(browser, live_server, problems):
    page = open_page(browser, live_server, problems)
    try:
        thread = "6f1f5a2e-3a4b-4c5d-8e9f-0a1b2c3d4e5f"
        page.accounts.conversations["concierge"] = [
            {
                "thread_id": thread,
                "assistant": "concierge",
                "title": "Dinner plans",
                "updated_at": "2026-11-20T19:05:00Z",
            },
            {
                "thread_id": "7a1f5a2e-3a4b-4c5d-8e9f-0a1b2c3d4e5f",
                "assistant": "concierge",
                "title": "Pool hours",
                "updated_at": "2026-11-19T09:00:00Z",
            },
        ]
        page.accounts.transcripts[("concierge", thread)] = [
            {"role": "user", "content": DINNER_Q},
            {"role": "assistant", "content": "Try **Salt & Pine**."},
        ]
        toggle = page.get_by_role("button", name="Past conversations")
        expect(toggle).to_have_attribute("aria-expanded", "false")
        toggle.click()
        panel = page.locator("#history-panel")
        expect(panel).to_be_visible()
        expect(panel.locator(".history-title")).to_have_text(["Dinner plans", "Pool hours"])
        panel.get_by_role("button", name="Dinner plans").click()
        expect(page.locator("#messages .bubble-text")).to_have_text([DINNER_Q, "Try Salt & Pine."])
        expect(assistant_messages(page).last.locator("strong")).to_have_text("Salt & Pine")
        expect(panel.get_by_role("button", name="Dinner plans")).to_have_attribute(
            "aria-current", "true"
        )
        # Reopened, the conversation goes on on its thread.
        send(page, POOL_Q)
        wait_for_answer(page, POOL_A)
        payload = page.accounts  # the chat itself went to the server
        assert payload.sent("/conversations?assistant=concierge")
        page.keyboard.press("Escape")
    finally:
        page.context.close()


def test_panels_and_sign_in_fit_a_phone(browser, live_server, problems):
    page = open_page(browser, live_server, problems, assistant="telecom", **PHONE)
    try:
        send(page, REFUND_Q)
        expect(assistant_messages(page).last).to_have_attribute("data-status", "done")
        page.locator(".tool summary").click()
        page.get_by_role("button", name="Past conversations").click()
        assert page.evaluate("document.documentElement.scrollWidth") <= 360
        for selector in ["#assistant-picker", "#signin-picker", ".tool", "#history-panel"]:
            box = page.locator(selector).first.bounding_box()
            assert box and box["x"] >= 0 and box["x"] + box["width"] <= 360.5, selector
    finally:
        page.context.close()
