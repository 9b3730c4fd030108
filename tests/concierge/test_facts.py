"""The facts step on the real knowledge file: answers worked out from the structured items."""

from datetime import date

import pytest

from frontdesk.assistants.concierge import absent
from frontdesk.assistants.concierge.absent import asked_thing, is_absent
from frontdesk.assistants.concierge.facts import work_out
from frontdesk.assistants.concierge.service import KNOWLEDGE_FILE
from frontdesk.knowledge.loader import load_knowledge_file

SOURCE = load_knowledge_file(KNOWLEDGE_FILE)
TUESDAY = date(2026, 11, 24)


def answer(question, retrieved=(), previous=None, today=TUESDAY):
    found = work_out(
        question,
        previous=previous,
        items=SOURCE.items,
        retrieved=list(retrieved),
        today=today,
        property=SOURCE.property,
    )
    return found


def test_a_venue_phone_is_its_own():
    found = answer("what's the phone number for michael jordan's steak house")
    assert "860-862-8600" in found.text and found.items == ("Michael Jordan's Steak House",)


def test_hours_on_a_day_and_the_follow_up_day_for_the_same_venue():
    first = answer("is beauty & essex open on tuesday?")
    assert first.text.startswith("On Tuesday, Beauty & Essex is closed.")
    wednesday = answer("What about Wednesday?", previous="is beauty & essex open on tuesday?")
    assert "On Wednesday, Beauty & Essex is open 5:00 PM-10:00 PM." in wednesday.text
    assert "Tuesday" not in wednesday.text


def test_spa_hours_come_from_the_spa_named_by_one_word():
    found = answer("When does the spa open?", retrieved=["Elemis Spa", "Sky Tower"])
    assert found.items == ("Elemis Spa",)
    spa = next(i for i in SOURCE.items if i.name == "Elemis Spa")
    assert spa.fields["hours"] in found.text


def test_price_comparison_names_the_cheaper_one():
    found = answer("which is cheaper, michael jordan's steak house or bobby's burgers?")
    assert found.text.startswith("Bobby's Burgers is the less expensive of the two")
    pricier = answer("is bobby's burgers more expensive than michael jordan's steak house")
    assert pricier.text.startswith("Michael Jordan's Steak House is the more expensive")


def test_capacity_is_the_named_items_own():
    found = answer("how many people does the wolf den hold?")
    assert found.text == "Wolf Den has a capacity of 350 seats."
    bigger = answer("which is bigger, the cabaret theatre or the mohegan sun arena")
    assert bigger.text.startswith("Mohegan Sun Arena is the larger")


def test_checkout_time_from_the_item_that_states_it():
    found = answer(
        "whens checkout",
        retrieved=["Check-in and check-out times", "Check-In and Check-Out Policy"],
    )
    assert "Check-out is at 11:00 AM" in found.text


def test_checkout_time_is_the_standard_one_when_late_checkout_ranks_first():
    retrieved = ["Early Check-In and Late Check-Out", "Check-In and Check-Out Policy"]
    found = answer("whens checkout", retrieved=retrieved)
    assert found.text.startswith("Check-out is at 11:00 AM")
    # A short search (the hours route's) may return the late check-out item alone.
    alone = answer("whens checkout", retrieved=retrieved[:1])
    assert alone.text.startswith("Check-out is at 11:00 AM")
    assert alone.items == ("Check-In and Check-Out Policy",)
    late = answer("can i check out late?", retrieved=list(reversed(retrieved)))
    assert late.text.startswith("Check-out: Late check-out until 1:00 PM on request")
    late = answer("can i check out late?", retrieved=retrieved[1:])
    assert late.text.startswith("Check-out: Late check-out until 1:00 PM on request")


def test_a_new_question_after_checkout_does_not_get_the_checkout_time():
    found = answer(
        "who runs the sportsbook here",
        previous="whens checkout",
        retrieved=["FanDuel Sportsbook at Mohegan Sun"],
    )
    assert found is None or "Check-out" not in found.text


def test_a_policy_answer_keeps_its_negation():
    found = answer(
        "can i pay with a credit card at the blackjack tables?",
        retrieved=["Accepted payment at tables", "Table Games"],
    )
    assert found.text.startswith("Table games take cash or chips only")


@pytest.mark.parametrize(
    ("question", "thing"),
    [
        ("is there a bowling alley?", "bowling alley"),
        ("do you have a water park", "water park"),
        ("Is there an ice rink at Mohegan Sun?", "ice rink"),
        ("what time does the foxwoods buffet open", "foxwoods buffet"),
    ],
)
def test_a_thing_the_resort_lacks_is_answered_as_absent(question, thing):
    assert asked_thing(question) == thing
    found = answer(question, retrieved=["Seasons Buffet", "Indoor Pool"])
    assert found.text.startswith("Mohegan Sun does not have")
    assert thing in found.text
    assert not any(ch.isdigit() for ch in found.text.split(".")[0])  # no hours, no prices


@pytest.mark.parametrize(
    ("question", "name"),
    [
        ("cheesecake factory hrs? want to go after the show", "cheesecake factory"),
        ("lucky's steakhouse can i get a table for 4 at 7", "lucky's steakhouse"),
        ("can i book olive garden for 8 tonite", "olive garden"),
        ("how late does MJ's sushi bar serve", "mj's sushi bar"),
    ],
)
def test_a_place_named_while_asking_its_hours_or_a_table_is_absent_when_the_guide_lacks_it(
    question, name
):
    found = answer(question, retrieved=["Michael Jordan's Steak House", "Seasons Buffet"])
    assert found.text.startswith("Mohegan Sun does not have") and name in found.text
    assert not any(ch.isdigit() for ch in found.text.split(".")[0])


@pytest.mark.parametrize(
    ("question", "expected"),
    [
        ("micheal jordans steak house what time they close saturday", "11:00 PM"),
        ("gym hrs? wanna lift before checkout", "6:00 AM"),
        ("where's bobby's burgers at", "Casino of the Earth"),
    ],
)
def test_the_guides_own_places_asked_the_same_ways_are_answered(question, expected):
    found = answer(question)
    assert found is None or not found.text.startswith("Mohegan Sun does not have")
    if found is not None:
        assert expected in found.text


def test_the_closest_thing_is_offered_when_its_name_shares_the_main_word():
    found = answer("what time does the foxwoods buffet open", retrieved=["Seasons Buffet"])
    assert "The closest thing here is Seasons Buffet" in found.text


@pytest.mark.parametrize(
    "question",
    [
        "is there a spa",
        "do you have a golf course",
        "is there free wifi",
        "do you have electric car chargers",
        "is there a raw bar anywhere? craving oysters",
        "do you have a kids club or babysitting?",
        "is there a pool",
    ],
)
def test_things_the_resort_has_are_not_absent(question):
    thing = asked_thing(question)
    assert thing and not is_absent(thing, SOURCE.items, SOURCE.property["description"])


def test_shows_this_weekend_from_the_clock():
    found = answer("Is there a show this weekend?")
    assert "Friday, November 27 to Sunday, November 29" in found.text
    assert "Comedy Headliners Weekend" in found.text and "Holiday Pops Spectacular" in found.text
    assert "December" not in found.text
    # The same words a week later are another weekend.
    later = answer("Is there a show this weekend?", today=date(2026, 12, 1))
    assert "Friday, December 4 to Sunday, December 6" in later.text
    assert "Holiday Pops" not in later.text


def test_a_date_without_shows_names_the_next_one():
    found = answer("any shows on December 1?")
    assert found.text.startswith("I don't see any shows listed on Tuesday, December 1.")
    assert "Motown Revue" in found.text and "December 3" in found.text


def test_questions_the_structure_does_not_answer_are_left_to_the_model():
    assert answer("tell me about the spa", retrieved=["Elemis Spa"]) is None
    assert answer("what's good for dinner?", retrieved=["The Shed Restaurant"]) is None


def test_a_shows_answer_is_grounded_in_its_items_and_the_worked_out_dates():
    from frontdesk.agentkit.grounding import check_grounding
    from frontdesk.knowledge.formatters import format_item

    found = answer("Is there a show this weekend?")
    by_name = {i.name: i for i in SOURCE.items}
    texts = [format_item(by_name[n].category, n, by_name[n].fields) for n in found.items]
    assert not check_grounding(found.text, texts).grounded  # the range's end dates are nobody's
    assert check_grounding(found.text, [*texts, found.support]).grounded


PRICE_LIST = "What restaurants do you have? Give me a list with prices"


@pytest.mark.parametrize(
    "question",
    ["where can I park free", "¿Dónde se puede aparcar gratis?"],
)
def test_a_new_question_after_a_price_list_is_not_answered_with_prices(question):
    # Found as a new user: the parking question got "Prices of The Shed Restaurant: ...".
    from frontdesk.knowledge.glossary import SPANISH_RESORT_GLOSSARY as GLOSSARY
    from frontdesk.knowledge.glossary import Glossary

    reading = Glossary.load(GLOSSARY).translate(question) or question
    found = answer(reading, previous=PRICE_LIST, retrieved=["The Shed Restaurant", "Parking"])
    assert found is None or "$" not in found.text


def test_a_continuation_still_carries_the_field_it_continues():
    found = answer(
        "and what about Bobby's Burgers?", previous="how much is michael jordan's steak house"
    )
    assert found is not None and found.items == ("Bobby's Burgers",)
    assert "$" in found.text


def test_a_fact_stated_in_an_items_own_words_is_quoted_from_it():
    floors = answer("how many floors is the sky tower")
    assert "34-story" in floors.text and floors.items == ("Sky Tower",)
    shows = answer("how much are wolf den shows")
    assert "free" in shows.text and shows.items == ("Wolf Den",)
    opened = answer("when did the earth tower open")
    assert "2016" in opened.text and opened.items == ("Earth Tower",)


def test_which_is_newer_by_the_year_each_entry_says_it_opened():
    newer = answer("which hotel tower is the newer one?", retrieved=["Sky Tower", "Earth Tower"])
    assert newer.text.startswith("Earth Tower is the newer of the two.")
    older = answer("which is older, the sky tower or the earth tower?")
    assert older.text.startswith("Sky Tower is the older of the two.")


def test_it_in_a_follow_up_is_what_the_previous_answer_was_about():
    rooms = answer(
        "how many rooms does it have",
        previous="which hotel tower is the newer one?",
        retrieved=["Sky Tower", "Earth Tower"],
    )
    assert "1,200" in rooms.text  # without the previous answer: the first tower retrieved
    found = work_out(
        "how many rooms does it have",
        previous="which hotel tower is the newer one?",
        previous_items=["Earth Tower", "Sky Tower"],
        items=SOURCE.items,
        retrieved=["Sky Tower Deluxe King Room", "Sky Tower"],
        today=TUESDAY,
        property=SOURCE.property,
    )  # a retrieved room shares the word "room": the answer before is what "it" is
    assert "400-room" in found.text and found.items == ("Earth Tower",)


@pytest.mark.parametrize(
    ("question", "named"),
    [
        ("is there an irish pub", "The Lansdowne Irish Pub & Music House"),
        ("is there a pool", "Indoor Pool"),
        ("is there a sportsbook", "FanDuel Sportsbook at Mohegan Sun"),
    ],
)
def test_a_thing_the_resort_has_is_named_with_where_it_is(question, named):
    found = answer(question)
    assert found.text.startswith(f"Yes: {named} in ") and found.items == (named,)


@pytest.mark.parametrize("question", ["is there a gym", "are there any bars"])
def test_an_entry_that_only_mentions_the_thing_or_a_plural_is_not_answered_yes(question):
    # Kids Quest's entry mentions a jungle gym; "any bars" asks for a list.
    found = answer(question)
    assert found is None or not found.text.startswith("Yes")


def test_a_follow_up_naming_another_thing_is_about_that_thing():
    found = work_out(
        "what if we just valet it, how much is that",
        previous="where can i park",
        previous_items=["Self-Parking Garages"],
        items=SOURCE.items,
        retrieved=["Valet Parking", "Self-Parking Garages"],
        today=TUESDAY,
        property=SOURCE.property,
    )
    assert found.items == ("Valet Parking",) and "$25" in found.text


def test_where_something_is_free_is_not_a_question_of_admission():
    found = answer("where can I park free? no valet", retrieved=["Valet Parking"])
    assert found is None or "Valet" not in found.text


def test_a_correction_takes_back_what_the_answer_before_was_about():
    # "no wait, I meant the steakhouse" after the buffet's hours got the buffet again (web UI).
    found = work_out(
        "no wait, I meant the steakhouse",
        previous="what time does the buffet open?",
        previous_items=["Seasons Buffet"],
        items=SOURCE.items,
        retrieved=["Michael Jordan's Steak House", "Seasons Buffet"],
        today=TUESDAY,
        property=SOURCE.property,
    )
    assert found is not None and found.items == ("Michael Jordan's Steak House",)
    assert "Seasons" not in found.text


@pytest.mark.parametrize(
    ("question", "names", "missing", "field_of_place"),
    [
        ("cheesecake factory hrs? want to go after the show", True, True, True),
        ("can i book olive garden for 8 tonite, party of 6", True, True, False),
        ("gym hrs? wanna lift before checkout", True, False, True),
        ("hot tub hours", True, False, True),
        ("can i book a table at michael jordans steak house for 8", True, False, False),
        ("explain quantum computing simply", False, False, False),
    ],
)
def test_what_the_router_hears_of_a_place_asked_after_by_name(
    question, names, missing, field_of_place
):
    # The router sends these to the facts whatever the classifier heard (a booking, a game).
    assert absent.names_a_place(question) is names
    items, description = SOURCE.items, SOURCE.property["description"]
    assert absent.names_a_missing_place(question, items, description) is missing
    assert absent.asks_a_field_of_a_place(question) is field_of_place


def test_a_missing_place_asked_how_late_gets_the_closest_ones_hours():
    found = answer("hookah lounge?? where is it and how late", retrieved=["Lucky's Lounge"])
    assert found.text.startswith("Mohegan Sun does not have a hookah lounge.")
    lounge = next(i for i in SOURCE.items if i.name == "Lucky's Lounge")
    assert f"Lucky's Lounge hours: {lounge.fields['hours']}." in found.text
    # Asked nothing of its hours: the closest place is named, without them.
    found = answer("is there a hookah lounge?", retrieved=["Lucky's Lounge"])
    assert "Lucky's Lounge" in found.text and lounge.fields["hours"] not in found.text


def test_a_shuttle_to_the_airport_is_absent_though_the_garage_has_shuttle_carts():
    found = answer("is there a shuttle to the airport?", retrieved=["Airports and Getting Here"])
    assert found.text.startswith("Mohegan Sun does not have a shuttle to the airport.")
