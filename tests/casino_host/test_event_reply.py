"""An event's show times, prices, age rule and place, worked out in code (event_reply.py), and
which venue or event a message names (naming.py)."""

from __future__ import annotations

from datetime import datetime
from types import SimpleNamespace
from zoneinfo import ZoneInfo

import pytest

from frontdesk.assistants.casino_host.content import CasinoContent
from frontdesk.assistants.casino_host.conversation.field_reply import field_reply
from frontdesk.assistants.casino_host.conversation.naming import named_event, named_venue
from frontdesk.knowledge.glossary import SPANISH_RESORT_GLOSSARY, Glossary

GLOSSARY = Glossary.load(SPANISH_RESORT_GLOSSARY)
THURSDAY_NOON = {
    "mohegan_sun": datetime(2026, 12, 3, 12, 0, tzinfo=ZoneInfo("America/New_York")),
    "bellagio": datetime(2026, 12, 3, 12, 0, tzinfo=ZoneInfo("America/Los_Angeles")),
}


@pytest.fixture(scope="module")
def content():
    return CasinoContent.load()


def context(content, casino_id):
    return SimpleNamespace(
        catalog=content.catalog(casino_id),
        now=THURSDAY_NOON[casino_id],
        services=SimpleNamespace(glossary=GLOSSARY),
        in_content_words=lambda text: text,
    )


def ask(content, casino_id, question, language="en"):
    found = field_reply(context(content, casino_id), question, language, [], None)
    return found.text if found else None


def test_show_times_on_the_asked_day_and_the_next_one(content):
    # The data's Holiday Pops plays on December 12, not on Saturday the 5th.
    assert ask(content, "mohegan_sun", "what time is the holiday pops spectacular on saturday") == (
        "Holiday Pops Spectacular has no show on Saturday. Next: December 12, 2026 7:30 PM."
    )


def test_ticket_prices_and_age_rule_in_the_events_words(content):
    assert ask(content, "mohegan_sun", "how much are tickets for holiday pops") == (
        "Holiday Pops Spectacular: tickets $45-$125."
    )
    assert ask(content, "mohegan_sun", "is the nutcracker on ice ok for kids") == (
        "The Nutcracker on Ice: All ages (Children 2 and older need a ticket)."
    )


def test_in_spanish(content):
    assert ask(content, "mohegan_sun", "a que hora es el motown revue hoy?", "es") == (
        "Motown Revue: December 3, 2026 8:00 PM."
    )


def test_a_name_the_casino_has_nowhere_names_nothing(content):
    ctx = context(content, "bellagio")
    # Bellagio has a "Mayfair Supper Club Revue", and no Motown Revue.
    assert named_event(ctx, "a que hora es el motown revue hoy?") is None
    assert ask(content, "bellagio", "a que hora es el motown revue hoy?", "es") is None


@pytest.mark.parametrize(
    ("question", "venue"),
    [
        ("can we do dinner at picasso tonight?", "Picasso"),
        ("is the hash house open", None),  # a Mohegan Sun venue, asked at Bellagio
        ("what dining is open late", None),  # "dining" is an everyday word, not a name
    ],
)
def test_a_venue_named_by_one_word_of_its_name(content, question, venue):
    found = named_venue(context(content, "bellagio"), question)
    assert (found.name if found else None) == venue


@pytest.mark.parametrize(
    "question",
    ["how much r tix for the O show", "hay edad minima pa entrar a ver O?", "the o show tonight?"],
)
def test_a_one_letter_show_is_named_by_its_letter(content, question):
    ctx = context(content, "bellagio")
    assert named_event(ctx, question).name == "O by Cirque du Soleil"


@pytest.mark.parametrize("question", ["cena o almuerzo?", "A table for two tonight?"])
def test_the_letter_as_a_word_names_no_show(content, question):
    assert named_event(context(content, "bellagio"), question) is None


def test_the_age_note_is_kept_in_spanish(content):
    # The note was dropped from a Spanish reply: "All ages" alone, for a show that admits no
    # child under 5.
    assert ask(content, "bellagio", "hay edad minima pa entrar a ver O?", "es") == (
        "O by Cirque du Soleil: All ages (no se admiten menores de 5 años)."
    )
