"""The read-only gate: parse the analyst's SQL with sqlglot and refuse anything that could write.

The language model writes the SQL, so it is untrusted input. ``check_read_only`` accepts exactly
one statement that is a SELECT (or a UNION / INTERSECT / EXCEPT of selects, or WITH ... SELECT)
and walks the whole parsed tree for anything that writes, locks, waits, reads files, touches
session state or looks at system tables. The decision is made on sqlglot's tree, never on the
raw text, and callers execute the SQL rendered *from that tree* (``sql.rewrite.render``), so what
runs is exactly what was checked: comments and any text sqlglot did not understand never reach
the database. The one raw-text check is for MySQL executable comments (see ``_raw_text_tricks``).

``sql.check`` re-exports everything here; import from there.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Literal

from sqlglot import exp
from sqlglot.dialects.dialect import Dialect as _SqlglotDialect
from sqlglot.errors import ParseError, TokenError
from sqlglot.tokens import Token, TokenType

from frontdesk.assistants.analyst.sql.denylist import (
    DENIED_FUNCTIONS,
    DENIED_NAME_PARTS,
    DENIED_PREFIXES,
    DENIED_TABLE_FUNCTIONS,
    SYSTEM_SCHEMAS,
)

Dialect = Literal["sqlite", "mysql", "postgres"]
"""Target databases, by sqlglot's names: ``mysql`` covers MariaDB, ``postgres`` PostgreSQL."""
DIALECTS: tuple[Dialect, ...] = ("sqlite", "mysql", "postgres")


class SQLCheckError(ValueError):
    """A problem with the SQL; ``message`` is written for the user and the correction agent."""

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


class InvalidSQL(SQLCheckError):
    """The SQL does not parse (or is empty)."""


class UnsafeSQL(SQLCheckError):
    """The SQL could change data or server state, or reach outside the analyst's tables."""


class UnsupportedSQL(SQLCheckError):
    """The SQL uses a feature the target database cannot run and sqlglot cannot translate."""


@dataclass
class Checked:
    """A statement that passed ``check_read_only``: the parsed tree and the dialect it targets."""

    expression: exp.Query
    dialect: Dialect
    tokens: list[Token] = field(default_factory=list, repr=False)
    read: str = ""  # the dialect that parsed it: the target, or the fallback that could


# Statement and clause nodes that write data or schema, change session or server state, or
# are not plain queries. Checked anywhere in the tree: a DELETE inside a CTE is still a DELETE.
_FORBIDDEN_NODES: dict[type[exp.Expression], str] = {
    exp.Insert: "INSERT",
    exp.Update: "UPDATE",
    exp.Delete: "DELETE",
    exp.Merge: "MERGE",
    exp.Drop: "DROP",
    exp.Create: "CREATE",
    exp.Alter: "ALTER",
    exp.TruncateTable: "TRUNCATE",
    exp.Command: "a command statement",
    exp.Set: "SET",
    exp.Pragma: "PRAGMA",
    exp.Attach: "ATTACH",
    exp.Detach: "DETACH",
    exp.Transaction: "a transaction statement",
    exp.Commit: "COMMIT",
    exp.Rollback: "ROLLBACK",
    exp.Use: "USE",
    exp.Kill: "KILL",
    exp.Analyze: "ANALYZE",
    exp.Describe: "DESCRIBE/EXPLAIN",
    exp.Show: "SHOW",
    exp.Copy: "COPY",
    exp.LoadData: "LOAD DATA",
    exp.Grant: "GRANT",
    exp.Revoke: "REVOKE",
    exp.Into: "SELECT ... INTO (files, variables or new tables)",
    exp.Lock: "locking reads (FOR UPDATE / LOCK IN SHARE MODE)",
    exp.NextValueFor: "NEXT VALUE FOR (advances a sequence)",
}

# Dialects to try, in order, when the target's parser cannot read the model's SQL.
_FALLBACK_READERS: dict[str, tuple[str, ...]] = {
    "sqlite": ("mysql", "postgres"),
    "mysql": ("postgres", "sqlite"),
    "postgres": ("mysql", "sqlite"),
}


# Keywords that, in SQL that failed to parse, mean the text was trying to write or run
# something; used only to choose UnsafeSQL over InvalidSQL for the message.
_WRITE_KEYWORDS = frozenset(
    {
        "INSERT", "UPDATE", "DELETE", "REPLACE", "MERGE", "UPSERT", "DROP", "CREATE", "ALTER",
        "TRUNCATE", "RENAME", "GRANT", "REVOKE", "LOAD", "HANDLER", "CALL", "DO", "LOCK",
        "UNLOCK", "ATTACH", "DETACH", "PRAGMA", "VACUUM", "REINDEX", "OPTIMIZE", "REPAIR",
        "FLUSH", "KILL", "SHUTDOWN", "INSTALL", "UNINSTALL", "PREPARE", "EXECUTE", "DEALLOCATE",
        "OUTFILE", "DUMPFILE", "COMMIT", "ROLLBACK", "SAVEPOINT", "PURGE",
    }
) | {name.upper() for name in DENIED_FUNCTIONS}  # fmt: skip


def _sqlglot_dialect(dialect: Dialect) -> _SqlglotDialect:
    if dialect not in DIALECTS:
        raise ValueError(f"unknown SQL dialect {dialect!r}; expected one of {', '.join(DIALECTS)}")
    return _SqlglotDialect.get_or_raise(dialect)


def _raw_text_tricks(sql: str) -> None:
    # MySQL and MariaDB *execute* the body of /*! ... */ and /*M! ... */ comments, while every
    # other parser (sqlglot included) drops them as comments. We run the SQL sqlglot renders,
    # so such a comment would not reach the server anyway, but text that relies on it is an
    # attack, not a question: refuse it outright. This is the one check made on the raw text.
    if "/*!" in sql or "/*M!" in sql.upper():
        raise UnsafeSQL(
            "MySQL executable comments (/*! ... */) are not allowed: the server would run "
            "their contents."
        )


def _clean_parse_error(error: ParseError | TokenError) -> str:
    details = getattr(error, "errors", None)
    if details:
        first = details[0]
        near = (first.get("highlight") or "").strip()
        where = f"line {first.get('line')}, column {first.get('col')}"
        description = (first.get("description") or "").split(". Line")[0].strip()
        # sqlglot appends its Token repr ("but got <Token token_type: ...>"): noise for users.
        description = description.split(" but got <Token")[0].strip()
        if "Unexpected token" in description or not description:
            description = "unexpected text"
        near_text = f" near '{near}'" if near else ""
        return f"could not parse the SQL{near_text} ({where}): {description}"
    text = str(error).split("\n")[0]
    if "tokeniz" in text.lower():
        return "could not parse the SQL: an unterminated string, quote or comment"
    return f"could not parse the SQL: {text[:200]}"


def _looks_like_write(tokens: list[Token]) -> str | None:
    for token in tokens:
        if token.token_type in (TokenType.STRING, TokenType.IDENTIFIER):
            continue  # quoted text and `quoted names` are data, not keywords
        word = token.text.upper()
        if word in _WRITE_KEYWORDS:
            return word
    return None


def _parse_elsewhere(sql: str, dialect: Dialect) -> tuple[list, list[Token], str] | None:
    # The model sometimes writes another dialect (GROUP_CONCAT ... SEPARATOR for SQLite, or
    # PostgreSQL-isms). Reading it with that dialect and rendering for the target is sqlglot's
    # transpilation; safety does not depend on it, the same checks run on whatever tree results.
    for reader in _FALLBACK_READERS[dialect]:
        other = _SqlglotDialect.get_or_raise(reader)
        try:
            tokens = other.tokenize(sql)
            return other.parser().parse(tokens, sql), tokens, reader
        except (ParseError, TokenError):
            continue
    return None


def parse_statement(sql: str, dialect: Dialect) -> tuple[exp.Expression, list[Token], str]:
    """Parse ``sql`` as exactly one statement for ``dialect``: (statement, tokens, reader).

    Raises InvalidSQL for empty or unparseable text, UnsafeSQL for stacked statements and for
    unparseable text that carries write keywords.
    """
    if not isinstance(sql, str) or not sql.strip():
        raise InvalidSQL("the SQL is empty")
    _raw_text_tricks(sql)
    target = _sqlglot_dialect(dialect)
    reader: str = dialect
    try:
        tokens = target.tokenize(sql)
    except TokenError as error:
        raise InvalidSQL(_clean_parse_error(error)) from None
    try:
        statements = target.parser().parse(tokens, sql)
    except ParseError as error:
        word = _looks_like_write(tokens)
        if word:
            raise UnsafeSQL(
                f"only a single read-only SELECT is allowed; the SQL contains {word} and could "
                f"not be parsed as a query ({_clean_parse_error(error)})"
            ) from None
        elsewhere = _parse_elsewhere(sql, dialect)
        if elsewhere is None:
            raise InvalidSQL(_clean_parse_error(error)) from None
        statements, tokens, reader = elsewhere
    # Empty statements (";;" or a trailing comment after the last ";") parse as None or as
    # Semicolon nodes; anything else after the first statement is a stacked statement.
    real = [s for s in statements if s is not None and not isinstance(s, exp.Semicolon)]
    if not real:
        raise InvalidSQL("the SQL is empty")
    if len(real) > 1:
        kinds = ", ".join(_statement_name(s) for s in real[1:])
        raise UnsafeSQL(
            f"only one statement is allowed; found {len(real)} statements separated by ';' "
            f"(then: {kinds})"
        )
    return real[0], tokens, reader


def _statement_name(node: exp.Expression) -> str:
    for kind, name in _FORBIDDEN_NODES.items():
        if isinstance(node, kind):
            return name
    return node.key.upper()


def _huge_format(node: exp.Func, names: set[str]) -> bool:
    # SQLite's printf('%.*c', 1000000000, 'x') spends seconds inside one C call, where neither
    # the progress handler nor interrupt() can stop it: refuse computed ('*') or 5+ digit
    # widths in a literal format string.
    if not names & {"printf", "format"}:
        return False
    first = node.expressions[0] if isinstance(node, exp.Anonymous) else node.this
    if not (isinstance(first, exp.Literal) and first.is_string):
        return False
    digits = 0
    for char in first.this:
        digits = digits + 1 if char.isdigit() else 0
        if char == "*" or digits >= 5:
            return True
    return False


def _denied_by_name(name: str) -> bool:
    return any(part in name for part in DENIED_NAME_PARTS)


def _denied_function(names: set[str], anonymous: bool) -> set[str]:
    denied = names & DENIED_FUNCTIONS
    denied |= {n for n in names if n.startswith(DENIED_PREFIXES)}
    if anonymous:
        denied |= {n for n in names if _denied_by_name(n)}
    return denied


def function_names(node: exp.Func) -> set[str]:
    """Every lower-case name a function node goes by (its SQL names and its class name)."""
    if isinstance(node, exp.Anonymous):
        return {node.name.lower()}
    names = {node.key.lower(), node.sql_name().lower()}
    names.update(name.lower() for name in getattr(type(node), "_sql_names", ()) or ())
    return names


def is_cte_reference(table: exp.Table) -> bool:
    """Whether ``table`` names a CTE in scope rather than a physical table.

    Walks up the tree: a CTE is visible in its query's body, in later CTEs of the same WITH,
    and in its own body only when the WITH is RECURSIVE.
    """
    if (
        table.args.get("db")
        or table.args.get("catalog")
        or not isinstance(table.this, exp.Identifier)
    ):
        return False
    name = table.name.lower()
    via_cte: exp.Expression | None = None  # the last CTE whose body we climbed out of
    node = table.parent
    while node is not None:
        if isinstance(node, exp.CTE):
            via_cte = node
        with_ = node.args.get("with_") if isinstance(node, exp.Query) else None
        if isinstance(with_, exp.With):
            ctes = list(with_.expressions)
            inside = next((i for i, cte in enumerate(ctes) if cte is via_cte), None)
            for index, cte in enumerate(ctes):
                if cte.alias.lower() != name:
                    continue
                if inside is None or index < inside:
                    return True
                if index == inside and with_.args.get("recursive"):
                    return True
            via_cte = None  # above this WITH, we are in its query's body
        node = node.parent
    return False


def _check_table(table: exp.Table) -> None:
    if isinstance(table.this, exp.Func):
        names = function_names(table.this)
        if any(n.startswith("pragma_") or n in DENIED_TABLE_FUNCTIONS for n in names):
            raise UnsafeSQL(f"the table function {table.this.sql()} is not allowed")
        return
    qualifiers = [part.lower() for part in (table.catalog, table.db) if part]
    name = table.name
    if any(q in SYSTEM_SCHEMAS for q in qualifiers) or name.lower() in SYSTEM_SCHEMAS:
        raise UnsafeSQL(f"system schemas are not allowed ({table.sql()})")
    if qualifiers:
        raise UnsafeSQL(
            f"database-qualified table names are not allowed ({table.sql()}); "
            f"use the table name alone: {name}"
        )
    lowered = name.lower()
    if lowered.startswith("sqlite_"):  # sqlite_master, sqlite_schema, sqlite_dbpage, ...
        raise UnsafeSQL(f"SQLite system tables are not allowed ({name})")
    if lowered.startswith("pg_"):  # pg_settings (shows the session's key), pg_authid, ...
        raise UnsafeSQL(f"PostgreSQL system tables are not allowed ({name})")
    if lowered.startswith("_") and not is_cte_reference(table):
        raise UnsafeSQL(f"the table '{name}' is not available to the analyst")


def _check_node(node: exp.Expression) -> None:
    for kind, name in _FORBIDDEN_NODES.items():
        if isinstance(node, kind):
            raise UnsafeSQL(f"only read-only queries are allowed, and this one uses {name}")
    if isinstance(node, (exp.Parameter, exp.SessionParameter)):
        raise UnsafeSQL(
            f"user and system variables are not allowed ({node.sql()}): they can hold secrets "
            "and assigning them changes the session"
        )
    if isinstance(node, exp.PropertyEQ):
        raise UnsafeSQL("assignments (:=) are not allowed in a query")
    if isinstance(node, exp.Func):
        names = function_names(node)
        denied = _denied_function(names, isinstance(node, exp.Anonymous))
        if denied:
            raise UnsafeSQL(f"the function {min(denied).upper()}() is not allowed")
        if _huge_format(node, names):
            raise UnsafeSQL("printf/format with a computed or huge width is not allowed")
    if isinstance(node, exp.Dot) and isinstance(node.expression, exp.Func):
        raise UnsafeSQL(
            f"schema-qualified function calls are not allowed ({node.sql()}); stored "
            "functions can have side effects"
        )
    if isinstance(node, exp.Table):
        _check_table(node)


def _root_query(statement: exp.Expression) -> exp.Query:
    node = statement
    # "(SELECT ...)" at the top is the same query; keep the parentheses' own LIMIT/ORDER.
    while isinstance(node, exp.Subquery) and len([v for v in node.args.values() if v]) == 1:
        node = node.this
    if isinstance(node, (exp.Select, exp.SetOperation, exp.Subquery)):
        return node
    if isinstance(statement, tuple(_FORBIDDEN_NODES)):
        raise UnsafeSQL(f"only SELECT queries are allowed; this is {_statement_name(statement)}")
    raise UnsafeSQL(
        "only SELECT queries are allowed (SELECT, UNION/INTERSECT/EXCEPT of selects, "
        "or WITH ... SELECT)"
    )


def check_read_only(sql: str, dialect: Dialect) -> Checked:
    """Accept one read-only query or raise ``UnsafeSQL`` / ``InvalidSQL`` explaining why not."""
    statement, tokens, reader = parse_statement(sql, dialect)
    root = _root_query(statement)
    for node in root.walk():
        _check_node(node)
    return Checked(expression=root, dialect=dialect, tokens=tokens, read=reader)
