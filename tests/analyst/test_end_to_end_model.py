"""The analyst end to end with the real embedded models (MiniLM + the GGUF chat model) on the
demo database: an easy data question answered with the right count, through the orchestrator,
the SQL graph agent, the secure view and the read-only executor. Slow, so marked `model`."""

from __future__ import annotations

import uuid

import pytest

from frontdesk.assistants.analyst.service import build_service
from frontdesk.runtime import Models

pytestmark = pytest.mark.model


@pytest.fixture(scope="module")
def settings(tmp_path_factory, real_model_settings):
    return real_model_settings(
        tmp_path_factory.mktemp("analyst-e2e"), checkpointer="sqlite", llm_timeout_s=300
    )


async def test_easy_question_is_answered_from_the_database(settings):
    service = await build_service(settings, Models(settings))
    try:
        answer = await service.ask("How many work orders are open?", str(uuid.uuid4()))
    finally:
        await service.aclose()
    assert answer.route == "sql"
    report = answer.extra["sql_report"]
    assert report["outcome"] == "answered", report
    # 17 work orders have status 'open' in the demo data (as of 2025-12-15).
    assert list(answer.extra["final_structured_data"][0].values()) == [17]
    assert "17" in answer.answer
    assert "secure_workorder" in report["executed_sql"]


async def test_a_follow_up_is_answered_over_the_previous_result(settings):
    # "and how many are in progress?" alone once queried the inventory; over the previous
    # question's SQL it counts work orders again (11 are 'in_progress' in the demo data).
    service = await build_service(settings, Models(settings))
    thread = str(uuid.uuid4())
    try:
        first = await service.ask("How many work orders are open?", thread)
        second = await service.ask("And how many are in progress?", thread)
    finally:
        await service.aclose()
    assert list(first.extra["final_structured_data"][0].values()) == [17]
    assert second.route == "sql"
    report = second.extra["sql_report"]
    assert report["outcome"] == "answered", report
    assert "secure_workorder" in report["executed_sql"]
    assert list(second.extra["final_structured_data"][0].values()) == [11]


async def test_the_models_answer_naming_the_rows_is_kept(settings):
    # The name check must not throw away a real answer that names the people in the rows
    # (its false alarms: capitalised words, words of the question or the columns).
    from frontdesk.assistants.analyst.sql_agent.answers import (
        names_in,
        plain_answer,
        summarize_rows,
    )

    columns = ["firstName", "lastName", "workOrders"]
    rows = [
        {"firstName": "Jonathan", "lastName": "King", "workOrders": 220},
        {"firstName": "Laura", "lastName": "Jones", "workOrders": 166},
    ]
    question = "Which two technicians have the most work orders?"
    text = await summarize_rows(Models(settings).chat, question, columns, rows, truncated=False)
    assert text != plain_answer(columns, rows, False)
    # It named someone inside a sentence, so the check did run on a name from the rows (the
    # 0.5B model wrote "Laura and Jonathan have the most work orders.").
    assert set(names_in(text)) & {"Jonathan", "King", "Laura", "Jones"}
