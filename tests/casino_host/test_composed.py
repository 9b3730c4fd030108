"""The agents' second attempt, written in code from their facts (composed.py)."""

from frontdesk.assistants.casino_host.conversation.composed import composed_reply
from frontdesk.assistants.casino_host.conversation.tools import Facts

STEAKHOUSE = "Michael Jordan's Steak House"


def steakhouse() -> Facts:
    facts = Facts()
    facts.add(
        f"{STEAKHOUSE}: Steakhouse cuisine. Located in Casino of the Sky. Hours: …", STEAKHOUSE
    )
    facts.today[STEAKHOUSE] = "5:00 PM-10:00 PM"
    facts.add(f"{STEAKHOUSE}: today (November 25, 2026) 5:00 PM-10:00 PM; not open right now.")
    return facts


def test_a_place_with_todays_hours():
    assert composed_reply(steakhouse(), "en") == (
        "Try Michael Jordan's Steak House: Steakhouse cuisine. Located in Casino of the Sky. "
        "Today it's open 5:00 PM-10:00 PM."
    )


def test_in_spanish_only_the_name_and_the_hours_the_data_states():
    assert composed_reply(steakhouse(), "es") == (
        "Le recomiendo Michael Jordan's Steak House. Hoy abre 5:00 PM-10:00 PM."
    )


def test_an_event_without_its_label_words():
    facts = Facts()
    name = "Comedy Headliners Weekend"
    facts.add(f"{name}: Type: comedy. Located in Comix Comedy Club. Schedule: …", name)
    assert composed_reply(facts, "en") == (
        "Comedy Headliners Weekend: Comedy. Located in Comix Comedy Club."
    )


def test_a_question_of_the_faq_is_answered_by_its_answer():
    facts = Facts()
    question = "What time is check-in?"
    facts.add(
        f"{question}: Answer: Check-in is at 3:00 PM in both towers. Early on request.", question
    )
    assert composed_reply(facts, "en") == "Check-in is at 3:00 PM in both towers."


def test_the_offer_comes_first_with_how_to_redeem_it():
    facts = steakhouse()
    facts.offer = {
        "value": "$25 in free play",
        "title": "Host Free Play Welcome",
        "redemption_instruction": "Show this text.",
    }
    assert composed_reply(facts, "en") == (
        "We'd love to welcome you with $25 in free play. To redeem: Show this text."
    )


def test_a_line_about_no_item_is_not_restated():
    facts = Facts()
    facts.add("Mohegan Sun: closed today (November 25, 2026).")
    assert composed_reply(facts, "en") is None


def test_nothing_to_say_without_facts():
    assert composed_reply(Facts(), "en") is None


def test_a_place_open_round_the_clock_says_24_hours():
    """Found with the phone simulator: an attraction open all day was "open 12:00 AM-12:00 AM",
    which reads as closed."""
    from datetime import UTC, datetime
    from types import SimpleNamespace

    from frontdesk.assistants.casino_host.content import CasinoContent
    from frontdesk.assistants.casino_host.conversation.tools import ALL_DAY, opening_today

    catalog = CasinoContent.load().catalog("bellagio")
    ctx = SimpleNamespace(catalog=catalog, now=datetime(2026, 11, 25, 20, tzinfo=UTC))
    assert opening_today(ctx, catalog.venue("fiori_di_como")) == ALL_DAY
    facts = Facts()
    facts.add("Fiori di Como: Attraction. Located in Main lobby.", "Fiori di Como")
    facts.today["Fiori di Como"] = ALL_DAY
    assert composed_reply(facts, "en") == (
        "Try Fiori di Como: Attraction. Located in Main lobby. It's open 24 hours today."
    )
    assert composed_reply(facts, "es") == "Le recomiendo Fiori di Como. Hoy abre las 24 horas."


def test_only_an_item_about_the_question_is_restated():
    """Found with `frontdesk sms send`: "Is the spa open tomorrow?" got the box office's hours
    for today, the first item the search found."""
    facts = Facts()
    facts.add("Mohegan Sun Box Office: Box office. Located in Casino of the Sky.",
              "Mohegan Sun Box Office")  # fmt: skip
    facts.today["Mohegan Sun Box Office"] = "10:00 AM-6:00 PM"
    facts.add("Elemis Spa: Spa. Located in the Sky Hotel Tower.", "Elemis Spa")
    facts.today["Elemis Spa"] = "9:00 AM-7:00 PM"
    # Asked about the spa tomorrow: the spa, without today's hours.
    assert composed_reply(facts, "en", "Is the spa open tomorrow?") == (
        "Elemis Spa: Spa. Located in the Sky Hotel Tower."
    )
    assert composed_reply(facts, "en", "Is the spa open tonight?") == (
        "Try Elemis Spa: Spa. Located in the Sky Hotel Tower. Today it's open 9:00 AM-7:00 PM."
    )
    # Nothing found is about the question, or it has no topic word: the search's first item.
    assert composed_reply(facts, "en", "I'd like to unwind").startswith("Try Mohegan Sun Box")
    assert composed_reply(facts, "en", "What is open now?").startswith("Try Mohegan Sun Box")
    assert composed_reply(steakhouse(), "en", "any steaks tonight?").startswith(
        "Try Michael Jordan's Steak House"
    )


def test_an_faq_answer_is_restated_only_for_its_own_question():
    facts = Facts()
    facts.add("Can I bring my kids?: Answer: Yes. Children are welcome in the hotel.",
              "Can I bring my kids?")  # fmt: skip
    facts.add("Elemis Spa: Spa. Located in the Sky Hotel Tower.", "Elemis Spa")
    assert composed_reply(facts, "en", "are kids allowed?") == "Yes."
    assert composed_reply(facts, "en", "I'd like to unwind during my stay").startswith("Elemis Spa")
    assert composed_reply(facts, "en") == "Yes."  # no question to judge by: the first item
