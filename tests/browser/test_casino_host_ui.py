"""The real casino host service behind the web chat (scripted model, hash embeddings): the
casino picker and the demo sign-in as a guest, each reply drawn as the SMS it was sent as
(parts, segment count), who answered, the gate's verdict and escalation, and beside it what
the host knows (completeness, phase, fields with confidence, what this turn learned). A
crafted stream checks the offer card and that nothing from a turn is parsed as HTML."""

from __future__ import annotations

import json
from collections.abc import Iterator

import pytest

from frontdesk.assistants.casino_host.build import build_service
from frontdesk.config import Settings
from frontdesk.runtime import Models

from .conftest import PHONE, LiveServer, ask, assistant_messages, expect, open_page

pytestmark = pytest.mark.browser

GREETING_Q = "Hi there"
DINING_Q = (
    "My name is Maria and we are 4 people coming Saturday. "
    "What time does Michael Jordan's Steak House open tonight?"
)
PROBLEM_Q = "I think I have a gambling problem"


@pytest.fixture(scope="module")
def casino_server() -> Iterator[LiveServer]:
    async def load(settings: Settings):
        return {"casino_host": await build_service(settings, Models(settings))}

    with LiveServer(
        load=load,
        assistant="casino_host",
        llm_provider="scripted",
        embeddings_provider="hash",
        checkpointer="memory",
    ) as server:
        yield server


@pytest.fixture
def casino_page(browser, casino_server, problems):
    # The server's own session: its demo sign-in lists the plug-in's guests.
    page = open_page(browser, casino_server, problems, real_accounts=True)
    yield page
    page.context.close()


def sign_in_as_a_guest(page) -> str:
    guest = page.get_by_label("Guest", exact=True)
    expect(guest).to_be_enabled()
    options = guest.locator("option")
    expect(options.first).to_have_text("Not signed in")
    number = options.nth(2).get_attribute("value")
    assert number and number.startswith("+1")
    guest.select_option(number)
    expect(guest).to_have_value(number)
    return number


def field(answer, path: str):
    return answer.locator(f'.ch-field[data-path="{path}"]')


def test_replies_show_as_sms_beside_what_the_host_knows(casino_page):
    page = casino_page
    expect(page.locator("#welcome-title")).to_have_text("Text your casino host")
    simulator = page.get_by_role("link", name="open the phone simulator")
    expect(simulator).to_have_attribute("href", "/sms/simulator")
    expect(page.locator("#suggestions button")).to_have_count(4)
    casino = page.get_by_label("Casino", exact=True)
    expect(casino.locator("option")).to_have_text(["Bellagio", "Mohegan Sun"])
    expect(casino).to_have_value("mohegan_sun")
    number = sign_in_as_a_guest(page)

    # A greeting: one SMS, no plain bubble, the profile panel beside it.
    answer = ask(page, GREETING_Q)
    expect(answer.locator(".bubble")).to_be_hidden()
    bubbles = answer.locator(".ch-sms-bubble")
    expect(bubbles).to_have_count(1)
    expect(bubbles.first).to_contain_text("Mohegan Sun")
    expect(answer.locator(".ch-sms-caption")).to_have_text(["SMS 1/1 · 1 segment"])
    expect(answer.locator(".ch-phone-head")).to_contain_text("Mohegan Sun · SMS")
    expect(answer.locator(".ch-badge-agent")).to_have_text("Greeting")
    knows = answer.locator(".ch-knows")
    expect(knows).to_be_visible()
    expect(knows.locator("summary")).to_have_text("What the host knows")
    expect(knows.locator(".ch-facts")).to_contain_text("PhaseActive")
    expect(knows.get_by_role("progressbar", name="Profile completeness")).to_be_visible()
    expect(field(answer, "core_identity.language")).to_contain_text("Language")
    expect(field(answer, "core_identity.language")).to_contain_text("English")
    expect(field(answer, "core_identity.language")).to_have_attribute("data-new", "true")
    # The answer's full text is kept (Copy, the API): only its bubble is not shown.
    expect(answer.get_by_role("button", name="Copy")).to_be_visible()
    # Never the guest's number.
    assert number[2:] not in answer.inner_text()

    # A dining question: the dining agent answers; what it learned is marked new.
    answer = ask(page, DINING_Q)
    expect(answer.locator(".ch-badge-agent")).to_have_text("Dining agent")
    name = field(answer, "core_identity.name")
    expect(name.locator(".ch-field-name")).to_have_text("Name")
    expect(name.locator(".ch-field-value")).to_have_text("Maria")
    expect(name.locator(".ch-field-conf")).to_have_text("95%")
    expect(name).to_have_attribute("data-new", "true")
    expect(field(answer, "visit_context.party_size").locator(".ch-field-value")).to_have_text("4")
    expect(
        field(answer, "visit_context.planned_visit_date").locator(".ch-field-name")
    ).to_have_text("Visit date")
    expect(field(answer, "core_identity.language")).to_have_attribute("data-new", "false")
    completeness = answer.locator(".ch-meter-label strong")
    assert int(completeness.inner_text().rstrip("%")) > 20

    # The gate: a fixed caring reply in two SMS, the layer flagged, a P1 escalation; this
    # server has no escalation chain, so a third SMS says no host could be reached.
    answer = ask(page, PROBLEM_Q)
    expect(answer.locator(".ch-sms-bubble")).to_have_count(3)
    expect(answer.locator(".ch-sms-caption")).to_have_text(
        ["SMS 1/3", "SMS 2/3", "SMS 3/3 · 3 segments"]  # the segments billed, in all
    )
    expect(answer.locator(".ch-sms-bubble").first).to_contain_text("1-800-522-4700")
    expect(answer.locator(".ch-sms-bubble").last).to_contain_text("can't be reached")
    expect(answer.locator(".ch-badge-agent")).to_have_text("Compliance gate")
    expect(answer.locator(".ch-badge-warn")).to_contain_text("Responsible gaming")
    expect(answer.locator(".ch-badge-sev")).to_contain_text("P1")
    expect(answer.locator(".ch-badge-sev")).to_have_attribute("data-severity", "P1")
    facts = answer.locator(".ch-facts")
    expect(facts).to_contain_text("Escalations1")
    expect(facts).to_contain_text("Responsible gaming flag")
    expect(field(answer, "core_identity.name")).to_have_attribute("data-new", "false")

    # The other casino: its name heads the phone.
    page.get_by_label("Casino", exact=True).select_option("bellagio")
    answer = ask(page, GREETING_Q)
    expect(answer.locator(".ch-phone-head")).to_contain_text("Bellagio · SMS")

    # Reloaded, the replies are still drawn as SMS.
    page.reload()
    expect(assistant_messages(page)).to_have_count(4)
    expect(assistant_messages(page).nth(2).locator(".ch-sms-bubble")).to_have_count(3)


CRAFTED = {
    "sources": [],
    "agent": "comp_agent",
    "guardrail": None,
    "sms": ['<img src=x onerror="window.__xss=1">Enjoy dinner on us!', "Reply STOP to opt out."],
    "segments": 2,
    "escalation": None,
    "offer": {
        "offer_id": "off_1",
        "tier": "gold",
        "value_usd": 50,
        "text": "<b>$50</b> dining credit",
        "redemption_instruction": "Show this text at any Mohegan Sun restaurant.",
    },
    "language": "en",
    "casino_id": "mohegan_sun",
    "extracted": {"<script>window.__xss=2</script>": "x"},
    "used_tools": ["get_eligible_offers"],
    "profile": {
        "fields": {
            "core_identity.name": {"value": "<i>Ann</i>", "confidence": 0.9, "source": "x"},
            "companions": {
                "value": [
                    {"relationship": "wife", "name": "Ana"},
                    {"relationship": "son", "age": 8},
                ],
                "confidence": 0.7,
                "source": "self_reported",
            },
            "<script>window.__xss=2</script>": {"value": "x", "confidence": 1, "source": "x"},
        },
        "completeness": 0.6,
        "phase": "offer",
        "responsible_gaming": False,
        "offers_sent": 1,
        "escalations": 0,
    },
}


def test_an_opted_out_guest_is_shown_that_nothing_was_sent(casino_page):
    page = casino_page
    sign_in_as_a_guest(page)
    stopped = ask(page, "STOP")
    expect(stopped.locator(".ch-sms-bubble")).to_contain_text("unsubscribed")
    # After STOP the host stores a message and texts nothing: the page says so, not an empty
    # bubble.
    silent = ask(page, "Is the spa open?")
    expect(silent.locator(".bubble-text")).to_contain_text("Nothing was sent")
    expect(silent.locator(".ch-sms-bubble")).to_have_count(0)
    started = ask(page, "START")
    expect(started.locator(".ch-sms-bubble")).to_contain_text("re-subscribed")


def test_a_message_sent_while_the_guest_changes_is_kept(casino_page):
    page = casino_page
    # The sign-in answers slowly (as on a loaded server): the message typed meanwhile must
    # land in the new guest's conversation, not be wiped when the sign-in arrives.
    page.evaluate(
        """() => {
            const fetchNow = window.fetch.bind(window);
            window.fetch = async (url, init) => {
                const answer = await fetchNow(url, init);
                if (String(url).includes("/session/sign-in")) {
                    await new Promise((done) => setTimeout(done, 1500));
                }
                return answer;
            };
        }"""
    )
    guest = page.get_by_label("Guest", exact=True)
    expect(guest).to_be_enabled()
    guest.select_option(index=3)
    answer = ask(page, GREETING_Q)
    expect(answer.locator(".ch-sms-bubble")).to_have_count(1)
    expect(page.locator("#signin-row")).not_to_have_attribute("aria-busy", "true")
    expect(page.locator('#messages li[data-role="user"]')).to_have_text([GREETING_Q])
    expect(assistant_messages(page)).to_have_count(1)


def test_offer_card_and_nothing_parsed_as_html(browser, casino_server, problems):
    page = open_page(browser, casino_server, problems, real_accounts=True, **PHONE)
    try:
        text = " ".join(CRAFTED["sms"])
        body = "".join(
            f"event: {name}\ndata: {json.dumps(data)}\n\n"
            for name, data in [
                ("metadata", {"thread_id": "t"}),
                ("replace", {"content": text}),
                ("sources", CRAFTED),
                ("done", {"done": True}),
            ]
        )
        page.route(
            "**/chat",
            lambda route: route.fulfill(
                status=200, headers={"Content-Type": "text/event-stream"}, body=body
            ),
        )
        answer = ask(page, "Do you have any offers for me?")
        expect(answer.locator(".ch-sms-bubble").first).to_have_text(CRAFTED["sms"][0])
        offer = answer.locator(".ch-offer")
        expect(offer).to_contain_text("Offer made · Gold")
        expect(offer.locator(".ch-offer-value")).to_have_text("$50")
        expect(offer).to_contain_text("<b>$50</b> dining credit")
        expect(offer.locator(".ch-offer-how")).to_have_text(
            "How to redeem: Show this text at any Mohegan Sun restaurant."
        )
        expect(answer.locator(".ch-badge-agent")).to_have_text("Offers agent")
        expect(answer.locator(".ch-facts")).to_contain_text("PhaseOffer")
        expect(answer.locator(".ch-facts")).to_contain_text("Offers made1")
        expect(field(answer, "core_identity.name").locator(".ch-field-value")).to_have_text(
            "<i>Ann</i>"
        )
        expect(field(answer, "companions").locator(".ch-field-value")).to_have_text(
            "wife Ana; son, 8"
        )
        expect(answer.locator(".ch-meter-label strong")).to_have_text("60%")
        assert page.evaluate("window.__xss") is None
        assert answer.locator("img, b, i, script").count() == 0
        # At phone width the view fits: nothing wider than the screen.
        width = page.evaluate("document.documentElement.scrollWidth")
        assert width <= PHONE["viewport"]["width"], width
    finally:
        page.context.close()
