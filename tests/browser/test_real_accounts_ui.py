"""The shell against the server's own identity routes (nothing answered in the page): the
session cookie, conversations listed and reopened, feedback stored, Stop cancelling the
running turn, and the telecom demo sign-in acting for the customer picked."""

from __future__ import annotations

import pytest

from .conftest import assistant_messages, expect, open_page, send, wait_for_answer
from .scripted import DINNER_A, DINNER_Q, POOL_Q, REFUND_Q

pytestmark = pytest.mark.browser


@pytest.fixture
def real_page(browser, live_server, problems):
    page = open_page(browser, live_server, problems, real_accounts=True)
    yield page
    page.context.close()


def test_session_conversations_feedback_and_cancel(real_page, services):
    page = real_page
    cookies = page.context.cookies()
    assert cookies and all(c["httpOnly"] for c in cookies)

    send(page, DINNER_Q)
    answer = wait_for_answer(page, DINNER_A)
    thread_id = page.evaluate(
        "JSON.parse(localStorage.getItem('frontdesk.chats.v2')).concierge.threadId"
    )
    answer.get_by_role("button", name="Good answer").click()
    with page.expect_response("**/feedback") as feedback:
        page.get_by_role("button", name="Send feedback").click()
    assert feedback.value.status == 201
    expect(answer.locator(".feedback-thanks")).to_be_visible()

    page.get_by_role("button", name="New conversation").click()
    expect(page.locator("#messages li")).to_have_count(0)
    page.get_by_role("button", name="Past conversations").click()
    listed = page.locator("#history-list .history-item")
    expect(listed).to_have_count(1)
    expect(listed.locator(".history-title")).to_contain_text("dinner")
    listed.click()
    expect(page.locator("#messages .bubble-text")).to_have_text([DINNER_Q, DINNER_A])
    stored = page.evaluate("JSON.parse(localStorage.getItem('frontdesk.chats.v2')).concierge")
    assert stored["threadId"] == thread_id

    # Stop: the server finds the running turn and stops it.
    services.concierge.gate.clear()
    try:
        send(page, POOL_Q)
        expect(assistant_messages(page).last.locator(".bubble-text")).not_to_have_text("")
        with page.expect_response("**/chat/cancel") as cancel:
            page.get_by_role("button", name="Stop").click()
        assert cancel.value.status == 200 and cancel.value.json() == {"cancelled": True}
        expect(assistant_messages(page).last).to_have_attribute("data-status", "stopped")
    finally:
        services.concierge.gate.set()


def test_telecom_demo_sign_in_acts_for_the_customer(real_page, services):
    page = real_page
    page.get_by_label("Assistant", exact=True).select_option("telecom")
    customer = page.get_by_label("Customer")
    expect(customer).to_be_enabled()
    options = customer.locator("option")
    expect(options.first).to_have_text("Not signed in")
    assert options.count() > 1
    chosen = options.nth(1).get_attribute("value")
    customer.select_option(chosen)
    expect(page.locator("#messages li")).to_have_count(0)
    send(page, REFUND_Q)
    expect(assistant_messages(page).last).to_have_attribute("data-status", "done")
    assert services.telecom.user_ids[-1] == chosen
    page.reload()
    expect(page.get_by_label("Customer")).to_have_value(chosen)
