import pytest

from frontdesk.routing.followup import (
    asks_its_own_question,
    corrects_previous,
    is_follow_up,
    leans_on_previous,
)


@pytest.mark.parametrize(
    "text, expected",
    [
        ("and on sundays?", True),
        ("what time does it close on saturday?", True),
        ("do they take reservations for a party of ten people", True),
        ("what time does the buffet close on saturday night", False),
    ],
)
def test_is_follow_up(text, expected):
    assert is_follow_up(text) is expected


@pytest.mark.parametrize(
    "text, names_subject, expected",
    [
        ("and how many are in progress?", False, True),  # opens like a continuation
        ("And how many are inactive?", False, True),
        ("which of them are overdue?", True, True),  # points back, even naming a table
        ("sort these by date", False, True),
        ("only the open ones", False, True),
        ("in 2024?", False, True),  # short, with no subject of its own
        ("how many customers are there?", True, False),  # short, but names its subject
        ("list the ten newest invoices with their customer", True, False),
        ("andrew's open work orders", True, False),  # "and" only as a whole word
    ],
)
def test_leans_on_previous(text, names_subject, expected):
    assert leans_on_previous(text, names_own_subject=names_subject) is expected


@pytest.mark.parametrize(
    "text, expected",
    [
        ("where can I park free", True),
        ("is the pool heated?", True),
        ("What\u2019s the dress code", True),
        ("and what about Sunday?", False),
        ("what about the spa", False),
        ("when does it close", False),
        ("Wednesday?", False),
        ("", False),
        # Spanish: "hay cine?" after a steakhouse answer is not about the steakhouse.
        ("hay cine?", True),
        ("¿Dónde está el spa?", True),
        ("¿Cuánto cuesta?", True),
        ("y el domingo?", False),
        ("¿qué tal el domingo?", False),
    ],
)
def test_asks_its_own_question(text, expected):
    assert asks_its_own_question(text) is expected


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("no wait, I meant the steakhouse", True),
        ("not the buffet, the steakhouse", True),
        ("perdón, quise decir el spa", True),
        ("No, the spa", True),
        ("no problem!", False),
        ("no thanks", False),
        ("what about the spa", False),
    ],
)
def test_a_correction_takes_back_the_answer_before(text, expected):
    assert corrects_previous(text) is expected
