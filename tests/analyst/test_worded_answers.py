"""One-value results worded in code from the question (sql_agent/worded.py): no model call."""

from __future__ import annotations

from decimal import Decimal

import pytest

from frontdesk.assistants.analyst.sql_agent.worded import worded_answer


@pytest.mark.parametrize(
    ("question", "value", "said"),
    [
        ("How many work orders are open?", 17, "17 work orders are open."),
        ("how many technicians are active", 21, "21 technicians are active."),
        ("How many inspections had a failing result?", 1, "1 inspection had a failing result."),
        ("How many support tickets are still pending?", 1, "1 support ticket is still pending."),
        ("How many customers are there?", 12500, "There are 12,500 customers."),
        ("How many parts are there in total?", 3, "There are 3 parts."),
        (
            (
                "What was the total amount of payments received in October 2025, rounded to 2 "
                "decimal places?"
            ),
            Decimal("48210.50"),
            "The total amount of payments received in October 2025 was 48,210.50.",
        ),
        ("what is the average hourly rate?", 31.5, "The average hourly rate is 31.50."),
    ],
)
def test_a_one_value_result_is_worded_from_the_question(question, value, said):
    assert worded_answer(question, ["value"], [{"value": value}]) == said


@pytest.mark.parametrize(
    "question",
    [
        "How many technicians do we have that are active?",  # not a plain noun phrase
        "How many work orders that were opened in May are closed?",
        "How many tracks did AC/DC release?",  # "did": the model words it
        "Which technician has the most work orders?",
        "count the open work orders",
    ],
)
def test_other_shapes_are_left_to_the_model(question):
    assert worded_answer(question, ["n"], [{"n": 17}]) is None


def test_only_a_single_number_is_worded():
    question = "How many work orders are open?"
    assert worded_answer(question, ["n"], [{"n": 1}, {"n": 2}]) is None
    assert worded_answer(question, ["a", "b"], [{"a": 1, "b": 2}]) is None
    assert worded_answer(question, ["n"], [{"n": None}]) is None
    assert worded_answer(question, ["n"], [{"n": "open"}]) is None
    assert worded_answer(question, ["n"], [{"n": 2.5}]) is None  # a count is whole
