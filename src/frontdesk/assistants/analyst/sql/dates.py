"""MySQL date-part functions rewritten for SQLite, which has none of them.

The model writes ``YEAR(x)``, ``MONTH(x)``, ``DAY(x)`` (and ``DAYOFMONTH``, ``EXTRACT(YEAR
FROM x)``) whatever the target; SQLite answers "no such function: YEAR" or a syntax error, and
sqlglot's SQLite generator passes them through unchanged. The SQLite spelling is
``CAST(STRFTIME('%Y', x) AS INTEGER)``: an integer like MySQL's, so ``YEAR(d) = 2024`` still
compares numbers. Applied when rendering every SQLite query (``sql.rewrite.render``), so the
model's MySQL spelling never fails first; its own module because it needs no schema.
"""

from __future__ import annotations

from sqlglot import exp

_FORMATS: dict[type[exp.Expression], str] = {
    exp.Year: "%Y",
    exp.Month: "%m",
    exp.Day: "%d",
    exp.DayOfMonth: "%d",
}
_EXTRACT_FORMATS = {"YEAR": "%Y", "MONTH": "%m", "DAY": "%d"}


def _strftime(value: exp.Expression, fmt: str) -> exp.Expression:
    return exp.Cast(
        this=exp.TimeToStr(this=value, format=exp.Literal.string(fmt)),
        to=exp.DataType.build("INTEGER"),
    )


def _replacement(node: exp.Expression) -> exp.Expression | None:
    fmt = _FORMATS.get(type(node))
    if fmt is not None and isinstance(node.this, exp.Expression):
        return _strftime(node.this, fmt)
    if isinstance(node, exp.Extract) and isinstance(node.this, (exp.Var, exp.Identifier)):
        fmt = _EXTRACT_FORMATS.get(node.this.name.upper())
        value = node.expression
        if fmt is not None and isinstance(value, exp.Expression):
            return _strftime(value, fmt)
    return None


def sqlite_date_parts(tree: exp.Expression) -> bool:
    """Rewrite, in place, every YEAR/MONTH/DAY/DAYOFMONTH call and EXTRACT of a year, month
    or day into SQLite's STRFTIME form; True when anything changed. Safe at any depth (a
    function call means the same in every scope), so subqueries and CTEs are included."""
    changed = False
    # Innermost first (reverse of a pre-order walk), so YEAR(MAX(DAY(x))) keeps its nesting.
    for node in reversed(list(tree.walk())):
        replacement = _replacement(node)
        if replacement is not None:
            node.replace(replacement)
            changed = True
    return changed
