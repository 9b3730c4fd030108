"""`SQLToolkit`: one database as the SQL graph agent sees it, and everything deterministic the
agent does with it.

The agent works on logical table names (`employee`); the toolkit knows the physical side:
which tables have secure views, the dialect, the read-only engine, the join graph and its path
finder, the catalog validation checks against, and the table pre-filter. Any SQLAlchemy
database works (introspection); the demo database adds descriptions and secure views.
"""

from __future__ import annotations

import logging
import re
from dataclasses import dataclass
from itertools import combinations
from typing import Any

from sqlalchemy import Engine

from frontdesk.agentkit import permissions
from frontdesk.assistants.analyst import prompts
from frontdesk.assistants.analyst.db.secure_views import ENCRYPTED_COLUMNS
from frontdesk.assistants.analyst.joins.graph import JoinGraph
from frontdesk.assistants.analyst.joins.paths import JoinPathFinder, NoJoinPath
from frontdesk.assistants.analyst.sql import check as sqlcheck
from frontdesk.assistants.analyst.sql import executor
from frontdesk.assistants.analyst.sql.personal import reads_personal_data
from frontdesk.assistants.analyst.sql.repair import add_missing_group_by, repair_columns
from frontdesk.assistants.analyst.sql_agent.answers import render_table
from frontdesk.assistants.analyst.sql_agent.limits import SQLLimits
from frontdesk.assistants.analyst.sql_agent.samples import (
    SAMPLE_PROMPT_CHARS,
    TableSample,
    sample_lines,
    take_sample,
)
from frontdesk.assistants.analyst.sql_agent.table_search import (
    TableSearch,
    columns_for_prompt,
    named_tables,
)

logger = logging.getLogger(__name__)

DIALECT_NAMES = {"sqlite": "SQLite", "mysql": "MariaDB/MySQL", "postgres": "PostgreSQL"}
# The validator's "Column 'crew.isLead' does NOT exist ..." names the missing column.
_MISSING_COLUMN = re.compile(r"Column '([\w.]+)' does NOT exist")


@dataclass(frozen=True)
class Prepared:
    ok: bool
    sql: str = ""
    error: str = ""
    # unsafe | personal | invalid | unsupported; from run_checked also the executor's kinds
    # (syntax, unknown_table, unknown_column, timeout, connection, other)
    kind: str | None = None


class SQLToolkit:
    def __init__(
        self,
        *,
        name: str,
        engine: Engine,
        graph: JoinGraph,
        search: TableSearch,
        descriptions: dict[str, str],
        secure_map: dict[str, str],
        limits: SQLLimits,
        column_notes: dict[str, dict[str, str]] | None = None,
        examples: Any = None,
    ):
        self.name = name
        self.engine = engine
        self.dialect = executor.engine_dialect(engine)
        self.dialect_name = DIALECT_NAMES.get(self.dialect, self.dialect)
        self.graph = graph
        self.search = search
        self.descriptions = descriptions
        self.secure_map = secure_map
        self.limits = limits
        self.catalog = sqlcheck.SchemaCatalog({t: list(i.columns) for t, i in graph.tables.items()})
        self.paths = JoinPathFinder(graph, confidence_threshold=limits.confidence_threshold)
        self._samples: dict[str, TableSample] = {}
        # From the semantic file: notes on columns, and its examples (semantic.ExampleSearch).
        self.column_notes = column_notes or {}
        self.examples = examples

    # -- table choice and joins --------------------------------------------------------------

    def search_tables(self, question: str, k: int) -> list[str]:
        return self.search.search(question, k)

    def relationships_among(self, tables: list[str], limit: int) -> list[dict[str, Any]]:
        chosen = set(tables)
        found = [
            r
            for r in self.graph.relationships
            if r.from_table in chosen
            and r.to_table in chosen
            and r.confidence >= self.limits.confidence_threshold
        ]
        found.sort(key=lambda r: (-r.confidence, r.key))
        return [r.to_dict() for r in found[:limit]]

    def connect_pairs(
        self, tables: list[str], max_paths: int
    ) -> tuple[list[str], list[list[dict[str, Any]]]]:
        """Shortest paths between chosen tables that no relationship joins directly; the
        tables they pass through join the selection (up to SQL_MAX_TABLES_IN_CONTEXT)."""
        connected = list(tables)
        paths: list[list[dict[str, Any]]] = []
        direct = {(r["from_table"], r["to_table"]) for r in self.relationships_among(tables, 10**6)}
        for a, b in combinations(tables, 2):
            if len(paths) >= max_paths:
                break
            if (a, b) in direct or (b, a) in direct:
                continue
            try:
                path = self.paths.find_shortest_path(a, b, max_hops=self.limits.max_hops)
            except NoJoinPath:
                continue
            if not path or len(path) < 2:
                continue
            paths.append([r.to_dict() for r in path])
            for rel in path:
                for table in (rel.from_table, rel.to_table):
                    if (
                        table not in connected
                        and len(connected) < self.limits.max_tables_in_context
                    ):
                        connected.append(table)
        return connected, paths

    def named_tables(self, question: str, tables: list[str]) -> list[str]:
        """The tables among `tables` that the question names (table_search.named_tables)."""
        columns = {t: self.graph.columns_of(t) for t in tables if t in self.graph.tables}
        return named_tables(question, tables, columns)

    def join_plan(self, tables: list[str]) -> tuple[list[str], str]:
        """One minimum-weight tree over the tables: its tables (the given ones and those that
        connect them) and its joins as FROM/JOIN lines."""
        if not tables:
            return [], ""
        try:
            plan = self.paths.plan_joins(tables, max_hops=self.limits.max_hops)
        except NoJoinPath as exc:
            return list(tables), f"(no join path: {exc})"
        return list(plan.tables), plan.to_text()

    # -- prompt text -------------------------------------------------------------------------

    def schema_text(self, tables: list[str], max_columns: int, question: str = "") -> str:
        """`table(col, ...)` lines (keys and the columns the question names first, when a table
        has more than `max_columns`), each followed by the semantic file's notes, its status
        values and sample rows (only the columns shown; SAMPLE_PROMPT_CHARS of rows in all)."""
        lines = []
        budget = SAMPLE_PROMPT_CHARS
        for table in tables:
            if table not in self.graph.tables:
                continue
            every = list(self.graph.columns_of(table))
            columns = columns_for_prompt(every, max_columns, question)
            more = len(every) - len(columns)
            lines.append(
                f"{table}({', '.join(columns)}{f', ... {more} more columns' if more else ''})"
            )
            notes = self.column_notes.get(table, {})
            if notes:
                lines.append("  notes: " + "; ".join(f"{c}: {t}" for c, t in notes.items()))
            extra, budget = sample_lines(self.sample(table), columns, budget)
            lines += extra
        return "\n".join(lines)

    def examples_text(self, question: str) -> str:
        """The semantic file's examples close to the question, as few-shot text ("" if none)."""
        limits = self.limits
        found = (
            self.examples.closest(
                question, limits.few_shot_examples, limits.few_shot_min_similarity
            )
            if self.examples
            else []
        )
        if not found:
            return ""
        shown = "\n\n".join(f"Question: {e.question}\nSQL: {e.sql}" for e in found)
        return f"Examples of questions about this database and their SQL:\n{shown}\n\n"

    def relationship_lines(self, relationships: list[dict[str, Any]], limit: int) -> str:
        lines = [
            f"{r['from_table']}.{r['from_column']} = {r['to_table']}.{r['to_column']}"
            for r in relationships[:limit]
        ]
        return "\n".join(lines) or "(none)"

    def sample(self, table: str) -> TableSample:
        """The values of the table's status-like columns and SQL_SAMPLE_ROWS rows of its
        columns that may be sampled (samples.py), read like any query (checked, read-only,
        time-limited); cached per table. A query that fails costs its part of the sample only;
        while the database is unreachable nothing is cached."""
        if table in self._samples:
            return self._samples[table]
        failures: list[str] = []
        sample = take_sample(
            table,
            self.graph.columns_of(table),
            rows=min(self.limits.sample_rows, self.limits.max_query_rows),
            width=max(self.limits.max_columns_in_schema, self.limits.max_columns_in_correction),
            dialect=self.dialect,
            query=lambda sql: self._sample_query(table, sql, failures),
        )
        if "connection" not in failures:
            self._samples[table] = sample
        return sample

    def _sample_query(
        self, table: str, sql: str, failures: list[str]
    ) -> tuple[list[str], list[tuple]] | None:
        """The columns and rows of one sample query, or None (logged; the failure's kind
        added to `failures`). Never raises: a sample must not cost the turn."""
        try:
            prepared = self.prepare(sql)
            if not prepared.ok:
                logger.info("no sample of %s: %s", table, prepared.error)
                failures.append(prepared.kind or "invalid")
                return None
            result = self.execute(prepared.sql)
        except Exception:
            logger.warning("sampling %s failed unexpectedly", table, exc_info=True)
            failures.append("other")
            return None
        if not result.ok:
            logger.info("no sample of %s: %s", table, result.error)
            failures.append(str(result.error_kind))
            return None
        return list(result.columns), list(result.rows)

    def render_rows(self, columns: list[str], rows: list[tuple]) -> str:
        return render_table(columns, [dict(zip(columns, r, strict=False)) for r in rows], 20)

    # -- checking and running ----------------------------------------------------------------

    def prepare(
        self, sql: str, *, max_rows: int | None = None, personal_data: bool | None = None
    ) -> Prepared:
        """One read-only SELECT, secure views substituted, LIMIT capped (at `max_rows`, else
        MAX_QUERY_ROWS); or why not. `personal_data`: whether the caller may read it (None:
        the current turn's permissions, `agentkit.permissions`)."""
        if personal_data is None:
            personal_data = permissions.current().personal_data
        if (
            self.secure_map
            and not personal_data
            and reads_personal_data(sql, self.dialect, ENCRYPTED_COLUMNS, self.secure_map)
        ):
            return Prepared(False, error=prompts.PERSONAL_DATA, kind="personal")
        try:
            final = sqlcheck.prepare(
                sql,
                dialect=self.dialect,
                secure_map=self.secure_map,
                max_rows=self.limits.max_query_rows if max_rows is None else max_rows,
                catalog=self.catalog,
            )
        except sqlcheck.UnsafeSQL as exc:
            return Prepared(False, error=str(exc), kind="unsafe")
        except sqlcheck.UnsupportedSQL as exc:
            return Prepared(False, error=str(exc), kind="unsupported")
        except sqlcheck.SQLCheckError as exc:
            return Prepared(False, error=str(exc), kind="invalid")
        except Exception as exc:  # a checker bug must cost one query, never the turn
            logger.exception("checking SQL failed unexpectedly: %s", sql)
            return Prepared(False, error=f"The SQL could not be checked: {exc}", kind="invalid")
        return Prepared(True, sql=final)

    def validate(self, sql: str) -> list[str]:
        """Every table, `table.column` and join column exists; messages with suggestions."""
        try:
            return sqlcheck.schema_errors(
                sql,
                self.catalog,
                dialect=self.dialect,
                secure_map=self.secure_map,
                max_columns=self.limits.max_columns_in_validation,
            )
        except Exception as exc:  # a checker bug must cost one query, never the turn
            logger.exception("validating SQL failed unexpectedly: %s", sql)
            return [f"The SQL could not be checked: {exc}"]

    def focus_tables(self, sql: str, error: str, selected: list[str]) -> list[str]:
        """The correction agent's tables: those the failed SQL uses, plus, for a column the
        error says is missing, the chosen tables (else any two) that do have it, and the
        tables joining them."""
        used = self.tables_in(sql) or list(selected[:3])
        extra: list[str] = []
        for column in dict.fromkeys(_MISSING_COLUMN.findall(error)):
            holders = self.catalog.tables_with_column(column.split(".")[-1])
            preferred = [t for t in holders if t in selected] or holders[:2]
            extra += [t for t in preferred if t not in used and t not in extra]
        if not extra:
            return used
        tables = list(dict.fromkeys([*used, *extra]))
        try:
            plan = self.paths.plan_joins(tables, max_hops=self.limits.max_hops)
            tables = list(dict.fromkeys([*tables, *plan.tables]))
        except NoJoinPath:
            pass
        return tables[: self.limits.max_tables_in_context]

    def repair(self, sql: str, preferred: list[str]) -> str | None:
        """`sql` with its column mistakes repaired (moved to the table that has them, joined
        in when needed; respelled; re-qualified with the alias) and a forgotten GROUP BY
        added, or None when nothing applies (sql/repair.py)."""
        fixed = repair_columns(
            sql,
            self.catalog,
            self.graph.relationships,
            dialect=self.dialect,
            preferred=preferred,
            min_confidence=self.limits.confidence_threshold,
        )
        return add_missing_group_by(fixed or sql, dialect=self.dialect) or fixed

    def tables_in(self, sql: str) -> list[str]:
        return [t for t in sqlcheck.referenced_tables(sql, self.dialect) if t in self.graph.tables]

    def execute(self, sql: str, *, max_rows: int | None = None) -> executor.QueryResult:
        return executor.execute_read_only(
            self.engine,
            sql,
            max_rows=self.limits.max_query_rows if max_rows is None else max_rows,
            timeout_s=self.limits.query_timeout_s,
        )

    def full_result_sql(self, sql: str) -> str:
        """`sql` without a LIMIT that is only the chat's row cap (MAX_QUERY_ROWS, which the SQL
        writer is told to keep): for a download of the whole result. Checked again by
        `prepare` like any SQL."""
        return sqlcheck.lift_row_cap(sql, self.dialect, self.limits.max_query_rows)

    def run_checked(
        self, sql: str, *, max_rows: int | None = None, personal_data: bool | None = None
    ) -> executor.QueryResult | Prepared:
        """SQL from outside the agent (a person's edit, a download) through the chat's path:
        `prepare` (read-only, personal data, secure views, LIMIT) then `execute` (read-only
        transaction, time limit). A failure comes back as an unsuccessful `Prepared` whose
        kind is the checker's or the executor's; for a name the database did not know, the
        validator's message, which suggests the right one."""
        prepared = self.prepare(sql, max_rows=max_rows, personal_data=personal_data)
        if not prepared.ok:
            return prepared
        result = self.execute(prepared.sql, max_rows=max_rows)
        if result.ok:
            return result
        kind = "unsafe" if result.error_kind == "read_only" else result.error_kind
        error = result.error or "the query failed"
        if kind in ("unknown_table", "unknown_column"):
            error = "\n".join(self.validate(sql)) or error
        return Prepared(False, sql=prepared.sql, error=error, kind=kind)
