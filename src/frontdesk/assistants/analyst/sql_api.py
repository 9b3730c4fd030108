"""The analyst's SQL routes: run a query a person wrote or edited, and download a result as CSV.

    POST /analyst/sql/run  {"sql": "..."} -> {"sql", "columns", "rows", "row_count",
                                               "truncated", "max_rows", "elapsed_ms"}
    POST /analyst/sql/csv  {"sql": "..."} -> text/csv, the whole result up to CSV_MAX_ROWS

The SQL comes from the client and is never trusted: it takes the chat's own path
(`SQLToolkit.run_checked`): one read-only SELECT, personal data only for a caller granted it
(the chat's rule, `agentkit.permissions`), secure views, the row cap, then the read-only
transaction and the time limit. A query that cannot run is a 400 `{"error", "kind",
"problem"}` (`error`: the checker's or the database's words, for the person who wrote the SQL;
`problem`: the same in plain words); personal data without the right is a 403; a database that
cannot be reached is a 503.

The CSV holds the full result, not only the rows the chat shows: a LIMIT equal to the chat's
row cap (the SQL writer is told to keep it) is lifted, and the file is cut at CSV_MAX_ROWS;
`X-Result-Truncated: true` (and the file's name) say when it was.
"""

from __future__ import annotations

import csv
import io
import re
from functools import partial
from typing import TYPE_CHECKING, Annotated, Any

import anyio
from fastapi import APIRouter, Depends, Request
from fastapi.responses import Response
from pydantic import BaseModel, ConfigDict, Field

from frontdesk.assistants.analyst import prompts
from frontdesk.assistants.base import AssistantService
from frontdesk.plugin_api import (
    BODY_ERRORS,
    ApiError,
    Caller,
    error_responses,
    identity_of,
    json_request_body,
    read_json_body,
    require_assistant,
    service_for,
)

if TYPE_CHECKING:
    from frontdesk.assistants.analyst.sql_agent.toolkit import SQLToolkit

NAME = "analyst"
# Long enough for any query a person edits; short enough that a body at the limit, even with
# every character escaped as a surrogate pair (12 bytes), fits the core's body limit (64 KiB),
# so one over it gets the 422 that says which field, not a 413.
MAX_SQL_CHARS = 5_000
# Queries from these routes running at once (each holds a database connection and a thread
# for up to the query time limit); more wait for a place.
MAX_CONCURRENT_QUERIES = 4
CSV_NAME = "analyst-result"

router = APIRouter(tags=["analyst"])


class SQLRequest(BaseModel):
    model_config = ConfigDict(extra="forbid")

    sql: str = Field(
        max_length=MAX_SQL_CHARS,
        description="One read-only SELECT (or WITH ... SELECT) over the analyst's tables.",
        examples=["SELECT status, COUNT(*) AS n FROM workOrder GROUP BY status"],
    )


class SQLRunResult(BaseModel):
    sql: str = Field(description="The SQL as it ran: secure views in place, LIMIT capped.")
    columns: list[str]
    rows: list[list[Any]] = Field(description="One list of values per row, in column order.")
    row_count: int
    truncated: bool = Field(description="More rows exist than `max_rows`.")
    max_rows: int
    elapsed_ms: float


# -- dependencies ----------------------------------------------------------------------------


async def analyst_caller(request: Request) -> Caller:
    """The caller, who must be allowed the analyst (401, 403): what they may read is the
    chat's rule for them (`Caller.permissions`)."""
    caller = identity_of(request).caller(request, assistant=NAME)
    require_assistant(caller, NAME)
    return caller


def analyst_toolkit(
    service: Annotated[AssistantService, Depends(service_for(NAME))],
) -> Any:
    """The analyst's database (its service's SQL toolkit), with the core's readiness rules."""
    toolkit = getattr(getattr(service, "context", None), "sql", None)
    if toolkit is None or not callable(getattr(toolkit, "run_checked", None)):
        raise ApiError(503, "This analyst has no database to run SQL on.", assistant=NAME)
    return toolkit


async def sql_request(request: Request) -> SQLRequest:
    """The JSON body (413 too large, 422 malformed: the core's shapes)."""
    return await read_json_body(request, SQLRequest)


CallerDep = Annotated[Caller, Depends(analyst_caller)]
ToolkitDep = Annotated[Any, Depends(analyst_toolkit)]  # SQLToolkit (imported when used)
BodyDep = Annotated[SQLRequest, Depends(sql_request)]


# -- running ---------------------------------------------------------------------------------


def _limiter(request: Request) -> anyio.CapacityLimiter:
    state = request.app.state
    limiter = getattr(state, "analyst_sql_limiter", None)
    if limiter is None:
        limiter = state.analyst_sql_limiter = anyio.CapacityLimiter(MAX_CONCURRENT_QUERIES)
    return limiter


async def _run(request: Request, tk: SQLToolkit, caller: Caller, sql: str, max_rows: int):
    """The result of `sql` through the chat's checks, or the ApiError saying why not."""
    if not sql.strip():
        raise ApiError(
            400,
            "The SQL is empty: write one SELECT query.",
            kind="invalid",
            problem=prompts.sql_problem("invalid"),
        )
    run = partial(tk.run_checked, sql, max_rows=max_rows, personal_data=caller.personal_data)
    result = await anyio.to_thread.run_sync(run, limiter=_limiter(request))
    if result.ok:
        return result
    kind = result.kind or "other"
    problem = prompts.sql_problem(kind)
    if kind == "connection":  # the host and the driver's words stay in the server's log
        raise ApiError(503, prompts.DATABASE_DOWN, kind=kind, problem=problem)
    if kind == "personal":
        raise ApiError(403, prompts.PERSONAL_DATA_SQL, kind=kind, problem=problem)
    raise ApiError(400, _readable(result.error), kind=kind, problem=problem)


# "could not parse the SQL near 'WHERE' (line 1, column 30): Required keyword: 'this' missing
# for <class 'sqlglot...'>": the place is what a person needs, not the parser's internals.
_PARSE_ERROR = re.compile(r"(could not parse the SQL near .*?\(line \d+, column \d+\))")


def _readable(error: str) -> str:
    # The validator writes for the correction agent ("does NOT exist"); a person reads this.
    error = error.replace("does NOT exist", "does not exist").strip()
    place = _PARSE_ERROR.match(error)
    if place:
        error = f"{place.group(1)}."
    if not error:
        return "The query failed."
    error = error[:1].upper() + error[1:]
    return error if error.endswith((".", "?", "!", ")")) else f"{error}."


_SQL_ERRORS = error_responses(
    401,
    403,
    404,
    *BODY_ERRORS,
    503,
    _400="The SQL cannot run: not one read-only SELECT, an unknown table or column, a syntax "
    "error, too slow; the body says why (error, kind, problem)",
    _403="The caller may not use the analyst, or the query reads personal data the caller "
    "may not read",
)


@router.post(
    "/analyst/sql/run",
    summary="Run a query (a person's own or edited) through the chat's checks; its rows.",
    openapi_extra=json_request_body(SQLRequest),
    response_model=SQLRunResult,
    responses=_SQL_ERRORS,
)
async def run_sql(
    request: Request, caller: CallerDep, tk: ToolkitDep, body: BodyDep
) -> SQLRunResult:
    max_rows = tk.limits.max_query_rows
    result = await _run(request, tk, caller, body.sql, max_rows)
    return SQLRunResult(
        sql=result.sql,
        columns=list(result.columns),
        rows=[list(row) for row in result.rows],
        row_count=result.row_count,
        truncated=result.truncated,
        max_rows=max_rows,
        elapsed_ms=result.elapsed_ms,
    )


_CSV_HEADERS = {
    "X-Result-Truncated": {
        "description": "true when the result had more rows than the file holds",
        "schema": {"type": "string", "enum": ["true", "false"]},
    },
    "X-Result-Rows": {"description": "Rows in the file", "schema": {"type": "integer"}},
    "X-Row-Limit": {
        "description": "The most rows a file holds (CSV_MAX_ROWS)",
        "schema": {"type": "integer"},
    },
}


@router.post(
    "/analyst/sql/csv",
    summary="The whole result of a query as CSV, up to the operator's row limit.",
    openapi_extra=json_request_body(SQLRequest),
    response_class=Response,
    responses={
        200: {
            "description": "The result as CSV (UTF-8 with a byte order mark, header row first)",
            "content": {"text/csv": {"schema": {"type": "string"}}},
            "headers": _CSV_HEADERS,
        },
        **_SQL_ERRORS,
    },
)
async def download_csv(request: Request, caller: CallerDep, tk: ToolkitDep, body: BodyDep):
    cap = tk.limits.csv_max_rows
    result = await _run(request, tk, caller, tk.full_result_sql(body.sql), cap)
    name = f"{CSV_NAME}-first-{cap}-rows.csv" if result.truncated else f"{CSV_NAME}.csv"
    return Response(
        content=to_csv(result.columns, result.rows).encode("utf-8-sig"),
        media_type="text/csv; charset=utf-8",
        headers={
            "Content-Disposition": f'attachment; filename="{name}"',
            "X-Result-Truncated": "true" if result.truncated else "false",
            "X-Result-Rows": str(result.row_count),
            "X-Row-Limit": str(cap),
            "Cache-Control": "no-store",
        },
    )


# A text cell a spreadsheet would read as a formula (=, +, -, @, tab, CR) is written with a
# leading apostrophe; numbers (typed, or text that is only a number) are left as they are.
_FORMULA_START = ("=", "+", "-", "@", "\t", "\r")
_NUMBER = re.compile(r"[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?")


def _cell(value: Any) -> Any:
    if value is None:
        return ""
    if isinstance(value, str) and value.startswith(_FORMULA_START) and not _NUMBER.fullmatch(value):
        return "'" + value
    return value


def to_csv(columns: list[str], rows: list[tuple]) -> str:
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\r\n")
    writer.writerow([_cell(c) for c in columns])
    writer.writerows([_cell(v) for v in row] for row in rows)
    return out.getvalue()
