"""MySQL date functions rewritten for SQLite, which has none of them.

The model writes ``YEAR(x)``, ``MONTH(x)``, ``DAY(x)`` (and ``DAYOFMONTH``, ``EXTRACT(YEAR
FROM x)``) whatever the target; SQLite answers "no such function: YEAR" or a syntax error, and
sqlglot's SQLite generator passes them through unchanged. The SQLite spelling is
``CAST(STRFTIME('%Y', x) AS INTEGER)``: an integer like MySQL's, so ``YEAR(d) = 2024`` still
compares numbers. ``CURDATE()`` and ``NOW()`` become ``CURRENT_DATE`` and ``CURRENT_TIMESTAMP``,
``DATE_SUB(x, INTERVAL 7 DAY)`` becomes ``DATE(x, '-7 days')``. Applied when rendering every SQLite query (``sql.rewrite.render``), so the
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


# MySQL's clock functions, read by the SQLite parser as unknown calls: SQLite has the SQL
# standard's keywords instead.
_CLOCK_CALLS: dict[str, type[exp.Expression]] = {
    "CURDATE": exp.CurrentDate,
    "CURRENT_DATE": exp.CurrentDate,
    "NOW": exp.CurrentTimestamp,
    "CURRENT_TIMESTAMP": exp.CurrentTimestamp,
    "SYSDATE": exp.CurrentTimestamp,
}
# DATE_ADD / DATE_SUB units SQLite's date() modifiers name ('-7 days').
_MODIFIER_UNITS = {"DAY": "days", "MONTH": "months", "YEAR": "years"}


def _date_shift(node: exp.DateAdd | exp.DateSub) -> exp.Expression | None:
    """DATE_SUB(x, INTERVAL 7 DAY) as DATE(x, '-7 days'), for a whole number of days, months
    or years; anything else is left for the database to refuse."""
    amount, unit = node.expression, node.args.get("unit")
    if isinstance(amount, exp.Interval):  # the SQLite parser's reading: INTERVAL '7' DAY
        amount, unit = amount.this, amount.args.get("unit")
    unit_name = unit.name.upper() if isinstance(unit, (exp.Var, exp.Identifier)) else ""
    if not isinstance(amount, exp.Literal) or unit_name not in _MODIFIER_UNITS:
        return None
    try:
        count = int(amount.name)
    except ValueError:
        return None
    sign = -count if isinstance(node, exp.DateSub) else count
    modifier = exp.Literal.string(f"{sign:+d} {_MODIFIER_UNITS[unit_name]}")
    return exp.Anonymous(this="DATE", expressions=[node.this, modifier])


def _replacement(node: exp.Expression) -> exp.Expression | None:
    clock = _CLOCK_CALLS.get(node.name.upper()) if isinstance(node, exp.Anonymous) else None
    if clock is not None and not node.expressions:
        return clock()
    if isinstance(node, (exp.DateAdd, exp.DateSub)):
        return _date_shift(node)
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


def postgres_clock_calls(tree: exp.Expression) -> bool:
    """Rewrite, in place, MySQL's CURDATE() and SYSDATE() (which PostgreSQL lacks) as
    CURRENT_DATE and CURRENT_TIMESTAMP; True when anything changed. PostgreSQL has the rest of
    what the model writes (NOW(), EXTRACT, INTERVAL arithmetic), or sqlglot translates it."""
    changed = False
    for node in list(tree.find_all(exp.Anonymous)):
        name = node.name.upper()
        if name in ("CURDATE", "SYSDATE") and not node.expressions:
            node.replace(_CLOCK_CALLS[name]())
            changed = True
    return changed
