"""List questions are answered from every item of the category, not the five the search found."""

from __future__ import annotations

import pytest

from frontdesk.assistants.concierge.facts import work_out
from frontdesk.assistants.concierge.service import KNOWLEDGE_FILE
from frontdesk.knowledge.loader import load_knowledge_file


@pytest.fixture(scope="module")
def guide():
    return load_knowledge_file(KNOWLEDGE_FILE)


def ask(guide, question, language="en"):
    found = work_out(
        question, previous=None, items=guide.items, retrieved=[], today=None,
        property=guide.property, language=language,
    )  # fmt: skip
    return found.text if found else None


def test_a_list_with_prices_names_every_restaurant_with_its_prices(guide):
    text = ask(guide, "What restaurants do you have? Give me a list with prices")
    lines = [line for line in text.splitlines() if line.startswith("- ")]
    assert len(lines) == 12 and "more)" in text.splitlines()[-1]
    assert all("$" in line for line in lines)


def test_a_list_is_narrowed_by_what_the_items_have(guide):
    text = ask(guide, "which restaurants have a kids menu")
    restaurants = {i.name for i in guide.items if i.category == "restaurants"}
    named = [n for n in restaurants if n in text]
    with_menu = {
        i.name for i in guide.items
        if i.category == "restaurants" and "kids' menu" in str(i.fields).casefold()
    }  # fmt: skip
    assert set(named) == with_menu and len(with_menu) >= 2


def test_a_question_about_one_place_is_no_list(guide):
    assert ask(guide, "what time does the restaurant open") is None
    assert ask(guide, "what restaurants are near Mohegan Sun Arena") is None
    # Words no restaurant has: the model (or the absent check) answers, not an empty list.
    assert ask(guide, "what restaurants have a zip line") is None


def test_a_spanish_list_has_a_spanish_heading(guide):
    text = ask(guide, "which restaurants Italian", language="es")
    assert text.startswith("Restaurantes en Mohegan Sun (italian):")
    assert "Tuscany" in text and "The Farm Italy" in text
