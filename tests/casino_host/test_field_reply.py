"""Replies worked out from one venue's fields, without the model (field_reply.py)."""

from __future__ import annotations

from datetime import datetime
from types import SimpleNamespace
from zoneinfo import ZoneInfo

import pytest

from frontdesk.assistants.casino_host.content import CasinoContent
from frontdesk.assistants.casino_host.conversation.field_reply import Before, field_reply
from frontdesk.knowledge.glossary import SPANISH_RESORT_GLOSSARY, Glossary

STEAKHOUSE = "Michael Jordan's Steak House"  # Mon-Thu 17-22, Fri-Sat 17-23, Sun brunch + dinner
GLOSSARY = Glossary.load(SPANISH_RESORT_GLOSSARY)
SUNDAY_AFTERNOON = datetime(2026, 11, 29, 14, 0, tzinfo=ZoneInfo("America/New_York"))


@pytest.fixture(scope="module")
def mohegan():
    return CONTENT.catalog("mohegan_sun")


CONTENT = CasinoContent.load()


def context(catalog, now=SUNDAY_AFTERNOON):
    """What field_reply reads of a turn's context: the catalog, the clock, the glossary, and
    the other casinos' content."""
    services = SimpleNamespace(glossary=GLOSSARY, content=CONTENT)
    return SimpleNamespace(
        catalog=catalog, now=now, services=services, in_content_words=lambda text: text
    )


def ask(catalog, question, language="en", previous=None, now=SUNDAY_AFTERNOON):
    ctx = context(catalog, now)
    before = Before(previous) if previous else None
    found = field_reply(ctx, question, language, [], before)
    return found.text if found else None


def closed_days(catalog):
    """(venue, a weekday name it is closed on) for the first venue closed on some day."""
    for venue in catalog.venues():
        if venue.hours is None:
            continue
        for offset in range(7):
            day = SUNDAY_AFTERNOON.date().toordinal() + offset
            hours = catalog.hours_on(venue.id, datetime.fromordinal(day).date())
            if hours is not None and hours.closed:
                return venue, datetime.fromordinal(day).strftime("%A")
    raise AssertionError("the demo data has no venue with a closed day")


def test_the_hours_on_the_asked_day_not_today(mohegan):
    assert ask(mohegan, "is michael jordan's open on monday?") == (
        f"{STEAKHOUSE} is open 5:00 PM-10:00 PM on Monday."
    )


def test_a_day_the_venue_is_closed_is_said_to_be_closed(mohegan):
    venue, day = closed_days(mohegan)
    assert ask(mohegan, f"is {venue.name} open on {day}?") == f"{venue.name} is closed on {day}."


def test_a_follow_up_keeps_the_venue_and_the_field(mohegan):
    previous = "is michael jordan's open on monday?"
    assert ask(mohegan, "and on sunday?", previous=previous) == (
        f"{STEAKHOUSE} is open 11:00 AM-3:00 PM and 5:00 PM-10:00 PM on Sunday."
    )
    assert ask(mohegan, "where is it?", previous=previous) == (
        f"{STEAKHOUSE} is in Casino of the Sky."
    )


def test_in_spanish(mohegan):
    assert ask(mohegan, "¿a qué hora abre Michael Jordan's el lunes?", "es") == (
        f"{STEAKHOUSE} abre el lunes de 5:00 PM-10:00 PM."
    )
    assert ask(mohegan, "cuánto cuesta michael jordan's?", "es") == (
        f"En {STEAKHOUSE} los precios van de $42 a $135."
    )


def test_other_fields_in_the_venues_own_words(mohegan):
    assert ask(mohegan, "how much is michael jordan's steak house") == (
        f"{STEAKHOUSE}: entrees $42-$135."
    )
    assert ask(mohegan, "dress code at michael jordan's?") == (
        f"Dress code at {STEAKHOUSE}: Smart casual (No tank tops, athletic wear or flip-flops)."
    )


@pytest.mark.parametrize(
    "question",
    [
        "what time does the bowling alley open",  # no such venue
        "tell me about michael jordan's",  # no field asked
        "is it open on monday?",  # nothing named and nothing before
    ],
)
def test_no_reply_without_one_venue_and_one_field(mohegan, question):
    assert ask(mohegan, question) is None


@pytest.mark.parametrize(
    ("question", "reply"),
    [
        # named by a word of its name alone, and a day with no field: is it open then?
        ("can we do dinner at tuscany tonight?", "Todd English's Tuscany is open"),
        ("need the # for michael jordans steak house", "You can reach Michael Jordan's"),
    ],
)
def test_a_venue_by_one_word_and_questions_without_a_field_word(mohegan, question, reply):
    assert (ask(mohegan, question) or "").startswith(reply)


def test_where_only_for_a_named_venue(mohegan):
    # "where can we grab a cocktail" asks for a recommendation: the agents make it.
    assert ask(mohegan, "where can we grab a nice cocktail rn") is None


def test_a_follow_up_about_the_venue_the_host_answered_about(mohegan):
    before = Before("where can we eat steak tonight", "Try Michael Jordan's Steak House!")
    ctx = context(mohegan)
    found = field_reply(ctx, "how much is it", "en", [], before)
    assert found is not None and found.text == f"{STEAKHOUSE}: entrees $42-$135."


def test_a_follow_up_stays_on_the_venue_before_any_the_search_found(mohegan):
    ctx = context(mohegan)
    before = Before("is michael jordan's open on monday?", f"{STEAKHOUSE} is open on Monday.")
    # A search hit for the message's own words must not take the steakhouse's place.
    hits = [SimpleNamespace(item=v) for v in mohegan.venues() if v.name != STEAKHOUSE]
    found = field_reply(ctx, "and till when on sunday?", "en", hits, before)
    assert found is not None and found.venue == STEAKHOUSE


def test_a_follow_up_of_a_follow_up_keeps_the_field_the_answer_gave(mohegan):
    ctx = context(mohegan)
    before = Before("and on monday?", f"{STEAKHOUSE} is open 5:00 PM-10:00 PM on Monday.")
    found = field_reply(ctx, "and tues?", "en", [], before)
    assert found is not None and found.text == f"{STEAKHOUSE} is open 5:00 PM-10:00 PM on Tuesday."


def test_a_venue_of_another_casino_is_not_the_venue_before(mohegan):
    # "is picasso open tonight?" at Mohegan Sun, after the spa: Picasso is Bellagio's, and the
    # host had answered with the spa's hours (found in the web UI).
    ctx = context(mohegan)
    before = Before("¿A qué hora abre el spa el sábado?", "Elemis Spa abre el sábado de 8 a 20.")
    assert field_reply(ctx, "is picasso open tonight?", "en", [], before) is None
    # A follow-up that names nothing stays on the venue before.
    found = field_reply(ctx, "and tonight?", "en", [], before)
    assert found is not None and found.venue == "Elemis Spa"


def test_a_spanish_question_of_its_own_takes_no_field_from_the_answer_before(mohegan):
    # "hay cine?" after a steakhouse recommendation got the steakhouse's reservations (web UI).
    ctx = context(mohegan)
    before = Before("no wait, I meant the steakhouse",
                    f"Try {STEAKHOUSE}: Steakhouse cuisine. Today it's open 5:00 PM-10:00 PM.")  # fmt: skip
    assert field_reply(ctx, "hay cine?", "es", [], before) is None


def test_a_correction_asks_the_field_before_of_the_venue_it_names(mohegan):
    # "no wait, I meant the steakhouse" after the buffet got "Casino of the Earth hours" (the
    # place named in the answer before).
    ctx = context(mohegan)
    before = Before("what time does the buffet open?",
                    "Try Seasons Buffet: Located in Casino of the Earth. Today it's open 10-8.")  # fmt: skip
    hits = [SimpleNamespace(item=v) for v in mohegan.venues() if v.name == STEAKHOUSE]
    found = field_reply(ctx, "no wait, I meant the steakhouse", "en", hits, before)
    assert found is not None and found.venue == STEAKHOUSE and "5:00 PM-10:00 PM" in found.text


@pytest.mark.parametrize(
    "question", ["how much for a normal one, nothing fancy", "y cuanto sale el de pareja?"]
)
def test_a_word_the_casino_lacks_that_names_nothing_elsewhere_keeps_the_venue_before(
    mohegan, question
):
    # Words no item has ("normal", "pareja") are no venue of another casino: the spa asked
    # about before is still the subject (they had lost it).
    ctx = context(mohegan)
    before = Before("how much is a massage at the spa?", "Elemis Spa: massages from $165.")
    found = field_reply(ctx, question, "en", [], before)
    assert found is not None and found.venue == "Elemis Spa"


def test_a_where_question_of_its_own_is_not_about_the_venue_before(mohegan):
    # "quiero mariscos esta noche, ¿dónde me recomiendas?" after a gastropub answer got "Casino
    # of the Wind is in Casino of the Wind" (make run, web UI).
    ctx = context(mohegan)
    before = Before(
        "hay cine?", "Try Tom's Urban: American gastropub. Located in Casino of the Wind."
    )
    asked = "quiero mariscos esta noche, ¿dónde me recomiendas?"
    assert field_reply(ctx, asked, "es", [], before) is None
    # A message that leans on it still asks where the venue before is.
    found = field_reply(ctx, "where is it?", "en", [], Before("is tom's urban open today?"))
    assert found is not None and found.venue == "Tom's Urban"


def test_a_kind_of_place_named_is_that_place_not_the_venue_before(mohegan):
    # After "¿tienen mariscos?" named Jasper White's Summer Shack first, "is the buffet open on
    # monday?" was answered with the Summer Shack's Monday hours (web UI walk).
    ctx = context(mohegan)
    shack = "Jasper White's Summer Shack"
    before = Before("¿tienen mariscos?", f"Restaurantes en Mohegan Sun: {shack} y Seasons Buffet.")
    found = field_reply(ctx, "is the buffet open on monday?", "en", [], before)
    assert found is not None and found.venue == "Seasons Buffet"
    also = field_reply(ctx, "and the buffet?", "en", [], Before("is the shack open monday?", ""))
    assert also is not None and also.venue == "Seasons Buffet"
    # A message that points back stays on the venue the answer before named first.
    back = field_reply(ctx, "is it open on monday?", "en", [], before)
    assert back is not None and back.venue == shack
