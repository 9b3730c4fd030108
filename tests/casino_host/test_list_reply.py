"""List questions answered from every venue of the category (list_reply.py)."""

from __future__ import annotations

from datetime import datetime
from types import SimpleNamespace
from zoneinfo import ZoneInfo

import pytest

from frontdesk.assistants.casino_host.content import CasinoContent
from frontdesk.assistants.casino_host.conversation.list_reply import list_reply
from frontdesk.knowledge.glossary import SPANISH_RESORT_GLOSSARY, Glossary

NOW = datetime(2026, 11, 29, 14, 0, tzinfo=ZoneInfo("America/New_York"))


@pytest.fixture(scope="module")
def content():
    return CasinoContent.load()


def ask(content, casino_id, question, language="en"):
    services = SimpleNamespace(glossary=Glossary.load(SPANISH_RESORT_GLOSSARY))
    ctx = SimpleNamespace(catalog=content.catalog(casino_id), services=services, now=NOW)
    found = list_reply(ctx, question, language)
    return found.text if found else None


def test_a_list_with_prices_is_one_sms_sentence_of_five_and_a_count(content):
    text = ask(content, "mohegan_sun", "What restaurants do you have? Give me a list with prices")
    assert text.startswith("Restaurants at Mohegan Sun: Michael Jordan's Steak House ($$$$), ")
    dining = [v for v in content.catalog("mohegan_sun").venues() if v.category == "dining"]
    assert text.endswith(f", and {len(dining) - 5} more. Ask me about any of them!")
    assert "\n" not in text


def test_a_list_narrowed_by_what_the_venues_are(content):
    assert ask(content, "bellagio", "any italian restaurants?") == (
        "Restaurants at Bellagio (italian): Lago by Julian Serrano."
    )


def test_in_spanish(content):
    text = ask(content, "bellagio", "¿qué restaurantes tienen?", "es")
    assert text.startswith("Restaurantes en Bellagio: Picasso, Michael Mina, ")
    assert "más. ¡Pregúnteme por cualquiera!" in text


@pytest.mark.parametrize(
    "question",
    [
        "what time does the steakhouse open",  # one venue, not a list
        "what shows are on saturday",  # the schedule's
        "any martian restaurants?",  # narrowed to nothing
    ],
)
def test_no_list(content, question):
    assert ask(content, "mohegan_sun", question) is None


def test_what_texts_add_does_not_narrow_a_list(content):
    text = ask(content, "mohegan_sun", "what restaurants do you have? list w prices pls")
    assert text.startswith("Restaurants at Mohegan Sun: Michael Jordan's Steak House ($$$$), ")


def test_a_recommendation_among_places_to_eat_cheapest_first(content):
    text = ask(content, "mohegan_sun", "on a tight budget this trip, where can i get cheap eats?")
    assert text.startswith("Restaurants at Mohegan Sun: ")
    tiers = [part.split("(")[-1].split(")")[0] for part in text.split("), ")[:4]]
    assert all(tier.startswith("$") and not tier.startswith("$$") for tier in tiers)


def test_a_recommendation_for_food_no_venue_has_is_left_to_the_agents(content):
    assert ask(content, "mohegan_sun", "any place for sushi?") is None
    assert ask(content, "bellagio", "any place for sushi?") == (
        "Restaurants at Bellagio (sushi): Yellowtail Japanese Restaurant & Lounge."
    )


@pytest.mark.parametrize(
    ("question", "language"),
    [("¿tienen mariscos?", "es"), ("do you guys have seafood?", "en"), ("is there seafood", "en")],
)
def test_asked_whether_it_serves_a_food_the_places_that_do_are_named(content, question, language):
    # Asked in Spanish for seafood, the model had named a Mexican grill.
    text = ask(content, "mohegan_sun", question, language)
    assert text is not None and "Jasper White's Summer Shack" in text
    assert "SolToro" not in text
    assert text.startswith("Restaurantes en" if language == "es" else "Restaurants at")
