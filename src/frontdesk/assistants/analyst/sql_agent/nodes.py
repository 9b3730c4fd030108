"""The SQL graph agent's nodes (seed 002) and its named routing functions.

select_tables -> filter_relationships -> find_paths -> plan_joins -> generate_sql
  -> rewrite_secure -> pre_validate -> execute -> summarize
with the correction loop: a rewrite, validation or execution error goes to correct_sql (focused
context, its history, at most SQL_CORRECTION_MAX_ATTEMPTS), which goes back to rewrite_secure;
an empty result regenerates once. Everything but the model calls (SQL, correction) and the
answer is deterministic and lives in the toolkit: the tables are the pre-filter's.
"""

from __future__ import annotations

import logging
from typing import Any

from langgraph.runtime import Runtime

from frontdesk.agentkit.prompts import render
from frontdesk.assistants.analyst import prompts
from frontdesk.assistants.analyst.sql_agent.answers import plain_answer, summarize_rows
from frontdesk.assistants.analyst.sql_agent.worded import worded_answer
from frontdesk.assistants.analyst.sql_agent.writing import ask_new_sql
from frontdesk.assistants.analyst.state import AnalystContext, SQLGraphState

logger = logging.getLogger(__name__)

SELECT_TABLES = "select_tables"
FILTER_RELATIONSHIPS = "filter_relationships"
FIND_PATHS = "find_paths"
PLAN_JOINS = "plan_joins"
GENERATE_SQL = "generate_sql"
REWRITE_SECURE = "rewrite_secure"
PRE_VALIDATE = "pre_validate"
EXECUTE = "execute"
CORRECT_SQL = "correct_sql"
SUMMARIZE = "summarize"

# Regenerations after a query that ran but found nothing (seed: "Empty -> SQL Generator").
MAX_EMPTY_RETRIES = 1


# -- nodes -----------------------------------------------------------------------------------


def question_to_answer(state: SQLGraphState) -> str:
    """What the answer's prose answers: the new question first, then what it follows ("...
    in progress?" after "...open?" must not be answered as "11 work orders are open")."""
    previous = state.get("previous")
    if not previous:
        return state["question"]
    # The SQL says what was counted ("status = 'cancelled'") better than the chain of
    # questions, whose first subject a small model otherwise repeats ("... are open").
    return (
        f"{state['question']} (A follow-up to: {previous['question']}. "
        f"The query that answered it: {state.get('sql') or ''})"
    )


def question_in_context(state: SQLGraphState) -> str:
    """The question, after the one it follows up when it is a follow-up on the last result:
    what table search, the join plan, the correction and the answer read."""
    previous = state.get("previous")
    if not previous:
        return state["question"]
    return f"{previous['question']} Follow-up: {state['question']}"


def select_tables(state: SQLGraphState, runtime: Runtime[AnalystContext]) -> dict[str, Any]:
    """The tables the SQL is written over: those a follow-up's previous question used, then
    the pre-filter's first (embedding similarity and the words of table names).

    No model call. On the analyst's own 80 questions, the model's pick from the pre-filter's
    12 (7.9 tables on average) held every table the gold query uses for 0.887 of them; the
    pre-filter's first 8 hold them for 0.938, and the answer comes one call (6 s idle, 20 s
    and more on a busy machine) sooner."""
    tk = runtime.context.sql
    candidates = tk.search_tables(question_in_context(state), tk.limits.prefilter_tables)
    earlier = [t for t in (state.get("previous") or {}).get("tables") or [] if t in tk.graph.tables]
    chosen = list(dict.fromkeys([*earlier, *candidates[: tk.limits.chosen_tables]]))
    return {"candidate_tables": candidates, "tables": chosen}


def filter_relationships(state: SQLGraphState, runtime: Runtime[AnalystContext]) -> dict[str, Any]:
    tk = runtime.context.sql
    relationships = tk.relationships_among(state["tables"], tk.limits.max_relationships_display)
    return {"allowed_relationships": relationships}


def find_paths(state: SQLGraphState, runtime: Runtime[AnalystContext]) -> dict[str, Any]:
    """Multi-hop paths between chosen tables that no relationship joins directly: the tables on
    the way join the selection, their relationships the allowed list."""
    tk = runtime.context.sql
    tables, paths = tk.connect_pairs(state["tables"], tk.limits.max_suggested_paths)
    extra = tk.relationships_among(tables, tk.limits.max_relationships_display)
    return {"tables": tables, "allowed_relationships": extra, "join_paths": paths}


def plan_joins(state: SQLGraphState, runtime: Runtime[AnalystContext]) -> dict[str, Any]:
    """Joins for the tables the question names (else the first chosen one); the other chosen
    tables stay in the schema, to be joined only for a column the question needs."""
    tk = runtime.context.sql
    named = tk.named_tables(question_in_context(state), state["tables"]) or state["tables"][:1]
    join_tables, plan = tk.join_plan(named)
    return {"join_tables": join_tables, "join_plan": plan}


async def generate_sql(state: SQLGraphState, runtime: Runtime[AnalystContext]) -> dict[str, Any]:
    tk = runtime.context.sql
    history = ""
    previous = state.get("previous")
    if previous:
        history = render(
            prompts.FOLLOW_UP_HINT,
            previous_question=previous["question"],
            previous_sql=previous["sql"],
        )
    empty = state.get("outcome") == "empty" and bool(state.get("sql"))
    if empty:
        history += render(prompts.EMPTY_RESULT_HINT, previous_sql=state["sql"])
    # The planned tables first: a small model reads the top of a long schema most closely.
    tables = list(dict.fromkeys([*(state.get("join_tables") or []), *state["tables"]]))
    turn = render(
        prompts.SQL_GENERATION,
        examples=tk.examples_text(question_in_context(state)),
        schema=tk.schema_text(tables, tk.limits.max_columns_in_schema, question_in_context(state)),
        relationships=tk.relationship_lines(
            state.get("allowed_relationships") or [], tk.limits.max_relationships_in_prompt
        ),
        join_plan=state.get("join_plan") or "(no tables)",
        history=history,
        question=state["question"],
    )
    system = render(prompts.SQL_SYSTEM, dialect=tk.dialect_name, max_rows=tk.limits.max_query_rows)
    tried = [state["sql"]] if empty else []
    try:
        sql = await ask_new_sql(runtime.context.llm, system, turn, tried)
    except Exception as error:  # noqa: BLE001 - any model failure ends the turn with a reply
        return _model_failed(state, error)
    return {
        "sql": sql,
        "iterations": state.get("iterations", 0) + 1,
        "outcome": None,
        "validation_errors": [],
        "last_sql_error": None,
        "error_kind": None,
    }


def rewrite_secure(state: SQLGraphState, runtime: Runtime[AnalystContext]) -> dict[str, Any]:
    """Parse, refuse anything but one read-only SELECT, map logical tables to their secure
    views, cap the LIMIT."""
    prepared = runtime.context.sql.prepare(state.get("sql") or "")
    if prepared.ok:
        return {"executed_sql": prepared.sql, "last_sql_error": None, "error_kind": None}
    return {
        "executed_sql": None,
        "last_sql_error": prepared.error,
        "error_kind": prepared.kind,
        "validation_errors": [prepared.error],
    }


def pre_validate(state: SQLGraphState, runtime: Runtime[AnalystContext]) -> dict[str, Any]:
    errors = runtime.context.sql.validate(state.get("sql") or "")
    if not errors:
        return {"validation_errors": [], "last_sql_error": None, "error_kind": None}
    return {
        "validation_errors": errors,
        "last_sql_error": "\n".join(errors),
        "error_kind": "schema",
    }


def execute(state: SQLGraphState, runtime: Runtime[AnalystContext]) -> dict[str, Any]:
    result = runtime.context.sql.execute(state["executed_sql"] or "")
    if not result.ok:
        # The executor re-checks what it runs; its refusal is the checker's "unsafe".
        kind = "unsafe" if result.error_kind == "read_only" else result.error_kind
        return {"last_sql_error": result.error, "error_kind": kind, "result": None}
    rows = [dict(zip(result.columns, row, strict=False)) for row in result.rows]
    outcome = "answered" if rows else "empty"
    return {
        "column_names": result.columns,
        "structured_result": rows,
        "row_count": result.row_count,
        "truncated": result.truncated,
        "result": runtime.context.sql.render_rows(result.columns, result.rows),
        "outcome": outcome,
        "last_sql_error": None,
        "error_kind": None,
        "retries": state.get("retries", 0) + (1 if outcome == "empty" else 0),
    }


async def correct_sql(state: SQLGraphState, runtime: Runtime[AnalystContext]) -> dict[str, Any]:
    """The focused correction agent: only the tables the failed SQL uses, their relationships,
    the error, and what was tried before."""
    tk = runtime.context.sql
    limits = tk.limits
    failed = state.get("sql") or ""
    history = state.get("correction_history") or []
    attempt = {
        "sql": failed,
        "error": state.get("last_sql_error") or "",
        "kind": state.get("error_kind"),
    }
    update = {
        "sql_correction_attempts": state.get("sql_correction_attempts", 0) + 1,
        "iterations": state.get("iterations", 0) + 1,
        "correction_history": [*history, attempt],
    }
    # A column in the wrong table is repaired without the model (the seed's first pattern).
    repaired = tk.repair(failed, state.get("tables") or []) if state.get("error_kind") else None
    if repaired and repaired.strip() != failed.strip():
        return {**update, "sql": repaired}
    tables = tk.focus_tables(failed, state.get("last_sql_error") or "", state.get("tables") or [])
    tried = "\n".join(
        f"Attempt {i}: {h['sql'][: limits.max_sql_history_length]} -> {h['error']}"
        for i, h in enumerate(history, 1)
    )
    if any(h["sql"].strip() == failed.strip() for h in history):
        tried += "\nThe failed SQL repeats an earlier attempt: change it."
    turn = render(
        prompts.CORRECTION,
        question=question_in_context(state),
        sql=failed,
        error=state.get("last_sql_error") or "",
        schema=tk.schema_text(tables, limits.max_columns_in_correction, question_in_context(state)),
        relationships=tk.relationship_lines(
            tk.relationships_among(tables, limits.max_relationships_in_prompt),
            limits.max_relationships_in_prompt,
        ),
        history=f"\nEarlier attempts:\n{tried}\n" if tried else "",
    )
    system = render(prompts.CORRECTION_SYSTEM, dialect=tk.dialect_name)
    tried = [failed, *(h["sql"] for h in history)]
    try:
        corrected = await ask_new_sql(runtime.context.llm, system, turn, tried)
    except Exception as error:  # noqa: BLE001 - as in generate_sql
        return {**update, **_model_failed(state, error)}
    return {**update, "sql": corrected}


def _model_failed(state: SQLGraphState, error: Exception) -> dict[str, Any]:
    """A model that failed or ran out of time while writing SQL ends the turn with a reply
    (the turn's own time limit, a cancellation, is not caught and still applies). Under load
    this happened to 3 of the demo set's 80 questions as an uncaught TimeoutError."""
    logger.warning("the model failed while writing SQL: %s", error)
    return {
        "error_kind": "model",
        "last_sql_error": f"the language model did not write a query ({error})",
        "iterations": state.get("iterations", 0) + 1,
    }


async def summarize(state: SQLGraphState, runtime: Runtime[AnalystContext]) -> dict[str, Any]:
    """The answer: written by the model from the rows (checked against them), or a fixed reply
    when nothing ran."""
    outcome = state.get("outcome")
    columns = state.get("column_names") or []
    rows = state.get("structured_result") or []
    # A one-value answer to a question of a plain shape is worded in code: one model call less.
    worded = None if state.get("previous") else worded_answer(state["question"], columns, rows)
    if outcome == "answered" and worded is not None:
        return {"final_answer": worded}
    if outcome == "answered" and not runtime.context.write_answers:
        return {"final_answer": plain_answer(columns, rows, bool(state.get("truncated")))}
    if outcome == "answered":
        text = await summarize_rows(
            runtime.context.llm,
            question_to_answer(state),
            columns,
            rows,
            truncated=bool(state.get("truncated")),
            sql=state.get("executed_sql") or state.get("sql") or "",
        )
        return {"final_answer": text}
    if outcome == "empty":
        return {"final_answer": render(prompts.EMPTY)}
    kind = state.get("error_kind")
    if kind == "unsafe":
        return {"final_answer": prompts.REFUSED, "outcome": "refused"}
    if kind == "personal":
        return {"final_answer": prompts.PERSONAL_DATA, "outcome": "refused"}
    # The database's or the checker's own words stay in the report (the UI's details), never
    # in the answer: it says what went wrong in the user's terms.
    if kind == "connection":
        return {"final_answer": prompts.DATABASE_DOWN, "outcome": "failed"}
    if kind == "model":
        return {"final_answer": prompts.MODEL_UNAVAILABLE, "outcome": "failed"}
    answer = prompts.failed_answer(kind, state.get("last_sql_error"))
    return {"final_answer": answer, "outcome": "failed"}


# -- routing functions (pure) ----------------------------------------------------------------


def after_writing_sql(state: SQLGraphState) -> str:
    """After the model wrote (or corrected) a query: check it, unless the model failed."""
    return SUMMARIZE if state.get("error_kind") == "model" else REWRITE_SECURE


def after_rewrite(state: SQLGraphState, *, pre_validation: bool = True) -> str:
    if state.get("error_kind") in ("unsafe", "personal", "connection"):
        return SUMMARIZE
    if state.get("last_sql_error"):
        return CORRECT_SQL if _can_correct(state) else SUMMARIZE
    return PRE_VALIDATE if pre_validation else EXECUTE


def after_validation(state: SQLGraphState) -> str:
    if state.get("validation_errors"):
        return CORRECT_SQL if _can_correct(state) else SUMMARIZE
    return EXECUTE


def after_execute(state: SQLGraphState) -> str:
    if state.get("error_kind") in ("unsafe", "connection"):
        return SUMMARIZE
    if state.get("last_sql_error"):
        return CORRECT_SQL if _can_correct(state) else SUMMARIZE
    regenerate = (
        state.get("outcome") == "empty"
        and state.get("retries", 0) <= MAX_EMPTY_RETRIES
        and state.get("iterations", 0) < state.get("max_iterations", 15)
    )
    return GENERATE_SQL if regenerate else SUMMARIZE


def _can_correct(state: SQLGraphState) -> bool:
    return state.get("sql_correction_attempts", 0) < state.get(
        "max_correction_attempts", 3
    ) and state.get("iterations", 0) < state.get("max_iterations", 15)
