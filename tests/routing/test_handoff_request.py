"""`asks_for_person`: requests for a person, in English and Polish, and messages that are not."""

from __future__ import annotations

import pytest

from frontdesk.routing.handoff import asks_for_person, normalize

ASKS = [
    "I want to talk to a person",
    "can I speak to a human",
    "agent please",
    "Agent, please!",
    "human",
    "REPRESENTATIVE",
    "real person please",
    "I need to speak to a human about my bill",
    "Can you connect me with a representative?",
    "transfer me to a live agent",
    "put me through to customer service",
    "Let me talk to someone, this is not working",
    "I'd like to speak with an actual person",
    "get me a human",
    "I need a real person",
    "is there a real person I can talk to?",
    "please escalate this",
    "How do I talk to a human?",
    "chcę rozmawiać z konsultantem",
    "połącz mnie z człowiekiem",
    "polacz mnie z czlowiekiem",
    "Czy mogę porozmawiać z konsultantem?",
    "poproszę konsultanta",
    "konsultant, proszę",
    "Chciałbym rozmawiać z prawdziwym człowiekiem",
    "przełącz mnie do konsultanta",
    "potrzebuję kontaktu z pracownikiem",
    "chcę z kimś porozmawiać... z kimś z obsługi",
    "proszę o kontakt z konsultantem",
    "Daj mi człowieka!",
    "przekaż sprawę do konsultanta",
]

NOT_ASKS = [
    "My internet is down",
    "I want a refund for invoice INV-20251001",
    "the agent on the phone said I would get a refund",
    "Can a person have two SIM cards?",
    "are you a human?",
    "how do I change the user agent of my browser",
    "I don't want to talk to a human, just fix my router",
    "no need to transfer me to an agent, I found it",
    "how many people can use the wifi at once",
    "my router's PON LED is blinking red",
    "Nie chcę rozmawiać z konsultantem, pomóż mi",
    "mój router nie działa",
    "ile kosztuje plan",
    "Czy osoba niepełnoletnia może mieć abonament?",
    "Konsultant w salonie powiedział, że dostanę zwrot",
    "",
    "   ",
]


@pytest.mark.parametrize("text", ASKS)
def test_requests_for_a_person_are_recognised(text):
    assert asks_for_person(text) is True


@pytest.mark.parametrize("text", NOT_ASKS)
def test_other_messages_are_not_handoff_requests(text):
    assert asks_for_person(text) is False


def test_normalize_drops_diacritics_case_and_punctuation():
    assert normalize("Połącz mnie, z CZŁOWIEKIEM!") == "polacz mnie z czlowiekiem"
    assert normalize("I don’t  want") == "i don't want"
