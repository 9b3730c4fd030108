"""Deterministic repair of the commonest SQL error: a column taken from the wrong table.

The seed's first correction pattern, `crew.isLead` -> `employeeCrew.isLead`, needs no model:
when a column does not exist where the SQL looks for it, but exactly one table of the query
has it, the column is re-qualified with that table; when no table of the query has it, but a
table holding it joins a table of the query directly (a relationship of the join graph), that
join is added. Anything ambiguous is left to the correction agent. A small model asked to fix
`SELECT COUNT(*) FROM technician WHERE isActive = 1` tends to return the same query; this
returns `... FROM technician JOIN employee ON technician.employeeId = employee.id WHERE
employee.isActive = 1`, which the checks then validate like any other SQL.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

import sqlglot
from sqlglot import exp

from frontdesk.assistants.analyst.join_graph import Relationship
from frontdesk.assistants.analyst.sqlschema import SchemaCatalog


def repair_columns(
    sql: str,
    catalog: SchemaCatalog,
    relationships: Iterable[Relationship],
    *,
    dialect: str,
    preferred: Sequence[str] = (),
    min_confidence: float = 0.7,
) -> str | None:
    """The repaired SQL, or None when there is nothing this can safely repair."""
    try:
        tree = sqlglot.parse_one(sql, read=dialect)
    except sqlglot.errors.SqlglotError:  # unparseable (or untokenisable): the agent's job
        return None
    if not isinstance(tree, exp.Select) or tree.find(exp.Subquery, exp.CTE, exp.Union):
        return None  # one flat SELECT only: scopes of nested queries are the agent's job
    sources: dict[str, str] = {}  # alias (or name) -> logical table
    for table in tree.find_all(exp.Table):
        name = catalog.table(table.name)
        if name is None:
            return None
        sources[table.alias_or_name] = name
    outputs = {a.alias for a in tree.expressions if isinstance(a, exp.Alias)}
    joinable = [r for r in relationships if r.confidence >= min_confidence]
    changed = False
    for column in list(tree.find_all(exp.Column)):
        name, qualifier = column.name, column.table
        if not qualifier and name in outputs:
            continue
        if qualifier and qualifier in sources and catalog.column(sources[qualifier], name):
            continue
        if not qualifier and any(catalog.column(t, name) for t in sources.values()):
            continue
        holders = [alias for alias, table in sources.items() if catalog.column(table, name)]
        if len(holders) > 1:
            return None
        if holders:
            column.set("table", exp.to_identifier(holders[0]))
            changed = True
            continue
        added = _join_holder(tree, catalog, joinable, sources, name, preferred)
        if added is None:
            return None
        column.set("table", exp.to_identifier(added))
        changed = True
    return tree.sql(dialect=dialect) if changed else None


def _join_holder(
    tree: exp.Select,
    catalog: SchemaCatalog,
    relationships: list[Relationship],
    sources: dict[str, str],
    column: str,
    preferred: Sequence[str],
) -> str | None:
    """Joins the one table that has `column` and joins a table of the query directly (among
    the agent's chosen tables first); its name, or None when none or several qualify."""
    joins: dict[str, str] = {}
    for holder in catalog.tables_with_column(column):
        if holder in sources.values():
            continue
        for alias, table in sources.items():
            on = _on(relationships, alias, table, holder)
            if on is not None:
                joins.setdefault(holder, on)
    chosen = [t for t in joins if t in preferred] or list(joins)
    if len(chosen) != 1:
        return None
    holder = chosen[0]
    tree.join(exp.to_table(holder), on=joins[holder], copy=False)
    sources[holder] = holder
    return holder


def _on(relationships: list[Relationship], alias: str, table: str, holder: str) -> str | None:
    for r in relationships:
        if r.from_table == table and r.to_table == holder:
            return f"{alias}.{r.from_column} = {holder}.{r.to_column}"
        if r.to_table == table and r.from_table == holder:
            return f"{holder}.{r.from_column} = {alias}.{r.to_column}"
    return None
