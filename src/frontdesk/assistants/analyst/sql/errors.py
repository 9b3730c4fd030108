"""Turn SQLite, MySQL/MariaDB and PostgreSQL errors into a kind and a message the correction agent can use.

The agent reads ``message`` to fix its SQL, so the text is the database's own explanation with
the driver noise removed (error-code tuples, "check the manual that corresponds to your MariaDB
server version", SQLAlchemy's background links) and nothing that identifies the server beyond
host and port: no URLs, no user names, no passwords.
"""

from __future__ import annotations

import re
import sqlite3

# MySQL/MariaDB error codes -> kind (https://mariadb.com/kb/en/mariadb-error-codes/).
_MYSQL_KINDS: dict[int, str] = {
    1064: "syntax",  # ER_PARSE_ERROR
    1149: "syntax",  # ER_SYNTAX_ERROR
    1146: "unknown_table",  # ER_NO_SUCH_TABLE
    1109: "unknown_table",  # ER_UNKNOWN_TABLE (in MULTI DELETE / qualifier)
    1051: "unknown_table",  # ER_BAD_TABLE_ERROR
    1054: "unknown_column",  # ER_BAD_FIELD_ERROR
    1969: "timeout",  # ER_STATEMENT_TIMEOUT (MariaDB max_statement_time)
    3024: "timeout",  # ER_QUERY_TIMEOUT (MySQL max_execution_time)
    1317: "timeout",  # ER_QUERY_INTERRUPTED
    1792: "read_only",  # ER_CANT_EXECUTE_IN_READ_ONLY_TRANSACTION
    1290: "read_only",  # ER_OPTION_PREVENTS_STATEMENT (--read-only)
    1836: "read_only",  # ER_READ_ONLY_MODE
    1045: "connection",  # ER_ACCESS_DENIED_ERROR
    1044: "connection",  # ER_DBACCESS_DENIED_ERROR
    1049: "connection",  # ER_BAD_DB_ERROR
    1040: "connection",  # ER_CON_COUNT_ERROR
    2002: "connection",  # CR_CONNECTION_ERROR (socket)
    2003: "connection",  # CR_CONN_HOST_ERROR
    2005: "connection",  # CR_UNKNOWN_HOST
    2006: "connection",  # CR_SERVER_GONE_ERROR
    2013: "connection",  # CR_SERVER_LOST
    2055: "connection",  # CR_SERVER_LOST_EXTENDED
}

_CLAUSES = {
    "'field list'": "the SELECT list",
    "'where clause'": "the WHERE clause",
    "'on clause'": "a JOIN ... ON condition",
    "'order clause'": "the ORDER BY clause",
    "'group statement'": "the GROUP BY clause",
    "'having clause'": "the HAVING clause",
}

_URL = re.compile(r"\b[a-z][\w+.-]*://\S+", re.IGNORECASE)
_MANUAL = re.compile(
    r"You have an error in your SQL syntax; check the manual that corresponds to your "
    r"\w+ server version for the right syntax to use",
    re.IGNORECASE,
)


def scrub(message: str) -> str:
    """Remove URLs (which can carry passwords) and SQLAlchemy's trailers from a message."""
    message = message.split("\n(Background on this error")[0]
    message = message.split("\n[SQL:")[0]
    message = _URL.sub("<url>", message)
    return " ".join(message.split())


def _mysql_code_and_text(error: BaseException) -> tuple[int | None, str]:
    args = getattr(error, "args", ())
    if len(args) >= 2 and isinstance(args[0], int):
        return args[0], str(args[1])
    return None, str(error)


def _clean_mysql(code: int | None, text: str) -> str:
    text = _MANUAL.sub("syntax error", text)
    if code == 1146:
        # "Table 'dbname.foo' doesn't exist": the schema name means nothing to the agent.
        text = re.sub(r"Table '[^'.]+\.([^']+)'", r"Table '\1'", text)
    for raw, plain in _CLAUSES.items():
        text = text.replace(raw, plain)
    if code in (2003, 2005, 2002):
        # "Can't connect to MySQL server on 'h' ([Errno 111] Connection refused)" -> reason
        reason = text.rsplit("(", 1)[-1].rstrip(")") if "(" in text else text
        text = re.sub(r"\[Errno -?\d+\]\s*", "", reason)
    if code == 1045:
        text = "access denied: check the analyst database user and password settings"
    return text


def _classify_sqlite(error: sqlite3.Error | sqlite3.Warning) -> tuple[str, str]:
    text = str(error)
    lowered = text.lower()
    if "one statement at a time" in lowered:  # the driver refuses stacked statements
        return "syntax", "only one statement can run at a time"
    if lowered.startswith("no such table"):
        return "unknown_table", text
    if lowered.startswith("no such column"):
        return "unknown_column", text
    if (
        "syntax error" in lowered
        or "incomplete input" in lowered
        or "unrecognized token" in lowered
    ):
        return "syntax", text
    if "interrupted" in lowered:
        return "timeout", "the query took too long and was stopped"
    if "readonly" in lowered or "read-only" in lowered or "query_only" in lowered:
        return "read_only", text
    if any(s in lowered for s in ("unable to open", "not a database", "disk i/o")):
        return "connection", text
    return "other", text


# PostgreSQL SQLSTATE codes (and classes, by their first two characters) -> kind.
_POSTGRES_KINDS: dict[str, str] = {
    "42601": "syntax",  # syntax_error
    "42P01": "unknown_table",  # undefined_table
    "42703": "unknown_column",  # undefined_column
    "57014": "timeout",  # query_canceled (statement_timeout)
    "25006": "read_only",  # read_only_sql_transaction
    "42501": "read_only",  # insufficient_privilege
    "3D000": "connection",  # invalid_catalog_name: the database does not exist
    "08": "connection",  # connection_exception
    "28": "connection",  # invalid_authorization_specification
    "57P": "connection",  # admin/crash shutdown, cannot connect now
}


def _classify_postgres(error: BaseException) -> tuple[str, str]:
    code = getattr(error, "sqlstate", None) or ""
    kind = next(
        (k for prefix, k in _POSTGRES_KINDS.items() if code.startswith(prefix)),
        "connection" if not code and type(error).__name__ == "OperationalError" else "other",
    )
    diag = getattr(error, "diag", None)
    text = getattr(diag, "message_primary", None) or str(error).split("\n")[0]
    hint = getattr(diag, "message_hint", None)
    if hint:
        text = f"{text} ({hint})"
    if kind == "timeout":
        text = "the query took too long and was stopped"
    elif kind == "connection" and not code:
        # psycopg: 'connection failed: connection to server at "127.0.0.1", port 5433 failed:
        # Connection refused' and a second line of advice: the first line says what happened.
        first = str(error).strip().splitlines()[0] if str(error).strip() else text
        text = first.removeprefix("connection failed: ")
    return kind, text


def classify_error(error: BaseException) -> tuple[str, str]:
    """``(kind, message)`` for a driver exception (sqlite3, pymysql, psycopg) or anything else."""
    if isinstance(error, (sqlite3.Error, sqlite3.Warning)):
        kind, text = _classify_sqlite(error)
        return kind, scrub(text)
    module = type(error).__module__ or ""
    if module.startswith(("pymysql", "MySQLdb", "mysql", "mariadb")):
        code, text = _mysql_code_and_text(error)
        kind = _MYSQL_KINDS.get(code or -1, "other")
        if code == 1142 and not text.upper().startswith("SELECT"):
            kind = "read_only"  # "DELETE command denied to user": a SELECT-only account
        return kind, scrub(_clean_mysql(code, text))
    if module.startswith("psycopg"):
        kind, text = _classify_postgres(error)
        return kind, scrub(text)
    if isinstance(error, (ConnectionError, TimeoutError, OSError)):
        return "connection", scrub(str(error))
    return "other", scrub(str(error) or type(error).__name__)
