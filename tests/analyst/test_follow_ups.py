"""Follow-ups over the previous result: the SQL agent is given the last question, its SQL
and its tables, and changes that SQL (scripted model; the real model's run is in
test_end_to_end_model.py)."""

from __future__ import annotations

from .test_analyst_graph import script

COMPLETED = "SELECT COUNT(*) AS n FROM workOrder WHERE status = 'completed'"
IN_PROGRESS = "SELECT COUNT(*) AS n FROM workOrder WHERE status = 'in_progress'"
CUSTOMERS = "SELECT COUNT(*) AS n FROM customer"


def _sql_prompts(llm) -> list[str]:
    return [str(c[-1].content) for c in llm.calls if str(c[0].content).startswith("You write one")]


async def test_a_follow_up_changes_the_previous_sql(analyst):
    service, llm = analyst(script(sql=[COMPLETED, IN_PROGRESS], answer="done"))
    await service.ask("how many work orders are completed?", "f1")
    answer = await service.ask("and how many are in progress?", "f1")
    first, second = _sql_prompts(llm)
    assert "follows up" not in first
    assert "follows up the previous one" in second and COMPLETED in second
    report = answer.extra["sql_report"]
    assert "workOrder" in report["tables"]
    assert report["question"].startswith("how many work orders are completed?")
    assert "Follow-up: and how many are in progress?" in report["question"]


async def test_a_follow_up_of_a_follow_up_keeps_the_first_subject(analyst):
    service, llm = analyst(script(sql=[COMPLETED, IN_PROGRESS, IN_PROGRESS], answer="done"))
    await service.ask("how many work orders are completed?", "f2")
    await service.ask("and in progress?", "f2")
    await service.ask("what about those scheduled?", "f2")
    third = _sql_prompts(llm)[2]
    assert "how many work orders are completed? Follow-up: and in progress?" in third


async def test_a_question_naming_its_own_subject_stands_alone(analyst):
    service, llm = analyst(script(sql=[COMPLETED, CUSTOMERS], answer="done"))
    await service.ask("how many work orders are completed?", "f3")
    answer = await service.ask("how many customers are there?", "f3")
    assert "follows up" not in _sql_prompts(llm)[1]
    assert answer.extra["sql_report"]["question"] == "how many customers are there?"


async def test_nothing_to_follow_after_a_query_that_did_not_run(analyst):
    refused = "DELETE FROM workOrder"
    service, llm = analyst(script(sql=[refused, IN_PROGRESS], answer="done"))
    await service.ask("how many work orders are completed?", "f4")
    await service.ask("and how many are in progress?", "f4")
    assert "follows up" not in _sql_prompts(llm)[1]


async def test_the_answer_to_a_follow_up_is_about_the_follow_up(analyst):
    # "and how many are in progress?" was answered "There are 11 work orders open." when the
    # answer prompt led with the previous question: the new one comes first, with its SQL.
    service, llm = analyst(script(sql=[COMPLETED, IN_PROGRESS], answer="done"))
    await service.ask("how many work orders are completed?", "f5")
    await service.ask("and how many are in progress?", "f5")
    answer_prompts = [
        str(c[-1].content)
        for c in llm.calls
        if str(c[0].content).startswith("You answer a question from the result")
    ]
    last = answer_prompts[-1]
    assert (
        "and how many are in progress? (A follow-up to: how many work orders are completed?" in last
    )
    assert "status = 'in_progress'" in last
