"""The chat shell: streaming, reload, new conversation, polite errors, safe markdown, Stop,
typing while an answer streams, copy, regenerate, feedback, phone layout."""

from __future__ import annotations

import time
import uuid

import pytest

from .conftest import CHATS_KEY, PHONE, assistant_messages, expect, open_page, send, wait_for_answer
from .scripted import (
    CHECKED_FIRST,
    CHECKED_Q,
    CHECKED_REST,
    DINNER_A,
    DINNER_Q,
    GREETING,
    POOL_A,
    POOL_Q,
    SPA_A,
)

pytestmark = pytest.mark.browser


def test_streams_answer_with_sources_and_survives_reload(page, services):
    concierge = services.concierge
    expect(page).to_have_title("Seaside Grand Hotel · Resort concierge")
    expect(page.locator("#property-name")).to_have_text("Seaside Grand Hotel")

    concierge.gate.clear()  # hold the answer halfway
    send(page, POOL_Q)
    expect(page.locator('#messages li[data-role="user"] .bubble-text')).to_have_text(POOL_Q)
    answer = assistant_messages(page).last
    half = " ".join(POOL_A.split(" ")[: len(POOL_A.split(" ")) // 2])
    expect(answer.locator(".bubble-text")).to_have_text(half)
    # Mid-stream: partial text, streaming, Stop offered, the box still usable, no sources yet.
    expect(answer).to_have_attribute("data-status", "streaming")
    expect(page.get_by_label("Your message")).to_be_enabled()
    expect(page.get_by_role("button", name="Stop")).to_be_visible()
    expect(answer.locator(".source-chip")).to_have_count(0)
    concierge.gate.set()

    wait_for_answer(page, POOL_A)
    expect(page.get_by_role("button", name="Stop")).to_be_hidden()
    # The item used is named (not its category) and opens.
    expect(answer.locator(".source-chip")).to_have_text(["Indoor pool"])
    message, thread_id = concierge.calls[-1]
    assert message == POOL_Q and uuid.UUID(thread_id)
    stored = page.evaluate(f"JSON.parse(localStorage.getItem('{CHATS_KEY}'))")
    assert stored["concierge"]["threadId"] == thread_id

    page.reload()
    expect(page.locator("#welcome")).to_be_hidden()
    expect(page.locator("#messages .bubble-text")).to_have_text([POOL_Q, POOL_A])
    expect(assistant_messages(page).last.locator(".source-chip")).to_have_text(["Indoor pool"])

    # The conversation continues on the same thread after the reload.
    send(page, DINNER_Q)
    wait_for_answer(page, DINNER_A)
    assert concierge.calls[-1] == (DINNER_Q, thread_id)

    page.get_by_role("button", name="New conversation").click()
    expect(page.locator("#messages li")).to_have_count(0)
    expect(page.locator("#welcome")).to_be_visible()
    page.reload()
    expect(page.locator("#messages li")).to_have_count(0)
    send(page, DINNER_Q)
    wait_for_answer(page, DINNER_A)
    assert concierge.calls[-1][1] != thread_id


def test_an_answer_being_checked_says_so_below_its_first_words(page, services):
    concierge = services.concierge
    concierge.gate.clear()
    send(page, CHECKED_Q)
    answer = assistant_messages(page).last
    expect(answer.locator(".bubble-text")).to_have_text(CHECKED_FIRST.strip())
    expect(answer.locator(".progress-status")).to_have_text(
        "Checking the details before showing them…"
    )
    expect(answer).to_have_attribute("data-status", "streaming")
    concierge.gate.set()
    wait_for_answer(page, CHECKED_FIRST + CHECKED_REST)
    expect(answer.locator(".progress-status")).to_have_count(0)
    expect(answer.locator(".typing")).to_have_count(0)


def test_topic_chips_replace_and_polite_errors(page, services):
    concierge = services.concierge
    # Topic chips use the plug-in's names for the property's categories, never route names.
    expect(page.locator(".suggestion")).to_have_text(
        ["Dining", "Spa, pools and amenities", "Rooms and stays", "Policies and practical info"]
    )
    page.get_by_role("button", name="Spa, pools and amenities").click()
    wait_for_answer(page, SPA_A)
    assert concierge.calls[-1][0] == "What can you tell me about spa, pools and amenities?"

    send(page, "hello there")
    greeting = wait_for_answer(page, GREETING)  # the draft token was replaced, not appended
    expect(greeting.locator(".sources")).to_have_count(0)

    send(page, "please fail now")
    failed = assistant_messages(page).last
    expect(failed).to_have_attribute("data-status", "error")
    expect(failed.locator(".bubble-text")).to_have_text(
        "Sorry, something went wrong while answering. Please try again."
    )
    assert "simulated" not in page.content()

    send(page, "is the kb unavailable?")
    reported = assistant_messages(page).last
    expect(reported.locator(".bubble-text")).to_have_text(
        "The knowledge base is unavailable right now."
    )
    expect(reported).to_have_attribute(
        "data-status", "error"
    )  # the `done` after it changes nothing

    box = page.get_by_label("Your message")
    box.fill("first line")
    box.press("Shift+Enter")
    box.type("second line")
    assert box.input_value() == "first line\nsecond line"
    expect(assistant_messages(page)).to_have_count(4)


@pytest.mark.parametrize(
    ("fulfil", "expected"),
    [
        (
            {"status": 429, "headers": {"Retry-After": "7"}, "json": {"error": "Too many"}},
            "You're sending messages a little quickly. Please wait 7 seconds and try again.",
        ),
        (
            {"status": 503, "json": {"error": "not ready"}},
            "The assistant is busy or still getting ready. Please try again in a moment.",
        ),
        (None, "Couldn't reach the assistant. Check your connection and try again."),
    ],
    ids=["rate-limited", "not-ready", "network-down"],
)
def test_refused_requests_are_explained_politely(page, problems, fulfil, expected):
    def answer(route):
        if fulfil is None:
            route.abort("connectionrefused")
        else:
            route.fulfill(**fulfil)

    page.route("**/chat", answer)
    send(page, DINNER_Q)
    failed = assistant_messages(page).last
    expect(failed).to_have_attribute("data-status", "error")
    expect(failed.locator(".bubble-text")).to_have_text(expected)
    # The question comes back to the composer so it can be sent again.
    expect(page.get_by_label("Your message")).to_have_value(DINNER_Q)
    expect(page.get_by_role("button", name="Send")).to_be_enabled()
    problems[:] = [p for p in problems if "Failed to load resource" not in p]


def test_busy_server_is_retried_once_after_retry_after(page, problems):
    attempts = []

    def busy_once(route):
        attempts.append(route.request.post_data_json)
        if len(attempts) == 1:
            route.fulfill(status=503, headers={"Retry-After": "1"}, json={"error": "busy"})
        else:
            route.continue_()

    page.route("**/chat", busy_once)
    send(page, DINNER_Q)
    answer = assistant_messages(page).last
    expect(answer.locator(".progress-status")).to_have_text(
        "The assistant is busy: retrying in 1 s"
    )
    wait_for_answer(page, DINNER_A)
    assert len(attempts) == 2 and attempts[0] == attempts[1]
    problems[:] = [p for p in problems if "Failed to load resource" not in p]


def test_markdown_renders_and_hostile_input_stays_text(page):
    page.evaluate("window.__xss = 0")
    send(page, "a hostile answer please")
    answer = assistant_messages(page).last
    expect(answer).to_have_attribute("data-status", "done")
    text = answer.locator(".bubble-text")
    expect(text.locator("strong")).to_have_text("bold")
    expect(text.locator("li")).to_have_count(2)
    expect(text.locator("li code")).to_have_text("<b>code</b>")
    expect(text).to_contain_text('<img src=x onerror="window.__xss=1">')
    expect(text).to_contain_text("<script>window.__xss=3</script>")
    # Only the https link is a link; the javascript: one is shown as text.
    links = text.locator("a")
    expect(links).to_have_count(1)
    expect(links).to_have_attribute("href", "https://example.com/spa")
    expect(links).to_have_attribute("rel", "noopener noreferrer nofollow")
    expect(text).to_contain_text("click me (javascript:window.__xss=2)")
    # A document's raw HTML stays text in the source dialog too.
    answer.get_by_role("button", name="Indoor pool").click()
    dialog = page.get_by_role("dialog")
    expect(dialog).to_be_visible()
    expect(dialog.locator("strong")).to_have_text("saltwater")
    expect(dialog).to_contain_text('<iframe src="javascript:window.__xss=4"></iframe>')
    assert page.locator("#messages img, #messages script, dialog iframe").count() == 0
    assert page.evaluate("window.__xss") == 0


def test_a_bare_url_in_an_answer_becomes_a_link(page):
    # It once matched itself as a URL again inside the link, without end: the whole answer
    # was lost as "Couldn't reach the assistant".
    send(page, "what is the website?")
    answer = assistant_messages(page).last
    expect(answer).to_have_attribute("data-status", "done")
    link = answer.locator(".bubble-text a[href^='https:']")
    expect(link).to_have_text("https://mohegansun.com")
    expect(link).to_have_attribute("href", "https://mohegansun.com")
    expect(answer.locator(".bubble-text")).to_contain_text("call 1-888-226-7711 or visit")


# text -> the links the markdown renderer makes of it: [text, href, target, rel].
NEW_TAB = ["_blank", "noopener noreferrer nofollow"]
AUTOLINKS = {
    "Book at mohegansun.com.": [["mohegansun.com", "https://mohegansun.com", *NEW_TAB]],
    "See www.mohegansun.com/shows, or call 1-888-226-7711.": [
        ["www.mohegansun.com/shows", "https://www.mohegansun.com/shows", *NEW_TAB],
        ["1-888-226-7711", "tel:18882267711", None, None],
    ],
    "e.g. 3.5 stars, node.js, notes.md, U.S. law, mohegansun.com.au": [],
    "mail info@mohegansun.com, invoice INV-20251001 of 2025-10-01": [],
    "javascript:alert(1) and javascript://mohegansun.com": [],
    "`mohegansun.com` in code": [],
    "[the site](https://mohegansun.com) and [mohegansun.com](https://mohegansun.com/x)": [
        ["the site", "https://mohegansun.com", *NEW_TAB],
        ["mohegansun.com", "https://mohegansun.com/x", *NEW_TAB],
    ],
}


def test_markdown_links_known_domains_and_phones_and_nothing_else(page):
    found = page.evaluate(
        """async (texts) => {
          const { renderMarkdown } = await import("/static/js/markdown.js");
          const out = {};
          for (const text of texts) {
            const box = document.createElement("div");
            renderMarkdown(box, text);
            out[text] = [...box.querySelectorAll("a")].map((a) => [
              a.textContent, a.getAttribute("href"), a.getAttribute("target"), a.getAttribute("rel"),
            ]);
            if (box.querySelector("a a")) out[text].push("a link inside a link");
          }
          return out;
        }""",
        list(AUTOLINKS),
    )
    assert found == AUTOLINKS


def test_stop_cancels_the_turn_on_the_server(page, services):
    concierge = services.concierge
    stopped = concierge.stopped
    concierge.gate.clear()
    try:
        send(page, POOL_Q)
        answer = assistant_messages(page).last
        expect(answer).to_have_attribute("data-status", "streaming")
        expect(answer.locator(".bubble-text")).not_to_have_text("")
        thread_id = concierge.calls[-1][1]
        page.get_by_role("button", name="Stop").click()
        expect(answer).to_have_attribute("data-status", "stopped")
        expect(answer.locator(".message-note")).to_have_text("Stopped")
        expect(page.get_by_role("button", name="Stop")).to_be_hidden()
        assert page.accounts.sent("/chat/cancel") == [
            {"assistant": "concierge", "thread_id": thread_id}
        ]
    finally:
        concierge.gate.set()
    # The server's stream was closed before its end.
    deadline = time.monotonic() + 5
    while concierge.stopped == stopped and time.monotonic() < deadline:
        page.wait_for_timeout(50)
    assert concierge.stopped == stopped + 1
    send(page, DINNER_Q)  # the chat goes on
    wait_for_answer(page, DINNER_A)


def test_typing_while_streaming_queues_the_next_question(page, services):
    concierge = services.concierge
    concierge.gate.clear()
    try:
        send(page, POOL_Q)
        expect(assistant_messages(page).last).to_have_attribute("data-status", "streaming")
        send(page, DINNER_Q)  # typed and sent while the first answer streams
        queued = page.locator('#messages li[data-role="user"]').last
        expect(queued).to_have_attribute("data-status", "queued")
        expect(queued.locator(".message-note")).to_contain_text("Queued")
        expect(assistant_messages(page)).to_have_count(1)
    finally:
        concierge.gate.set()
    wait_for_answer(page, DINNER_A)
    expect(page.locator("#messages .bubble-text")).to_have_text(
        [POOL_Q, POOL_A, DINNER_Q, DINNER_A]
    )
    assert [c[0] for c in concierge.calls[-2:]] == [POOL_Q, DINNER_Q]


def test_copy_regenerate_and_feedback(browser, live_server, problems, services):
    page = open_page(
        browser,
        live_server,
        problems,
        viewport={"width": 1100, "height": 800},
        permissions=["clipboard-read", "clipboard-write"],
    )
    try:
        send(page, "ask again please")
        first = assistant_messages(page).nth(0)
        expect(first).to_have_attribute("data-status", "done")
        text = first.locator(".bubble-text").inner_text()
        first.get_by_role("button", name="Copy").click()
        expect(first.get_by_role("button", name="Copied")).to_be_visible()
        assert page.evaluate("navigator.clipboard.readText()") == text

        calls = len(services.concierge.calls)
        first.get_by_role("button", name="Regenerate").click()
        expect(assistant_messages(page)).to_have_count(1)  # replaced, not added
        expect(first.locator(".bubble-text")).not_to_have_text(text)
        expect(first).to_have_attribute("data-status", "done")
        assert len(services.concierge.calls) == calls + 1
        chats = page.evaluate(f"JSON.parse(localStorage.getItem('{CHATS_KEY}'))")
        assert [m["role"] for m in chats["concierge"]["messages"]] == ["user", "assistant"]

        first.get_by_role("button", name="Bad answer").click()
        page.get_by_label("What could be better? (optional)").fill("Too vague.")
        page.get_by_role("button", name="Send feedback").click()
        expect(first.locator(".feedback-thanks")).to_have_text("Thanks for your feedback.")
        thread_id = services.concierge.calls[-1][1]
        assert page.accounts.sent("/feedback") == [
            {
                "assistant": "concierge",
                "thread_id": thread_id,
                "turn": 0,
                "rating": "down",
                "comment": "Too vague.",
            }
        ]
        send(page, DINNER_Q)
        second = wait_for_answer(page, DINNER_A)
        # Regenerate belongs to the last answer only.
        expect(first.get_by_role("button", name="Regenerate")).to_have_count(0)
        second.get_by_role("button", name="Good answer").click()
        page.get_by_role("button", name="Send feedback").click()
        expect(second.locator(".feedback-thanks")).to_be_visible()
        assert page.accounts.sent("/feedback")[-1] == {
            "assistant": "concierge",
            "thread_id": thread_id,
            "turn": 1,
            "rating": "up",
        }
    finally:
        page.context.close()


@pytest.mark.parametrize("width", [360, 390])
def test_phone_width_layout(browser, live_server, problems, width):
    page = open_page(
        browser, live_server, problems, **{**PHONE, "viewport": {"width": width, "height": 740}}
    )
    try:
        send(page, POOL_Q)
        wait_for_answer(page, POOL_A)
        assert page.evaluate("document.documentElement.scrollWidth") <= width
        for selector in [
            "#composer",
            "#new-conversation",
            "#history-toggle",
            "#messages li[data-role=assistant]",
            ".source-chip",
            ".message-actions",
        ]:
            box = page.locator(selector).first.bounding_box()
            assert box and box["x"] >= 0 and box["x"] + box["width"] <= width + 0.5, selector
            assert box["y"] + box["height"] <= 740 + 0.5, selector
    finally:
        page.context.close()
