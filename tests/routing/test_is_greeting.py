"""A greeting only greets; a message that asks something about the place is a question."""

import pytest

from frontdesk.routing.question_form import is_greeting


@pytest.mark.parametrize(
    "text",
    ["Hey, how are you today?", "Hi, I just arrived", "hello, i'm staying in the sky tower",
     "Yo what's good", "thanks!", "Greetings from New York", "hola amigo"],
)  # fmt: skip
def test_greetings_and_small_talk(text):
    assert is_greeting(text)


@pytest.mark.parametrize(
    "text",
    ["left my jacket at the bar last night 😩 who do i even call",
     "yo is there anywhere to see standup here", "hi what time does the spa open",
     "hey do you guys have a pool", "hello, how much is valet?"],
)  # fmt: skip
def test_a_question_after_a_greeting_is_a_question(text):
    assert not is_greeting(text)
