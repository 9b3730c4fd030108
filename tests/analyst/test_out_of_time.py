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
    empty = out_of_time_answer(
        {"sql_report": {"executed_sql": "SELECT 1 WHERE 0", "outcome": "empty"}}
    )
    assert "returned no rows" in empty and "SELECT 1 WHERE 0" in empty
    assert "No query had run yet" in out_of_time_answer({})
