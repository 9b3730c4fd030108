"""Which tables hold encrypted PII, and the `secure_*` views that decrypt it.

Six tables of the field-service database keep personal data (names, e-mails, phones, street
addresses, free-text notes) as AES ciphertext. Each has a view named in `SECURE_VIEW_MAP` with
every column of the base table under the same name, the encrypted ones decrypted to text with
the session's key. Queries read the views, so the key never appears in SQL text, the model never
sees ciphertext, and a connection without the key sees nothing readable.

- SQLite: the connection registers `aes_decrypt(blob, key)` and a zero-argument `aes_key()`
  (see `engine.open_engine`); the view calls both.
- MariaDB: views may not read user variables, so a stored function `frontdesk_aes_key()`
  returns the session's `@aesKey` (set on connect) and the view calls the native `AES_DECRYPT`.
- PostgreSQL: the connection sets `frontdesk.aes_key` (the key folded as MySQL folds it, in
  hex) and the view calls `frontdesk_aes_decrypt(blob)`, which decrypts with pgcrypto's
  aes-ecb and, like MySQL, answers NULL for a missing or wrong key instead of failing.

The query rewriter (elsewhere) maps base table names to views with `SECURE_VIEW_MAP`.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

SECURE_VIEW_MAP: dict[str, str] = {
    "user": "secure_user",
    "employee": "secure_employee",
    "workOrder": "secure_workorder",
    "customer": "secure_customer",
    "customerLocation": "secure_customerlocation",
    "customerContact": "secure_customercontact",
}

# Table -> columns stored as AES ciphertext (BLOB in SQLite, VARBINARY/BLOB in MariaDB).
ENCRYPTED_COLUMNS: dict[str, tuple[str, ...]] = {
    "user": ("fullName", "email", "phone"),
    "employee": ("firstName", "lastName", "email", "phone", "homeAddress"),
    "workOrder": ("contactName", "contactPhone", "notes"),
    "customer": ("name", "email", "phone", "billingAddress"),
    "customerLocation": ("address", "siteContactName", "siteContactPhone"),
    "customerContact": ("firstName", "lastName", "email", "phone"),
}

MYSQL_KEY_FUNCTION = "frontdesk_aes_key"
POSTGRES_DECRYPT_FUNCTION = "frontdesk_aes_decrypt"
POSTGRES_KEY_SETTING = "frontdesk.aes_key"
DIALECTS = ("sqlite", "mysql", "postgres")
_DEFAULT_CHARS = 255


def is_encrypted(table: str, column: str) -> bool:
    return column in ENCRYPTED_COLUMNS.get(table, ())


def mysql_key_function_ddl() -> list[str]:
    """Statements that (re)create the MariaDB function the views read the session key from.

    NO SQL lets it be created with binary logging on; NOT DETERMINISTIC because the value is
    per session, so the optimizer must not fold it across sessions.
    """
    return [
        f"DROP FUNCTION IF EXISTS {MYSQL_KEY_FUNCTION}",
        (
            f"CREATE FUNCTION {MYSQL_KEY_FUNCTION}() RETURNS VARCHAR(255) CHARACTER SET utf8mb4 "
            "NOT DETERMINISTIC NO SQL RETURN @aesKey"
        ),
    ]


def postgres_decrypt_function_ddl() -> list[str]:
    """Statements that (re)create pgcrypto and the PostgreSQL function the views decrypt with.

    STABLE: the key is fixed within a statement. The exception handler turns pgcrypto's
    "Wrong key or corrupt data" into NULL, as MySQL's AES_DECRYPT does, so a session with the
    wrong key reads NULLs rather than failing every query."""
    return [
        "CREATE EXTENSION IF NOT EXISTS pgcrypto",
        (
            f"CREATE OR REPLACE FUNCTION {POSTGRES_DECRYPT_FUNCTION}(data bytea) RETURNS text "
            "LANGUAGE plpgsql STABLE AS $$ BEGIN RETURN convert_from(decrypt(data, "
            f"decode(current_setting('{POSTGRES_KEY_SETTING}', true), 'hex'), 'aes-ecb'), "
            "'UTF8'); EXCEPTION WHEN OTHERS THEN RETURN NULL; END $$"
        ),
    ]


def _quote(name: str, dialect: str) -> str:
    if dialect == "mysql":
        return "`" + name.replace("`", "``") + "`"
    return '"' + name.replace('"', '""') + '"'


def _check_dialect(dialect: str) -> None:
    if dialect not in DIALECTS:
        raise ValueError(f"unknown dialect {dialect!r}; expected one of {DIALECTS}")


def decrypt_expression(
    column: str, dialect: str, *, chars: int = _DEFAULT_CHARS, alias: bool = True
) -> str:
    """The SQL that decrypts one encrypted column (aliased to its own name by default)."""
    _check_dialect(dialect)
    col = _quote(column, dialect)
    if dialect == "sqlite":
        expr = f"CAST(aes_decrypt({col}, aes_key()) AS TEXT)"
    elif dialect == "postgres":
        expr = f"{POSTGRES_DECRYPT_FUNCTION}({col})"
    else:
        # CHARACTER SET pins the text decoding to UTF-8 whatever the client's charset is.
        expr = (
            f"CAST(AES_DECRYPT({col}, {MYSQL_KEY_FUNCTION}()) "
            f"AS CHAR({chars}) CHARACTER SET utf8mb4)"
        )
    return f"{expr} AS {col}" if alias else expr


def view_ddl(
    table: str,
    columns: Sequence[str],
    dialect: str,
    *,
    char_lengths: Mapping[str, int] | None = None,
) -> list[str]:
    """DROP + CREATE statements for the secure view of `table` with `columns` in order.

    `char_lengths` gives MariaDB's CAST length per encrypted column (default 255) so long
    free-text columns are not truncated.
    """
    _check_dialect(dialect)
    if table not in SECURE_VIEW_MAP:
        raise KeyError(f"{table!r} has no secure view")
    view = SECURE_VIEW_MAP[table]
    encrypted = set(ENCRYPTED_COLUMNS[table])
    missing = encrypted - set(columns)
    if missing:
        raise ValueError(f"{table}: encrypted columns {sorted(missing)} not among the columns")
    lengths = char_lengths or {}
    select_list = [
        decrypt_expression(name, dialect, chars=lengths.get(name, _DEFAULT_CHARS))
        if name in encrypted
        else _quote(name, dialect)
        for name in columns
    ]
    body = ",\n  ".join(select_list)
    return [
        f"DROP VIEW IF EXISTS {_quote(view, dialect)}",
        f"CREATE VIEW {_quote(view, dialect)} AS SELECT\n  {body}\nFROM {_quote(table, dialect)}",
    ]


def all_views_ddl(
    tables: Mapping[str, Sequence[str]],
    dialect: str,
    *,
    char_lengths: Mapping[str, Mapping[str, int]] | None = None,
) -> list[str]:
    """Statements for every secure view; `tables` maps base table -> its columns in order.

    On MariaDB and PostgreSQL the key or decrypt function comes first, since the views call it.
    """
    functions = {"mysql": mysql_key_function_ddl, "postgres": postgres_decrypt_function_ddl}
    statements = functions[dialect]() if dialect in functions else []
    for table in SECURE_VIEW_MAP:
        lengths = (char_lengths or {}).get(table)
        statements += view_ddl(table, tables[table], dialect, char_lengths=lengths)
    return statements
