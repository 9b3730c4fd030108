from frontdesk.agentkit.grounding import check_grounding, conform_numbers
from frontdesk.agentkit.prompts import render
from frontdesk.agentkit.validation import (
    FAIL,
    PASS,
    RETRY,
    validation_outcome,
    validator_error_outcome,
)

CONTEXT = [
    ("Bobby's Burgers: American cuisine. Located in Casino of the Earth. Hours: Daily 11:00 AM-11:00 PM. "
    "Price range: $ (burgers $12-$18). Phone: 860-862-8000."),
    "Grand Arena: arena. Capacity: 10,000 seats. Next show December 31.",
]
VENUES = ["Bobby's Burgers", "Grand Arena", "Tuscany Trattoria"]


def test_supported_specifics_pass_in_any_format():
    answer = (
        "Bobby's Burgers opens at 11 a.m. and closes at 11:00pm; burgers cost $12 to $18. "
        "Call (860) 862-8000. The Grand Arena show is on Dec 31; it holds 10000 people."
    )
    report = check_grounding(answer, CONTEXT, venue_names=VENUES)
    assert report.grounded, report.unsupported


def test_each_kind_of_unsupported_specific_is_reported():
    answer = (
        "Bobby's Burgers closes at 10 PM, burgers are $25, call 860-555-1234, "
        "open on January 5, the arena seats 12,000, or try Tuscany Trattoria."
    )
    report = check_grounding(answer, CONTEXT, venue_names=VENUES)
    assert not report.grounded
    assert report.unsupported == [
        "time 10:00pm",
        "price 25",
        "phone number 8605551234",
        "date 01-05",
        "number 12000",
        "venue 'Tuscany Trattoria'",
    ]
    assert "Tuscany Trattoria" in report.feedback()


def test_trusted_facts_count_as_support():
    answer = "Today is November 22. For help call 1-800-522-4700."
    assert not check_grounding(answer, CONTEXT).grounded
    assert check_grounding(
        answer, CONTEXT, trusted_facts=["Sunday, November 22, 2026", "Helpline 1-800-522-4700"]
    ).grounded


def test_noon_and_midnight_are_times():
    assert check_grounding("It opens at noon.", ["Hours: 12:00 PM-midnight"]).grounded
    assert not check_grounding("It opens at noon.", ["Hours: 11:00 AM-9:00 PM"]).grounded


def test_validation_loop_retries_once_then_fails():
    assert validation_outcome(True, 0) == {"validation_result": PASS, "retry_feedback": None}
    first = validation_outcome(False, 0, "made up a price")
    assert first == {"validation_result": RETRY, "retry_count": 1, "retry_feedback": "made up a price"}
    assert validation_outcome(False, 1, "still wrong")["validation_result"] == FAIL


def test_validator_errors_pass_first_attempt_and_fail_closed_on_retry():
    assert validator_error_outcome(0, "timeout")["validation_result"] == PASS
    assert validator_error_outcome(1, "timeout")["validation_result"] == FAIL


def test_prompts_survive_braces_and_dollars_in_user_text():
    text = render("Q: $question ($missing)", question="what is {price} and $5 ${x}?")
    assert text == "Q: what is {price} and $5 ${x}? ($missing)"


def test_with_max_tokens_lowers_the_budget_only_where_there_is_one():
    from pydantic import BaseModel

    from frontdesk.agentkit.prompts import with_max_tokens

    class Budgeted(BaseModel):
        max_tokens: int = 384

    class Unbudgeted(BaseModel):
        temperature: float = 0.2

    capped = with_max_tokens(Budgeted(), 96)
    assert capped.max_tokens == 96
    plain = Unbudgeted()
    assert with_max_tokens(plain, 96) is plain


def test_feedback_quotes_the_context_sentence_with_the_right_value():
    context = [
        (
            "Sky Tower: Type: tower. Check-in: 4:00 PM. The Sky Tower is a 34-story glass tower "
            "that opened in April 2002. It is connected to the Shops."
        ),
        "Elemis Spa: Type: spa. Prices: $$$ (50-minute massages from $165; facials from $175).",
    ]
    floors = check_grounding("The Sky Tower has 44 floors.", context)
    assert floors.unsupported == ["number 44"]
    assert floors.evidence == (
        "Sky Tower: The Sky Tower is a 34-story glass tower that opened in April 2002.",
    )
    assert '"Sky Tower: The Sky Tower is a 34-story glass tower' in floors.feedback()
    massage = check_grounding("A 50-minute massage costs $50.", context)
    assert massage.evidence == (
        "Elemis Spa: Prices: $$$ (50-minute massages from $165; facials from $175).",
    )


def test_no_evidence_when_no_context_sentence_shares_the_words():
    report = check_grounding("Parking costs $40.", ["Sky Tower: Check-in: 4:00 PM."])
    assert report.unsupported == ["price 40"] and report.evidence == ()
    assert "CONTEXT says" not in report.feedback()


def test_numbers_are_written_as_the_context_writes_them():
    context = ["Mohegan Sun Arena: Capacity: 10,000 seats. Opened 2001.", "Soar: 40,000 Tier Credits."]
    assert conform_numbers("It holds 10000 people and Soar needs 40000.", context) == (
        "It holds 10,000 people and Soar needs 40,000."
    )
    # Years, phone numbers, times and numbers the context does not group stay as they are.
    unchanged = "Opened in 2001; call 1-888-226-7711 at 11:00; room 1412."
    assert conform_numbers(unchanged, context) == unchanged


def test_a_number_must_count_what_the_context_counts_with_it():
    context = [
        "Arena: Capacity: 10,000 seats. Suites: 20 private suites. Opened in 2001 and hosts shows.",
        "Sky Tower: a 34-story tower, 15 minutes from the station.",
    ]
    # 20 is in the context, but as suites, not seats.
    seats = check_grounding("The arena holds 20 seats.", context)
    assert seats.unsupported == ["number 20 (seat)"]
    assert seats.evidence == ("Arena: Capacity: 10,000 seats.",)
    assert check_grounding(
        "The tower has 34 stories, 15 minutes away. The arena has 20 suites.", context
    ).grounded
    # Units the context never counts, and words that are not units, are not judged this way.
    assert check_grounding("It holds 10,000 people; opened 2001 and 20 guests wait.", context).grounded


def test_without_a_same_kind_value_the_closest_sentence_is_quoted():
    context = [
        "Sun WineFest: Type: festival. Held each January at the Earth Expo Center.",
        "Buffet: Closed on December 25.",  # a date, but about something else
    ]
    report = check_grounding("The WineFest is held on January 23 at the Earth Expo Center.", context)
    assert report.unsupported == ["date 01-23"]
    assert report.evidence == ("Sun WineFest: Held each January at the Earth Expo Center.",)
    # One shared word is not enough to quote a sentence of another kind.
    assert check_grounding("Doors open January 23.", context).evidence == ()


ATTRIBUTION_CONTEXT = [
    "Grand Arena: Capacity: 10,000 seats. Opened in 2001 and hosts concerts.",
    "Grand Arena Suites: Capacity: 20 seats. Private suites ring the arena bowl.",
    "Sky Spa: Prices: 50-minute massages from $165; facials from $175. Phone: 860-862-4000.",
    "Valet Parking: Rates: $50 overnight. Phone: 860-862-8000.",
    "Earth Tower: Opened in 2008. It has 400 rooms.",
]


def test_a_value_the_context_gives_another_item_is_misattributed():
    seats = check_grounding("The arena holds 20 seats.", ATTRIBUTION_CONTEXT)
    assert not seats.grounded
    assert seats.unsupported == [] and seats.misattributed == ["number 20"]
    # The feedback shows the sentence of the item described, holding its own value.
    assert seats.evidence == ("Grand Arena: Capacity: 10,000 seats.",)
    assert "belong to something else" in seats.feedback() and "10,000 seats" in seats.feedback()

    massage = check_grounding("A 50-minute massage at the spa costs $50.", ATTRIBUTION_CONTEXT)
    assert massage.misattributed == ["price 50"]
    assert "$165" in massage.evidence[0]


def test_each_item_keeps_its_own_values():
    for answer in (
        "The arena holds 10,000 seats, and each of the arena suites has 20 seats.",
        "A 50-minute massage costs $165. Overnight valet parking is $50.",
        # Two sentences of one item: 2008 and 400 are both the Earth Tower's.
        "The Earth Tower opened in 2008 and has 400 rooms.",
        # No sentence clearly owns it: one shared word is not enough to judge.
        "Call 860-862-8000 for the spa.",
    ):
        report = check_grounding(answer, ATTRIBUTION_CONTEXT)
        assert report.misattributed == [], answer
    # Trusted facts (helplines, today's date) are never another item's values.
    assert check_grounding(
        "For the spa, the helpline is 860-862-8000.", ATTRIBUTION_CONTEXT,
        trusted_facts=["Helpline 860-862-8000"],
    ).grounded


def test_each_context_is_checked_on_its_own_documents():
    # Documents are read once and remembered; what one turn's context said must not
    # support another turn's answer.
    answer = "A massage costs $165 and the spa opens at 9 AM."
    spa = "Elemis Spa: 50-minute massages from $165. Open 9:00 AM to 8:00 PM."
    pool = "Indoor Pool: Open 7:00 AM to 10:00 PM for hotel guests."
    assert check_grounding(answer, [spa]).grounded
    report = check_grounding(answer, [pool])
    assert set(report.unsupported) == {"price 165", "time 9:00am"}
    assert check_grounding(answer, [pool, spa]).grounded
