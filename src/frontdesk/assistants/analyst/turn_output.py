"""What a turn gives back besides the streamed words: the `sources` event (the SQL that ran,
or the last one tried and why it did not run, its columns and rows, the manual pages), the
`Answer` of a non-streamed turn, and the reply for a turn out of time.
"""

from __future__ import annotations

from typing import Any

from frontdesk.assistants.analyst import prompts
from frontdesk.assistants.base import Answer


def sources_of(state: dict[str, Any]) -> dict[str, Any]:
    report = report_of(state)
    docs = (state.get("rag_sources") or []) if state.get("next_step") == "rag" else []
    documents: dict[str, dict[str, Any]] = {}
    for hit in docs:  # the manual pages the answer drew on, with their text, to open in the UI
        title = _source(hit)
        page = documents.setdefault(title, {"id": title, "title": title, "text": ""})
        page["text"] = "\n\n".join(t for t in (page["text"], hit.get("content", "")) if t)
    return {
        "sources": list(dict.fromkeys(_source(d) for d in docs)),
        "documents": list(documents.values()),
        "route": state.get("next_step"),
        # The SQL that ran; when none did, the last one tried (labelled so in the UI).
        "sql": report.get("executed_sql") or report.get("sql"),
        # As the model wrote it (logical tables, no forced LIMIT): what the UI's editor and
        # CSV download start from; the server checks it again either way.
        "sql_written": report.get("sql"),
        "sql_status": sql_status(report),
        "sql_problem": report.get("problem"),
        "sql_errors": [e[:ERROR_CHARS] for e in (report.get("errors") or [])[-MAX_ERRORS:]]
        if sql_status(report) in ("failed", "refused", "stopped")
        else [],
        "columns": report.get("columns") or [],
        "rows": (_rows_of(state) if sql_status(report) == "ran" else []),
        "row_count": report.get("row_count", 0),
        "truncated": report.get("truncated", False),
    }


# The technical errors the UI's details show: the last few, each cut to a readable length.
MAX_ERRORS, ERROR_CHARS = 4, 600


def sql_status(report: dict[str, Any]) -> str | None:
    """ran (rows or none), refused (a write, personal data), failed, stopped (the turn ran
    out of time before it ran); None: no SQL."""
    if not report.get("sql") and not report.get("executed_sql"):
        return None
    outcome = report.get("outcome")
    if outcome in ("answered", "empty"):
        return "ran"
    if outcome == "refused":
        return "refused"
    return "failed" if outcome == "failed" else "stopped"


def report_of(state: dict[str, Any]) -> dict[str, Any]:
    """The SQL report; for a turn out of time stopped inside the SQL agent (no report yet),
    one made from what the agent had written so far (its own state keys)."""
    report = state.get("sql_report")
    if report or state.get("next_step") != "sql" or not state.get("sql"):
        return report or {}
    ran = state.get("outcome") in ("answered", "empty")
    history = state.get("correction_history") or []
    # A correction written but not checked yet: the last error is still its predecessor's
    # (each check clears it or writes its own).
    untried = (
        bool(history)
        and history[-1]["sql"] != state["sql"]
        and history[-1]["error"] == state.get("last_sql_error")
    )
    error = None if ran or untried else state.get("last_sql_error")
    kind = None if ran or untried else state.get("error_kind")
    errors = [h["error"] for h in history]
    return {
        "sql": state.get("sql"),
        # Only with rows is it sure that the rewritten SQL is this one's.
        "executed_sql": state.get("executed_sql") if ran else None,
        "outcome": state.get("outcome") if ran else "failed" if error else None,
        "columns": (state.get("column_names") or []) if ran else [],
        "row_count": state.get("row_count", 0) if ran else 0,
        "truncated": bool(state.get("truncated")) and ran,
        "errors": [*errors, error] if error else errors,
        "error_kind": kind,
        "problem": prompts.sql_problem(kind, error) if error else None,
    }


def _rows_of(state: dict[str, Any]) -> list[dict[str, Any]]:
    # A turn out of time has no final rows yet: the SQL agent's.
    return (
        state.get("final_structured_data")
        or state.get("sql_structured_result")
        or state.get("structured_result")
        or []
    )


def _source(hit: dict[str, Any]) -> str:
    meta = hit.get("metadata", hit)
    return " — ".join(str(p) for p in (meta.get("title"), meta.get("section")) if p)


def answer_of(state: dict[str, Any], thread_id: str) -> Answer:
    extra = sources_of(state)
    return Answer(
        answer=state.get("final_answer") or "",
        route=state.get("next_step"),
        confidence=state.get("router_confidence"),
        sources=extra["sources"],
        validation=None,
        thread_id=thread_id,
        context=list(state.get("rag_sources") or []),
        extra={
            "final_structured_data": state.get("final_structured_data"),
            "sql_report": state.get("sql_report"),
            "route_method": state.get("route_method"),
        },
    )


# Rows an answer out of time shows (the UI's table shows the rest from `sources`).
OUT_OF_TIME_ROWS = 10


def out_of_time_answer(state: dict[str, Any]) -> str:
    """A turn out of time, answered without the model: the SQL that ran and its rows, else
    what failed. The SQL agent's own keys are there too when it was stopped mid-way."""
    report = state.get("sql_report") or {}
    sql = report.get("executed_sql") or state.get("executed_sql")
    rows = (
        state.get("final_structured_data")
        or state.get("sql_structured_result")
        or state.get("structured_result")
        or []
    )
    error = state.get("last_sql_error") or next(reversed(report.get("errors") or []), None)
    kind = report.get("error_kind") or state.get("error_kind")
    outcome = report.get("outcome") or state.get("outcome")
    # Only what is true: the answer was not finished in time. Whether others were asking,
    # this turn does not know.
    opening = "I could not write up the answer in time."
    if sql and rows:
        columns = list(report.get("columns") or state.get("column_names") or rows[0])
        lines = ["| " + " | ".join(columns) + " |", "|" + " --- |" * len(columns)]
        for row in rows[:OUT_OF_TIME_ROWS]:
            lines.append("| " + " | ".join(str(row.get(c, "")) for c in columns) + " |")
        more = len(rows) - OUT_OF_TIME_ROWS
        tail = [f"… and {more} more rows."] if more > 0 else []
        return "\n".join(
            [f"{opening} This query ran:", f"```sql\n{sql}\n```", "Its rows:", *lines, *tail]
        )
    if sql and outcome == "empty":
        return f"{opening} This query ran and returned no rows:\n```sql\n{sql}\n```"
    if error:
        # What went wrong in the user's terms; the database's own words stay in the report.
        reason = prompts.sql_problem(kind, error)
        return f"{opening} The last query failed because {reason}. Please ask again in a moment."
    return f"{opening} No query had run yet. Please ask again in a moment."
