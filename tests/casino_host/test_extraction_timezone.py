"""The guest's time zone from what they say (EN/ES): named zones and a short table of places,
only where the guest speaks of themselves; a zone word about food, a flight or a trip is not
where the guest lives."""

from __future__ import annotations

from datetime import datetime
from zoneinfo import ZoneInfo

import pytest

from frontdesk.assistants.casino_host.conversation.extraction import SUPPORTED_PATHS, extract
from frontdesk.assistants.casino_host.conversation.extraction.timezones import PLACES
from frontdesk.assistants.casino_host.profile import TIMEZONE, canonical_zone

NOW = datetime(2026, 11, 25, 15, 0, tzinfo=ZoneInfo("America/New_York"))  # Mohegan Sun's clock
EASTERN, CENTRAL, MOUNTAIN = "America/New_York", "America/Chicago", "America/Denver"
ARIZONA, PACIFIC = "America/Phoenix", "America/Los_Angeles"


def zone_in(message: str, *, casino_zone: str = "America/New_York"):
    now = NOW.astimezone(ZoneInfo(casino_zone))
    found = [item for item in extract(message, now=now, timezone=casino_zone)]
    return next(((i.value, i.source) for i in found if i.path == TIMEZONE), None)


@pytest.mark.parametrize(
    ("message", "zone"),
    [
        # Named zones and their codes.
        ("Fyi I'm on Pacific time so evenings are easier", PACIFIC),
        ("we are in the central time zone", CENTRAL),
        ("im PST btw", PACIFIC),
        ("I'm on EDT.", EASTERN),
        ("My time zone is Mountain", MOUNTAIN),
        ("our timezone: ET", EASTERN),
        ("Hawaiian time here, so it's early for us", "Pacific/Honolulu"),
        ("I'm on Arizona time", ARIZONA),
        # Spanish.
        ("Estoy en la hora del este", EASTERN),
        ("estamos con el horario del Pacífico", PACIFIC),
        ("Mi zona horaria es la del centro", CENTRAL),
        ("aquí es hora de la montaña", MOUNTAIN),
        ("estoy en PST", PACIFIC),
        # Where the guest lives.
        ("I live in Denver, can we book the steakhouse?", MOUNTAIN),
        ("We actually live outside of Chicago", CENTRAL),
        ("I'm based out of Salt Lake City", MOUNTAIN),
        ("Home is Tucson.", ARIZONA),
        ("I live in LA and fly in Friday", PACIFIC),
        ("we live in St. Louis", CENTRAL),
        ("Vivo en Chicago con mi esposa", CENTRAL),
        ("vivimos en la Ciudad de México", "America/Mexico_City"),
        ("Vivo en Tijuana", "America/Tijuana"),
        # Where the guest is, when it is not a trip.
        ("we're in Phoenix, what time is the show there?", ARIZONA),
        ("Estamos en Monterrey", "America/Monterrey"),
    ],
)
def test_a_stated_zone_or_home_is_read(message, zone):
    assert zone_in(message) is not None
    assert zone_in(message)[0] == zone


@pytest.mark.parametrize(
    "message",
    [
        "Is the Pacific buffet open for lunch?",
        "Can I get an eastern omelette at the cafe?",
        "My flight lands at 3 pm Pacific",
        "Is the 8 pm show eastern or central?",
        "call me at 10am eastern",
        "I'm flying to Denver tomorrow",
        "we're in Vegas for the weekend",
        "I'm in Chicago on business until Friday",
        "I'm in Denver right now at the airport",
        "I'm not on Eastern time",
        "No vivo en Chicago",
        "I used to live in Denver",
        "if we lived in Phoenix we'd come more often",
        "when I'm in Dallas I always play blackjack",
        "my wife lives in Denver",
        "mi esposa vive en Chicago",
        "we're from Houston",
        "I'm in the Pacific Northwest",
        "I'm 3 hours behind you",
        "we live in Portland",  # Maine or Oregon: not guessed
        "I'm on MST",  # Arizona all year, Colorado half of it: not guessed
        "I'm in CT",  # Connecticut, not Central time
        "I'm on PT this week",  # physical therapy
        "im est 20 min away",
        "hay música en vivo en Las Vegas?",
        "vivo en la ciudad, cerca del centro",
        "aquí es el centro?",
        "I LIVE IN LA CIUDAD",
    ],
)
def test_zone_words_that_are_not_about_the_guest_are_not_read(message):
    assert zone_in(message) is None


def test_a_statement_of_the_zone_is_self_reported_a_place_the_guest_is_in_contextual():
    assert zone_in("I'm on Central time") == (CENTRAL, "self_reported")
    assert zone_in("I live in Seattle") == (PACIFIC, "self_reported")
    assert zone_in("we're in Seattle") == (PACIFIC, "contextual_extraction")


def test_where_the_guest_lives_wins_over_where_they_are_this_week():
    assert zone_in("I'm in Chicago but I live in Boston") == (EASTERN, "self_reported")
    assert zone_in("I live in Denver but I'm in Boston this week") == (MOUNTAIN, "self_reported")


def test_being_in_the_casinos_own_zone_is_the_visit_not_a_home():
    assert zone_in("We're in Vegas!", casino_zone=PACIFIC) is None
    assert zone_in("We live in Vegas", casino_zone=PACIFIC) == (PACIFIC, "self_reported")
    assert zone_in("We're in Vegas!") == (PACIFIC, "contextual_extraction")


def test_every_place_maps_to_a_zone_the_database_knows():
    assert TIMEZONE in SUPPORTED_PATHS
    assert all(canonical_zone(zone) == zone for zone in PLACES.values())
    assert PLACES["phoenix"] == ARIZONA and PLACES["denver"] == MOUNTAIN


def test_the_zone_is_only_extracted_when_targeted_or_untargeted():
    assert zone_in("I live in Denver") is not None
    targeted = extract("I live in Denver", now=NOW, targets=["party_size"])
    assert all(item.path != TIMEZONE for item in targeted)
    wanted = extract("I live in Denver", now=NOW, targets=["timezone"])
    assert [item.value for item in wanted] == [MOUNTAIN]
