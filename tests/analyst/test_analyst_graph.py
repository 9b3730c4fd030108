"""The analyst's orchestrator and SQL graph agent, scripted model, real demo database."""

from __future__ import annotations

import logging

from frontdesk.assistants.analyst import prompts
from frontdesk.assistants.analyst.sql.executor import DatabaseDown


def script(sql=(), fixes=(), answer="There are 21 active technicians.", general="ML is a field."):
    """Replies by what is asked: SQL, a correction, an answer, a general reply."""
    sql, fixes = list(sql), list(fixes)

    def reply(messages):
        system = str(messages[0].content)
        if system.startswith("You write one"):
            return sql.pop(0)
        if system.startswith("You fix"):
            return fixes.pop(0)
        if system.startswith("You answer a question from the result"):
            return answer
        return general

    return reply


ACTIVE_TECHS = (
    "SELECT COUNT(*) AS technicians FROM employee WHERE isTechnician = 1 AND isActive = 1"
)


async def test_a_data_question_runs_sql_through_the_secure_view(analyst):
    service, llm = analyst(script(sql=[ACTIVE_TECHS]))
    answer = await service.ask("how many technicians are active", "t1")
    assert answer.route == "sql"
    # A one-value result of a "how many" question is worded in code, without a model call.
    assert answer.answer == "21 technicians are active."
    assert not [c for c in llm.calls if str(c[0].content).startswith("You answer a question")]
    assert answer.extra["final_structured_data"] == [{"technicians": 21}]
    report = answer.extra["sql_report"]
    assert "secure_employee" in report["executed_sql"] and "LIMIT 100" in report["executed_sql"]
    assert report["outcome"] == "answered" and report["correction_attempts"] == 0


async def test_an_answer_with_a_number_not_in_the_rows_is_rewritten_from_them(analyst):
    service, _ = analyst(script(sql=[ACTIVE_TECHS], answer="There are 25 active technicians."))
    answer = await service.ask("count the active technicians", "t1")
    assert answer.answer == "The result is 21."


TOP_TECHS = (
    "SELECT e.firstName, e.lastName, COUNT(*) AS jobs FROM employee e "
    "JOIN workOrder w ON w.assignedToId = e.id GROUP BY e.id ORDER BY jobs DESC, e.id LIMIT 2"
)


async def test_an_answer_naming_someone_not_in_the_rows_is_rewritten_from_them(analyst, caplog):
    made_up = "There are 21 active technicians, led by Marcus Whitfield."
    service, _ = analyst(script(sql=[ACTIVE_TECHS], answer=made_up))
    with caplog.at_level(logging.INFO, logger="frontdesk.assistants.analyst.sql_agent.answers"):
        answer = await service.ask("count the active technicians", "t1")
    assert answer.answer == "The result is 21."
    assert "answer named ['Marcus', 'Whitfield'], not in the result" in caplog.text


async def test_an_answer_with_the_names_of_the_rows_is_kept(analyst, toolkit):
    top = toolkit.execute(toolkit.prepare(TOP_TECHS).sql)
    (first, last, jobs), (first2, last2, _) = top.rows
    said = f"The top technician is {first} {last} with {jobs} work orders, then {first2} {last2}."
    service, _ = analyst(script(sql=[TOP_TECHS], answer=said))
    answer = await service.ask("which technicians have the most work orders", "t1")
    assert answer.extra["final_structured_data"][0]["lastName"] == last
    assert answer.answer == said


async def test_an_answer_with_capitalised_ordinary_words_is_kept(analyst):
    said = "There are 21 Active Technicians in the Employee records as of Monday, March 3 (Total)."
    service, _ = analyst(script(sql=[ACTIVE_TECHS], answer=said))
    answer = await service.ask("count the technicians active on march 3", "t1")
    assert answer.answer == said


async def test_a_column_of_the_wrong_table_is_repaired_without_the_model(analyst):
    wrong = "SELECT COUNT(*) AS leads FROM crew WHERE crew.isLead = 1"
    service, llm = analyst(script(sql=[wrong], answer="done"))
    answer = await service.ask("how many technicians are active", "t1")
    report = answer.extra["sql_report"]
    assert report["correction_attempts"] == 1 and report["outcome"] == "answered"
    assert "employeeCrew.isLead = 1" in report["executed_sql"]
    assert "JOIN employeeCrew ON employeeCrew.crewId = crew.id" in report["executed_sql"]
    assert not any(str(c[0].content).startswith("You fix") for c in llm.calls)
    assert answer.extra["final_structured_data"][0]["leads"] > 0


async def test_the_join_plan_covers_the_tables_the_question_names(analyst):
    right = "SELECT COUNT(*) AS n FROM workOrder WHERE status = 'open'"
    service, llm = analyst(script(sql=[right], answer="17 are open."))
    await service.ask("count open work orders", "t1")
    prompt = next(
        str(c[-1].content) for c in llm.calls if str(c[0].content).startswith("You write")
    )
    plan = prompt.split("question needs from it):\n")[1].split("\n\n")[0]
    # Several tables were chosen; the question names one, so the plan joins nothing.
    assert plan.strip() == "FROM workOrder"
    schema = prompt.split("Schema:\n")[1]
    assert schema.startswith("workOrder(")  # the planned tables first


async def test_other_errors_go_to_the_correction_agent_with_the_validators_message(analyst):
    wrong = "SELECT COUNT(*) FROM crew WHERE crew.isLeader = 1"
    fixed = "SELECT COUNT(*) FROM employeeCrew WHERE employeeCrew.isLead = 1"
    service, llm = analyst(script(sql=[wrong], fixes=[fixed], answer="done"))
    answer = await service.ask("how many technicians are active", "t1")
    correction_prompt = next(
        str(c[-1].content) for c in llm.calls if str(c[0].content).startswith("You fix")
    )
    assert "Column 'crew.isLeader' does NOT exist in table 'crew'" in correction_prompt
    # The focused context: the table the failed SQL uses, with all its columns.
    assert "crew(id, workOrderId, name, createdBy, createdAt)" in correction_prompt
    report = answer.extra["sql_report"]
    assert report["correction_attempts"] == 1 and report["outcome"] == "answered"


async def test_corrections_stop_after_three_attempts(analyst):
    wrong = "SELECT nosuchcolumn FROM workOrder"
    service, llm = analyst(script(sql=[wrong], fixes=[wrong] * 6))
    answer = await service.ask("how many technicians are active", "t1")
    assert answer.extra["sql_report"]["correction_attempts"] == 3
    report = answer.extra["sql_report"]
    assert report["outcome"] == "failed"
    # The answer says what went wrong in the user's words; the validator's own words (the
    # correction agent's) stay in the report, for the UI's details.
    assert answer.answer == prompts.failed_answer("unknown_column")
    assert "a column name was wrong" in answer.answer
    assert "does NOT exist" not in answer.answer and "nosuchcolumn" not in answer.answer
    assert len(report["errors"]) == 4  # three corrected, and the last one
    assert all("Column 'nosuchcolumn' does NOT exist" in e for e in report["errors"])
    assert report["error_kind"] == "schema" and report["problem"] == "a column name was wrong"
    assert report["columns"] == [] and report["row_count"] == 0
    # Each attempt that repeats the failed query is asked a second time (sampled).
    assert sum(str(c[0].content).startswith("You fix") for c in llm.calls) == 6


async def test_a_correction_that_repeats_the_failed_query_is_asked_again(analyst):
    wrong = "SELECT nosuchcolumn FROM workOrder"
    right = "SELECT COUNT(*) AS n FROM workOrder WHERE status = 'open'"
    service, llm = analyst(script(sql=[wrong], fixes=[f" {wrong.lower()} ", right], answer="ok"))
    answer = await service.ask("count open work orders", "t1")
    assert answer.extra["final_structured_data"] == [{"n": 17}]
    assert answer.extra["sql_report"]["correction_attempts"] == 1
    assert sum(str(c[0].content).startswith("You fix") for c in llm.calls) == 2


async def test_an_empty_result_is_regenerated_once_with_a_hint(analyst):
    empty = "SELECT workOrderNumber FROM workOrder WHERE status = 'Open'"
    right = "SELECT COUNT(*) AS n FROM workOrder WHERE status = 'open'"
    service, llm = analyst(script(sql=[empty, right], answer="17 are open."))
    answer = await service.ask("count open work orders", "t1")
    assert answer.extra["final_structured_data"] == [{"n": 17}]
    second = [c for c in llm.calls if str(c[0].content).startswith("You write one")][1]
    assert "returned no rows" in str(second[-1].content)


async def test_sql_that_writes_is_refused_and_nothing_changes(analyst, toolkit):
    from frontdesk.assistants.analyst.db.engine import checksums

    before = checksums(toolkit.engine, ["workOrder"])
    service, llm = analyst(script(sql=["DELETE FROM workOrder WHERE status = 'cancelled'"]))
    answer = await service.ask("list overdue invoices", "t1")
    assert answer.answer == prompts.REFUSED
    assert not any(str(c[0].content).startswith("You fix") for c in llm.calls)
    assert checksums(toolkit.engine, ["workOrder"]) == before


async def test_a_request_to_change_data_is_refused_before_any_model_call(analyst):
    service, llm = analyst(script())
    answer = await service.ask("delete all cancelled work orders", "t1")
    assert answer.route == "refuse" and answer.answer == prompts.REFUSED
    assert llm.calls == []


async def test_a_request_to_change_data_is_refused_whatever_the_router_would_say(
    analyst, monkeypatch
):
    # The router once sent "Delete all closed work orders" to the manual, which answered it
    # as if it could be done; the refusal now comes before the router is asked.
    service, llm = analyst(script())
    asked = []

    async def route_to_manual(text):
        asked.append(text)
        raise AssertionError("the router was asked")

    monkeypatch.setattr(service.context.router, "route", route_to_manual)
    answer = await service.ask("Delete all closed work orders", "t1")
    assert answer.route == "refuse" and answer.answer == prompts.REFUSED
    assert asked == [] and llm.calls == []


async def test_a_question_in_a_language_it_does_not_serve_is_told_so_in_that_language(analyst):
    # "Ile zleceń jest open right now?" was answered with the question itself.
    service, llm = analyst(script())
    polish = await service.ask("Ile zleceń jest open right now?", "p1")
    assert polish.answer.startswith("Odpowiadam tylko po angielsku")
    spanish = await service.ask("¿Cuántas órdenes de trabajo están abiertas?", "p2")
    assert spanish.answer.startswith("Solo puedo responder en inglés")
    assert llm.calls == []


async def test_a_database_that_is_down_gets_a_clear_reply(analyst, toolkit, monkeypatch):
    monkeypatch.setattr(
        toolkit, "execute", lambda sql: DatabaseDown("the database at db:3306 is not reachable")
    )
    service, _ = analyst(script(sql=[ACTIVE_TECHS]))
    answer = await service.ask("how many technicians are active", "t1")
    assert answer.answer == prompts.DATABASE_DOWN
    report = answer.extra["sql_report"]
    assert report["outcome"] == "failed" and report["error_kind"] == "connection"
    # Where the database is stays in the report, out of the answer.
    assert "db:3306" not in answer.answer and "db:3306" in report["errors"][-1]


async def test_manual_and_general_routes(analyst):
    service, _ = analyst(script(general="Machine learning is a field of AI."))
    rag = await service.ask("how do I reopen a work order", "t1")
    assert rag.route == "rag" and rag.sources and "Work orders" in rag.sources[0]
    general = await service.ask("what is machine learning", "t2")
    assert general.route == "general" and general.answer.startswith("Machine learning")


async def test_stream_sources_carry_the_manual_pages_used(analyst):
    service, _ = analyst(script())
    events = [e async for e in service.stream("how do I reopen a work order", "t1")]
    sources = next(e.data for e in events if e.event == "sources")
    titles = [d["title"] for d in sources["documents"]]
    assert titles == sources["sources"] and all(d["text"] for d in sources["documents"])


async def test_the_conversation_is_remembered_and_truncated_for_the_model(analyst):
    service, llm = analyst(script(general="ok"), max_messages=3)
    for _ in range(3):
        await service.ask("what is machine learning", "same")
    last_general_call = llm.calls[-1]
    # system prompt + at most 3 messages of the 5 stored so far
    assert len(last_general_call) == 4
    state = await service.graph.aget_state(service.config("same"))
    assert len(state.values["messages"]) == 6


async def test_stream_reports_route_tool_and_rows(analyst):
    service, _ = analyst(script(sql=[ACTIVE_TECHS]))
    events = [e async for e in service.stream("how many technicians are active", "t1")]
    kinds = [e.event for e in events]
    progress = [e.data for e in events if e.event == "progress"]
    assert {"stage": "route", "route": "sql"} in progress
    assert {"stage": "tool", "tool": "sql_agent"} in progress
    assert {"stage": "step", "step": "execute"} in progress
    assert kinds.index("progress") < kinds.index("token") < kinds.index("sources")
    sources = next(e.data for e in events if e.event == "sources")
    assert sources["rows"] == [{"technicians": 21}] and sources["columns"] == ["technicians"]
    assert sources["sql"].startswith("SELECT")


async def test_a_failed_turn_shows_the_last_sql_tried_and_keeps_the_details(analyst):
    # An empty result first (its columns must not stay), then SQL the database refuses.
    empty = "SELECT id FROM workOrder WHERE status = 'no such status'"
    misuse = "SELECT COUNT(COUNT(*)) AS n FROM workOrder"
    service, _ = analyst(script(sql=[empty, misuse], fixes=[misuse] * 6))
    events = [e async for e in service.stream("count open work orders", "t1")]
    answer = "".join(e.data["content"] for e in events if e.event in ("token", "replace"))
    sources = next(e.data for e in events if e.event == "sources")
    assert "misuse" not in answer and "COUNT()" not in answer
    assert "failed because the database could not run the query as written" in answer
    assert sources["sql_status"] == "failed"
    assert "COUNT(COUNT(*))" in sources["sql"] and "secure_workorder" in sources["sql"]
    assert sources["sql_written"].startswith("SELECT COUNT(COUNT(*))")
    assert sources["sql_problem"] == "the database could not run the query as written"
    assert sources["sql_errors"] and "misuse of aggregate" in sources["sql_errors"][-1]
    assert sources["columns"] == [] and sources["rows"] == [] and sources["row_count"] == 0


async def test_a_turn_that_ran_says_so_and_carries_no_error_details(analyst):
    service, _ = analyst(script(sql=[ACTIVE_TECHS]))
    events = [e async for e in service.stream("how many technicians are active", "t1")]
    sources = next(e.data for e in events if e.event == "sources")
    assert sources["sql_status"] == "ran" and sources["sql_problem"] is None
    assert sources["sql_errors"] == [] and sources["sql_written"] == ACTIVE_TECHS


async def test_a_refused_query_is_labelled_refused(analyst):
    service, _ = analyst(script(sql=["DELETE FROM workOrder WHERE status = 'cancelled'"]))
    events = [e async for e in service.stream("list overdue invoices", "t1")]
    sources = next(e.data for e in events if e.event == "sources")
    assert sources["sql_status"] == "refused" and sources["sql"].startswith("DELETE")
    assert sources["sql_problem"] == "it was not a read-only query"


def _timing_out(stage: str, **kwargs):
    """The script, except that the model runs out of time when asked to write (`stage`
    "You write one") or to fix ("You fix") a query."""
    reply = script(**kwargs)

    def maybe_time_out(messages):
        if str(messages[0].content).startswith(stage):
            raise TimeoutError("the embedded model did not finish within the time limit")
        return reply(messages)

    return maybe_time_out


async def test_a_model_timeout_while_writing_sql_is_a_reply_not_a_crash(analyst):
    service, _ = analyst(_timing_out("You write one"))
    answer = await service.ask("how many technicians are active", "t1")
    assert answer.answer == prompts.MODEL_UNAVAILABLE
    report = answer.extra["sql_report"]
    assert report["outcome"] == "failed"


async def test_a_model_timeout_while_correcting_sql_keeps_the_last_query_tried(analyst):
    broken = "SELECT COUNT(*) FROM employee WHERE isTechnicianX = 1"
    service, _ = analyst(_timing_out("You fix", sql=[broken]))
    answer = await service.ask("how many technicians are active", "t1")
    assert answer.answer == prompts.MODEL_UNAVAILABLE
    report = answer.extra["sql_report"]
    assert report["outcome"] == "failed" and "isTechnicianX" in (report["sql"] or "")


async def test_live_data_is_said_to_be_missing_and_replies_are_not_repeated(analyst):
    # "what's the weather on mars" got a made-up forecast from the model, and after a refusal
    # in the same conversation the model repeated the refusal.
    service, llm = analyst(script(general="It is sunny on Mars."))
    answer = await service.ask("what's the weather on mars", "w1")
    assert answer.route == "general" and answer.answer == prompts.NO_LIVE_DATA
    await service.ask("Delete all closed work orders", "w2")
    await service.ask("what is machine learning", "w2")
    general_call = llm.calls[-1]
    assert all(type(m).__name__ != "AIMessage" for m in general_call)


def test_the_refusal_to_change_data_is_one_sentence():
    from frontdesk.agentkit.claims import answer_sentences

    assert len(answer_sentences(prompts.REFUSED)) == 1


async def test_the_tables_are_chosen_without_the_model(analyst):
    service, llm = analyst(script(sql=[ACTIVE_TECHS]))
    answer = await service.ask("how many technicians are active", "tables1")
    assert answer.answer == "21 technicians are active."
    # One model call in the whole turn: the SQL (the router and the wording need none here).
    systems = [str(call[0].content) for call in llm.calls]
    assert [s.split("\n")[0] for s in systems if not s.startswith("You classify")] == [
        "You write one SQLite SELECT query that answers the user's question."
    ]
