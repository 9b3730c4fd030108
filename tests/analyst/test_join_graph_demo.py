"""The join graph of the demo database against the truth its schema records.

`relationship_truth()` lists every relationship column, declared by a FOREIGN KEY or not; the
join graph must reproduce the declared ones exactly and infer most undeclared ones from
naming; the demo's semantic file (`data/semantic_demo.yaml`, joins) supplies the role names
(`createdBy`) naming cannot resolve.
"""

from __future__ import annotations

import json

import pytest
from sqlalchemy import create_engine, inspect

from frontdesk.assistants.analyst.database import demo_semantic
from frontdesk.assistants.analyst.joins.benchmark import benchmark_paths
from frontdesk.assistants.analyst.joins.build import build_join_graph
from frontdesk.assistants.analyst.joins.graph import Relationship, TableInfo
from frontdesk.assistants.analyst.joins.inference import infer_relationships, split_name
from frontdesk.assistants.analyst.joins.paths import JoinPathFinder

schema = pytest.importorskip("frontdesk.assistants.analyst.demo.schema.tables")
MANUAL = demo_semantic().overrides


def _truth() -> dict[tuple[str, str], dict]:
    return {(r["from_table"], r["from_column"]): r for r in schema.relationship_truth()}


def _names_its_table(row: dict) -> bool:
    """`<table>Id`, possibly after a role prefix: what naming inference can resolve."""
    words, target = split_name(row["from_column"]), "".join(split_name(row["to_table"]))
    return words[-1] == "id" and "".join(words[:-1]).endswith(target)


def _score(inferred, truth, min_confidence=0.0):
    undeclared = {k: r for k, r in truth.items() if not r["declared"]}
    found = {
        (r.from_table, r.from_column): (r.to_table, r.to_column)
        for r in inferred
        if r.confidence >= min_confidence
    }
    right = {k for k, v in found.items() if k in undeclared and v == _target(undeclared[k])}
    nameable = {k for k, r in undeclared.items() if _names_its_table(r)}
    return {
        "undeclared": len(undeclared),
        "inferred": len(found),
        "precision": len(right) / max(1, len(found)),
        "recall": len(right) / max(1, len(undeclared)),
        "recall_nameable": len(right & nameable) / max(1, len(nameable)),
    }


def _target(row: dict) -> tuple[str, str]:
    return row["to_table"], row["to_column"]


def test_inference_and_manual_overrides_cover_the_schema_truth():
    tables = {
        t.name: TableInfo(t.column_names, ["id"], ["id"]) for t in schema.TABLES
    }  # every demo table is keyed `id`
    truth = _truth()
    declared = [k for k, r in truth.items() if r["declared"]]
    existing = [Relationship(*k, *_target(truth[k])) for k in declared]
    inferred = infer_relationships(tables, existing)
    score = _score(inferred, truth)
    print(f"\ndemo schema naming inference: {json.dumps(score)}")
    assert score["precision"] >= 0.9
    assert score["recall_nameable"] >= 0.95
    # Every manual override is true, and with them every relationship joins at >= 0.7.
    manual = MANUAL
    for rel in manual.add:
        assert truth[rel.from_table, rel.from_column]["to_table"] == rel.to_table, rel
    covered = {(r.from_table, r.from_column) for r in inferred if r.confidence >= 0.7}
    covered |= {(r.from_table, r.from_column) for r in manual.add} | set(declared)
    assert covered == set(truth)
    assert manual.no_transit <= {t.name for t in schema.TABLES}


@pytest.fixture(scope="module")
def demo_engine(tmp_path_factory):
    build = pytest.importorskip("frontdesk.assistants.analyst.demo.build")
    if not hasattr(build, "build_sqlite"):
        pytest.skip("demo/build.py has no build_sqlite yet")
    path = tmp_path_factory.mktemp("demo") / "demo.sqlite"
    build.build_sqlite(path, "join-graph-test-key")
    return create_engine(f"sqlite:///{path}")


def test_demo_database_join_graph(demo_engine):
    truth = _truth()
    views = set(inspect(demo_engine).get_view_names())
    plain = build_join_graph(demo_engine)
    assert not views & set(plain.tables)  # secure_* views are not tables
    assert len(plain.tables) == len(schema.TABLES)
    declared = {k for k, r in truth.items() if r["declared"]}
    fks = {(r.from_table, r.from_column): r for r in plain.relationships if r.type == "foreign_key"}
    assert set(fks) == declared
    assert all((r.to_table, r.to_column) == _target(truth[k]) for k, r in fks.items())
    score = _score([r for r in plain.relationships if r.type == "inferred"], truth)
    print(f"\ndemo database naming inference: {json.dumps(score)}")
    assert score["precision"] >= 0.9 and score["recall_nameable"] >= 0.95

    graph = build_join_graph(demo_engine, manual=MANUAL)
    usable = {(r.from_table, r.from_column) for r in graph.relationships if r.confidence >= 0.7}
    assert usable >= set(truth)  # every true relationship can be joined on
    finder = JoinPathFinder(graph)
    assert finder.no_transit == MANUAL.no_transit
    result = benchmark_paths(graph, n=300)
    print(f"demo join paths: {json.dumps(result)}")
    assert result["pair_uncached_p50_ms"] < 1.0
