"""The AI disclosure on the first SMS of every session (issue 19, item 14): the tag is added
once, never where the text already says it is an AI, and it fits the first message's one SMS."""

from __future__ import annotations

import pytest

from frontdesk.assistants.casino_host.sms import classify_encoding, shape_reply
from frontdesk.assistants.casino_host.sms.disclosure import discloses_ai, with_ai_disclosure


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("Hi, this is Seven, the AI host for Mohegan Sun.", True),
        ("Soy Seven, el anfitrion virtual con IA.", True),
        ("I am an artificial intelligence.", True),
        ("The spa opens at 9.", False),
        ("Aim for the 7 pm show, it is said to be great.", False),  # "Aim", "said": not "AI"
    ],
)
def test_what_counts_as_already_disclosed(text, expected):
    assert discloses_ai(text) is expected


def test_the_tag_is_added_once_in_the_guest_language():
    tagged = with_ai_disclosure("The spa opens at 9.", "en")
    assert tagged == "Seven (AI host): The spa opens at 9."
    assert with_ai_disclosure(tagged, "en") == tagged
    assert with_ai_disclosure("El spa abre a las 9.", "es").startswith("Seven (anfitrion IA): ")
    assert with_ai_disclosure("   ", "en") == "   "


def test_a_session_first_reply_is_tagged_and_still_one_gsm7_sms():
    answer = "Welcome back, Maria. The spa opens at 9 am and closes at 8 pm every day."
    shaped = shape_reply(answer, agent="host", first_message=True, disclose_ai=True)
    assert len(shaped.parts) == 1
    assert shaped.parts[0].startswith("Seven (AI host): Welcome back, Maria.")
    assert classify_encoding(shaped.parts[0]) == ("GSM-7", 1)
    assert "ai_disclosure" in shaped.rules


def test_a_continued_session_and_a_disclosing_greeting_are_left_alone():
    assert not shape_reply("The spa opens at 9.", agent="host").text.startswith("Seven")
    greeting = "Hi, this is Seven, the AI host for Mohegan Sun. May I have your name?"
    shaped = shape_reply(greeting, agent="host", first_message=True, disclose_ai=True)
    assert shaped.text.count("Seven") == 1
    assert "ai_disclosure" not in shaped.rules


def test_a_first_spanish_reply_is_not_cut_to_make_room_for_the_tag():
    """Found with the phone simulator: "Seven (anfitrion IA): Sí, hay espectáculos este fin de
    semana en" (UCS-2 holds 70 characters a part); the answer may take a second SMS instead."""
    answer = "Sí, hay espectáculos este fin de semana en el Teatro O y en la sala de conciertos."
    shaped = shape_reply(answer, agent="host", first_message=True, disclose_ai=True,
                         language="es")  # fmt: skip
    assert shaped.parts[0].startswith("Seven (anfitrion IA): Sí, hay espectáculos")
    assert " ".join(shaped.parts).endswith("sala de conciertos.")
    assert len(shaped.parts) == 2
    # Without the tag a first message still keeps to one SMS.
    assert len(shape_reply(answer, agent="host", first_message=True, language="es").parts) == 1


def test_the_first_sms_ever_ends_with_the_opt_out_line():
    from frontdesk.assistants.casino_host.sms.disclosure import with_opt_out_line

    assert with_opt_out_line("Your table is ready", "en") == (
        "Your table is ready. Reply STOP to opt out."
    )
    assert with_opt_out_line("Su mesa está lista!", "es") == (
        "Su mesa está lista! Envie PARAR para cancelar."
    )
    said = "Offers by text: reply YES to join, STOP to opt out."
    assert with_opt_out_line(said, "en") == said
    assert with_opt_out_line("", "en") == ""
