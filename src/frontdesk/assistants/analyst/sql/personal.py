"""Does a query read personal data: an encrypted column of a table with a decrypting view?

Callers without the right to personal data (`frontdesk.agentkit.permissions`) must not get it
decrypted, so their queries that would read it are refused before they run. Conservative on
purpose: `SELECT *` or `t.*` over such a table, a qualified encrypted column, and an unqualified
column whose name is encrypted in any such table of the query all count; `COUNT(*)` does not.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import sqlglot
from sqlglot import exp
from sqlglot.errors import ParseError, TokenError


def reads_personal_data(
    sql: str,
    dialect: str,
    encrypted: Mapping[str, Sequence[str]],
    views: Mapping[str, str],
) -> bool:
    """`encrypted`: table -> its encrypted columns; `views`: table -> its decrypting view."""
    try:
        tree = sqlglot.parse_one(sql, read=dialect)
    except (ParseError, TokenError):
        return False  # the checker refuses it on its own
    if tree is None:
        return False
    columns = {t.lower(): {c.lower() for c in cols} for t, cols in encrypted.items()}
    logical = {v.lower(): t.lower() for t, v in views.items()}
    # alias (or name) -> the personal table it stands for
    personal: dict[str, str] = {}
    for table in tree.find_all(exp.Table):
        name = logical.get(table.name.lower(), table.name.lower())
        if name in columns:
            personal[table.alias_or_name.lower()] = name
    if not personal:
        return False
    for star in tree.find_all(exp.Star):
        parent = star.parent
        if isinstance(parent, exp.Count):
            continue
        if isinstance(parent, exp.Column):
            if parent.table.lower() in personal:
                return True
            continue
        return True  # a bare * over a query that names a personal table
    wanted = set().union(*(columns[t] for t in personal.values()))
    for column in tree.find_all(exp.Column):
        name = column.name.lower()
        qualifier = column.table.lower()
        if qualifier:
            table = personal.get(qualifier)
            if table is not None and name in columns[table]:
                return True
        elif name in wanted:
            return True
    return False
