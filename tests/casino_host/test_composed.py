"""The agents' second attempt, written in code from their facts (composed.py)."""

from frontdesk.assistants.casino_host.composed import composed_reply
from frontdesk.assistants.casino_host.tools import Facts

STEAKHOUSE = [
    "Michael Jordan's Steak House: Steakhouse cuisine. Located in Casino of the Sky. Hours: …",
    "Michael Jordan's Steak House: today (November 25, 2026) 5:00 PM-10:00 PM; not open now.",
]


def test_a_place_with_todays_hours():
    assert composed_reply(Facts(lines=STEAKHOUSE), "en") == (
        "Try Michael Jordan's Steak House: Steakhouse cuisine. Located in Casino of the Sky. "
        "Today it's open 5:00 PM-10:00 PM."
    )


def test_in_spanish_only_the_name_and_the_hours_the_data_states():
    assert composed_reply(Facts(lines=STEAKHOUSE), "es") == (
        "Le recomiendo Michael Jordan's Steak House. Hoy abre 5:00 PM-10:00 PM."
    )


def test_an_event_without_its_label_words():
    line = "Comedy Headliners Weekend: Type: comedy. Located in Comix Comedy Club. Schedule: …"
    reply = composed_reply(Facts(lines=[line]), "en")
    assert reply == "Comedy Headliners Weekend: Comedy. Located in Comix Comedy Club."


def test_a_question_of_the_faq_is_answered_by_its_answer():
    line = (
        "What time is check-in?: Answer: Check-in is at 3:00 PM in both towers. Early on request."
    )
    assert composed_reply(Facts(lines=[line]), "en") == "Check-in is at 3:00 PM in both towers."


def test_the_offer_comes_first_with_how_to_redeem_it():
    facts = Facts(
        lines=[
            *STEAKHOUSE,
            "OFFER: $25 in free play (Host Free Play Welcome). To redeem: Show this text.",
        ]
    )
    assert composed_reply(facts, "en") == (
        "We'd love to welcome you with $25 in free play. To redeem: Show this text."
    )


def test_nothing_to_say_without_facts():
    assert composed_reply(Facts(), "en") is None
