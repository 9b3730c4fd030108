from frontdesk.agentkit.evidence import context_sentences, misattributed, missed_subject

POOL = (
    "Indoor Pool: Type: pool. Located in Sky Tower, spa level. Hours: Daily 7:00 AM-10:00 PM. "
    "The indoor pool is for hotel guests."
)
CHARGING = (
    "Electric Vehicle Charging: Type: parking. Located in Winter Garage, level 1. "
    "Level 2 electric chargers are on the first level of the Winter Garage."
)


def test_an_answer_about_something_else_misses_the_subject():
    feedback = missed_subject(
        "pool hours?", "The casino is open 24 hours a day.", "Indoor Pool", POOL
    )
    assert feedback is not None and "asked about Indoor Pool" in feedback
    # The quote starts with the sentence that answers what was asked (the hours).
    assert 'The CONTEXT says: "Indoor Pool: Hours: Daily 7:00 AM-10:00 PM."' in feedback
    # Word forms do not matter ("charge" asks about "Charging").
    feedback = missed_subject(
        "where can i charge my electric car",
        "Buses run daily from Boston.",
        "Electric Vehicle Charging",
        CHARGING,
    )
    assert feedback is not None and "Winter Garage" in feedback


def test_an_answer_naming_the_subject_or_a_question_not_naming_it_passes():
    assert (
        missed_subject("pool hours?", "The pool is open 7:00 AM-10:00 PM.", "Indoor Pool", POOL)
        is None
    )
    assert missed_subject("where can i swim", "Swim upstairs.", "Indoor Pool", POOL) is None


def test_sentences_are_judged_clause_by_clause_and_item_by_item():
    sentences = context_sentences(
        [
            "Grand Arena: Capacity: 10,000 seats.",
            "Grand Arena Suites: Capacity: 20 seats.",
        ]
    )
    assert [s.item for s in sentences] == ["Grand Arena", "Grand Arena Suites"]
    assert misattributed("The arena seats 20.", sentences) == [
        ("number 20", "Grand Arena: Capacity: 10,000 seats.")
    ]
    assert misattributed("The arena seats 10,000, and the arena suites 20 seats.", sentences) == []


PUB = "The Lansdowne Irish Pub: Irish pub cuisine. Located in Casino of the Sky."


def test_asked_whether_there_is_one_the_answer_must_name_it():
    vague = missed_subject(
        "is there an irish pub",
        "Yes, there is an Irish pub in Casino of the Sky.",
        "The Lansdowne Irish Pub",
        PUB,
        name_it=True,
    )
    assert vague is not None and "answer with its name, The Lansdowne Irish Pub." in vague
    named = "Yes, The Lansdowne Irish Pub is in Casino of the Sky."
    assert (
        missed_subject("is there an irish pub", named, "The Lansdowne Irish Pub", PUB, name_it=True)
        is None
    )
    # Other questions need only the subject.
    assert (
        missed_subject(
            "where is the irish pub",
            "The Irish pub is in Casino of the Sky.",
            "The Lansdowne Irish Pub",
            PUB,
        )
        is None
    )
    # A question that already says the whole name needs nothing more.
    assert (
        missed_subject(
            "is there a lansdowne irish pub",
            "Yes, in Casino of the Sky.",
            "The Lansdowne Irish Pub",
            PUB,
            name_it=True,
        )
        is not None
    )  # the answer never mentions it at all
    assert (
        missed_subject(
            "is there a lansdowne irish pub",
            "Yes, the Irish pub is in Casino of the Sky.",
            "The Lansdowne Irish Pub",
            PUB,
            name_it=True,
        )
        is None
    )


def test_a_later_clause_is_about_its_sentences_subject():
    # The steakhouse's Sunday was taken for the buffet's, whose sentence shares "sun, brunch"
    # with that clause alone ("no wait, I meant the steakhouse" after the buffet's hours).
    sentences = context_sentences(
        [
            "Seasons Buffet: Hours: Wed-Thu 11:00 AM-8:00 PM. Sun 10:00 AM-8:00 PM (brunch buffet).",
            "Michael Jordan's Steak House: Hours: Mon-Thu 5:00 PM-10:00 PM. Steaks and seafood.",
            "Michael Jordan's Steak House: Sun 11:00 AM-3:00 PM and 5:00 PM-10:00 PM.",
        ]
    )
    answer = (
        "Michael Jordan's Steak House hours: Mon-Thu 5:00 PM-10:00 PM; "
        "Sun 11:00 AM-3:00 PM (brunch) and 5:00 PM-10:00 PM."
    )
    assert misattributed(answer, sentences) == []
    wrong = "Michael Jordan's Steak House hours: Mon-Thu 11:00 AM-8:00 PM."
    assert misattributed(wrong, sentences) != []
