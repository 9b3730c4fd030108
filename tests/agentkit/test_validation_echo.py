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
