"""Schema checks for the analyst's SQL: do its tables and columns exist?

``SchemaCatalog`` holds the logical tables and their columns (case-insensitive lookups that
answer with the canonical spelling, difflib suggestions). ``check_columns`` walks sqlglot's
scopes so that aliases, CTEs, derived tables and correlated subqueries resolve the way the
database resolves them, and reports every wrong ``table.column`` in the style the correction
agent is prompted with (seed 002):

    Column 'crew.isLead' does NOT exist in table 'crew'. Found in: employeeCrew.
    Available columns in crew: id, workOrderId, name, createdBy, createdAt

When a column's source cannot be known (``SELECT *`` in a CTE, a table function) the check is
skipped rather than guessed: a false alarm would send the correction agent after a non-error.
"""

from __future__ import annotations

import difflib
import logging
from collections.abc import Iterable, Mapping

from sqlglot import exp
from sqlglot.optimizer.scope import Scope, traverse_scope

logger = logging.getLogger(__name__)

MAX_FOUND_IN = 8


class SchemaCatalog:
    """Logical tables and their columns, looked up case-insensitively."""

    def __init__(self, tables: Mapping[str, Iterable[str]]) -> None:
        self._columns: dict[str, tuple[str, ...]] = {}
        self._table_by_lower: dict[str, str] = {}
        self._column_by_lower: dict[str, dict[str, str]] = {}
        self._tables_by_column: dict[str, list[str]] = {}
        for table, columns in tables.items():
            cols = tuple(columns)
            self._columns[table] = cols
            self._table_by_lower[table.lower()] = table
            self._column_by_lower[table] = {c.lower(): c for c in cols}
            for column in cols:
                self._tables_by_column.setdefault(column.lower(), []).append(table)

    @classmethod
    def from_join_graph(cls, graph: Mapping) -> SchemaCatalog:
        """From a join graph document: ``{"tables": {name: {"columns": [...]}}}``."""
        return cls({name: info.get("columns", []) for name, info in graph["tables"].items()})

    @property
    def tables(self) -> list[str]:
        return list(self._columns)

    def __len__(self) -> int:
        return len(self._columns)

    def __contains__(self, name: object) -> bool:
        return isinstance(name, str) and name.lower() in self._table_by_lower

    def table(self, name: str) -> str | None:
        """The canonical spelling of table ``name``, or None when there is no such table."""
        return self._table_by_lower.get(name.lower())

    def columns(self, table: str) -> tuple[str, ...]:
        canonical = self.table(table)
        return self._columns[canonical] if canonical else ()

    def column(self, table: str, column: str) -> str | None:
        """The canonical spelling of ``table.column``, or None when either is unknown."""
        canonical = self.table(table)
        if canonical is None:
            return None
        return self._column_by_lower[canonical].get(column.lower())

    def tables_with_column(self, column: str) -> list[str]:
        return list(self._tables_by_column.get(column.lower(), ()))

    def suggest_table(self, name: str, n: int = 3) -> list[str]:
        """Close matches, best first; only those nearly as close as the best one."""
        return [self._table_by_lower[m] for m in _close(name, self._table_by_lower, n)]

    def suggest_column(self, table: str, column: str, n: int = 3) -> list[str]:
        canonical = self.table(table)
        if canonical is None:
            return []
        by_lower = self._column_by_lower[canonical]
        return [by_lower[m] for m in _close(column, by_lower, n)]


def _close(word: str, candidates: Iterable[str], n: int) -> list[str]:
    # "employees" should suggest employee, not also employeeCrew: keep the matches within
    # 0.1 of the best similarity, so one clear fix is not diluted by weaker ones.
    word = word.lower()
    matches = difflib.get_close_matches(word, list(candidates), n, 0.6)
    if not matches:
        return []
    scores = [difflib.SequenceMatcher(None, word, m).ratio() for m in matches]
    return [m for m, score in zip(matches, scores, strict=True) if score >= scores[0] - 0.1]


def _listing(names: Iterable[str], cap: int) -> str:
    names = list(names)
    shown = ", ".join(names[:cap])
    return shown + (f", … (+{len(names) - cap} more)" if len(names) > cap else "")


def unknown_table_message(name: str, catalog: SchemaCatalog) -> str:
    suggestions = catalog.suggest_table(name)
    hint = f" Did you mean: {', '.join(suggestions)}?" if suggestions else ""
    return f"Table '{name}' does not exist.{hint}"


def _found_in(catalog: SchemaCatalog, column: str, exclude: str, in_query: list[str]) -> str:
    tables = [t for t in catalog.tables_with_column(column) if t != exclude]
    if not tables:
        return ""
    # Tables already in the query first: the fix is usually a different qualifier.
    tables.sort(key=lambda t: t not in in_query)
    return f" Found in: {_listing(tables, MAX_FOUND_IN)}."


def wrong_column_message(
    qualifier: str,
    column: str,
    table: str,
    catalog: SchemaCatalog,
    in_query: list[str],
    max_columns: int,
) -> str:
    found = _found_in(catalog, column, table, in_query)
    close = catalog.suggest_column(table, column, 1)
    hint = f" Did you mean: {qualifier}.{close[0]}?" if close else ""
    available = _listing(catalog.columns(table), max_columns)
    return (
        f"Column '{qualifier}.{column}' does NOT exist in table '{table}'.{found}{hint} "
        f"Available columns in {table}: {available}"
    )


def _lookup(sources: Mapping[str, object], name: str) -> object | None:
    if name in sources:
        return sources[name]
    lowered = name.lower()
    for key, value in sources.items():
        if key.lower() == lowered:
            return value
    return None


def _selected(scope: Scope) -> dict[str, exp.Table | Scope | None]:
    """Sources in this scope's FROM/JOIN: Table, Scope (CTE or derived table) or None."""
    out: dict[str, exp.Table | Scope | None] = {}
    for name, (_node, source) in scope.selected_sources.items():
        out[name] = source if isinstance(source, (exp.Table, Scope)) else None
    return out


def scope_outputs(scope: Scope) -> set[str] | None:
    """Lower-case output column names of a CTE or derived table, or None when unknowable."""
    expression = scope.expression
    alias = expression.parent.args.get("alias") if expression.parent else None
    if isinstance(alias, exp.TableAlias) and alias.columns:
        return {c.name.lower() for c in alias.columns}
    select = expression
    while isinstance(select, exp.SetOperation):
        select = select.this
    if not isinstance(select, exp.Select):
        return None
    for projection in select.expressions:
        if isinstance(projection, exp.Star) or (
            isinstance(projection, exp.Column) and isinstance(projection.this, exp.Star)
        ):
            return None
    return {name.lower() for name in select.named_selects}


# Marks a column name the checker found in the catalog (an identifier's meta): such a name is
# the database's own, while an unmarked one is the query's (an output alias, a CTE's column).
CATALOG_NAME = "catalog_name"


def respell(column: exp.Column, canonical: str) -> None:
    """Write ``column`` as the catalog spells it, and mark it as the catalog's. SQLite and
    MySQL match column names in any case; PostgreSQL matches a mixed-case name only quoted
    and spelled exactly."""
    if column.name != canonical:
        column.set("this", exp.to_identifier(canonical, quoted=column.this.quoted))
    column.this.meta[CATALOG_NAME] = True


class _ColumnChecker:
    def __init__(
        self, catalog: SchemaCatalog, table_of: Mapping[int, str], max_columns: int
    ) -> None:
        self.catalog = catalog
        self.table_of = table_of  # id(Table node) -> logical table, for known tables only
        self.max_columns = max_columns
        self.in_query = list(dict.fromkeys(table_of.values()))
        self.errors: list[str] = []

    def _find_source(self, scope: Scope | None, qualifier: str) -> tuple[bool, object | None]:
        while scope is not None:
            sources = _selected(scope)
            found = _lookup(sources, qualifier)
            if found is not None or any(k.lower() == qualifier.lower() for k in sources):
                return True, found
            scope = scope.parent
        return False, None

    def _describe_sources(self, scope: Scope) -> str:
        parts = []
        for name, source in _selected(scope).items():
            logical = self.table_of.get(id(source)) if isinstance(source, exp.Table) else None
            parts.append(f"{name} ({logical})" if logical and logical != name else name)
        return ", ".join(parts) or "none"

    def qualified(self, scope: Scope, column: exp.Column) -> None:
        qualifier, name = column.table, column.name
        known, source = self._find_source(scope, qualifier)
        if not known:
            self.errors.append(self._unknown_qualifier(scope, qualifier, name))
            return
        if name == "*":
            return
        if isinstance(source, exp.Table):
            logical = self.table_of.get(id(source))
            canonical = self.catalog.column(logical, name) if logical else None
            if logical and canonical is None:
                self.errors.append(
                    wrong_column_message(
                        qualifier, name, logical, self.catalog, self.in_query, self.max_columns
                    )
                )
            elif canonical:
                respell(column, canonical)
        elif isinstance(source, Scope):
            outputs = scope_outputs(source)
            if outputs is not None and name.lower() not in outputs:
                self.errors.append(
                    f"Column '{qualifier}.{name}' does NOT exist in the subquery or CTE "
                    f"'{qualifier}'. Its columns are: {', '.join(sorted(outputs))}"
                )

    def _unknown_qualifier(self, scope: Scope, qualifier: str, name: str) -> str:
        logical = self.catalog.table(qualifier)
        in_scope = self._describe_sources(scope)
        if logical and logical in self.in_query:
            return (
                f"Table '{logical}' has an alias in this query, so '{qualifier}.{name}' does not "
                f"resolve; use the alias. Tables in this query: {in_scope}"
            )
        if logical:
            return (
                f"Table '{logical}' is used in '{qualifier}.{name}' but is not in the FROM/JOIN "
                f"clause; join it first. Tables in this query: {in_scope}"
            )
        return (
            f"Unknown table or alias '{qualifier}' in '{qualifier}.{name}'. "
            f"Tables in this query: {in_scope}"
        )

    def unqualified(self, scope: Scope, column: exp.Column) -> None:
        name = column.name
        lowered = name.lower()
        current: Scope | None = scope
        physical: list[str] = []
        while current is not None:
            unknown = False
            for source in _selected(current).values():
                if isinstance(source, exp.Table):
                    logical = self.table_of.get(id(source))
                    if logical is None:
                        unknown = True
                    elif (canonical := self.catalog.column(logical, name)) is not None:
                        respell(column, canonical)
                        return
                    else:
                        physical.append(logical)
                elif isinstance(source, Scope):
                    outputs = scope_outputs(source)
                    if outputs is None or lowered in outputs:
                        return
                else:
                    unknown = True
            if unknown:
                return  # a source we cannot see into might have it
            current = current.parent  # correlated subqueries see the outer query's tables
        if not physical:
            return
        tables = list(dict.fromkeys(physical))
        found = _found_in(self.catalog, name, "", self.in_query)
        pool = {c for t in tables for c in self.catalog.columns(t)}
        close = difflib.get_close_matches(name, sorted(pool), 1, 0.6)
        hint = f" Did you mean: {close[0]}?" if close else ""
        self.errors.append(
            f"Column '{name}' does NOT exist in any table of the query "
            f"({', '.join(tables)}).{found}{hint}"
        )

    def using(self, scope: Scope) -> None:
        select = scope.expression
        if not isinstance(select, exp.Select):
            return
        source = select.args.get("from_")
        left: list[exp.Expression] = [source.this] if isinstance(source, exp.From) else []
        for join in select.args.get("joins") or ():
            for ident in join.args.get("using") or ():
                for table in [*left, join.this]:
                    logical = self._logical(table)
                    if logical and self.catalog.column(logical, ident.name) is None:
                        self.errors.append(
                            wrong_column_message(
                                table.alias_or_name,
                                ident.name,
                                logical,
                                self.catalog,
                                self.in_query,
                                self.max_columns,
                            )
                            + f" (in JOIN ... USING ({ident.name}))"
                        )
            left = [join.this]

    def _logical(self, table: exp.Expression) -> str | None:
        return self.table_of.get(id(table)) if isinstance(table, exp.Table) else None

    def run(self, tree: exp.Expression) -> list[str]:
        try:
            scopes = traverse_scope(tree)
        except Exception:  # sqlglot cannot scope some exotic SQL: the database will judge it
            logger.debug("column check skipped: sqlglot could not build scopes", exc_info=True)
            return []
        seen: set[int] = set()
        for scope in scopes:
            aliases = set()  # "AS name" in the select list: ORDER BY/GROUP BY may use them
            if isinstance(scope.expression, exp.Select):
                aliases = {
                    p.alias.lower()
                    for p in scope.expression.expressions
                    if isinstance(p, exp.Alias)
                }
            set_operation = isinstance(scope.expression, exp.SetOperation)
            for column in scope.columns:
                if id(column) in seen:
                    continue  # a correlated column shows up again in the outer scope
                seen.add(id(column))
                if column.table:
                    self.qualified(scope, column)
                elif not (set_operation or column.name == "*" or column.name.lower() in aliases):
                    self.unqualified(scope, column)
            self.using(scope)
        return list(dict.fromkeys(self.errors))


def check_columns(
    tree: exp.Expression,
    catalog: SchemaCatalog,
    table_of: Mapping[int, str],
    *,
    max_columns: int = 100,
) -> list[str]:
    """Every column error in ``tree``; ``table_of`` maps id(Table node) to its logical table."""
    return _ColumnChecker(catalog, table_of, max_columns).run(tree)
