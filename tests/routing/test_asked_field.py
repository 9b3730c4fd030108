import pytest

from frontdesk.routing.asked_field import asked_field


@pytest.mark.parametrize(
    ("question", "field"),
    [
        ("whens checkout", "check_out"),
        ("what number do i call to check in", "check_in"),
        ("how much is the buffet", "price"),
        ("is the steakhouse open monday?", "hours"),
        ("wut time does the pool close tmrw", "hours"),
        ("¿a qué hora abre el spa el sábado?", "hours"),
        ("¿cuánto cuesta el bufé?", "price"),
        ("do i need a reservation at tuscany", "reservations"),
        ("can i wear jeans to the steakhouse", "dress_code"),
        ("where's the sportsbook", "location"),
        ("¿dónde está el spa?", "location"),
        ("can my kids come to the comedy club", "age"),
        ("teléfono del spa", "phone"),
        # The first sentence that asks a field: the rest says why.
        ("gym hrs? wanna lift before checkout", "hours"),
        ("hi! whens checkout. need a late one", "check_out"),
        ("starbucks open yet?? need a number to call", "hours"),
    ],
)
def test_the_field_a_question_asks_in_english_or_spanish(question, field):
    assert asked_field(question) == field


@pytest.mark.parametrize("question", ["hi there", "tell me about the arena", "hola, qué tal"])
def test_a_question_that_asks_no_field(question):
    assert asked_field(question) is None


def test_a_correction_opener_is_no_wait_for_a_table():
    # "no wait, I meant the steakhouse" had asked the steakhouse's reservations.
    assert asked_field("no wait, i meant the steakhouse") is None
    assert asked_field("how long is the wait at the buffet?") == "reservations"


def test_a_childs_age_asks_the_age_rule():
    # "Can my 4 year old come?" after the O show got its show times.
    assert asked_field("can my 4 year old come?") == "age"
    assert asked_field("is it ok for my 10-year-old") == "age"
