"""The real concierge (its graph, the resort's knowledge, the facts step) behind the web chat:
the chips under an answer name the items it used and open their details, the fallback's
website and phone are links. The model is scripted (every draft it writes is ungrounded, so a
question the facts step cannot answer ends in the fallback) and embeddings are hashed: what is
tested is the service's events and the page, not the model's wording."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from frontdesk.assistants.concierge.service import build_service
from frontdesk.config import Settings
from frontdesk.llm.scripted import ScriptedChatModel
from frontdesk.runtime import Models

from .conftest import LiveServer, ask, expect, open_page

pytestmark = pytest.mark.browser

UNGROUNDED = "The Zebra Lounge serves free lobster at 4 am daily."
PHONE_Q = "what's the phone number for Michael Jordan's Steak House?"
PHONE_A = "You can reach Michael Jordan's Steak House at 860-862-8600."
SPA_Q = "what time does the spa open on sunday?"
ABSENT_Q = "is there a bowling alley?"
# The model must write this one (no list, field or policy the facts step answers).
FALLBACK_Q = "tell me the story behind the mohegan sun name"


async def load_concierge(settings: Settings):
    model = ScriptedChatModel(script=lambda messages: UNGROUNDED)
    return {"concierge": await build_service(settings, Models(settings, chat_override=model))}


@pytest.fixture(scope="module")
def concierge_server() -> Iterator[LiveServer]:
    with LiveServer(
        load=load_concierge,
        assistant="concierge",
        llm_provider="scripted",
        embeddings_provider="hash",
        checkpointer="memory",
        router_llm="never",
    ) as server:
        yield server


@pytest.fixture
def concierge_page(browser, concierge_server, problems):
    page = open_page(browser, concierge_server, problems, real_accounts=True)
    yield page
    page.context.close()


def test_chips_are_the_items_used_and_open_their_details(concierge_page):
    page = concierge_page
    answer = ask(page, PHONE_Q)
    # The sentence, then its citation mark: source 1, after the phone link, not inside it.
    expect(answer.locator(".bubble-text")).to_have_text(PHONE_A + "1")
    expect(answer.locator(".bubble-text a")).to_have_attribute("href", "tel:8608628600")
    expect(answer.locator(".bubble-text a .cite-mark")).to_have_count(0)
    mark = answer.locator(".bubble-text .cite-mark")
    expect(mark).to_have_text(["1"])
    expect(mark).to_have_attribute("aria-label", "Source 1: Michael Jordan's Steak House")
    chips = answer.locator(".sources .source-chip")
    expect(chips).to_have_text(["Michael Jordan's Steak House"])  # never "restaurants"

    # Keyboard: the chip is a button, Enter opens the item, Escape closes it and gives the
    # focus back to the chip.
    chip = answer.get_by_role("button", name="Michael Jordan's Steak House", exact=True)
    chip.focus()
    page.keyboard.press("Enter")
    dialog = page.get_by_role("dialog")
    expect(dialog).to_be_visible()
    expect(dialog.locator("#document-title")).to_have_text("Michael Jordan's Steak House")
    expect(dialog.locator("#document-category")).to_have_text("restaurants")
    # Its fields, each a labelled line, and its description.
    fields = dialog.locator("#document-text li")
    expect(fields.filter(has_text="Phone:")).to_have_text("Phone: 860-862-8600")
    expect(fields.filter(has_text="Hours:")).to_contain_text("Mon-Thu 5:00 PM-10:00 PM")
    expect(dialog.locator("#document-text p")).to_contain_text("basketball legend Michael Jordan")
    page.keyboard.press("Escape")
    expect(dialog).to_be_hidden()
    expect(chip).to_be_focused()

    # The mark opens the same item at the line the sentence rests on, highlighted.
    mark.click()
    expect(dialog.locator("#document-title")).to_have_text("Michael Jordan's Steak House")
    expect(dialog.locator("#document-text .cited-sentence")).to_have_text("Phone: 860-862-8600")
    page.keyboard.press("Escape")
    expect(dialog).to_be_hidden()

    answer = ask(page, SPA_Q)
    expect(answer.locator(".bubble-text")).to_contain_text("On Sunday, Elemis Spa is open")
    expect(answer.locator(".sources .source-chip")).to_have_text(["Elemis Spa"])
    answer.get_by_role("button", name="Elemis Spa", exact=True).click()
    expect(dialog.locator("#document-title")).to_have_text("Elemis Spa")
    expect(dialog.locator("#document-text li").filter(has_text="Hours:")).to_have_text(
        "Hours: Daily 8:00 AM-8:00 PM"
    )
    dialog.get_by_role("button", name="Close source").click()
    expect(dialog).to_be_hidden()

    # Worked out from no item: nothing to show as a source.
    answer = ask(page, ABSENT_Q)
    expect(answer.locator(".bubble-text")).to_have_text(
        "Mohegan Sun does not have a bowling alley."
    )
    expect(answer.locator(".sources")).to_have_count(0)


def test_the_fallback_links_the_website_and_the_phone(concierge_page):
    answer = ask(concierge_page, FALLBACK_Q)
    text = answer.locator(".bubble-text")
    expect(text).to_contain_text("I couldn't give you a reliable answer")
    website = text.get_by_role("link", name="https://mohegansun.com")
    expect(website).to_have_attribute("href", "https://mohegansun.com")
    expect(website).to_have_attribute("target", "_blank")
    expect(website).to_have_attribute("rel", "noopener noreferrer nofollow")
    expect(text.get_by_role("link", name="1-888-226-7711")).to_have_attribute(
        "href", "tel:18882267711"
    )
    expect(answer.locator(".sources")).to_have_count(0)
