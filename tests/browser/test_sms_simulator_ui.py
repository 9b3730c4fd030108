"""The phone simulator page (issue 19) on the real casino host service (scripted model, hash
embeddings): a message from the casino through the gate, the double opt-in, a question and its
SMS with encoding, segments and delay, the clock moved into quiet hours, STOP, and the consent
chain and audit rows beside it; bad input is said plainly."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from frontdesk.assistants.casino_host.build import build_service
from frontdesk.config import Settings
from frontdesk.runtime import Models

from .conftest import DESKTOP, LiveServer, expect

pytestmark = pytest.mark.browser


@pytest.fixture(scope="module")
def simulator_server() -> Iterator[LiveServer]:
    async def load(settings: Settings):
        return {"casino_host": await build_service(settings, Models(settings))}

    with LiveServer(load=load, assistant="casino_host", llm_provider="scripted",
                    embeddings_provider="hash", checkpointer="memory") as server:  # fmt: skip
        yield server


@pytest.fixture
def simulator(browser, simulator_server, problems):
    context = browser.new_context(**DESKTOP)
    page = context.new_page()
    page.on("pageerror", lambda err: problems.append(f"page error: {err}"))
    page.on("console", lambda msg: msg.type == "error" and problems.append(f"console: {msg.text}"))
    page.goto(simulator_server.url + "/sms/simulator")
    expect(page.get_by_label("Casino", exact=True)).to_have_value("mohegan_sun")
    yield page
    context.close()


def host_bubbles(page):
    return page.locator("#thread .bubble.host")


def test_opt_in_a_question_quiet_hours_and_stop(simulator):
    page = simulator
    page.get_by_label("Guest number").fill("+18605550161")
    page.get_by_role("button", name="Send through the gate").click()
    result = page.locator("#outbound-result")
    expect(result).to_have_text("Sent.")
    expect(host_bubbles(page).first).to_contain_text("Seven (AI host): Thanks for joining")
    expect(page.locator("#queue li").first).to_contain_text("sent · transactional")

    page.get_by_role("button", name="YES", exact=True).click()
    expect(host_bubbles(page)).to_have_count(2)
    expect(host_bubbles(page).nth(1)).to_contain_text("You're subscribed to Mohegan Sun offers")
    expect(page.locator("#consent")).to_contain_text("Written consent: yes")
    expect(page.locator("#chain li")).to_have_count(1)
    expect(page.locator("#chain li").first).to_contain_text("consent_granted (sms_double_opt_in)")

    page.get_by_label("Message", exact=True).fill("Is the spa open tomorrow?")
    page.get_by_label("Message", exact=True).press("Enter")
    expect(host_bubbles(page)).to_have_count(3)
    meta = host_bubbles(page).nth(2).locator(".meta")
    expect(meta.first).to_contain_text("GSM-7 · 1 segment · after")
    # The bubble follows its SMS: sent after its delay, then the simulator's delivery report.
    expect(host_bubbles(page).nth(2).locator(".outcome")).to_have_text("delivered", timeout=15_000)

    page.get_by_label("Casino clock").fill("2026-11-25T21:30")
    page.get_by_label("Type").select_option("marketing")
    page.get_by_label("Text", exact=True).fill("Seafood buffet Friday night")
    page.get_by_role("button", name="Send through the gate").click()
    expect(result).to_have_text(
        "Not sent (quiet_hours): quiet hours (21:00-08:00 in America/New_York)"
    )

    page.get_by_role("button", name="STOP", exact=True).click()
    expect(host_bubbles(page)).to_have_count(4)
    expect(host_bubbles(page).nth(3)).to_contain_text("You've been unsubscribed")
    expect(page.locator("#consent")).to_contain_text("Opted out (STOP): yes")
    expect(page.locator("#chain-status")).to_have_text("Verifies · 2 events")
    expect(page.locator("#audit li").first).to_contain_text("consent_revoked")
    page.get_by_label("Message", exact=True).fill("Hello?")
    page.get_by_label("Message", exact=True).press("Enter")
    expect(page.locator("#thread .bubble.note")).to_have_text(
        "Nothing was sent: this guest opted out (STOP)."
    )


def test_bad_input_is_said_plainly(simulator):
    page = simulator
    page.get_by_label("Guest number").fill("860555")
    page.get_by_label("Message", exact=True).fill("Hi")
    page.get_by_label("Message", exact=True).press("Enter")
    expect(page.locator("#phone-error")).to_have_text(
        "The guest number must be E.164, such as +18605550123."
    )
    expect(page.locator("#thread li")).to_have_count(0)
    # Nothing of the last guest stays on show beside a number that is not one.
    expect(page.locator("#consent")).to_have_text("No guest: enter an E.164 number.")
    expect(page.locator("#queue li")).to_have_count(0)
    page.get_by_label("Guest number").fill("+18605550162")
    page.get_by_label("Text", exact=True).fill("   ")
    page.get_by_role("button", name="Send through the gate").click()
    expect(page.locator("#outbound-result")).to_have_text("Write the message first.")
