"""The repository map: the most referenced definitions, by file, within a token budget.

aider's repo map, rebuilt on our symbols: files are nodes, and a file that uses a name another
file defines gets an edge to it, weighted by how often and how telling the name is (a long
snake_case or CamelCase name counts ten times, a `_private` one a tenth, a name defined in
more than five files a tenth, a name the user mentioned ten times). PageRank over that graph,
personalised towards the files the user mentioned, ranks the files; each file's rank flows to
the definitions its users reach. The map lists the best ones, signature by signature, grouped
by file, until the budget is spent: what the router and the answer see as `codebase_tree`."""

from __future__ import annotations

import math
import re
from collections import Counter, defaultdict
from collections.abc import Collection, Mapping
from typing import Any

import numpy as np

__all__ = ["CHARS_PER_TOKEN", "rank_definitions", "render_map"]

CHARS_PER_TOKEN = 4  # a rough count, enough to keep a prompt inside a budget
_TELLING = re.compile(
    r"^(?=.{8,})(?:[a-z0-9]+(?:_[a-z0-9]+)+|[A-Za-z][a-z0-9]*(?:[A-Z][a-z0-9]*)+)$"
)


def rank_definitions(
    files: Mapping[str, Mapping[str, Any]],
    mentioned_names: Collection[str] = (),
    mentioned_files: Collection[str] = (),
) -> list[tuple[float, str, dict[str, Any]]]:
    """(rank, path, definition) for the definitions other files use, best first; then the
    rest of each file's top-level definitions at rank 0, so an unreferenced file still shows."""
    defines: dict[str, set[str]] = defaultdict(set)
    for path, entry in files.items():
        for d in entry.get("definitions") or []:
            defines[d["name"]].add(path)
    nodes = sorted(files)
    edges: list[tuple[str, str, str, float]] = []  # (user, definer, name, weight)
    for path, entry in files.items():
        counts = Counter(name for name, _ in entry.get("references") or [])
        for name, count in counts.items():
            weight = _weight(name, defines, mentioned_names) * math.sqrt(count)
            edges.extend((path, d, name, weight) for d in defines.get(name, ()) if d != path)
    if not nodes:
        return []
    rank = _pagerank(nodes, edges, [p for p in mentioned_files if p in files])
    out_weight: dict[str, float] = defaultdict(float)
    for source, _, _, weight in edges:
        out_weight[source] += weight
    flow: dict[tuple[str, str], float] = defaultdict(float)
    for source, target, name, weight in edges:
        flow[(target, name)] += rank[source] * weight / out_weight[source]
    ranked = []
    for path, entry in files.items():
        for d in entry.get("definitions") or []:
            score = flow.get((path, d["name"]), 0.0)
            if score or not d.get("parent"):
                ranked.append((score, path, d))
    ranked.sort(key=lambda row: (-row[0], -rank.get(row[1], 0.0), row[1], row[2]["start_line"]))
    return ranked


def render_map(ranked: list[tuple[float, str, dict[str, Any]]], token_budget: int = 1024) -> str:
    """The best definitions, grouped by file in rank order, within `token_budget`."""
    budget = token_budget * CHARS_PER_TOKEN
    by_file: dict[str, list[dict[str, Any]]] = {}
    used = 0
    for _, path, definition in ranked:
        line = f"  {definition['signature'] or definition['qualified']}"
        cost = len(line) + 1 + (0 if path in by_file else len(path) + 2)
        if used + cost > budget:
            break
        by_file.setdefault(path, []).append(definition)
        used += cost
    lines: list[str] = []
    for path, definitions in by_file.items():
        lines.append(f"{path}:")
        for d in sorted(definitions, key=lambda d: d["start_line"]):
            lines.append(f"  {d['signature'] or d['qualified']}")
    return "\n".join(lines)


def _weight(name: str, defines: Mapping[str, set[str]], mentioned: Collection[str]) -> float:
    weight = 1.0
    if name in mentioned:
        weight *= 10
    if _TELLING.match(name):
        weight *= 10
    if name.startswith("_"):
        weight *= 0.1
    if len(defines.get(name, ())) > 5:
        weight *= 0.1
    return weight


def _pagerank(
    nodes: list[str], edges: list[tuple[str, str, str, float]], personal: list[str],
    damping: float = 0.85, iterations: int = 100, tolerance: float = 1e-9,
) -> dict[str, float]:  # fmt: skip
    """Weighted PageRank by power iteration (networkx's needs scipy, which we do not ship);
    teleporting to `personal` when given, and a node without out-edges spreads its rank the
    same way."""
    index = {node: i for i, node in enumerate(nodes)}
    n = len(nodes)
    matrix = np.zeros((n, n))
    for source, target, _, weight in edges:
        matrix[index[target], index[source]] += weight
    totals = matrix.sum(axis=0)
    dangling = totals == 0
    matrix[:, ~dangling] /= totals[~dangling]
    teleport = np.zeros(n)
    if personal:
        teleport[[index[p] for p in personal]] = 1.0 / len(personal)
    else:
        teleport[:] = 1.0 / n
    rank = np.full(n, 1.0 / n)
    for _ in range(iterations):
        new = damping * (matrix @ rank + rank[dangling].sum() * teleport) + (1 - damping) * teleport
        if np.abs(new - rank).sum() < tolerance:
            rank = new
            break
        rank = new
    return dict(zip(nodes, rank.tolist(), strict=True))
