"""Join path planning: shortest paths, thresholds, hop limits, caching, Steiner trees."""

from __future__ import annotations

import random
import sqlite3
import time
from pathlib import Path

import pytest
from sqlalchemy import create_engine

from frontdesk.assistants.analyst.joins.benchmark import benchmark_paths
from frontdesk.assistants.analyst.joins.build import build_join_graph
from frontdesk.assistants.analyst.joins.graph import JoinGraph, Relationship, TableInfo
from frontdesk.assistants.analyst.joins.paths import JoinPathFinder, NoJoinPath, UnknownTable
from frontdesk.assistants.analyst.joins.plan import path_weight

CHINOOK = (
    Path(__file__).resolve().parents[2].parent / "shared/datasets/chinook/Chinook_Sqlite.sqlite"
)


def rel(a: str, b: str, conf: float = 1.0, column: str | None = None) -> Relationship:
    """`a.<b>Id -> b.id`, declared when confidence is 1."""
    kind = "foreign_key" if conf == 1.0 else "inferred"
    return Relationship(a, column or f"{b}Id", b, "id", kind, conf)


def tables_of(path, start: str) -> list[str]:
    """The tables a path visits from `start`, whichever way each relationship points."""
    tables = [start]
    for r in path:
        tables.append(r.to_table if r.from_table == tables[-1] else r.from_table)
    return tables


def test_shortest_path_keeps_each_relationship_orientation():
    finder = JoinPathFinder(
        [rel("workTime", "employee"), rel("employee", "department"), rel("customer", "department")]
    )
    path = finder.find_shortest_path("workTime", "customer")
    assert [r.describe() for r in path] == [
        "workTime.employeeId -> employee.id",
        "employee.departmentId -> department.id",
        "customer.departmentId -> department.id",  # traversed backwards, kept as declared
    ]
    back = finder.find_shortest_path("customer", "workTime")
    assert back == tuple(reversed(path))
    assert finder.find_shortest_path("employee", "employee") == ()


def test_threshold_excludes_low_confidence_edges():
    rels = [rel("a", "b", 0.6), rel("a", "c"), rel("c", "b")]
    strict = JoinPathFinder(rels, confidence_threshold=0.7)
    assert [r.to_table for r in strict.find_shortest_path("a", "b")] == ["c", "b"]
    loose = JoinPathFinder(rels, confidence_threshold=0.5)
    assert loose.find_shortest_path("a", "b") == (rels[0],)
    # Only the low-confidence edge joins them: no path, and the reason says so.
    only_weak = JoinPathFinder([rel("a", "b", 0.6), rel("c", "d")])
    assert only_weak.find_shortest_path("a", "b") is None
    assert "below confidence >= 0.7" in only_weak.explain_no_path("a", "b")


def test_fewer_hops_first_then_higher_confidence():
    rels = [rel("a", "b", 0.8), rel("a", "x"), rel("x", "b"), rel("a", "y", 0.75), rel("y", "z")]
    finder = JoinPathFinder(rels)
    assert finder.find_shortest_path("a", "b") == (rels[0],)  # 1.2 < 2.0
    rels2 = [rel("a", "x", 0.75), rel("x", "b", 0.75), rel("a", "y"), rel("y", "b", 0.9)]
    assert tables_of(JoinPathFinder(rels2).find_shortest_path("a", "b"), "a") == ["a", "y", "b"]


def test_max_hops_is_respected():
    chain = [rel(f"t{i}", f"t{i + 1}") for i in range(5)]
    finder = JoinPathFinder(chain)
    assert finder.find_shortest_path("t0", "t5", max_hops=4) is None
    assert len(finder.find_shortest_path("t0", "t5", max_hops=5)) == 5
    assert "needs 5 joins" in finder.explain_no_path("t0", "t5", max_hops=4)
    with pytest.raises(NoJoinPath, match="more than max_hops=4"):
        finder.plan_joins(["t0", "t5"])


def test_hop_limit_finds_a_heavier_path_within_the_limit():
    # Five certain hops (weight 5.0) beat four uncertain ones (4 x 1.3 = 5.2) on weight, but
    # only the four-hop path respects max_hops=4.
    light = [rel("s", "a1"), rel("a1", "a2"), rel("a2", "a3"), rel("a3", "a4"), rel("a4", "t")]
    heavy = [rel("s", "b1", 0.7), rel("b1", "b2", 0.7), rel("b2", "b3", 0.7), rel("b3", "t", 0.7)]
    finder = JoinPathFinder(light + heavy)
    assert len(finder.find_shortest_path("s", "t", max_hops=5)) == 5
    assert tables_of(finder.find_shortest_path("s", "t", max_hops=4), "s") == [
        "s", "b1", "b2", "b3", "t"
    ]  # fmt: skip
    assert finder.find_shortest_path("s", "t", max_hops=3) is None


def test_cache_returns_the_same_object_fast():
    finder = JoinPathFinder([rel("a", "b"), rel("b", "c"), rel("c", "d")])
    first = finder.find_shortest_path("a", "d")
    start = time.perf_counter()
    for _ in range(1000):
        again = finder.find_shortest_path("a", "d")
    per_call_ms = time.perf_counter() - start  # 1000 calls: seconds == ms per call
    assert again is first
    assert per_call_ms < 0.05
    plan = finder.plan_joins(["a", "c", "d"])
    assert finder.plan_joins(["a", "c", "d"]) is plan
    finder.cache_clear()
    assert finder.find_shortest_path("a", "d") == first


def test_unknown_and_case_insensitive_table_names():
    finder = JoinPathFinder([rel("workTime", "employee")])
    assert len(finder.find_shortest_path("worktime", "Employee")) == 1
    with pytest.raises(UnknownTable, match="did you mean employee"):
        finder.find_shortest_path("workTime", "employe")
    assert issubclass(UnknownTable, NoJoinPath)


def test_disconnected_tables():
    finder = JoinPathFinder([rel("a", "b"), rel("c", "d")], tables=["e"])
    assert finder.find_shortest_path("a", "c") is None
    assert finder.find_shortest_path("a", "e") is None  # isolated but known
    with pytest.raises(NoJoinPath, match="separate groups"):
        finder.plan_joins(["a", "b", "c"])
    with pytest.raises(NoJoinPath, match="no chain of relationships"):
        finder.plan_joins(["a", "d"])


def _star():
    # Every leaf hangs off the hub `workOrder`; the question starts from `workTime`.
    return [
        rel("workTime", "workOrder"),
        rel("workOrder", "customer"),
        rel("workOrder", "employee"),
        rel("workOrder", "vehicle"),
    ]


def test_steiner_tree_shares_intermediate_tables():
    finder = JoinPathFinder(_star())
    terminals = ["workTime", "customer", "employee", "vehicle"]
    plan = finder.plan_joins(terminals)
    assert "workOrder" in plan.tables  # the intermediate table the tree needs
    assert set(plan.tables) == {*terminals, "workOrder"}
    assert len(plan.relationships) == 4
    # Pairwise paths from the root would join workTime -> workOrder three times.
    pairwise = [finder.find_shortest_path("workTime", t) for t in terminals[1:]]
    assert sum(len(p) for p in pairwise) == 6
    assert plan.weight < sum(path_weight(p) for p in pairwise)
    # Connected, in an order where every step joins a table already in the plan.
    joined = {plan.root}
    for step in plan.steps:
        r = step.relationship
        assert step.table in (r.from_table, r.to_table)
        assert ({r.from_table, r.to_table} - {step.table}) <= joined
        joined.add(step.table)
    assert joined == set(plan.tables)


def test_steiner_hub_beats_pairwise_closure():
    # KMB over pairwise shortest paths takes r-x-a plus a-y-b (4.1); the hub y joins all three
    # terminals directly (3.2).
    rels = [rel("r", "x"), rel("x", "a"), rel("r", "y", 0.9), rel("y", "b"), rel("a", "y", 0.9)]
    finder = JoinPathFinder(rels)
    tree = finder.steiner_tree(["r", "a", "b"])
    assert {r.describe() for r in tree} == {"r.yId -> y.id", "y.bId -> b.id", "a.yId -> y.id"}
    assert path_weight(tree) == pytest.approx(3.2)


def test_plan_text_and_on_clauses_in_either_direction(tmp_path):
    finder = JoinPathFinder([rel("workTime", "employee"), rel("employee", "department")])
    plan = finder.plan_joins(["workTime", "employee"])
    assert plan.to_text() == "FROM workTime\nJOIN employee ON workTime.employeeId = employee.id"
    reverse = finder.plan_joins(["department", "workTime"])
    assert reverse.to_text() == (
        "FROM department\n"
        "JOIN employee ON employee.departmentId = department.id\n"
        "JOIN workTime ON workTime.employeeId = employee.id"
    )
    assert finder.plan_joins(["employee"]).to_text() == "FROM employee"
    # The SQL runs, whatever the direction.
    db = sqlite3.connect(tmp_path / "t.sqlite")
    db.executescript(
        "CREATE TABLE department (id INTEGER PRIMARY KEY);"
        "CREATE TABLE employee (id INTEGER PRIMARY KEY, departmentId INTEGER);"
        "CREATE TABLE workTime (id INTEGER PRIMARY KEY, employeeId INTEGER);"
        "INSERT INTO department VALUES (1); INSERT INTO employee VALUES (7, 1);"
        "INSERT INTO workTime VALUES (1, 7), (2, 7);"
    )
    for p in (plan, reverse):
        assert db.execute(f"SELECT count(*) {p.to_text()}").fetchone() == (2,)
    quoted = reverse.to_text(quote=lambda name: f'"{name}"')
    assert db.execute(f"SELECT count(*) {quoted}").fetchone() == (2,)


def test_parallel_relationships_are_listed_as_alternatives():
    rels = [
        rel("workOrder", "employee", column="assignedToId"),
        rel("workOrder", "employee", 0.9, column="employeeId"),
        rel("employee", "employee", column="managerId"),  # self reference: never on a path
    ]
    finder = JoinPathFinder(rels)
    plan = finder.plan_joins(["workOrder", "employee"])
    assert plan.relationships == (rels[0],)  # the most certain one
    assert plan.steps[0].alternatives == (rels[1],)
    assert plan.to_text().endswith("-- or: workOrder.employeeId = employee.id")
    assert "-- or" not in plan.to_text(alternatives=False)


def test_finder_accepts_graphs_and_dicts():
    rels = [rel("a", "b"), rel("b", "c")]
    graph = JoinGraph({}, rels)
    assert JoinPathFinder(graph).find_shortest_path("a", "c") == tuple(rels)
    dicts = [r.to_dict() for r in rels]
    assert JoinPathFinder(dicts).find_shortest_path("a", "c") == tuple(rels)


def synthetic_relationships(tables: int = 130, edges: int = 420, seed: int = 1):
    """A schema-like graph: a hub-heavy spanning tree plus extra, partly uncertain, edges."""
    rng = random.Random(seed)
    rels, seen = [], set()
    for i in range(1, tables):
        j = rng.randrange(i) if rng.random() < 0.5 else rng.randrange(min(i, 12))
        rels.append(rel(f"t{i}", f"t{j}"))
        seen.add((i, j))
    while len(rels) < edges:
        i, j = rng.sample(range(tables), 2)
        if (i, j) not in seen:
            seen.add((i, j))
            conf = rng.choice([1.0, 1.0, 0.9, 0.75, 0.65])
            rels.append(rel(f"t{i}", f"t{j}", conf, column=f"t{j}Id{len(rels)}"))
    return rels


def test_benchmark_on_a_130_table_graph():
    result = benchmark_paths(synthetic_relationships(), n=300)
    assert result["tables"] == 130 and 300 <= result["edges"] <= 420
    assert result["pair_uncached_p50_ms"] < 1.0
    assert result["pair_cached_p50_ms"] < result["pair_uncached_p50_ms"]
    assert result["steiner_cached_p50_ms"] < result["steiner_uncached_p50_ms"]
    assert result["steiner_found"] > 250


def test_chinook_paths_and_plans():
    if not CHINOOK.exists():
        pytest.skip(f"Chinook database not found at {CHINOOK}")
    graph = build_join_graph(create_engine(f"sqlite:///{CHINOOK}"))
    finder = JoinPathFinder(graph)
    path = finder.find_shortest_path("Customer", "Genre")
    assert tables_of(path, "Customer") == ["Customer", "Invoice", "InvoiceLine", "Track", "Genre"]
    plan = finder.plan_joins(["Customer", "Genre", "Artist"])
    assert set(plan.tables) == {
        "Customer", "Invoice", "InvoiceLine", "Track", "Genre", "Album", "Artist"
    }  # fmt: skip
    db = sqlite3.connect(f"file:{CHINOOK}?mode=ro", uri=True)
    assert db.execute(f"SELECT count(*) {plan.to_text()}").fetchone() == (2240,)
    result = benchmark_paths(graph, n=200)
    assert result["pair_uncached_p50_ms"] < 1.0


def test_no_transit_tables_end_paths_but_are_never_passed_through():
    # Every audit column points at `user`: through it, crew would join purchaseOrder in 2 hops.
    rels = [
        rel("crew", "user", column="createdBy"),
        rel("purchaseOrder", "user", column="createdBy"),
        rel("crew", "branch"),
        rel("warehouse", "branch"),
        rel("purchaseOrder", "warehouse"),
    ]
    open_finder = JoinPathFinder(rels)
    assert len(open_finder.find_shortest_path("crew", "purchaseOrder")) == 2
    finder = JoinPathFinder(rels, no_transit=["user"])
    path = finder.find_shortest_path("crew", "purchaseOrder")
    assert tables_of(path, "crew") == ["crew", "branch", "warehouse", "purchaseOrder"]
    assert finder.find_shortest_path("crew", "user") == (rels[0],)  # may end there
    plan = finder.plan_joins(["crew", "purchaseOrder", "warehouse"])
    assert "user" not in plan.tables
    # Named among the tables, it joins like any other.
    assert "user" in finder.plan_joins(["crew", "user", "purchaseOrder"]).tables
    lonely = JoinPathFinder(rels[:2], no_transit=["user"])
    assert lonely.find_shortest_path("crew", "purchaseOrder") is None
    assert "no_transit" in lonely.explain_no_path("crew", "purchaseOrder")
    # A JoinGraph carries the flag per table.
    graph = JoinGraph({"user": TableInfo(["id"], ["id"], no_transit=True)}, rels)
    assert JoinPathFinder(graph).no_transit == {"user"}
