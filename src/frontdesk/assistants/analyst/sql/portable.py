"""What SQLite lets a query leave out and the servers do not: written in, so that a query
valid where it was written stays valid on MariaDB and PostgreSQL (render() runs these).

- PostgreSQL rounds to a number of places only a NUMERIC: ROUND(x, 2) of a REAL or DOUBLE
  column ("function round(real, integer) does not exist") rounds CAST(x AS NUMERIC).
- PostgreSQL (before 16) and MariaDB want every subquery in FROM named: an unnamed one gets
  a name of its own ("subquery in FROM must have an alias").
"""

from __future__ import annotations

from sqlglot import exp

__all__ = ["name_derived_tables", "round_as_numeric"]


def round_as_numeric(tree: exp.Expression) -> None:
    """ROUND(x, n) -> ROUND(CAST(x AS NUMERIC), n), in place; the value is the same."""
    for node in list(tree.find_all(exp.Round)):
        if node.args.get("decimals") is None:
            continue  # ROUND(x) takes any number
        value = node.this
        if isinstance(value, exp.Cast) and value.to.is_type("decimal"):
            continue
        node.set("this", exp.cast(value.copy(), exp.DataType.build("NUMERIC")))


def name_derived_tables(tree: exp.Expression) -> None:
    """An unnamed subquery in FROM or JOIN gets a name no other part of the query uses."""
    taken = {node.alias_or_name.lower() for node in tree.find_all(exp.Subquery, exp.Table, exp.CTE)}
    number = 0
    for subquery in list(tree.find_all(exp.Subquery)):
        if subquery.alias or not isinstance(subquery.parent, exp.From | exp.Join):
            continue
        number += 1
        while f"derived_{number}" in taken:
            number += 1
        subquery.set("alias", exp.TableAlias(this=exp.to_identifier(f"derived_{number}")))
