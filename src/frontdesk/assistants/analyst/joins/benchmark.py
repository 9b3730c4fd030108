"""Timing of join path planning: p50/p95 of pair paths and Steiner plans, uncached and cached.

Used by `benchmarks/analyst_sql.py` and by the tests that hold `JoinPathFinder` to its latency
budget (a synthetic 130-table graph, Chinook, the demo database). Kept out of `paths`
because planning joins for the agent never needs it.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable, Iterable, Sequence
from statistics import quantiles
from typing import Any

import networkx as nx

from frontdesk.assistants.analyst.joins.graph import JoinGraph, Relationship
from frontdesk.assistants.analyst.joins.paths import JoinPathFinder, NoJoinPath


def _percentiles(samples_ns: list[int]) -> tuple[float, float]:
    if len(samples_ns) < 2:
        value = samples_ns[0] / 1e6 if samples_ns else 0.0
        return value, value
    cuts = quantiles(samples_ns, n=100, method="inclusive")
    return cuts[49] / 1e6, cuts[94] / 1e6


def benchmark_paths(
    graph: JoinGraph | JoinPathFinder | Iterable[Relationship],
    n: int = 1000,
    *,
    seed: int = 0,
    confidence_threshold: float = 0.7,
    max_hops: int = 4,
    steiner_sizes: Sequence[int] = (3, 4, 5),
) -> dict[str, Any]:
    """p50/p95 milliseconds of pair paths and Steiner plans, uncached and cached.

    Random tables come from the largest connected component (deterministic `seed`); an
    uncached timing clears every cache first (outside the timed call).
    """
    finder = (
        graph if isinstance(graph, JoinPathFinder) else JoinPathFinder(graph, confidence_threshold)  # type: ignore[arg-type]
    )
    rng = random.Random(seed)
    component = sorted(max(nx.connected_components(finder.graph), key=len, default=set()))
    result: dict[str, Any] = {
        "tables": finder.graph.number_of_nodes(),
        "edges": finder.graph.number_of_edges(),
        "component_tables": len(component),
        "n": n,
    }
    if len(component) < 2:
        return result
    pairs = [tuple(rng.sample(component, 2)) for _ in range(n)]
    sizes = [s for s in steiner_sizes if s <= len(component)]
    sets = [rng.sample(component, rng.choice(sizes)) for _ in range(n)] if sizes else []
    jobs: dict[str, tuple[list[Any], Callable[[Any], Any]]] = {
        "pair": (pairs, lambda p: finder.find_shortest_path(p[0], p[1], max_hops)),
        "steiner": (sets, lambda s: finder.plan_joins(s, max_hops)),
    }
    clock = time.perf_counter_ns
    for name, (inputs, call) in jobs.items():
        uncached, cached, found = [], [], 0
        for item in inputs:
            finder.cache_clear()
            start = clock()
            try:
                found += call(item) is not None
            except NoJoinPath:
                pass
            uncached.append(clock() - start)
            start = clock()
            try:
                call(item)
            except NoJoinPath:
                pass
            cached.append(clock() - start)
        for label, samples in (("uncached", uncached), ("cached", cached)):
            p50, p95 = _percentiles(samples)
            result[f"{name}_{label}_p50_ms"] = round(p50, 4)
            result[f"{name}_{label}_p95_ms"] = round(p95, 4)
        result[f"{name}_found"] = found
    finder.cache_clear()
    return result
