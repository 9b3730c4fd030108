"""Deterministic repairs of the SQL errors a small model makes most, before asking it again.

The seed's first correction pattern, `crew.isLead` -> `employeeCrew.isLead`, needs no model,
and neither do a few others seen in evaluation runs. Each applies only when exactly one fix
fits; a column none of them can place makes the whole column repair give up (None), leaving
the query to the correction agent:

* a column taken from the wrong table is re-qualified with the one table of the query that has
  it; when no table of the query has it, but a table holding it joins a table of the query
  directly (a relationship of the join graph), that join is added. A small model asked to fix
  `SELECT COUNT(*) FROM technician WHERE isActive = 1` tends to return the same query; this
  returns `... FROM technician JOIN employee ON technician.employeeId = employee.id WHERE
  employee.isActive = 1`;
* a column spelled in another case or underscore style: `amount_paid` -> `amountPaid` (names
  compared without case and underscores, among the qualifier's table or, unqualified, all the
  query's tables);
* a column prefixed with its table's name: `T4.branchName` over `branch AS T4` -> `T4.name`,
  `partName` over `part` -> `part.name`;
* a table's name as qualifier although the query aliases it: `priority.name` over `priority AS
  T1` -> `T1.name` (only when the table appears once), and the three-part `T1.priority.name` ->
  `T1.name`.

(MySQL's `YEAR(x)` on SQLite needs no repair: rendering rewrites it for every SQLite query,
sql/dates.py.)

Column repairs touch one flat SELECT only: scopes of nested queries are the agent's job. SQL
the checker refuses as unsafe or cannot parse is never repaired, and whatever is repaired is
validated again like any other SQL.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence

import sqlglot
from sqlglot import exp

from frontdesk.assistants.analyst.joins.graph import Relationship
from frontdesk.assistants.analyst.sql.safety import SQLCheckError, check_read_only
from frontdesk.assistants.analyst.sql.schema import SchemaCatalog
from frontdesk.assistants.analyst.sql.shape import ungrouped_columns

# A fix for one column: the alias it belongs to, the column's name there, and whether to
# write that alias as its qualifier (False keeps the qualifier as written, or none).
_Fix = tuple[str, str, bool]


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
        tree: exp.Expression = check_read_only(sql, dialect).expression
    except (SQLCheckError, sqlglot.errors.SqlglotError, ValueError):
        return None  # unsafe, unparseable, or a dialect the checker does not know
    flat = not any(query is not tree for query in tree.find_all(exp.Query))
    if not isinstance(tree, exp.Select) or not flat:  # EXISTS (SELECT ...) is nested too
        return None
    joinable = [r for r in relationships if r.confidence >= min_confidence]
    if not _ColumnRepair(tree, catalog, joinable, preferred).run():
        return None  # nothing wrong, or something only the agent can fix
    return tree.sql(dialect=dialect)


def _normal(name: str) -> str:
    """`amount_paid`, `amountPaid` and `AmountPaid` all read `amountpaid`."""
    return name.replace("_", "").lower()


class _ColumnRepair:
    """Every column of one flat SELECT resolved to a table of the query, or given up on."""

    def __init__(
        self,
        tree: exp.Select,
        catalog: SchemaCatalog,
        relationships: list[Relationship],
        preferred: Sequence[str],
    ) -> None:
        self.tree = tree
        self.catalog = catalog
        self.relationships = relationships
        self.preferred = preferred
        self.sources: dict[str, str] = {}  # alias (or name) -> logical table
        self.uses: Counter[str] = Counter()  # logical table -> how often the query reads it
        self.valid = True
        for table in tree.find_all(exp.Table):
            name = catalog.table(table.name)
            if name is None:
                self.valid = False
                return
            self.sources[table.alias_or_name] = name
            self.uses[name] += 1

    def run(self) -> bool:
        """True when the tree was repaired; False when nothing was wrong or something could
        not be (the tree may then be half-changed: the caller throws it away)."""
        if not self.valid:
            return False
        outputs = {a.alias for a in self.tree.expressions if isinstance(a, exp.Alias)}
        changed = False
        for column in list(self.tree.find_all(exp.Column)):
            if not column.table and column.name in outputs:
                continue
            outcome = self._column(column)
            if outcome is None:
                return False
            changed |= outcome
        return changed

    def _column(self, column: exp.Column) -> bool | None:
        """Repair one column: True (changed), False (nothing wrong) or None (cannot)."""
        changed = False
        if column.args.get("catalog"):
            return None
        if column.args.get("db"):  # T1.priority.name: alias, then the aliased table's name
            alias = self._alias(column.args["db"].name)
            if alias is None or self.catalog.table(column.table) != self.sources[alias]:
                return None
            column.set("db", None)
            column.set("table", exp.to_identifier(alias))
            changed = True
        qualifier = column.table
        alias = self._alias(qualifier) if qualifier else None
        if qualifier and alias is None and self._ambiguous_table(qualifier):
            return None
        if alias is not None and alias != qualifier:
            column.set("table", exp.to_identifier(alias))
            changed = True
        name = column.name
        if isinstance(column.this, exp.Star):
            return changed if alias is not None else None
        if alias is not None and self.catalog.column(self.sources[alias], name):
            return changed
        if not qualifier and any(self.catalog.column(t, name) for t in self.sources.values()):
            return changed
        fixes = self._fixes(name, alias, bool(qualifier))
        if len({(a, found) for a, found, _ in fixes}) > 1:
            return None
        if fixes:
            table, fixed, qualify = fixes[0]
            if qualify:
                column.set("table", exp.to_identifier(table))
            if fixed != name:
                column.set("this", exp.to_identifier(fixed, quoted=column.this.quoted))
            return True
        added = self._join_holder(name)
        if added is None:
            return None
        column.set("table", exp.to_identifier(added))
        return True

    def _alias(self, qualifier: str) -> str | None:
        """The query's alias that `qualifier` means: the alias itself (in any case), or the
        name of a table the query reads once under an alias."""
        if qualifier in self.sources:
            return qualifier
        lowered = qualifier.lower()
        same = [a for a in self.sources if a.lower() == lowered]
        if len(same) == 1:
            return same[0]
        table = self.catalog.table(qualifier)
        if table is None or self.uses[table] != 1:
            return None
        return next((a for a, t in self.sources.items() if t == table), None)

    def _ambiguous_table(self, qualifier: str) -> bool:
        """`qualifier` names a table the query reads more than once (a self-join)."""
        table = self.catalog.table(qualifier)
        return table is not None and self.uses[table] > 1

    def _fixes(self, name: str, alias: str | None, qualified: bool) -> list[_Fix]:
        """Every way to place a column the query's tables lack under this exact name."""
        sources = self.sources.items()
        # The exact name in another table of the query.
        exact: list[_Fix] = [
            (a, found, True)
            for a, t in sources
            if a != alias and (found := self.catalog.column(t, name))
        ]
        fixes = list(exact)
        # Another case or underscore style, in the qualifier's table (else in any table).
        # Unqualified stays unqualified: with one fix, no other table has that column.
        scope = [(alias, self.sources[alias])] if alias is not None else list(sources)
        for a, t in scope:
            fixes.extend((a, found, qualified) for found in self._restyled(t, name))
        # The table's name as prefix: branchName -> branch.name.
        if not exact:
            for a, t in sources:
                own = alias is not None and self.sources[alias] == t
                if own and a != alias:
                    continue  # a self-join: the alias written says which side
                prefix, written = _normal(t), _normal(name)
                if written.startswith(prefix) and len(written) > len(prefix):
                    rest = written[len(prefix) :]
                    fixes.extend((a, found, True) for found in self._restyled(t, rest))
        return fixes

    def _restyled(self, table: str, name: str) -> list[str]:
        """The columns of `table` that read `name` without case and underscores."""
        wanted = _normal(name)
        return [c for c in self.catalog.columns(table) if _normal(c) == wanted]

    def _join_holder(self, column: str) -> str | None:
        """Joins the one table that has `column` and joins a table of the query directly,
        through the surest relationship (a declared key over a guessed one: `technician`'s
        `isActive` is its employee's, not its home branch's), then among the agent's chosen
        tables; its name, or None when none or several qualify."""
        joins: dict[str, tuple[str, float]] = {}
        for holder in self.catalog.tables_with_column(column):
            if holder in self.sources.values():
                continue
            for alias, table in self.sources.items():
                found = _on(self.relationships, alias, table, holder)
                if found is not None and found[1] > joins.get(holder, ("", -1.0))[1]:
                    joins[holder] = found
        surest = max((sure for _, sure in joins.values()), default=0.0)
        chosen = [t for t in joins if joins[t][1] == surest]
        chosen = [t for t in chosen if t in self.preferred] or chosen
        if len(chosen) != 1:
            return None
        holder = chosen[0]
        self.tree.join(exp.to_table(holder), on=joins[holder][0], copy=False)
        self.sources[holder] = holder
        self.uses[holder] += 1
        return holder


def _on(
    relationships: list[Relationship], alias: str, table: str, holder: str
) -> tuple[str, float] | None:
    """The surest join condition between `table` (as `alias`) and `holder`, with its
    relationship's confidence; None when they do not join directly."""
    found = []
    for r in relationships:
        if r.from_table == table and r.to_table == holder:
            found.append((f"{alias}.{r.from_column} = {holder}.{r.to_column}", r.confidence))
        elif r.to_table == table and r.from_table == holder:
            found.append((f"{holder}.{r.from_column} = {alias}.{r.to_column}", r.confidence))
    return max(found, key=lambda f: f[1]) if found else None


def add_missing_group_by(sql: str, *, dialect: str) -> str | None:
    """`SELECT c.name, COUNT(*) FROM ... ORDER BY 2 DESC LIMIT 5` with GROUP BY c.name added:
    a small model writing a ranking or a count per group often forgets it (SQLite then
    answers with one arbitrary row, PostgreSQL refuses). Only the outermost flat SELECT, only
    when every plain column of its list is grouped by; None when there is nothing to add."""
    try:
        tree: exp.Expression = check_read_only(sql, dialect).expression
    except (SQLCheckError, sqlglot.errors.SqlglotError, ValueError):
        return None
    if not isinstance(tree, exp.Select) or not ungrouped_columns(tree):
        return None
    keys = [
        e.unalias().copy()
        for e in tree.expressions
        if not any(a.find_ancestor(exp.Window, exp.Select) is tree for a in e.find_all(exp.AggFunc))
        and e.find(exp.Column) is not None
    ]
    if any(k.find(exp.Select) for k in keys):
        return None  # a scalar subquery in the list: not ours to regroup
    return tree.group_by(*keys, copy=True).sql(dialect=dialect)
