import pytest

from frontdesk.knowledge.focus import focus_on_named, names_item
from frontdesk.knowledge.schedule import (
    asked_days,
    day_hours_conflicts,
    day_hours_note,
    hours_by_day,
    with_day_hours,
    wrong_day_hours,
)

MON, TUE, WED, THU, FRI, SAT, SUN = range(7)


def test_hours_by_day_reads_ranges_wrapping_weeks_closed_days_and_several_segments():
    week = hours_by_day(
        "Wed-Thu 5:00 PM-10:00 PM; Fri-Sat 5:00 PM-12:00 AM; "
        "Sun 11:00 AM-3:00 PM (brunch) and 5:00 PM-10:00 PM; closed Mon-Tue"
    )
    assert week[MON] == week[TUE] == ["closed"]
    assert week[SAT] == ["5:00 PM-12:00 AM"]
    assert week[SUN] == ["11:00 AM-3:00 PM (brunch) and 5:00 PM-10:00 PM"]
    wraps = hours_by_day("Sun-Thu 7:00 AM-3:00 PM; Fri-Sat 7:00 AM-10:00 PM")
    assert {d for d, h in wraps.items() if h == ["7:00 AM-3:00 PM"]} == {SUN, MON, TUE, WED, THU}
    both = hours_by_day("Daily 7:00 AM-11:00 AM (breakfast); Fri-Sat 5:00 PM-11:00 PM")
    assert both[FRI] == ["7:00 AM-11:00 AM (breakfast)", "5:00 PM-11:00 PM"]
    assert both[MON] == ["7:00 AM-11:00 AM (breakfast)"]


@pytest.mark.parametrize(
    "schedule",
    ["Open 24 hours", "Karaoke Wednesdays 9:00 PM", "Sunrise Square daily", "Event calendar varies"],
)
def test_schedules_that_name_no_days_state_nothing(schedule):
    assert hours_by_day(schedule) == {}


def test_a_day_the_schedule_does_not_state_is_not_called_closed():
    week = hours_by_day("Mon-Sat 10:00 AM-6:00 PM; on event days open until show time")
    assert SUN not in week and week[SAT] == ["10:00 AM-6:00 PM"]


def test_asked_days_from_names_and_from_the_current_time():
    assert asked_days("is it open on mondays or Friday?") == [MON, FRI]
    assert asked_days("open tonight?", "Tuesday, November 24, 2026, 6:00 PM EST") == [TUE]
    assert asked_days("and tomorrow?", "Sunday, November 22, 2026, 6:00 PM EST") == [MON]
    assert asked_days("what time does it open", "Sunday, November 22, 2026") == []


def test_day_hours_note_is_built_from_the_items_own_hours():
    content = "Beauty & Essex: x. Hours: Wed-Sun 5:00 PM-10:00 PM; closed Mon-Tue. Phone: 1."
    assert day_hours_note("Beauty & Essex", content, [MON, SAT]) == (
        "On Monday, Beauty & Essex is closed. On Saturday, Beauty & Essex is open 5:00 PM-10:00 PM."
    )
    assert day_hours_note("X", "X: no hours here.", [MON]) is None
    assert day_hours_note("X", "X: y. Hours: Fri 8:00 PM.", [MON]) is None


def test_retrieved_items_get_their_hours_on_the_asked_day_first():
    doc = {"content": "Shack: seafood. Hours: Sun-Thu 11:30 AM-9:00 PM; Fri-Sat 11:30 AM-10:00 PM.",
           "metadata": {"item_name": "Shack"}}
    other = {"content": "Spa: massages.", "metadata": {"item_name": "Spa"}}
    annotated = with_day_hours([doc, other], "is it open late on saturday?", "")
    assert annotated[0]["content"].startswith("On Saturday, Shack is open 11:30 AM-10:00 PM.\nShack:")
    assert annotated[1] == other and doc["content"].startswith("Shack:"), "inputs are not mutated"
    assert with_day_hours([doc], "what does it serve", "") == [doc]


def hit(name: str) -> dict:
    return {"content": name, "metadata": {"item_name": name}}


def test_names_item_needs_the_leading_words_in_order():
    assert names_item("hash house hours on a tuesday", "Hash House A Go Go")
    assert names_item("is beauty and essex open", "Beauty & Essex")
    assert names_item("michael jordan's steakhouse hours", "Michael Jordan's Steak House")
    assert not names_item("what days is comix roadhouse open", "Comix Comedy Club")
    assert not names_item("house of hash", "Hash House A Go Go")


def test_focus_puts_named_items_first_and_keeps_few_others():
    results = [hit("Casino hours"), hit("Sky Tower Deluxe King Room"), hit("Sky Tower"), hit("Spa")]
    focused = focus_on_named("where is the sky tower", results)
    assert [r["content"] for r in focused] == ["Sky Tower", "Casino hours"]
    assert [r["content"] for r in focus_on_named("sky tower", results, keep_others=0)] == ["Sky Tower"]
    partly = focus_on_named("sky tower king room with a view", results, keep_others=0)
    assert [r["content"] for r in partly] == ["Sky Tower"]
    assert focus_on_named("anything fun to do", results) == results


CLOSED_MONDAY = with_day_hours(
    [{"content": "Beauty & Essex: Hours: Wed-Sat 5:00 PM-10:00 PM; closed Mon-Tue.",
      "metadata": {"item_name": "Beauty & Essex"}}],
    "is it open on monday and friday?",
)


@pytest.mark.parametrize(
    "answer, contradicted",
    [
        ("Yes, Beauty & Essex is open on Monday.", ["On Monday, Beauty & Essex is closed."]),
        ("Yes, it is.", ["On Monday, Beauty & Essex is closed."]),
        ("It is closed on Friday.", ["On Friday, Beauty & Essex is open 5:00 PM-10:00 PM."]),
        ("No, Beauty & Essex is closed on Monday.", []),
        ("It is not open on Monday.", []),
        # Several days named: which clause is about which day is not for a pattern to judge.
        ("Closed on Monday, open on Friday from 5:00 PM.", []),
    ],
)
def test_answers_that_contradict_the_days_hours_are_found(answer, contradicted):
    context = [doc["content"] for doc in CLOSED_MONDAY]
    assert day_hours_conflicts(answer, context) == contradicted


def test_no_conflicts_without_worked_out_hours():
    assert day_hours_conflicts("Yes, it is open.", ["Beauty & Essex: closed Mon-Tue."]) == []


PUB = (
    "The Lansdowne Irish Pub & Music House",
    (
        "The Lansdowne Irish Pub & Music House: Irish pub cuisine. Hours: Sun-Thu 11:30 AM-12:00 "
        "AM; Fri-Sat 11:30 AM-2:00 AM. Features: Live music nightly, 21+ after 9:00 PM."
    ),
)


@pytest.mark.parametrize(
    ("sentence", "right"),
    [
        # Seen in the UI: Saturday given the weeknights' closing time.
        ("It is open from 11:30 AM to 12:00 AM on Saturday.",
         "On Saturday, The Lansdowne Irish Pub & Music House is open 11:30 AM-2:00 AM."),
        ("The Lansdowne Irish Pub & Music House closes at 2 a.m. on Tuesday.",
         "On Tuesday, The Lansdowne Irish Pub & Music House is open 11:30 AM-12:00 AM."),
        ("It is open from 11:30 AM to 2:00 AM on Saturday.", None),
        ("On Sunday it opens at 11:30 AM and closes at midnight.", None),
        ("Live music starts at 9 PM on Saturday.", None),  # not the schedule's times
        ("It is open 11:30 AM-12:00 AM Sunday to Thursday.", None),  # several days
    ],
)
def test_a_sentence_with_another_days_hours_is_rewritten_from_the_schedule(sentence, right):
    assert wrong_day_hours(sentence, [PUB]) == right
