"""Mistakes in the shape of a query that the database would run, or refuse in its own words:
a join condition that compares a column with itself, one alias for two tables, an aggregate
mixed with plain columns and no GROUP BY. Each message says how to fix it."""

from __future__ import annotations

from sqlglot import exp

__all__ = ["duplicate_aliases", "self_comparisons", "shape_errors", "ungrouped_columns"]


def shape_errors(tree: exp.Expression) -> list[str]:
    return [*self_comparisons(tree), *duplicate_aliases(tree), *ungrouped_columns(tree)]


def _aggregates(expression: exp.Expression, select: exp.Select) -> list[exp.AggFunc]:
    # This SELECT's own aggregates: not a subquery's, and not window functions (COUNT() OVER).
    return [
        agg
        for agg in expression.find_all(exp.AggFunc)
        if agg.find_ancestor(exp.Window, exp.Select) is select
    ]


def _own_column(expression: exp.Expression, select: exp.Select) -> bool:
    return any(c.find_ancestor(exp.Select) is select for c in expression.find_all(exp.Column))


def ungrouped_columns(tree: exp.Expression) -> list[str]:
    """A SELECT that mixes an aggregate with plain columns and has no GROUP BY
    (``SELECT status, COUNT(*) FROM workOrder``). SQLite answers it with one arbitrary row
    ("misuse of aggregate" or a wrong count), PostgreSQL refuses it: say how to fix it."""
    errors = []
    for select in tree.find_all(exp.Select):
        if select.args.get("group"):
            continue
        aggregated = any(_aggregates(e, select) for e in select.expressions)
        if not aggregated:
            continue
        bare = [
            e.alias_or_name
            for e in select.expressions
            if not _aggregates(e, select) and _own_column(e, select)
        ]
        if bare:
            names = ", ".join(bare)
            errors.append(
                f"The query mixes an aggregate (COUNT, SUM, AVG, MIN, MAX) with the column(s) "
                f"{names} and has no GROUP BY: add GROUP BY {names} for one row per {names}, "
                f"or remove {names} for a single total."
            )
    return errors


def self_comparisons(tree: exp.Expression) -> list[str]:
    """Conditions that compare a column with itself (``d.did = d.did``). Always true, such a
    join condition silently joins every row with every row, and the answer looks plausible."""
    errors = []
    for node in tree.find_all(exp.EQ, exp.NullSafeEQ):
        left, right = node.left, node.right
        if (
            isinstance(left, exp.Column)
            and isinstance(right, exp.Column)
            and left.sql().casefold() == right.sql().casefold()
        ):
            errors.append(
                f"The condition {node.sql()} compares a column with itself, so it is always "
                "true and joins every row with every row; compare it with the matching column "
                "of the other table."
            )
    return errors


def duplicate_aliases(tree: exp.Expression) -> list[str]:
    """Names given to two tables of one FROM clause (``customer c JOIN contract c``): the
    database then refuses or picks one, and a small model does this when two tables share an
    initial."""
    errors = []
    for select in tree.find_all(exp.Select):
        sources = [select.args.get("from_"), *(select.args.get("joins") or [])]
        named: dict[str, list[str]] = {}
        for source in sources:
            if source is None or source.this is None:
                continue
            item = source.this
            label = item.name if isinstance(item, exp.Table) else "a subquery"
            named.setdefault(item.alias_or_name.casefold(), []).append(label)
        for alias, labels in named.items():
            if len(labels) > 1:
                errors.append(
                    f"The name '{alias}' is given to {len(labels)} tables ({', '.join(labels)}): "
                    "give each table its own alias."
                )
    return errors
