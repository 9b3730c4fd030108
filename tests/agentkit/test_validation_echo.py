"""An answer that only repeats the question is no answer (agentkit.validation.restates_question)."""

import pytest

from frontdesk.agentkit.validation import restates_question


@pytest.mark.parametrize(
    ("answer", "question"),
    [
        ("Dioda PON miga na czerwono, co robić?", "Dioda PON miga na czerwono, co robić?"),
        (
            "Router zgłasza błąd uwierzytelniania PPPoE zaraz po przełączeniu w tryb mostu.",
            (
                "Router zgłasza błąd uwierzytelniania PPPoE zaraz po przełączeniu w tryb mostu. "
                "Ile odczekać przed kolejną próbą?"
            ),
        ),
        ("Why is my internet slow", "why is my internet slow?"),
    ],
)
def test_a_repeated_question_is_caught(answer, question):
    assert restates_question(answer, question)


@pytest.mark.parametrize(
    ("answer", "question"),
    [
        ("Yes.", "Is the LOS LED off in normal operation?"),
        (
            "The Network LED on the 5G Box is green when it is connected to LTE.",
            "What colour is the Network LED on the 5G Box when it is connected to LTE?",
        ),
        (
            "The PON LED blinking red means the fibre signal is lost; check the cable.",
            "What does a blinking red PON LED mean?",
        ),
        ("Restart the box: unplug it for 30 seconds.", "How do I restart the box?"),
        ("", "anything"),
        ("Something", ""),
    ],
)
def test_an_answer_is_not_a_repeat(answer, question):
    assert not restates_question(answer, question)


def test_a_leading_restatement_of_the_question_is_dropped():
    from frontdesk.agentkit.validation import without_restated_question

    question = "Hola, somos 2 personas el sábado. ¿Dónde podemos cenar?"
    answer = (
        "Hola, somos 2 personas el sábado. ¿Dónde podemos cenar? Le recomiendo SolToro, "
        "abre a las 11:30 AM."
    )
    assert without_restated_question(answer, question) == (
        "Le recomiendo SolToro, abre a las 11:30 AM."
    )


def test_an_answer_made_of_the_questions_words_is_kept_whole():
    from frontdesk.agentkit.validation import without_restated_question

    # Nothing would be left: the reply stays, and validation judges it.
    assert without_restated_question("The pool is open.", "Is the pool open?") == (
        "The pool is open."
    )
    # A short opening ("Sure.") or a sentence with a word of its own is not a restatement.
    text = "Sure. The pool opens at 9 AM."
    assert without_restated_question(text, "When does the pool open?") == text


def test_a_what_or_which_question_said_back_with_an_article_is_no_answer():
    assert restates_question(
        "The channels on 2.4 GHz do not overlap.", "Which channels on 2.4 GHz do not overlap?"
    )
    # To a yes/no question, the article is a word of the answer's own.
    assert not restates_question("The LOS LED is off.", "Is LOS LED off?")


def test_the_users_words_about_themselves_are_not_said_as_the_assistants():
    from frontdesk.agentkit.validation import without_users_own_words

    message = "Are there poker tournaments tomorrow? I'm a regular in the poker room"
    answer = "Yes, there are poker tournaments tomorrow. I'm a regular in the Bellagio Poker Room."
    assert without_users_own_words(answer, message) == (
        "Yes, there are poker tournaments tomorrow."
    )
    spanish = "Tengo 19 años, ¿puedo jugar a las tragamonedas?"
    said = "Tengo 19 años. Para jugar hay que tener 21 años o más."
    assert without_users_own_words(said, spanish) == "Para jugar hay que tener 21 años o más."


def test_the_assistants_own_first_person_sentences_stay():
    from frontdesk.agentkit.validation import without_users_own_words

    message = "I'm vegan and my husband is celiac. Where should we have dinner?"
    answer = "I'd recommend Harvest Room: it has vegan and gluten-free dishes. I can book nothing."
    assert without_users_own_words(answer, message) == answer
    # Nothing else would be left: the reply stays, and validation judges it.
    assert without_users_own_words("I'm vegan.", "I'm vegan, where can I eat?") == "I'm vegan."
    # A message with no first-person clause changes nothing.
    assert without_users_own_words("We open at 9.", "When do you open?") == "We open at 9."
