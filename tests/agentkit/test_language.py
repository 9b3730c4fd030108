"""Which language a customer writes in, among those an assistant serves."""

import pytest

from frontdesk.agentkit.language import conversation_language, detect_language


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("¿A qué hora abre el spa el sábado?", "es"),
        ("oye y cuánto sale un masaje en el spa?", "es"),
        ("llegamos al hotel como a las 2 de la tarde", "es"),
        ("what time does the spa open", "en"),
        ("Dioda PON miga na czerwono", "pl"),
        ("¿Dónde está el spa?", "es"),
        ("Mój router nie działa", "pl"),
    ],
)
def test_the_language_among_english_spanish_and_polish(text, expected):
    assert detect_language(text, among=("en", "es", "pl")) == expected


def test_an_assistant_that_serves_no_spanish_reads_it_as_its_first_language():
    assert detect_language("¿Dónde está el baño?", among=("en", "pl")) == "en"


def test_a_message_without_a_sign_keeps_the_conversations_language():
    assert detect_language("ok, 9 pm?", among=("en", "es"), otherwise="es") == "es"
    assert detect_language("ok, 9 pm?", among=("en", "es")) == "en"
    # English words are a sign: the conversation's language does not override them.
    assert detect_language("and what about sunday?", among=("en", "es"), otherwise="es") == "en"


@pytest.mark.parametrize(
    ("text", "language"),
    [("my latest bill says 95 zł but my plan is 65. refund me the difference pls", "en"),
     ("refund 20zł please", "en"),
     ("proszę o zwrot 20 zł", "pl"),
     ("Ile kosztuje plan? 45 zł?", "pl")],
)
def test_the_zloty_sign_is_no_sign_of_polish(text, language):
    assert detect_language(text) == language


@pytest.mark.parametrize(
    ("texts", "language"),
    [
        (["Proszę o zwrot 20 zł za wrzesień", "awaria"], "pl"),
        (["Chcę zwrot pieniędzy", "to faktura INV-20251001"], "pl"),
        (["wypisuje sie z umowy, zwrot 35zl prosze", "a teraz daj mi kogos zywego"], "pl"),
        (["Chcę zwrot pieniędzy", "thanks, can I talk to a person?"], "en"),
        (["I want a refund", "INV-20251001"], "en"),
        (["20"], "en"),
    ],
)
def test_an_answer_without_a_sign_is_in_the_language_the_customer_wrote_before(texts, language):
    assert conversation_language(texts) == language


def test_a_spanish_question_about_hours_or_prices_without_accents_is_spanish():
    # "a q hora abre el gimnasio" was read as English and the concierge called it off topic.
    from frontdesk.agentkit.language import detect_language

    assert detect_language("a q hora abre el gimnasio", ("en", "es")) == "es"
    assert detect_language("cuanto cuesta el valet", ("en", "es")) == "es"
    assert detect_language("what time does the spa open", ("en", "es")) == "en"
