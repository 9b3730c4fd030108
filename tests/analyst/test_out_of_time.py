"""The analyst's answer for a turn out of time: the SQL that ran and its rows, else what
failed."""

from frontdesk.assistants.analyst.service import out_of_time_answer


def test_shows_the_sql_that_ran_and_its_rows():
    state = {
        "sql_report": {"executed_sql": "SELECT city, n FROM offices", "columns": ["city", "n"]},
        "final_structured_data": [{"city": "Paris", "n": 3}, {"city": "Tokyo", "n": 5}],
    }
    text = out_of_time_answer(state)
    assert "SELECT city, n FROM offices" in text
    assert "| city | n |" in text and "| Paris | 3 |" in text and "| Tokyo | 5 |" in text


def test_a_sql_agent_stopped_mid_way_shows_what_it_had():
    # The SQL agent's own keys, written before its report was: executed but not summarised.
    state = {
        "executed_sql": "SELECT name FROM customers LIMIT 100",
        "structured_result": [{"name": f"c{i}"} for i in range(12)],
        "column_names": ["name"],
    }
    text = out_of_time_answer(state)
    assert "SELECT name FROM customers" in text
    assert "| c9 |" in text and "| c10 |" not in text and "2 more rows" in text


def test_says_what_failed_when_no_query_answered():
    failed = out_of_time_answer(
        {"last_sql_error": "no such column: amount_paid", "error_kind": "unknown_column"}
    )
    # What went wrong in the user's words, never the database's.
    assert "failed because a column name was wrong" in failed
    assert "amount_paid" not in failed and "no such column" not in failed
    timed_out = out_of_time_answer(
        {"sql_report": {"errors": ["interrupted"], "error_kind": "timeout", "outcome": "failed"}}
    )
    assert "took too long" in timed_out and "interrupted" not in timed_out
    # The validator's message says which name was wrong, as the UI's "Why" does.
    schema = out_of_time_answer(
        {
            "last_sql_error": "Column 'T2.days' does NOT exist in table 'customer'.",
            "error_kind": "schema",
        }
    )
    assert "failed because a column name was wrong" in schema and "T2.days" not in schema
    empty = out_of_time_answer(
        {"sql_report": {"executed_sql": "SELECT 1 WHERE 0", "outcome": "empty"}}
    )
    assert "returned no rows" in empty and "SELECT 1 WHERE 0" in empty
    assert "No query had run yet" in out_of_time_answer({})
    # Only what is true: one user alone on a slow machine was told many people were asking.
    assert "many people" not in out_of_time_answer({})


def test_the_sources_of_a_turn_stopped_in_the_sql_agent_show_its_last_sql():
    from frontdesk.assistants.analyst.turn_output import sources_of

    agent = {"next_step": "sql", "question": "how many?", "sql_report": None}
    failed = sources_of(
        {
            **agent,
            "sql": "SELECT COUNT(COUNT(*)) FROM workOrder",
            "executed_sql": "SELECT COUNT(COUNT(*)) FROM secure_workorder AS workOrder LIMIT 100",
            "last_sql_error": "misuse of aggregate function COUNT()",
            "error_kind": "other",
            "column_names": ["n"],  # an earlier try's
        }
    )
    assert failed["sql_status"] == "failed"
    assert failed["sql"] == failed["sql_written"] == "SELECT COUNT(COUNT(*)) FROM workOrder"
    assert failed["sql_problem"] == "the database could not run the query as written"
    assert failed["sql_errors"] == ["misuse of aggregate function COUNT()"]
    assert failed["columns"] == [] and failed["rows"] == []

    # A correction written but not checked when time ran out: not run, not failed.
    untried = sources_of(
        {
            **agent,
            "sql": "SELECT COUNT(*) FROM workOrder",
            "last_sql_error": "misuse of aggregate function COUNT()",
            "error_kind": "other",
            "correction_history": [
                {
                    "sql": "SELECT COUNT(COUNT(*)) FROM workOrder",
                    "error": "misuse of aggregate function COUNT()",
                    "kind": "other",
                },
            ],
        }
    )
    assert untried["sql_status"] == "stopped" and untried["sql_problem"] is None
    assert untried["sql"] == "SELECT COUNT(*) FROM workOrder"
    assert untried["sql_errors"] == ["misuse of aggregate function COUNT()"]

    # It ran; the answer was not written in time: the rows are shown.
    ran = sources_of(
        {
            **agent,
            "sql": "SELECT COUNT(*) AS n FROM workOrder",
            "executed_sql": "SELECT COUNT(*) AS n FROM secure_workorder AS workOrder LIMIT 100",
            "outcome": "answered",
            "column_names": ["n"],
            "structured_result": [{"n": 2065}],
            "row_count": 1,
        }
    )
    assert ran["sql_status"] == "ran" and ran["sql"].startswith("SELECT COUNT(*) AS n FROM secure")
    assert ran["columns"] == ["n"] and ran["rows"] == [{"n": 2065}] and ran["sql_errors"] == []

    assert sources_of({"next_step": "rag", "sql": "SELECT 1"})["sql"] is None
