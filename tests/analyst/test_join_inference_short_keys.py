"""Issue 16: benchmark-style databases keyed by short names (`author.aid`, `paper.pid`) with no
declared primary or foreign keys still get their joins, and look-alike names do not join."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest
from sqlalchemy import create_engine

from frontdesk.assistants.analyst.joins.build import build_join_graph, introspect
from frontdesk.assistants.analyst.joins.graph import TableInfo
from frontdesk.assistants.analyst.joins.inference import (
    AMBIGUITY_PENALTY,
    SHORT_KEY_MATCH,
    infer_relationships,
    key_column,
    short_key_name,
)
from frontdesk.assistants.analyst.joins.paths import JoinPathFinder

# Spider's `academic` shape, without a single PRIMARY KEY, REFERENCES or UNIQUE. Columns in
# alphabetical order as Spider lists them, so a key is not always the first column.
ACADEMIC = """
CREATE TABLE author (aid INTEGER, homepage TEXT, name TEXT, oid INTEGER);
CREATE TABLE organization (continent TEXT, homepage TEXT, name TEXT, oid INTEGER);
CREATE TABLE conference (cid INTEGER, homepage TEXT, name TEXT);
CREATE TABLE journal (homepage TEXT, jid INTEGER, name TEXT);
CREATE TABLE paper (abstract TEXT, cid INTEGER, jid INTEGER, pid INTEGER, title TEXT, year INT);
CREATE TABLE writes (aid INTEGER, pid INTEGER);
CREATE TABLE domain_paper (did INTEGER, pid INTEGER);
CREATE TABLE royalty (aid INTEGER, paid REAL, year INT);
CREATE TABLE app_setting (id INTEGER, value TEXT);
CREATE TABLE import_log (id INTEGER, note TEXT);
"""

COMPANY = """
CREATE TABLE department (did INTEGER, dname TEXT, budget REAL);
CREATE TABLE employee (eid INTEGER, name TEXT, did INTEGER, salary REAL);
CREATE TABLE works_on (eid INTEGER, hours REAL);
"""


def _graph(tmp_path: Path, ddl: str):
    path = tmp_path / "bench.sqlite"
    with sqlite3.connect(path) as conn:
        conn.executescript(ddl)
    engine = create_engine(f"sqlite:///{path}")
    base = introspect(engine)
    # The point of the issue: nothing declared, so every join below comes from naming.
    assert base.relationships == []
    assert all(not t.primary_key and not t.unique_columns for t in base.tables.values())
    return build_join_graph(engine)


def _by_name(graph):
    return {r.describe(): r for r in graph.relationships}


def test_short_key_name_is_the_initials_of_the_table_name_plus_id():
    assert short_key_name("author") == "aid"
    assert short_key_name("Department") == "did"
    assert short_key_name("course_section") == "csid"
    assert short_key_name("CourseSection") == "csid"


def test_key_column_finds_a_short_key_anywhere_in_an_undeclared_table():
    assert key_column(TableInfo(["aid", "name"]), "author") == "aid"
    assert key_column(TableInfo(["continent", "name", "oid"]), "organization") == "oid"
    assert key_column(TableInfo(["CS_ID", "room"]), "course_section") == "CS_ID"
    # `id` / `<table>Id` still come first; a link table's columns are not its key.
    assert key_column(TableInfo(["aid", "id"]), "author") == "id"
    assert key_column(TableInfo(["did", "pid"]), "domain_paper") is None
    # Only the initials: `paid` is not `paper`'s key, `pid` is not `writes`'.
    assert key_column(TableInfo(["paid", "title"]), "paper") is None
    assert key_column(TableInfo(["pid", "aid"]), "writes") is None
    # Declared keys: a unique short key is used, other declared keys are not guessed past.
    assert key_column(TableInfo(["aid", "name"], ["aid"]), "author") == "aid"
    assert key_column(TableInfo(["aid", "email"], ["email"]), "author") is None


def test_academic_database_without_declared_keys(tmp_path):
    graph = _graph(tmp_path, ACADEMIC)
    rels = _by_name(graph)
    expected = [
        "writes.aid -> author.aid",
        "writes.pid -> paper.pid",
        "author.oid -> organization.oid",
        "paper.cid -> conference.cid",
        "paper.jid -> journal.jid",
        "domain_paper.pid -> paper.pid",
        "royalty.aid -> author.aid",
    ]
    for name in expected:
        rel = rels[name]
        assert (rel.type, rel.confidence) == ("inferred", SHORT_KEY_MATCH), name
        assert rel.confidence >= 0.7  # used by the path finder at its default threshold
    # No false friends: `paid` is not `pid`; `domain_paper.did` has no `domain` table to
    # point at; two tables that merely both have an `id` column are unrelated.
    assert set(rels) == set(expected)
    for table in ("app_setting", "import_log"):
        assert graph.relationships_of(table) == []

    finder = JoinPathFinder(graph)
    path = finder.find_shortest_path("author", "paper")
    assert [r.describe() for r in path] == ["writes.aid -> author.aid", "writes.pid -> paper.pid"]
    plan = finder.plan_joins(["organization", "author", "paper", "conference"])
    assert set(plan.tables) == {"organization", "author", "writes", "paper", "conference"}


def test_department_employee_without_declared_keys(tmp_path):
    graph = _graph(tmp_path, COMPANY)
    rels = _by_name(graph)
    assert set(rels) == {"employee.did -> department.did", "works_on.eid -> employee.eid"}
    assert rels["employee.did -> department.did"].confidence == SHORT_KEY_MATCH
    path = JoinPathFinder(graph).find_shortest_path("works_on", "department")
    assert [r.to_table for r in path] == ["employee", "department"]


def test_two_tables_keyed_alike_make_the_short_key_ambiguous():
    tables = {
        "paper": TableInfo(["pid", "title"]),
        "project": TableInfo(["pid", "budget"]),
        "assignment": TableInfo(["pid", "eid"]),
        "employee": TableInfo(["eid", "name"]),
    }
    rels = {r.describe(): r.confidence for r in infer_relationships(tables)}
    ambiguous = SHORT_KEY_MATCH - AMBIGUITY_PENALTY
    assert ambiguous < 0.7  # kept for review, never joined on by default
    assert rels == {
        "assignment.pid -> paper.pid": ambiguous,
        "assignment.pid -> project.pid": ambiguous,
        "assignment.eid -> employee.eid": SHORT_KEY_MATCH,
    }  # and the two `pid` keys do not point at each other


def test_declared_short_primary_keys_without_foreign_keys():
    # Spider's own files declare the primary keys but often not the foreign keys.
    tables = {
        "author": TableInfo(["aid", "name"], ["aid"], ["aid"]),
        "paper": TableInfo(["pid", "title"], ["pid"], ["pid"]),
        "writes": TableInfo(["aid", "pid"], [], ["aid", "pid"]),  # composite key
        "author_bio": TableInfo(["aid", "bio"], ["aid"], ["aid"]),  # a 1:1 extension
    }
    rels = {r.describe(): r for r in infer_relationships(tables)}
    assert set(rels) == {
        "writes.aid -> author.aid",
        "writes.pid -> paper.pid",
        "author_bio.aid -> author.aid",
    }
    assert rels["writes.aid -> author.aid"].cardinality == "N:1"
    assert rels["author_bio.aid -> author.aid"].cardinality == "1:1"


@pytest.mark.parametrize("column", ["a_id", "AId", "AID"])
def test_short_key_spellings_match_case_and_underscore_insensitively(column):
    tables = {"author": TableInfo([column, "name"]), "writes": TableInfo([column, "pid"])}
    rels = {r.describe(): r.confidence for r in infer_relationships(tables)}
    assert rels == {f"writes.{column} -> author.{column}": SHORT_KEY_MATCH}
