"""Check, rewrite and validate the analyst's SQL before it reaches the database.

The model writes SQL over LOGICAL table names. ``validate`` does all of this in one call;
``prepare`` (steps 1, 2 and 4) and ``schema_errors`` (step 3) are its two halves for a graph
that runs them as separate nodes:

1. ``check_read_only`` (sql.safety): one read-only SELECT, nothing that writes, locks, waits,
   reads files, touches variables or system tables;
2. dialect features the target cannot run (sql.rewrite.unsupported_feature);
3. every table exists in the ``SchemaCatalog`` (logical names, or their secure views), and every
   column resolves (sql.schema), with messages the correction agent can act on;
4. tables with encrypted data are swapped for their ``secure_*`` views (``rewrite_secure``),
   the outermost LIMIT is capped (``enforce_limit``) and the tree is rendered for the target.

Everything works on sqlglot trees, never on regular expressions: the text that runs is rendered
from the tree that was checked. This module is the public face; the pieces live in
``sql.safety``, ``sql.rewrite``, ``sql.schema`` and ``sql.shape`` to keep each file readable.
"""

from __future__ import annotations

import statistics
import time
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field

import sqlglot
from sqlglot import exp
from sqlglot.tokens import TokenType

from frontdesk.assistants.analyst.sql.rewrite import (
    SECURE_PREFIX,
    TARGET_NAMES,
    UnknownTable,
    enforce_limit,
    outer_limit,
    physical_tables,
    render,
    rewrite_secure,
    unsupported_feature,
)
from frontdesk.assistants.analyst.sql.safety import (
    DENIED_FUNCTIONS,
    Checked,
    Dialect,
    InvalidSQL,
    SQLCheckError,
    UnsafeSQL,
    UnsupportedSQL,
    check_read_only,
)
from frontdesk.assistants.analyst.sql.schema import (
    SchemaCatalog,
    check_columns,
    unknown_table_message,
)
from frontdesk.assistants.analyst.sql.shape import duplicate_aliases, shape_errors

__all__ = [
    "DENIED_FUNCTIONS",
    "Checked",
    "Dialect",
    "InvalidSQL",
    "SQLCheckError",
    "SchemaCatalog",
    "UnknownTable",
    "UnsafeSQL",
    "UnsupportedSQL",
    "ValidatedSQL",
    "benchmark_validation",
    "check_read_only",
    "enforce_limit",
    "lift_row_cap",
    "outer_limit",
    "prepare",
    "referenced_tables",
    "render",
    "rewrite_secure",
    "schema_errors",
    "validate",
]


@dataclass
class ValidatedSQL:
    """The outcome of ``validate``.

    ``sql`` is the final SQL for the dialect (secure views, LIMIT) and is empty unless ``ok``.
    ``tables`` are the logical tables the query reads, in canonical spelling. ``errors`` holds
    every problem found, each a sentence for the correction agent. ``unsafe`` is True when the
    SQL was refused as a write or an attack: retrying with a "fixed" query is not the answer.
    """

    sql: str
    tables: list[str] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)
    unsafe: bool = False

    @property
    def ok(self) -> bool:
        return not self.errors


def _resolve_tables(
    checked: Checked,
    catalog: SchemaCatalog,
    views_to_logical: Mapping[str, str],
) -> tuple[dict[int, str], list[str], list[str]]:
    """Map each physical table node to its logical table; fix the spelling; collect errors."""
    table_of: dict[int, str] = {}
    tables: list[str] = []
    errors: list[str] = []
    for table in physical_tables(checked.expression):
        name = table.name
        lowered = name.lower()
        if lowered in views_to_logical:
            logical = catalog.table(views_to_logical[lowered]) or views_to_logical[lowered]
        elif lowered.startswith(SECURE_PREFIX) and catalog.table(name) is None:
            # A secure_* name the map does not have: the model guessed a view.
            bare = name[len(SECURE_PREFIX) :]
            guess = catalog.table(bare) or next(iter(catalog.suggest_table(bare)), None)
            hint = f" Did you mean: {guess}?" if guess else ""
            errors.append(
                f"Table '{name}' does not exist.{hint} Write logical table names; the system "
                "switches to secure views by itself."
            )
            continue
        else:
            logical = catalog.table(name)
            if logical is None:
                errors.append(unknown_table_message(name, catalog))
                continue
            if logical != name:
                # MySQL table names are case-sensitive on Linux: use the real spelling, and
                # keep the written one as the alias so qualifiers still match.
                if not table.alias:
                    alias = exp.to_identifier(name, quoted=table.this.quoted)
                    table.set("alias", exp.TableAlias(this=alias))
                table.set("this", exp.to_identifier(logical, quoted=table.this.quoted))
        table_of[id(table)] = logical
        if logical not in tables:
            tables.append(logical)
    return table_of, tables, errors


def _dialect_errors(checked: Checked) -> list[str]:
    target = TARGET_NAMES[checked.dialect]
    errors = []
    # MySQL reads "a || b" as OR; only when MySQL's own parser read it (PostgreSQL's reads
    # it as concatenation, which renders as CONCAT).
    mysql_read = checked.dialect == "mysql" and checked.read in ("mysql", "")
    if mysql_read and any(t.token_type == TokenType.DPIPE for t in checked.tokens):
        errors.append(f"{target} reads '||' as OR, not as string concatenation; use CONCAT(a, b).")
    problem = unsupported_feature(checked.expression, checked.dialect)
    if problem:
        errors.append(f"{target} cannot run this query: {problem}.")
    return errors


def _schema_check(
    checked: Checked,
    catalog: SchemaCatalog,
    secure_map: Mapping[str, str],
    max_columns: int,
) -> tuple[list[str], list[str]]:
    views_to_logical = {view.lower(): logical for logical, view in secure_map.items()}
    table_of, tables, errors = _resolve_tables(checked, catalog, views_to_logical)
    shape = shape_errors(checked.expression)
    # Columns cannot be resolved while one alias names two tables (sqlglot refuses the scope).
    if not duplicate_aliases(checked.expression):
        errors.extend(check_columns(checked.expression, catalog, table_of, max_columns=max_columns))
    errors.extend(shape)
    return tables, errors


def _finish(checked: Checked, secure_map: Mapping[str, str], max_rows: int) -> str:
    tree = rewrite_secure(checked.expression, secure_map, checked.dialect, copy=False)
    tree = enforce_limit(tree, max_rows, checked.dialect, copy=False)
    return render(tree, checked.dialect, copy=False)


def validate(
    sql: str,
    catalog: SchemaCatalog,
    dialect: Dialect,
    *,
    secure_map: Mapping[str, str] | None = None,
    max_rows: int = 100,
    max_columns: int = 100,
) -> ValidatedSQL:
    """Check ``sql`` against safety rules, the target dialect and ``catalog``; never raises for
    problems in the SQL itself (they come back in ``errors``, all of them, not just the first).

    On success ``sql`` is the statement to execute: secure views in place of encrypted tables,
    real table spelling, LIMIT at most ``max_rows``, rendered for ``dialect``.
    """
    secure_map = secure_map or {}
    try:
        checked = check_read_only(sql, dialect)
    except UnsafeSQL as error:
        return ValidatedSQL(sql="", errors=[error.message], unsafe=True)
    except SQLCheckError as error:
        return ValidatedSQL(sql="", errors=[error.message])
    errors = _dialect_errors(checked)
    tables, schema = _schema_check(checked, catalog, secure_map, max_columns)
    errors.extend(schema)
    if errors:
        return ValidatedSQL(sql="", tables=tables, errors=errors)
    try:
        final = _finish(checked, secure_map, max_rows)
    except SQLCheckError as error:
        return ValidatedSQL(sql="", tables=tables, errors=[error.message])
    return ValidatedSQL(sql=final, tables=tables)


def prepare(
    sql: str,
    *,
    dialect: Dialect,
    secure_map: Mapping[str, str] | None = None,
    max_rows: int = 100,
    catalog: SchemaCatalog | None = None,
) -> str:
    """The SQL to execute, without the schema check: read-only check, dialect features, secure
    views, LIMIT, rendering. Raises ``UnsafeSQL``, ``UnsupportedSQL``, ``InvalidSQL`` or
    ``UnknownTable`` (a made-up ``secure_*`` view). With ``catalog``, table names are also
    respelled as the catalog has them (MySQL table names are case-sensitive on Linux, and
    PostgreSQL finds a mixed-case table or column only spelled exactly).
    """
    secure_map = secure_map or {}
    checked = check_read_only(sql, dialect)
    problems = _dialect_errors(checked)
    if problems:
        raise UnsupportedSQL(problems[0])
    if catalog is not None:
        # Respelling only: the schema's errors are schema_errors' to report.
        try:
            _schema_check(checked, catalog, secure_map, max_columns=0)
        except sqlglot.errors.OptimizeError:
            pass  # ambiguous references: the database will say so in its own words
    return _finish(checked, secure_map, max_rows)


def schema_errors(
    sql: str,
    catalog: SchemaCatalog,
    *,
    dialect: Dialect,
    secure_map: Mapping[str, str] | None = None,
    max_columns: int = 100,
) -> list[str]:
    """Only the schema half of ``validate``: unknown tables and columns, with suggestions.
    SQL that fails the read-only check returns that one message."""
    try:
        checked = check_read_only(sql, dialect)
    except SQLCheckError as error:
        return [error.message]
    try:
        return _schema_check(checked, catalog, secure_map or {}, max_columns)[1]
    except sqlglot.errors.OptimizeError as error:
        # sqlglot's scope analysis refuses what no database would run either, such as one
        # alias given to two tables: say so, for the correction agent.
        return [f"The query's table references are ambiguous: {error}."]


def lift_row_cap(sql: str, dialect: Dialect, cap: int) -> str:
    """``sql`` without its outermost LIMIT when that LIMIT is ``cap`` (the chat's row cap, which
    the SQL writer is told to keep) and there is no OFFSET; else ``sql`` as it is. For a
    download of the whole result: what comes back is checked again (``prepare``) either way."""
    try:
        checked = check_read_only(sql, dialect)
    except SQLCheckError:
        return sql
    tree = checked.expression
    limit = tree.args.get("limit")
    if (
        not isinstance(limit, exp.Limit)
        or outer_limit(tree) != cap
        or tree.args.get("offset")
        or limit.args.get("offset")
    ):
        return sql
    tree.set("limit", None)
    try:
        return render(tree, dialect, copy=False)
    except SQLCheckError:
        return sql


def referenced_tables(
    sql: str, dialect: Dialect, secure_map: Mapping[str, str] | None = None
) -> list[str]:
    """Physical tables the SQL reads (CTE names excluded), secure views mapped back to their
    logical names; empty when the SQL does not pass the read-only check."""
    try:
        checked = check_read_only(sql, dialect)
    except SQLCheckError:
        return []
    views_to_logical = {view.lower(): logical for logical, view in (secure_map or {}).items()}
    names = [
        views_to_logical.get(t.name.lower(), t.name) for t in physical_tables(checked.expression)
    ]
    return list(dict.fromkeys(names))


def benchmark_validation(
    catalog: SchemaCatalog,
    queries: Iterable[str],
    n: int = 200,
    *,
    dialect: Dialect = "mysql",
    secure_map: Mapping[str, str] | None = None,
    max_rows: int = 100,
) -> dict:
    """Time ``validate`` on each query ``n`` times (after a warm-up); milliseconds per call."""
    queries = list(queries)
    if not queries:
        raise ValueError("benchmark_validation needs at least one query")
    for query in queries:  # warm-up: sqlglot builds its dialect tables on first use
        validate(query, catalog, dialect, secure_map=secure_map, max_rows=max_rows)
    timings: list[float] = []
    invalid = 0
    for _ in range(n):
        for query in queries:
            start = time.perf_counter()
            result = validate(query, catalog, dialect, secure_map=secure_map, max_rows=max_rows)
            timings.append((time.perf_counter() - start) * 1000)
            invalid += not result.ok
    timings.sort()
    return {
        "queries": len(queries),
        "runs": len(timings),
        "tables_in_catalog": len(catalog),
        "p50_ms": round(statistics.median(timings), 3),
        "p95_ms": round(timings[int(0.95 * (len(timings) - 1))], 3),
        "mean_ms": round(statistics.fmean(timings), 3),
        "max_ms": round(timings[-1], 3),
        "invalid_results": invalid // n,
    }
