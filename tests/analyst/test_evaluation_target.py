"""The `eval sql` target: the SQL graph agent on a labelled question, scripted model, demo DB."""

from __future__ import annotations

from frontdesk.assistants.analyst.evaluation import SQLTarget
from frontdesk.eval.datasets import SQLCase
from frontdesk.eval.sql_suite import results_match
from frontdesk.llm.scripted import ScriptedChatModel
from frontdesk.runtime import Models

GOLD = "SELECT COUNT(*) FROM employee WHERE isTechnician = 1 AND isActive = 1"


def scripted_target(demo_settings, toolkit, sql: list[str]):
    def reply(messages):
        if "You choose the database tables" in str(messages[-1].content):
            return '{"tables": ["employee", "technician", "workOrder"]}'
        return sql.pop(0)

    llm = ScriptedChatModel(script=reply)
    target = SQLTarget(demo_settings, Models(demo_settings, chat_override=llm))
    target.toolkits["demo"] = toolkit  # the session's demo database, already open
    return target, llm


async def test_a_right_query_matches_the_gold_rows_without_an_answer_writing_call(
    demo_settings, toolkit
):
    right = "SELECT COUNT(*) AS n FROM employee WHERE isActive = 1 AND isTechnician = 1"
    target, llm = scripted_target(demo_settings, toolkit, [right])
    run = await target(SQLCase("How many technicians are active?", GOLD, "demo"))
    assert run.outcome == "answered" and run.attempts == 1 and not run.needed_correction
    assert results_match(run.predicted_rows, run.gold_rows, ordered=run.ordered)
    # Table choice and SQL only: the eval measures the query, so no answer is written.
    systems = [str(call[0].content) for call in llm.calls]
    assert len(llm.calls) == 2
    assert not any(s.startswith("You answer a question from the result") for s in systems)


async def test_a_query_that_never_runs_is_a_miss_with_its_error(demo_settings, toolkit):
    broken = "SELECT COUNT(*) FROM employee WHERE employee.nosuch = 1"
    target, _ = scripted_target(demo_settings, toolkit, [broken] * 7)
    run = await target(SQLCase("How many technicians are active?", GOLD, "demo"))
    assert run.predicted_rows is None and run.needed_correction
    assert run.corrections == 3 and "nosuch" in (run.error or "")
