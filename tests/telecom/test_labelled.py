"""An indicator's state the manual lists, answered with its own sentence (labelled.py)."""

from __future__ import annotations

from pathlib import Path

import pytest

from frontdesk.assistants.telecom.labelled import labelled_answer

DOCS = Path(__file__).parents[2] / "src/frontdesk/assistants/telecom/data/docs"
LEDS = (DOCS / "02_router_led_indicators.md").read_text(encoding="utf-8")
POLISH = (DOCS / "11_pl_internet_problemy.md").read_text(encoding="utf-8")


def test_the_state_asked_not_the_line_before_it():
    # The model had answered blinking red with blinking green's "registering".
    said = labelled_answer("My PON LED is blinking red. What does it mean?", [LEDS])
    assert said.startswith("Blinking red (PON LED): the box receives light but the network")
    assert "registering" not in said


def test_the_heading_tells_two_leds_apart_and_polish_labels_name_their_led():
    assert labelled_answer("my LOS light is blinking red", [LEDS]).startswith(
        "Blinking red (LOS LED): no optical signal"
    )
    assert labelled_answer("Dioda PON miga na czerwono, co robić?", [POLISH]).startswith(
        "PON miga na czerwono (Sprawdź diody PON i LOS): sieć odrzuciła rejestrację"
    )


@pytest.mark.parametrize(
    "question",
    ["the light is blinking red", "How do I reset the router?", "is wi-fi 5 ghz faster?"],
)
def test_no_single_state_leaves_the_answer_to_the_model(question):
    assert labelled_answer(question, [LEDS, POLISH]) is None
