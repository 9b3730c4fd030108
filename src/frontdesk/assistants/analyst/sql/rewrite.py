"""Tree rewrites on checked SQL: secure views, the row limit, and rendering for the target.

All three work on sqlglot trees that passed ``check_read_only``; none of them looks at text.

* ``rewrite_secure`` swaps every physical table that has an encrypted base table for its
  ``secure_*`` view (the view decrypts), keeping the alias the model wrote, or aliasing the view
  to the logical name so ``employee.firstName`` qualifiers still resolve.
* ``enforce_limit`` caps the outermost query's LIMIT so a question never pulls a whole table.
* ``render`` turns the tree into SQL for SQLite or MySQL/MariaDB, refusing features the target
  cannot run rather than letting sqlglot approximate them (FULL OUTER JOIN on MySQL becomes a
  UNION that is only right in simple cases; DISTINCT ON picks arbitrary rows).

``sql.check`` re-exports these; import from there.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Mapping

from sqlglot import exp
from sqlglot.dialects.dialect import Dialect as _SqlglotDialect
from sqlglot.errors import ErrorLevel, UnsupportedError

from frontdesk.assistants.analyst.sql.dates import postgres_clock_calls, sqlite_date_parts
from frontdesk.assistants.analyst.sql.portable import name_derived_tables, round_as_numeric
from frontdesk.assistants.analyst.sql.safety import (
    Dialect,
    SQLCheckError,
    UnsupportedSQL,
    is_cte_reference,
)
from frontdesk.assistants.analyst.sql.schema import CATALOG_NAME

SECURE_PREFIX = "secure_"

TARGET_NAMES = {"sqlite": "SQLite", "mysql": "MySQL/MariaDB", "postgres": "PostgreSQL"}
_SQLGLOT_DIALECTS = {name: _SqlglotDialect.get_or_raise(name) for name in TARGET_NAMES}
# SQLite gained RIGHT and FULL OUTER JOIN in 3.39.0.
_SQLITE_HAS_FULL_JOIN = sqlite3.sqlite_version_info >= (3, 39, 0)


class UnknownTable(SQLCheckError):
    """A table name that does not exist (here: a ``secure_*`` view the model made up)."""


def physical_tables(tree: exp.Expression) -> list[exp.Table]:
    """Plain table references (no schema, not a table function, not a CTE name)."""
    tables = []
    for table in tree.find_all(exp.Table):
        if not isinstance(table.this, exp.Identifier) or table.args.get("db"):
            continue
        if is_cte_reference(table):
            continue
        tables.append(table)
    return tables


def rewrite_secure(
    expr: exp.Expression,
    secure_map: Mapping[str, str],
    dialect: Dialect,
    *,
    copy: bool = True,
) -> exp.Expression:
    """Point tables with a secure view at that view; return the rewritten tree.

    ``secure_map`` maps logical table names to view names (``SECURE_VIEW_MAP``); lookups are
    case-insensitive and the view's spelling from the map is used. Already-secure names are
    left as they are, CTEs that shadow a table and column names are never touched. A
    ``secure_*`` name that is not one of the map's views raises ``UnknownTable``.
    """
    del dialect  # table references are dialect-independent in the tree
    tree = expr.copy() if copy else expr
    by_logical = {logical.lower(): view for logical, view in secure_map.items()}
    views = {view.lower(): view for view in secure_map.values()}
    for table in physical_tables(tree):
        name = table.name
        lowered = name.lower()
        if lowered in views:
            if name != views[lowered]:
                table.set("this", exp.to_identifier(views[lowered], quoted=table.this.quoted))
            continue
        if lowered in by_logical:
            if not table.alias:
                # Without an alias, "employee.firstName" would no longer resolve once the
                # table is called secure_employee: name the view after the logical table.
                table.set(
                    "alias",
                    exp.TableAlias(this=exp.to_identifier(name, quoted=table.this.quoted)),
                )
            table.set("this", exp.to_identifier(by_logical[lowered]))
            continue
        if lowered.startswith(SECURE_PREFIX):
            logical = name[len(SECURE_PREFIX) :]
            raise UnknownTable(
                f"Table '{name}' does not exist. Did you mean: {logical}? Write logical table "
                "names; the system switches to secure views by itself."
            )
    return tree


def _int_value(node: exp.Expression | None) -> int | None:
    if isinstance(node, exp.Literal) and not node.is_string:
        try:
            return int(node.this)
        except ValueError:
            return None
    return None


def outer_limit(expr: exp.Expression) -> int | None:
    """The outermost query's LIMIT as an integer, or None when absent or not a number."""
    limit = expr.args.get("limit")
    if isinstance(limit, exp.Limit):
        return _int_value(limit.expression)
    if isinstance(limit, exp.Fetch):
        return _int_value(limit.args.get("count"))
    return None


def enforce_limit(
    expr: exp.Expression, max_rows: int, dialect: Dialect, *, copy: bool = True
) -> exp.Expression:
    """Give the outermost query a LIMIT of at most ``max_rows`` (OFFSET is kept).

    No LIMIT adds one; a larger one is lowered; a LIMIT that is an expression, a placeholder
    or FETCH FIRST is replaced. For UNION/INTERSECT/EXCEPT the limit goes on the set operation,
    which both targets apply to the combined result.
    """
    del dialect  # LIMIT n renders correctly for both targets
    if max_rows < 0:
        raise ValueError("max_rows must be >= 0")
    tree = expr.copy() if copy else expr
    limit = tree.args.get("limit")
    current = outer_limit(tree)
    if isinstance(limit, exp.Limit) and current is not None and 0 <= current <= max_rows:
        return tree
    if isinstance(limit, exp.Limit):
        limit.set("expression", exp.Literal.number(max_rows))
        return tree
    # No limit, or FETCH FIRST n ROWS (WITH TIES / PERCENT cannot be kept faithfully).
    value = max_rows if current is None or current < 0 else min(current, max_rows)
    tree.set("limit", exp.Limit(expression=exp.Literal.number(value)))
    return tree


def unsupported_feature(tree: exp.Expression, dialect: Dialect) -> str | None:
    """Why ``dialect`` cannot run ``tree`` (a feature sqlglot would only approximate), or None."""
    if dialect == "postgres":
        return None  # FULL JOIN, DISTINCT ON, FILTER, LATERAL and ARRAY are all PostgreSQL's
    mysql = dialect == "mysql"
    for node in tree.walk():
        if isinstance(node, exp.Join):
            side = (node.side or "").upper()
            if side == "FULL" and (mysql or not _SQLITE_HAS_FULL_JOIN):
                return (
                    "FULL OUTER JOIN is not supported; use LEFT JOIN (or a LEFT JOIN ... UNION "
                    "... RIGHT JOIN when rows missing on either side matter)"
                )
            if side == "RIGHT" and not mysql and not _SQLITE_HAS_FULL_JOIN:
                return "RIGHT JOIN is not supported; swap the tables and use LEFT JOIN"
        elif isinstance(node, exp.Distinct) and node.args.get("on"):
            return (
                "DISTINCT ON (...) is PostgreSQL-only; use GROUP BY, or ROW_NUMBER() OVER "
                "(PARTITION BY ... ORDER BY ...) in a subquery and keep row number 1"
            )
        elif mysql and isinstance(node, exp.Filter):
            return (
                "aggregate FILTER (WHERE ...) is not supported; use SUM(CASE WHEN ... THEN 1 "
                "ELSE 0 END) or COUNT(CASE WHEN ... THEN 1 END)"
            )
        elif mysql and isinstance(node, exp.Lateral):
            return "LATERAL derived tables are not supported by MariaDB; use a join or subquery"
        elif isinstance(node, exp.Array):
            return "ARRAY values are not supported; use IN (...) with a list"
    return None


def _is_from_dual(select: exp.Select) -> bool:
    source = select.args.get("from_")
    return (
        isinstance(source, exp.From)
        and isinstance(source.this, exp.Table)
        and source.this.name.lower() == "dual"
        and not source.this.args.get("db")
        and not select.args.get("joins")
    )


def _drop_from_dual(tree: exp.Expression) -> exp.Expression:
    # sqlglot quotes DUAL as a table name (`DUAL`), which MySQL then looks up and fails on;
    # "SELECT 1 FROM DUAL" means "SELECT 1".
    if not any(_is_from_dual(select) for select in tree.find_all(exp.Select)):
        return tree
    tree = tree.copy()
    for select in tree.find_all(exp.Select):
        if _is_from_dual(select):
            select.set("from_", None)
    return tree


def quote_mixed_case(tree: exp.Expression) -> None:
    """Make a tree whose names the checker respelled run on PostgreSQL, in place.

    PostgreSQL folds unquoted names to lower case, so a table created as "workOrder" (or
    Chinook's "Album") is only found quoted, spelled exactly. Table names, column names and
    output aliases that have an upper-case letter are quoted (the checker already respelled the
    first two as the catalog has them, and ORDER BY refers to an output alias as a column).
    Table aliases and qualifiers stay unquoted, so they fold alike wherever they are written;
    a quoted table without an alias gets its own name as one, for its qualifiers to find.
    A name that refers to an output alias in another case ("AS month ... GROUP BY MONTH")
    is spelled as the alias first: quoted apart, the two would no longer meet.
    """
    _spell_alias_references(tree)
    for node in tree.find_all(exp.Table, exp.Column, exp.Alias, exp.Join):
        if isinstance(node, exp.Table):
            if not isinstance(node.this, exp.Identifier) or is_cte_reference(node):
                continue
            if _quote(node.this) and not node.alias:
                node.set("alias", exp.TableAlias(this=exp.to_identifier(node.name)))
        elif isinstance(node, exp.Join):
            for column in node.args.get("using") or ():
                _quote(column)
        elif isinstance(node, exp.Column):
            _quote(node.this)
        else:  # an output alias: SELECT COUNT(*) AS jobCount ... ORDER BY jobCount
            _quote(node.args.get("alias"))


def _spell_alias_references(tree: exp.Expression) -> None:
    """Names of the query's own (output aliases, a subquery's or CTE's columns) written in
    another case where they are used take the spelling they were given, so that quoted they
    still meet: PostgreSQL folded both ends alike before anything was quoted. A name the
    checker found in the catalog (`schema.CATALOG_NAME`) is the table's, and stays as it is."""
    inner: dict[str, exp.Identifier] = {}
    for select in tree.find_all(exp.Select):
        own = _aliases(select)
        if select.find_ancestor(exp.Subquery, exp.CTE) is not None:
            inner = {**_outputs(select), **inner}
        for column in select.find_all(exp.Column):
            name = column.this
            if (not isinstance(name, exp.Identifier) or name.quoted or name.meta.get(CATALOG_NAME)
                    or column.find_ancestor(exp.Select) is not select):  # fmt: skip
                continue
            # ORDER BY, GROUP BY and HAVING may name the select's own outputs.
            in_tail = column.find_ancestor(exp.Order, exp.Group, exp.Having) is not None
            alias = own.get(name.name.lower()) if in_tail and not column.table else None
            if alias is not None and alias.name != name.name:
                column.set("this", exp.to_identifier(alias.name, quoted=alias.quoted))
    if not inner:
        return
    for column in tree.find_all(exp.Column):  # a subquery's or CTE's columns, used outside
        name = column.this
        if isinstance(name, exp.Identifier) and not name.quoted and not name.meta.get(
            CATALOG_NAME
        ):
            alias = inner.get(name.name.lower())
            if alias is not None and alias.name != name.name:
                column.set("this", exp.to_identifier(alias.name, quoted=alias.quoted))


def _outputs(select: exp.Select) -> dict[str, exp.Identifier]:
    """A subquery's or CTE's column names as it spells them: its aliases, and the columns it
    selects as they are."""
    columns = {projection.this.name.lower(): projection.this for projection in select.expressions
               if isinstance(projection, exp.Column) and isinstance(projection.this,
                                                                    exp.Identifier)}  # fmt: skip
    return {**columns, **_aliases(select)}


def _aliases(select: exp.Select) -> dict[str, exp.Identifier]:
    return {projection.alias.lower(): projection.args["alias"] for projection in
            select.expressions if isinstance(projection, exp.Alias) and projection.alias}  # fmt: skip


def _quote(identifier: exp.Expression | None) -> bool:
    if isinstance(identifier, exp.Identifier) and identifier.name != identifier.name.lower():
        identifier.set("quoted", True)
        return True
    return False


def render(expr: exp.Expression, dialect: Dialect, *, copy: bool = True) -> str:
    """SQL text for ``dialect`` from a checked tree, or ``UnsupportedSQL`` naming the feature.

    Comments are dropped: what runs is only what the tree holds. Translations sqlglot does
    faithfully (``::`` casts, ILIKE, FETCH FIRST, string_agg, IS DISTINCT FROM) happen here,
    and MySQL's date parts become SQLite's STRFTIME (sql/dates.py).
    sqlglot's generator mutates the tree it renders: ``copy=False`` (faster) only for trees
    the caller throws away.
    """
    problem = unsupported_feature(expr, dialect)
    target = TARGET_NAMES[dialect]
    if problem:
        raise UnsupportedSQL(f"{target} cannot run this query: {problem}.")
    if dialect == "mysql":
        expr = _drop_from_dual(expr)
    if dialect == "sqlite":  # models write MySQL's YEAR(x) and MONTH(x) whatever the target
        expr = expr.copy() if copy else expr
        sqlite_date_parts(expr)
        copy = False
    if dialect in ("postgres", "mysql"):
        expr = expr.copy() if copy else expr
        name_derived_tables(expr)
        copy = False
    if dialect == "postgres":
        postgres_clock_calls(expr)
        round_as_numeric(expr)
        quote_mixed_case(expr)
    try:
        return _SQLGLOT_DIALECTS[dialect].generate(
            expr, copy=copy, unsupported_level=ErrorLevel.RAISE, comments=False
        )
    except UnsupportedError as error:
        reason = str(error).split("\n")[0]
        raise UnsupportedSQL(f"{target} cannot run this query: {reason}.") from None
