"""The checker's PostgreSQL target, without a server: names respelled and quoted for
PostgreSQL's case rules, MySQL's clock calls translated, its own attack surface refused."""

from __future__ import annotations

from types import SimpleNamespace

import pytest

from frontdesk.assistants.analyst.sql import check as sqlcheck
from frontdesk.assistants.analyst.sql.executor import UnsupportedDatabase, engine_dialect

CATALOG = sqlcheck.SchemaCatalog(
    {"workOrder": ["id", "status", "customerId"], "customer": ["id", "name"], "Album": ["AlbumId"]}
)


def _sql(text: str) -> str:
    result = sqlcheck.validate(
        text, CATALOG, "postgres", secure_map={"customer": "secure_customer"}
    )
    assert result.ok, result.errors
    return result.sql


def test_names_written_in_any_case_run_as_the_catalog_spells_them():
    sql = _sql(
        "select w.status, count(*) from workorder w join customer c on c.id = w.customerid "
        "group by w.status"
    )
    assert 'FROM "workOrder" AS w' in sql and 'w."customerId"' in sql
    assert "JOIN secure_customer AS c" in sql
    # Qualifiers and table aliases stay unquoted, so they fold alike wherever written.
    assert _sql("SELECT album.albumid FROM album") == (
        'SELECT album."AlbumId" FROM "Album" AS album LIMIT 100'
    )
    assert _sql("SELECT Album.AlbumId AS albumKey FROM Album ORDER BY albumKey") == (
        'SELECT Album."AlbumId" AS "albumKey" FROM "Album" AS Album ORDER BY "albumKey" LIMIT 100'
    )


def test_the_same_names_stay_unquoted_for_sqlite():
    result = sqlcheck.validate("select customerid from workorder", CATALOG, "sqlite")
    assert result.sql == "SELECT customerId FROM workOrder AS workorder LIMIT 100"


def test_prepare_respells_gold_sql_too():
    sql = sqlcheck.prepare("SELECT COUNT(*) FROM WORKORDER", dialect="postgres", catalog=CATALOG)
    assert sql == 'SELECT COUNT(*) FROM "workOrder" AS WORKORDER LIMIT 100'


def test_mysql_clock_calls_become_postgres_keywords():
    sql = _sql("SELECT id FROM workOrder WHERE CURDATE() > SYSDATE()")
    assert "CURRENT_DATE > CURRENT_TIMESTAMP" in sql


@pytest.mark.parametrize(
    "text",
    [
        "SELECT pg_sleep(1)",
        "SELECT pg_terminate_backend(1)",
        "SELECT pg_read_binary_file('/etc/passwd')",
        "SELECT current_setting('frontdesk.aes_key')",
        "SELECT set_config('x', 'y', false)",
        "SELECT dblink_exec('host=evil', 'drop table x')",
        "SELECT lo_import('/etc/passwd')",
        "SELECT * FROM pg_settings",
        "SELECT * FROM pg_catalog.pg_class",
        "SELECT query_to_xml('delete from customer', true, true, '')",
    ],
)
def test_postgres_functions_and_tables_are_refused(text):
    result = sqlcheck.validate(text, CATALOG, "postgres")
    assert result.unsafe, (text, result)


def test_an_unknown_dialect_names_the_known_ones():
    with pytest.raises(ValueError, match="sqlite, mysql, postgres"):
        sqlcheck.validate("SELECT 1", CATALOG, "oracle")  # type: ignore[arg-type]


def test_an_engine_of_another_kind_is_refused_by_name():
    oracle = SimpleNamespace(dialect=SimpleNamespace(name="oracle"))
    with pytest.raises(UnsupportedDatabase, match="not oracle"):
        engine_dialect(oracle)  # type: ignore[arg-type]
    postgres = SimpleNamespace(dialect=SimpleNamespace(name="postgresql"))
    assert engine_dialect(postgres) == "postgres"  # type: ignore[arg-type]


def test_what_sqlite_lets_a_query_leave_out_is_written_in_for_the_servers():
    # PostgreSQL rounds to places only a NUMERIC; PostgreSQL 15 and MariaDB name every
    # subquery in FROM. SQLite keeps the query as written.
    catalog = sqlcheck.SchemaCatalog({"weather": ["precip", "day"]})
    text = "SELECT ROUND(AVG(s), 2), ROUND(MAX(s)) FROM (SELECT SUM(precip) AS s FROM weather GROUP BY day)"
    postgres = sqlcheck.prepare(text, dialect="postgres", catalog=catalog)
    assert "ROUND(CAST(AVG(s) AS DECIMAL), 2)" in postgres and "ROUND(MAX(s))" in postgres
    assert ") AS derived_1 LIMIT" in postgres
    mysql = sqlcheck.prepare(text, dialect="mysql", catalog=catalog)
    assert ") AS derived_1 LIMIT" in mysql and "ROUND(AVG(s), 2)" in mysql
    sqlite = sqlcheck.prepare(text, dialect="sqlite", catalog=catalog)
    assert "derived_1" not in sqlite and "CAST" not in sqlite
    # A name the query already uses is not taken twice.
    taken = sqlcheck.prepare("SELECT COUNT(*) FROM (SELECT day AS derived_1 FROM weather) AS "
                             "derived_1, (SELECT 1 AS one)", dialect="postgres", catalog=catalog)  # fmt: skip
    assert "AS derived_2" in taken
