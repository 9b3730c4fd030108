"""Deterministic profile extraction from one guest SMS: fields, traps, targets, language."""

from __future__ import annotations

from datetime import datetime
from zoneinfo import ZoneInfo

import pytest

from frontdesk.assistants.casino_host.conversation.extraction import (
    MIN_CONFIDENCE,
    SOURCE_BANDS,
    SUPPORTED_PATHS,
    Extracted,
    detect_language,
    extract,
)

NOW = datetime(2026, 11, 25, 15, 0, tzinfo=ZoneInfo("America/New_York"))  # a Wednesday

NAME = "core_identity.name"
EMAIL = "core_identity.email"
LANGUAGE = "core_identity.language"
VISIT_DATE = "visit_context.planned_visit_date"
PARTY = "visit_context.party_size"
OCCASION = "visit_context.occasion"
DIETARY = "preferences.dining.dietary_restrictions"
CUISINE = "preferences.dining.cuisine_preferences"
BUDGET = "preferences.dining.budget_range"
KIDS_MENU = "preferences.dining.kids_menu_needed"
INTERESTS = "preferences.entertainment.interests"
ACCESSIBILITY = "preferences.entertainment.accessibility_needs"
GAMING_LEVEL = "preferences.gaming.level"
GAMES = "preferences.gaming.preferred_games"
SPA = "preferences.spa.treatments_interested"
COMPANIONS = "companions"


def by_path(message: str, **kwargs: object) -> dict[str, Extracted]:
    return {item.path: item for item in extract(message, now=NOW, **kwargs)}  # type: ignore[arg-type]


def values(message: str, **kwargs: object) -> dict[str, object]:
    return {path: item.value for path, item in by_path(message, **kwargs).items()}


@pytest.mark.parametrize(
    ("message", "path", "value"),
    [
        ("My name is Ana", NAME, "Ana"),
        ("my name is jake", NAME, "Jake"),
        ("I'm Sarah, can I book dinner?", NAME, "Sarah"),
        ("Hey this is Tom", NAME, "Tom"),
        ("Call me Liz", NAME, "Liz"),
        ("Soy Miguel", NAME, "Miguel"),
        ("Hola, me llamo Lucía", NAME, "Lucía"),
        ("Mi nombre es Carmen", NAME, "Carmen"),
        ("Thanks so much! - Maria", NAME, "Maria"),
        ("Maria here! Are you open late?", NAME, "Maria"),
        ("reach me at Ana.Lopez+casino@Example.com", EMAIL, "ana.lopez+casino@example.com"),
        ("party of 6", PARTY, 6),
        ("we're four", PARTY, 4),
        ("somos cinco", PARTY, 5),
        ("table for two", PARTY, 2),
        ("Mesa para 3 por favor", PARTY, 3),
        ("there will be 6 of us", PARTY, 6),
        ("2 adults and 3 kids", PARTY, 5),
        ("cinco adultos y dos niños", PARTY, 7),
        ("just me this time", PARTY, 1),
        ("dinner for me and my wife", PARTY, 2),
        ("2 couples", PARTY, 4),
        ("We're celebrating our anniversary", OCCASION, "anniversary"),
        ("it's my husband's birthday", OCCASION, "birthday"),
        ("bachelorette weekend!", OCCASION, "bachelorette"),
        ("despedida de soltero", OCCASION, "bachelor"),
        ("Vamos a la boda de mi prima", OCCASION, "wedding"),
        ("We're here for a conference", OCCASION, "business"),
        ("Celebrando mi jubilación", OCCASION, "retirement"),
        ("we are celebrating!", OCCASION, "celebration"),
        ("I'm vegetarian", DIETARY, ["vegetarian"]),
        ("soy vegana", DIETARY, ["vegan"]),
        ("I'm allergic to peanuts", DIETARY, ["nut_allergy"]),
        ("sin gluten por favor", DIETARY, ["gluten_free"]),
        ("We keep kosher, we're kosher", DIETARY, ["kosher"]),
        ("I'm lactose intolerant", DIETARY, ["dairy_free"]),
        ("alergia a los mariscos", DIETARY, ["shellfish_allergy"]),
        ("no tengo alergias", DIETARY, []),
        ("We love sushi and Italian food", CUISINE, ["sushi", "italian"]),
        ("nos encanta la comida mexicana", CUISINE, ["mexican"]),
        ("somewhere cheap for lunch", BUDGET, "budget"),
        ("nothing too fancy", BUDGET, "moderate"),
        ("money is no object", BUDGET, "upscale"),
        ("around $100 per person", BUDGET, "upscale"),
        ("Is there a kids menu?", KIDS_MENU, True),
        ("¿Tienen menú infantil?", KIDS_MENU, True),
        ("no kids this time", KIDS_MENU, False),
        ("We love comedy and live music", INTERESTS, ["comedy", "concerts"]),
        ("any boxing this weekend?", INTERESTS, ["boxing"]),
        ("we want to golf and go shopping", INTERESTS, ["golf", "shopping"]),
        ("where's a good nightclub", INTERESTS, ["nightlife"]),
        ("Queremos ir al spa", INTERESTS, ["spa"]),
        ("my mom uses a wheelchair", ACCESSIBILITY, ["wheelchair"]),
        ("I'm hard of hearing", ACCESSIBILITY, ["hearing"]),
        ("we have a service dog", ACCESSIBILITY, ["service_animal"]),
        ("first time playing poker", GAMING_LEVEL, "beginner"),
        ("I'm a high roller", GAMING_LEVEL, "high_roller"),
        ("we play slots just for fun", GAMING_LEVEL, "casual"),
        ("I play blackjack and craps", GAMES, ["blackjack", "craps"]),
        ("Me gusta la ruleta y las tragamonedas", GAMES, ["roulette", "slots"]),
        ("baccarat tables open?", GAMES, ["baccarat"]),
        ("a couples massage and a facial", SPA, ["couples_massage", "facial"]),
        ("quiero un masaje", SPA, ["massage"]),
    ],
)
def test_field_is_extracted(message: str, path: str, value: object) -> None:
    assert values(message).get(path) == value


@pytest.mark.parametrize(
    ("message", "companions"),
    [
        ("my wife Sarah and I", [{"relationship": "wife", "name": "Sarah"}]),
        ("Mi esposo Carlos y yo", [{"relationship": "husband", "name": "Carlos"}]),
        (
            "our 2 kids, 5 and 8",
            [{"relationship": "child", "age": 5}, {"relationship": "child", "age": 8}],
        ),
        (
            "mis hijos de 5 y 8 años",
            [{"relationship": "child", "age": 5}, {"relationship": "child", "age": 8}],
        ),
        ("my daughter, she's 9", [{"relationship": "child", "age": 9}]),
        ("my 8 year old son", [{"relationship": "child", "age": 8}]),
        ("my son is 16", [{"relationship": "child", "age": 16}]),
        ("with my parents", [{"relationship": "mother"}, {"relationship": "father"}]),
        ("with 2 friends", [{"relationship": "friend"}, {"relationship": "friend"}]),
        ("me and the kids", [{"relationship": "child", "group": True}]),
    ],
)
def test_companions(message: str, companions: list[dict[str, object]]) -> None:
    assert values(message).get(COMPANIONS) == companions


def test_companion_age_is_not_party_size_and_group_gives_no_party_size() -> None:
    found = values("me and the kids, the youngest is 4")
    assert PARTY not in found


@pytest.mark.parametrize(
    "message",
    [
        "I'm vegetarian",
        "I'm excited to visit!",
        "I'm in room 5",
        "I'm so hungry lol",
        "i'm sarah",  # weak cue in lower case: could be anything
        "I'm Gold, do I get a discount?",
        "I'm Diamond tier",
        "I'm Sarah's husband",
        "Soy celíaca",
        "soy de Miami",
        "This is great, thanks",
        "This is Amazing",
        "My wife's name is Sarah",
        "Is John Smith staying at the hotel?",
        "call me back later",
        "Parking here?",
        "I'm Mexican, any tacos?",
    ],
)
def test_not_a_guest_name(message: str) -> None:
    assert NAME not in values(message)


def test_companion_name_is_not_the_guest_name() -> None:
    found = values("My wife Sarah loves the spa")
    assert NAME not in found
    assert found[COMPANIONS] == [{"relationship": "wife", "name": "Sarah"}]


@pytest.mark.parametrize(
    "message",
    [
        "Can we get a table at 7?",
        "see you at 8:30",
        "Room 1204 please",
        "we paid $300 for 2 nights",
        "my son is 6",
        "we're 2 hours away",
        "we're 21+ right?",
        "Suite 4 had a great view",
        "open 24/7?",
        "I'm 35",
        "we have 3 kids",
        "we're bringing our 2 kids",
    ],
)
def test_numbers_that_are_not_party_sizes(message: str) -> None:
    assert PARTY not in values(message)


@pytest.mark.parametrize(
    ("message", "path"),
    [
        ("I'm not vegetarian", DIETARY),
        ("no soy vegetariano", DIETARY),
        ("I don't play poker", GAMES),
        ("not a fan of sushi", CUISINE),
        ("no me gusta el sushi", CUISINE),
        ("we're not celebrating anything", OCCASION),
        ("No es un cumpleaños", OCCASION),
        ("I'm not a high roller", GAMING_LEVEL),
        ("we don't need a wheelchair", ACCESSIBILITY),
        ("never been into comedy", INTERESTS),
    ],
)
def test_negation_gives_no_positive_value(message: str, path: str) -> None:
    assert path not in values(message)


@pytest.mark.parametrize(
    ("message", "path", "value"),
    [
        ("no kids", KIDS_MENU, False),
        ("adults only trip", KIDS_MENU, False),
        ("no tengo alergias", DIETARY, []),
        ("No dietary restrictions", DIETARY, []),
        ("we don't need a kids menu", KIDS_MENU, False),
    ],
)
def test_explicit_negative_answers_are_recorded_as_negative(
    message: str, path: str, value: object
) -> None:
    assert values(message)[path] == value


def test_negated_then_restated_for_companion() -> None:
    found = values("Not vegetarian, but my daughter is. She's 9.")
    assert found[DIETARY] == ["vegetarian"]
    assert found[COMPANIONS] == [
        {"relationship": "child", "age": 9, "dietary_restrictions": ["vegetarian"]}
    ]


def test_anniversary_walkthrough() -> None:
    found = by_path(
        "Hi, I'm Sarah, my husband and I are coming Saturday for our anniversary, he's gluten free"
    )
    assert found[NAME].value == "Sarah"
    assert found[NAME].source == "self_reported"
    assert found[PARTY].value == 2
    assert found[PARTY].source == "contextual_extraction"
    assert found[VISIT_DATE].value == "2026-11-28"
    assert found[OCCASION].value == "anniversary"
    # Decision: the restriction is the party's (the kitchen caters for it) and is also kept on
    # the companion it belongs to; being about someone else it is contextual.
    assert found[DIETARY].value == ["gluten_free"]
    assert found[DIETARY].source == "contextual_extraction"
    assert found[COMPANIONS].value == [
        {"relationship": "husband", "dietary_restrictions": ["gluten_free"]}
    ]


@pytest.mark.parametrize(
    ("message", "source"),
    [
        ("My name is Ana", "self_reported"),
        ("I'm vegetarian", "self_reported"),
        ("we're 4", "self_reported"),
        ("dinner for me and my wife", "contextual_extraction"),
        ("my wife is vegan", "contextual_extraction"),
        ("any vegan options?", "contextual_extraction"),
    ],
)
def test_source_follows_how_it_was_stated(message: str, source: str) -> None:
    found = extract(message, now=NOW)
    assert found
    target = next(item for item in found if item.path != COMPANIONS)
    assert target.source == source


def test_every_item_is_canonical_in_band_and_has_evidence() -> None:
    message = (
        "Hi I'm Dana, me and my 2 kids (4 and 7) are coming tomorrow for my birthday. "
        "I'm vegan, we love sushi, any comedy shows? I play slots. dana@example.com"
    )
    found = extract(message, now=NOW)
    assert len(found) >= 10
    for item in found:
        assert item.path in SUPPORTED_PATHS
        low, high = SOURCE_BANDS[item.source]
        assert low <= item.confidence <= high
        assert item.confidence > MIN_CONFIDENCE
        assert item.evidence and item.evidence.lower() in message.lower()


def test_targets_limit_output_but_language_request_is_always_returned() -> None:
    message = "Soy Ana, somos 4 el sábado. Prefiero hablar en español"
    everything = values(message)
    assert {NAME, PARTY, VISIT_DATE, LANGUAGE} <= set(everything)
    only_party = values(message, targets=[PARTY])
    assert set(only_party) == {PARTY, LANGUAGE}
    assert values(message, targets=["name", "visit_date"]).keys() == {NAME, VISIT_DATE, LANGUAGE}
    assert values("Soy Ana, somos 4", targets=[]) == {}


def test_kids_ages_target_returns_companions() -> None:
    assert set(values("our 2 kids, 5 and 8", targets=["kids_ages"])) == {COMPANIONS}


def test_unknown_target_is_an_error() -> None:
    with pytest.raises(ValueError, match="no_such_field"):
        extract("hi", now=NOW, targets=["no_such_field"])


def test_naive_now_is_rejected() -> None:
    with pytest.raises(ValueError, match="aware"):
        extract("tomorrow", now=datetime(2026, 11, 25, 15, 0))


@pytest.mark.parametrize(
    ("message", "language"),
    [
        ("Prefiero hablar en español", "es"),
        ("Can we speak Spanish?", "es"),
        ("in Spanish please", "es"),
        ("¿Podemos seguir en español, por favor?", "es"),
        ("No hablo inglés", "es"),
        ("Can you text me in English please", "en"),
        ("Hablamos en inglés mejor", "en"),
    ],
)
def test_language_request(message: str, language: str) -> None:
    found = by_path(message)
    assert found[LANGUAGE].value == language
    assert found[LANGUAGE].source == "self_reported"


@pytest.mark.parametrize(
    "message", ["Do you speak Spanish?", "I don't want Spanish", "my Spanish is bad", "hola"]
)
def test_no_language_request(message: str) -> None:
    assert LANGUAGE not in values(message)


@pytest.mark.parametrize(
    ("text", "language"),
    [
        ("Hola, quiero reservar una mesa para dos", "es"),
        ("¿Dónde está el spa?", "es"),
        ("gracias por la ayuda", "es"),
        ("Hi, can we book a table for two tomorrow?", "en"),
        ("Thanks, see you tonight", "en"),
        ("What time is the show?", "en"),
        ("ok", None),
        ("7pm", None),
        ("", None),
        # T18 (WP1): the acceptance cases, a Spanish word inside English included.
        ("Hola, quiero una mesa para dos", "es"),
        ("hola", "es"),
        ("Is the mesa grill open tonight for dinner", "en"),
    ],
)
def test_detect_language(text: str, language: str | None) -> None:
    assert detect_language(text) == language
