"""A reopened conversation whose last question the server never answered (it stopped
mid-turn): the question shows with a note, and Regenerate asks it again on its thread."""

from __future__ import annotations

import pytest

from .conftest import assistant_messages, expect, open_page, wait_for_answer
from .scripted import DINNER_Q, POOL_A, POOL_Q

pytestmark = pytest.mark.browser


def test_an_unanswered_question_is_shown_and_can_be_asked_again(
    browser, live_server, problems, services
):
    page = open_page(browser, live_server, problems)
    try:
        thread = "5e2f5a2e-3a4b-4c5d-8e9f-0a1b2c3d4e5f"
        page.accounts.conversations["concierge"] = [
            {
                "thread_id": thread,
                "assistant": "concierge",
                "title": "Dinner plans",
                "updated_at": "2026-11-20T19:05:00Z",
            }
        ]
        page.accounts.transcripts[("concierge", thread)] = [
            {"role": "user", "content": DINNER_Q},
            {"role": "assistant", "content": "Try **Salt & Pine**."},
            {"role": "user", "content": POOL_Q, "answered": False},
        ]
        page.get_by_role("button", name="Past conversations").click()
        page.locator("#history-panel").get_by_role("button", name="Dinner plans").click()
        unanswered = assistant_messages(page).last
        note = (
            "Not answered: the assistant stopped before it could answer. Regenerate to ask again."
        )
        expect(page.locator("#messages .bubble-text")).to_have_text(
            [DINNER_Q, "Try Salt & Pine.", POOL_Q, note]
        )
        expect(unanswered).to_have_attribute("data-status", "error")

        with page.expect_request("**/chat") as asked:
            unanswered.get_by_role("button", name="Regenerate").click()
        payload = asked.value.post_data_json
        assert (payload["message"], payload["thread_id"], payload["regenerate"]) == (
            POOL_Q,
            thread,
            True,
        )
        wait_for_answer(page, POOL_A)
        expect(assistant_messages(page)).to_have_count(2)  # replaced, not added
        assert services.concierge.calls[-1] == (POOL_Q, thread)
        page.keyboard.press("Escape")
    finally:
        page.context.close()
