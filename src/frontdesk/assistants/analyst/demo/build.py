"""Builds the demo field-service database on SQLite (embedded default) or MariaDB (production).

Both builds come from the same definitions (`schema.tables.TABLES`, SQLAlchemy Core emits the
DDL per dialect) and the same rows (`data.generate.generate()`), with the PII columns of
`ENCRYPTED_COLUMNS` encrypted by `db.crypto.aes_encrypt` (byte-identical to MariaDB's
`AES_ENCRYPT`), and the same `secure_*` views on top. Declared relationships become FOREIGN KEY constraints; every
relationship column, declared or not, gets an index, as a real schema would.

- `build_sqlite(path, key)` is idempotent: it rebuilds only when the file is missing or was
  built from another schema/data fingerprint or with another key, and it writes a temporary
  file that replaces the target atomically, so readers never see a half-built database.
- `build_mysql(url, key, schema=...)` drops and recreates the schema (database) each time.
- `build_postgres(url, key, database=...)` drops and recreates the database each time (and
  needs pgcrypto, PostgreSQL's contrib extension, for the secure views).

The hidden table `_frontdesk_meta` (hidden tables start with `_`) records the fingerprint and
a key check (the ciphertext of a constant) so a rebuild is detected without decrypting data.
"""

from __future__ import annotations

import hashlib
import re
import sqlite3
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from sqlalchemy import (
    Boolean,
    Column,
    Date,
    DateTime,
    ForeignKey,
    Integer,
    LargeBinary,
    MetaData,
    Numeric,
    SmallInteger,
    String,
    Table,
    Text,
    Time,
    create_engine,
    text,
)
from sqlalchemy.dialects import mysql, postgresql, sqlite
from sqlalchemy.engine import URL, make_url
from sqlalchemy.schema import CreateIndex, CreateTable
from sqlalchemy.types import TypeEngine

from frontdesk.assistants.analyst.db.crypto import aes_encrypt
from frontdesk.assistants.analyst.db.secure_views import (
    ENCRYPTED_COLUMNS,
    all_views_ddl,
    is_encrypted,
)
from frontdesk.assistants.analyst.db.sqlite_file import atomic_sqlite
from frontdesk.assistants.analyst.demo.data.generate import DEFAULT_SEED, generate
from frontdesk.assistants.analyst.demo.schema import tables as demo_schema
from frontdesk.db_url import database_url

__all__ = [
    "DEMO_VERSION",
    "META_TABLE",
    "build_mysql",
    "build_postgres",
    "build_sqlite",
    "ddl",
    "fingerprint",
    "metadata",
]

# Bump when the meaning of the data changes; edits to the generator code are picked up by the
# fingerprint anyway (it hashes the generator's source), so a stale demo file is rebuilt.
DEMO_VERSION = "2025.12.15-1"
META_TABLE = "_frontdesk_meta"
KEY_CHECK = "frontdesk-demo-key-check"
_LONG_TEXT = 2000
_DEMO_DIR = Path(__file__).resolve().parent


def _length(type_name: str) -> int | None:
    match = re.fullmatch(r"VARCHAR\((\d+)\)", type_name)
    return int(match.group(1)) if match else None


def _encrypted_type(type_name: str, dialect: str) -> TypeEngine:
    if dialect in ("sqlite", "postgres"):
        return LargeBinary()  # BLOB, bytea
    chars = _length(type_name) or _LONG_TEXT
    # Up to 4 UTF-8 bytes per character, plus a full block of PKCS#7 padding.
    return mysql.VARBINARY((chars * 4 // 16 + 1) * 16)


def _sql_type(type_name: str, dialect: str) -> TypeEngine:
    if type_name == "INTEGER":
        return Integer()
    if type_name == "TEXT":
        return Text()
    if type_name == "DATE":
        return Date()
    if type_name == "DATETIME":
        return DateTime()
    if type_name == "TIME":
        return Time()
    if type_name == "BOOLEAN" and dialect == "postgres":
        # 0/1 as on MariaDB (whose BOOLEAN is TINYINT(1)) and SQLite, so the same data and
        # the same "isActive = 1" read alike on all three engines.
        return SmallInteger()
    if type_name == "BOOLEAN":
        return Boolean(create_constraint=False)
    if (length := _length(type_name)) is not None:
        return String(length)
    match = re.fullmatch(r"DECIMAL\((\d+),(\d+)\)", type_name)
    if match:
        return Numeric(int(match.group(1)), int(match.group(2)), asdecimal=False)
    raise ValueError(f"unknown column type {type_name!r}")


def _wants_index(col, dialect: str) -> bool:
    # InnoDB indexes FOREIGN KEY columns by itself; SQLite does not, and undeclared
    # relationship columns have no constraint to carry an index anywhere.
    return col.references is not None and (dialect == "sqlite" or not col.declared_fk)


def metadata(dialect: str) -> MetaData:
    """SQLAlchemy tables for `dialect` ('sqlite', 'mysql' or 'postgres'), with the meta table."""
    meta = MetaData()
    for table in demo_schema.TABLES:
        columns = []
        for col in table.columns:
            if col.name == "id":
                columns.append(Column("id", Integer, primary_key=True, comment=col.description))
                continue
            sql_type = (
                _encrypted_type(col.type, dialect)
                if is_encrypted(table.name, col.name)
                else _sql_type(col.type, dialect)
            )
            args = (
                [ForeignKey(f"{col.references[0]}.{col.references[1]}")]
                if col.references and col.declared_fk
                else []
            )
            columns.append(
                Column(
                    col.name,
                    sql_type,
                    *args,
                    nullable=col.nullable,
                    index=_wants_index(col, dialect),
                    comment=col.description or None,
                )
            )
        Table(table.name, meta, *columns, comment=table.description)
    Table(
        META_TABLE,
        meta,
        Column("id", Integer, primary_key=True),
        Column("metaKey", String(64), nullable=False, unique=True),
        Column("metaValue", String(255)),
        comment="Build information of the demo database",
    )
    return meta


def ddl(dialect: str) -> list[str]:
    """CREATE TABLE / CREATE INDEX statements for `dialect`, tables in dependency order."""
    sa_dialect = {"sqlite": sqlite, "mysql": mysql, "postgres": postgresql}[dialect].dialect()
    statements = []
    for table in metadata(dialect).sorted_tables:
        statements.append(str(CreateTable(table).compile(dialect=sa_dialect)).strip())
        statements += [
            str(CreateIndex(index).compile(dialect=sa_dialect)).strip()
            for index in sorted(table.indexes, key=lambda i: i.name or "")
        ]
    return statements


def fingerprint() -> str:
    """Hash of the version, the schema, the encrypted column set and the generator's source."""
    digest = hashlib.sha256()
    digest.update(
        f"{DEMO_VERSION}|{DEFAULT_SEED}|{demo_schema.TABLES!r}|{ENCRYPTED_COLUMNS!r}".encode()
    )
    for source in sorted(_DEMO_DIR.glob("data*.py")):
        digest.update(source.name.encode())
        digest.update(source.read_bytes())
    return digest.hexdigest()


def _key_check(key: str) -> str:
    return aes_encrypt(KEY_CHECK, key).hex()


def _view_columns() -> dict[str, list[str]]:
    return {name: list(demo_schema.TABLE_BY_NAME[name].column_names) for name in ENCRYPTED_COLUMNS}


def _view_lengths() -> dict[str, dict[str, int]]:
    return {
        name: {
            col: _length(demo_schema.TABLE_BY_NAME[name].column(col).type) or _LONG_TEXT
            for col in cols
        }
        for name, cols in ENCRYPTED_COLUMNS.items()
    }


def _encrypted_rows(
    rows: dict[str, list[dict[str, Any]]], key: str
) -> Iterable[tuple[str, list[str], list[tuple]]]:
    for table in demo_schema.TABLES:
        names = list(table.column_names)
        secret = set(ENCRYPTED_COLUMNS.get(table.name, ()))
        values = [
            tuple(aes_encrypt(row[c], key) if c in secret else row[c] for c in names)
            for row in rows[table.name]
        ]
        yield table.name, names, values


def _meta_rows(key: str) -> list[tuple]:
    return [
        (1, "demoVersion", DEMO_VERSION),
        (2, "fingerprint", fingerprint()),
        (3, "keyCheck", _key_check(key)),
        (4, "seed", str(DEFAULT_SEED)),
    ]


def _sqlite_meta(path: Path) -> dict[str, str]:
    try:
        uri = path.resolve().as_uri() + "?mode=ro"
        with sqlite3.connect(uri, uri=True) as conn:
            found = conn.execute(f'SELECT metaKey, metaValue FROM "{META_TABLE}"').fetchall()
        conn.close()
        return dict(found)
    except sqlite3.Error:
        return {}


def build_sqlite(path: Path | str, key: str) -> Path:
    """Write the demo database to `path` unless an up-to-date one built with `key` is there."""
    path = Path(path)
    current = _sqlite_meta(path) if path.exists() else {}
    if current.get("fingerprint") == fingerprint() and current.get("keyCheck") == _key_check(key):
        return path
    with atomic_sqlite(path) as conn:
        for statement in ddl("sqlite"):
            conn.execute(statement)
        for table, names, values in _encrypted_rows(generate(), key):
            quoted = ", ".join(f'"{n}"' for n in names)
            marks = ", ".join("?" * len(names))
            conn.executemany(f'INSERT INTO "{table}" ({quoted}) VALUES ({marks})', values)
        for statement in all_views_ddl(_view_columns(), "sqlite"):
            conn.execute(statement)
        conn.executemany(
            f'INSERT INTO "{META_TABLE}" (id, metaKey, metaValue) VALUES (?, ?, ?)',
            _meta_rows(key),
        )
        conn.commit()
    return path


def build_mysql(url: str, key: str, *, schema: str | None = None) -> None:
    """Drop and recreate the database named by `schema` (default: the URL's) with the demo."""
    target = schema or make_url(url).database
    if not target or not re.fullmatch(r"[A-Za-z0-9_]+", target):
        raise ValueError(f"a plain schema name is required, got {target!r}")
    parsed = make_url(url)
    server = URL.create(
        parsed.drivername,
        username=parsed.username,
        password=parsed.password,
        host=parsed.host,
        port=parsed.port,
        query=parsed.query,
    )
    query = dict(server.query)
    query.setdefault("charset", "utf8mb4")
    server = server.set(query=query)
    admin = create_engine(server, isolation_level="AUTOCOMMIT")
    try:
        with admin.connect() as conn:
            conn.execute(text(f"DROP DATABASE IF EXISTS `{target}`"))
            conn.execute(
                text(f"CREATE DATABASE `{target}` CHARACTER SET utf8mb4 COLLATE utf8mb4_unicode_ci")
            )
    finally:
        admin.dispose()
    engine = create_engine(server.set(database=target))
    try:
        # Rows arrive table by table, not in foreign-key order.
        _fill(engine, "mysql", key, "SET FOREIGN_KEY_CHECKS = 0", "SET FOREIGN_KEY_CHECKS = 1")
    finally:
        engine.dispose()


def build_postgres(url: str, key: str, *, database: str | None = None) -> None:
    """Drop and recreate the PostgreSQL database `database` (default: the URL's) with the demo.

    Connects to the server's `postgres` database to drop and create it, so the URL's user must
    be allowed to create databases and the pgcrypto extension (the local trust setup is)."""
    parsed = database_url(url)
    target = database or parsed.database
    if not target or not re.fullmatch(r"[A-Za-z0-9_]+", target):
        raise ValueError(f"a plain database name is required, got {target!r}")
    admin = create_engine(parsed.set(database="postgres"), isolation_level="AUTOCOMMIT")
    try:
        with admin.connect() as conn:
            conn.execute(text(f'DROP DATABASE IF EXISTS "{target}" WITH (FORCE)'))
            conn.execute(text(f"CREATE DATABASE \"{target}\" ENCODING 'UTF8' TEMPLATE template0"))
    finally:
        admin.dispose()
    engine = create_engine(parsed.set(database=target))
    try:
        # Rows arrive table by table, not in foreign-key order: no FK triggers while loading.
        replica = "SET session_replication_role = "
        _fill(engine, "postgres", key, replica + "replica", replica + "DEFAULT")
    finally:
        engine.dispose()


def _fill(engine, dialect: str, key: str, checks_off: str, checks_on: str) -> None:
    """Tables, rows (encrypted PII), secure views and the meta rows, in one transaction on a
    server database; `checks_off`/`checks_on` suspend foreign-key checks while rows load."""
    quote = "`" if dialect == "mysql" else '"'
    metadata(dialect).create_all(engine)
    raw = engine.raw_connection()
    try:
        cursor = raw.cursor()
        cursor.execute(checks_off)
        for table, names, values in _encrypted_rows(generate(), key):
            if not values:
                continue
            quoted = ", ".join(f"{quote}{n}{quote}" for n in names)
            marks = ", ".join(["%s"] * len(names))
            # pymysql and psycopg batch an executemany of one INSERT ... VALUES.
            cursor.executemany(
                f"INSERT INTO {quote}{table}{quote} ({quoted}) VALUES ({marks})", values
            )
        cursor.execute(checks_on)
        lengths = _view_lengths() if dialect == "mysql" else None
        for statement in all_views_ddl(_view_columns(), dialect, char_lengths=lengths):
            cursor.execute(statement)
        meta = f"{quote}{META_TABLE}{quote} (id, {quote}metaKey{quote}, {quote}metaValue{quote})"
        cursor.executemany(f"INSERT INTO {meta} VALUES (%s, %s, %s)", _meta_rows(key))
        raw.commit()
    finally:
        raw.close()
