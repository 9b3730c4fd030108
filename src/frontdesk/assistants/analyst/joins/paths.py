"""Join path planning for the SQL analyst: which relationships join a set of tables.

The agent names the tables a question needs; `JoinPathFinder` answers with the joins, so the
model never has to guess them among 120+ tables. Two tables: the shortest path (Dijkstra).
Three or more: ONE tree connecting all of them (a Steiner tree approximation), not separate
pairwise paths, which would join shared intermediate tables twice and fan rows out.

Edge weight is `1 + (1 - confidence)` per hop: each hop costs at least 1 and a confidence
penalty of at most 0.3 at the default 0.7 threshold, so fewer hops win first (up to 3 against
4 hops) and, among equally short paths, the more certain joins. Edges below the threshold are
left out of the graph. The graph is undirected (a join works both ways) but every returned
relationship keeps its from/to orientation; ON clauses name both tables, so they are right in
either traversal direction. Tables flagged `no_transit` (an audit `user` table that every
`createdBy` points at) may end a path but are never passed through. The answer's types and
`edge_weight` are in `plan`; the latency benchmark is in `benchmark`.
"""

from __future__ import annotations

import difflib
from collections.abc import Iterable, Mapping, Sequence
from heapq import heappop, heappush
from itertools import combinations, pairwise
from typing import Any

import networkx as nx

from frontdesk.assistants.analyst.joins.graph import JoinGraph, Relationship
from frontdesk.assistants.analyst.joins.plan import JoinPlan, Path, edge_weight, path_weight

_PRIORITY = {"foreign_key": 0, "manual": 1, "inferred": 2}
_HUB_CANDIDATES = 3  # hubs tried per Steiner plan, best estimated cost first
_MAX_PLANS_CACHED = 4096
_INF = float("inf")


class NoJoinPath(ValueError):
    """The tables cannot be joined within the limits; the message says why."""


class UnknownTable(NoJoinPath):
    """A table name that is not in the join graph; the message suggests close names."""


def _walk(pred: Mapping[str, str], target: str) -> list[str]:
    """The path from a Dijkstra source to `target`, following predecessors back."""
    nodes = [target]
    while nodes[-1] in pred:
        nodes.append(pred[nodes[-1]])
    return nodes[::-1]


def _kruskal(nodes: Iterable[str], edges: Iterable[tuple[float, str, str, Any]]) -> list[Any]:
    """Minimum spanning forest: the payloads of the chosen (weight, u, v, payload) edges."""
    parent = {n: n for n in nodes}

    def find(n: str) -> str:
        while parent[n] != n:
            parent[n] = parent[parent[n]]
            n = parent[n]
        return n

    chosen = []
    for _, u, v, payload in sorted(edges, key=lambda e: e[:3]):
        ru, rv = find(u), find(v)
        if ru != rv:
            parent[ru] = rv
            chosen.append(payload)
    return chosen


class JoinPathFinder:
    """Shortest join paths and join plans over a `JoinGraph` (or a list of relationships).

    Results are cached in memory per (tables, max_hops); the finder is immutable otherwise, so
    one instance can serve every conversation. Table names resolve case-insensitively.
    """

    def __init__(
        self,
        relationships: JoinGraph | Iterable[Relationship | Mapping[str, Any]],
        confidence_threshold: float = 0.7,
        *,
        tables: Iterable[str] | None = None,
        no_transit: Iterable[str] | None = None,
    ) -> None:
        if isinstance(relationships, JoinGraph):
            if no_transit is None:
                no_transit = [n for n, t in relationships.tables.items() if t.no_transit]
            tables = relationships.tables if tables is None else tables
            relationships = relationships.relationships
        rels = [
            r if isinstance(r, Relationship) else Relationship.from_dict(r) for r in relationships
        ]
        self.confidence_threshold = confidence_threshold
        self.relationships: tuple[Relationship, ...] = tuple(rels)
        self.graph = nx.Graph()
        self.graph.add_nodes_from(tables or ())
        self._parallel: dict[frozenset[str], list[Relationship]] = {}
        # Most certain first: the first relationship between two tables becomes their edge.
        for r in sorted(rels, key=lambda r: (-r.confidence, _PRIORITY[r.type], r.key)):
            self.graph.add_nodes_from((r.from_table, r.to_table))
            if r.confidence < confidence_threshold or r.from_table == r.to_table:
                continue  # too uncertain, or a self-reference (never on a path between tables)
            self._parallel.setdefault(frozenset((r.from_table, r.to_table)), []).append(r)
            if not self.graph.has_edge(r.from_table, r.to_table):
                self.graph.add_edge(
                    r.from_table, r.to_table, weight=edge_weight(r.confidence), rel=r
                )
        self._by_lower: dict[str, str | None] = {}
        for name in self.graph:
            self._by_lower[name.lower()] = None if name.lower() in self._by_lower else name
        # Tables a path may end at but never pass through (TableInfo.no_transit).
        self.no_transit = frozenset(self.resolve(t) for t in no_transit or ())
        self._paths: dict[tuple[str, str, int], Path | None] = {}
        self._plans: dict[tuple[tuple[str, ...], int], JoinPlan | NoJoinPath] = {}
        self._sssp: dict[Any, tuple[dict[str, float], dict[str, str]]] = {}
        self._adj = {
            u: sorted((v, attrs["weight"]) for v, attrs in nbrs.items())
            for u, nbrs in self.graph.adj.items()
        }

    # ------------------------------------------------------------ lookups

    @property
    def tables(self) -> list[str]:
        return sorted(self.graph)

    def resolve(self, table: str) -> str:
        """The graph's spelling of `table` (exact, else case-insensitive); UnknownTable if none."""
        if table in self.graph:
            return table
        found = self._by_lower.get(table.lower())
        if found:
            return found
        close = difflib.get_close_matches(table, list(self.graph), n=3, cutoff=0.6)
        hint = f"; did you mean {', '.join(close)}?" if close else ""
        raise UnknownTable(f"unknown table {table!r} in the join graph{hint}")

    def cache_clear(self) -> None:
        self._paths.clear()
        self._plans.clear()
        self._sssp.clear()

    # ------------------------------------------------------------ pairs

    def find_shortest_path(self, a: str, b: str, max_hops: int = 4) -> Path | None:
        """Relationships joining `a` to `b` in order (each keeps its orientation), `()` when
        a == b, None when no path of at most `max_hops` joins exists. Cached."""
        key = (a, b, max_hops)
        try:
            return self._paths[key]
        except KeyError:
            pass
        ra, rb = self.resolve(a), self.resolve(b)
        canonical = (ra, rb, max_hops)
        if canonical in self._paths:
            path = self._paths[canonical]
        else:
            path = self._paths[canonical] = self._shortest(ra, rb, max_hops)
        self._paths[key] = path
        return path

    def _shortest(self, a: str, b: str, max_hops: int) -> Path | None:
        if a == b:
            return ()
        blocked = self.no_transit.difference((a, b))
        weight: Any = "weight"
        if blocked:  # networkx hides an edge whose weight is None

            def weight(u: str, v: str, attrs: dict[str, Any]) -> float | None:
                return None if u in blocked or v in blocked else attrs["weight"]

        try:
            _, nodes = nx.bidirectional_dijkstra(self.graph, a, b, weight=weight)
        except nx.NetworkXNoPath:
            return None
        if len(nodes) - 1 > max_hops:
            # Rare: a lighter path with too many hops may hide a heavier one within the limit.
            nodes = self._bounded_dijkstra(a, b, max_hops, blocked)
            if nodes is None:
                return None
        return self._rels(nodes)

    def _bounded_dijkstra(
        self, a: str, b: str, max_hops: int, blocked: frozenset[str]
    ) -> tuple[str, ...] | None:
        """Lightest path with at most `max_hops` edges (Dijkstra over (table, hops) states)."""
        heap: list[tuple[float, int, str, tuple[str, ...]]] = [(0.0, 0, a, (a,))]
        fewest: dict[str, int] = {}  # table -> fewest hops it was settled with
        adj = self.graph.adj
        while heap:
            dist, hops, node, nodes = heappop(heap)
            if node == b:
                return nodes
            # Popped later means no lighter; it only helps if it arrived in fewer hops.
            if fewest.get(node, max_hops + 1) <= hops:
                continue
            fewest[node] = hops
            if hops < max_hops:
                for nxt, attrs in adj[node].items():
                    if fewest.get(nxt, max_hops + 1) > hops + 1 and nxt not in blocked:
                        heappush(heap, (dist + attrs["weight"], hops + 1, nxt, (*nodes, nxt)))
        return None

    def explain_no_path(self, a: str, b: str, max_hops: int = 4) -> str:
        """Why `a` and `b` cannot be joined: disconnected, too many hops, or low confidence."""
        a, b = self.resolve(a), self.resolve(b)
        limit = f"confidence >= {self.confidence_threshold}"
        blocked = self.no_transit.difference((a, b))
        usable = nx.restricted_view(self.graph, blocked, []) if blocked else self.graph
        if nx.has_path(usable, a, b):
            nodes = nx.shortest_path(usable, a, b)  # fewest hops
            return (
                f"joining {a} and {b} needs {len(nodes) - 1} joins "
                f"({' -> '.join(nodes)}), more than max_hops={max_hops}"
            )
        if nx.has_path(self.graph, a, b):
            nodes = nx.shortest_path(self.graph, a, b)
            via = ", ".join(sorted(blocked.intersection(nodes)))
            return (
                f"{a} and {b} connect only through {via} ({' -> '.join(nodes)}), which joins "
                "never pass through (no_transit); name it among the tables to join it"
            )
        weak = nx.Graph()
        weak.add_edges_from((r.from_table, r.to_table) for r in self.relationships)
        if a in weak and b in weak and nx.has_path(weak, a, b):
            nodes = nx.shortest_path(weak, a, b)
            return (
                f"{a} and {b} connect only through relationships below {limit} "
                f"({' -> '.join(nodes)}); the semantic file's joins can add it"
            )
        return f"no chain of relationships ({limit}) connects {a} and {b}"

    # ------------------------------------------------------------ plans

    def plan_joins(self, tables: Sequence[str], max_hops: int = 4) -> JoinPlan:
        """Joins for `tables` (the first is the FROM table): a path for two, a Steiner tree for
        more. Raises UnknownTable, or NoJoinPath (with the reason) when they cannot be joined."""
        key = (tuple(tables), max_hops)
        cached = self._plans.get(key)
        if cached is None:
            try:
                cached = self._plan(tables, max_hops)
            except NoJoinPath as exc:
                cached = exc  # failures are cached too: an agent often retries the same set
            if len(self._plans) >= _MAX_PLANS_CACHED:
                self._plans.clear()
            self._plans[key] = cached
        if isinstance(cached, NoJoinPath):
            raise cached
        return cached

    def _plan(self, tables: Sequence[str], max_hops: int) -> JoinPlan:
        names = list(dict.fromkeys(self.resolve(t) for t in tables))
        if not names:
            raise ValueError("plan_joins needs at least one table")
        if len(names) == 2:
            path = self.find_shortest_path(names[0], names[1], max_hops)
            if path is None:
                raise NoJoinPath(self.explain_no_path(names[0], names[1], max_hops))
            edges: Sequence[Relationship] = path
        else:
            edges = self.steiner_tree(names, max_hops) if len(names) > 2 else ()
        return JoinPlan.from_tree(names[0], edges, self._parallel)

    def steiner_tree(self, tables: Sequence[str], max_hops: int = 4) -> Path:
        """Relationships of one light tree connecting all `tables` (2-approximation, improved).

        Kou-Markowsky-Berman: MST of the terminals' metric closure (pairwise shortest paths
        of at most `max_hops`), expanded, re-spanned and pruned of non-terminal leaves. Then
        the few most promising hub tables are tried as a centre joining every terminal by its
        shortest path; the lightest tree wins. Raises NoJoinPath when not connected.
        """
        terminals = list(dict.fromkeys(self.resolve(t) for t in tables))
        blocked = self.no_transit.difference(terminals)
        # No path of at most max_hops joins weighs more than this: search no further.
        cutoff = max_hops * edge_weight(self.confidence_threshold) + 1e-9
        trees = [self._single_source(t, blocked, cutoff) for t in terminals]
        closure = []
        for (i, a), (_, b) in combinations(enumerate(terminals), 2):
            if b not in trees[i][0]:
                continue
            nodes = _walk(trees[i][1], b)
            path = (
                self._rels(nodes)
                if len(nodes) - 1 <= max_hops
                else self.find_shortest_path(a, b, max_hops)  # the hop-bounded search
            )
            if path is not None:
                closure.append((path_weight(path), a, b, path))
        spanning = _kruskal(terminals, closure)
        if len(spanning) < len(terminals) - 1:
            raise NoJoinPath(self._explain_groups(terminals, closure, max_hops))
        best = self._tree([r for path in spanning for r in path], terminals)
        best_weight = path_weight(best)
        # One-hub stars: beat KMB when the terminals meet at a table none of their pairwise
        # shortest paths goes through (sum of distances to the hub bounds the star's weight).
        common = set(trees[0][0]).intersection(*(dist for dist, _ in trees[1:]))
        costs = sorted((sum(dist[v] for dist, _ in trees), v) for v in common)
        for cost, hub in costs[:_HUB_CANDIDATES]:
            if cost >= best_weight - 1e-9:
                break
            paths = [_walk(pred, hub) for _, pred in trees]
            if any(len(p) - 1 > max_hops for p in paths):
                continue
            tree = self._tree([r for p in paths for r in self._rels(p)], terminals)
            if path_weight(tree) < best_weight - 1e-9:
                best, best_weight = tree, path_weight(tree)
        return best

    def _single_source(
        self, source: str, blocked: frozenset[str], cutoff: float
    ) -> tuple[dict[str, float], dict[str, str]]:
        """Dijkstra from `source` avoiding `blocked`, up to distance `cutoff`: distances and
        predecessors (cached). A lean loop, 2-3x faster than networkx's, which also builds
        every path."""
        cached = self._sssp.get((source, blocked, cutoff))
        if cached is not None:
            return cached
        dist: dict[str, float] = {}
        pred: dict[str, str] = {}
        best = {source: 0.0}
        heap = [(0.0, source)]
        adj = self._adj
        while heap:
            d, u = heappop(heap)
            if d > cutoff:
                break
            if u in dist:
                continue
            dist[u] = d
            for v, w in adj[u]:
                nd = d + w
                if v not in dist and nd < best.get(v, _INF) and v not in blocked:
                    best[v] = nd
                    pred[v] = u
                    heappush(heap, (nd, v))
        self._sssp[source, blocked, cutoff] = (dist, pred)
        return dist, pred

    def _rels(self, nodes: Sequence[str]) -> Path:
        edges = self.graph.edges
        return tuple(edges[u, v]["rel"] for u, v in pairwise(nodes))

    def _tree(self, rels: Iterable[Relationship], terminals: Sequence[str]) -> Path:
        """MST of the union of `rels`, then non-terminal leaves pruned until none is left."""
        unique = {frozenset((r.from_table, r.to_table)): r for r in rels}
        nodes = {t for r in unique.values() for t in (r.from_table, r.to_table)}
        weighted = [
            (edge_weight(r.confidence), *sorted((r.from_table, r.to_table)), r)
            for r in unique.values()
        ]
        tree = _kruskal(nodes | set(terminals), weighted)
        keep = set(terminals)
        while True:
            degree: dict[str, int] = {}
            for r in tree:
                for t in (r.from_table, r.to_table):
                    degree[t] = degree.get(t, 0) + 1
            leaves = {t for t, d in degree.items() if d == 1 and t not in keep}
            if not leaves:
                return tuple(sorted(tree, key=lambda r: r.key))
            tree = [r for r in tree if r.from_table not in leaves and r.to_table not in leaves]

    def _explain_groups(self, terminals: list[str], closure: list[Any], max_hops: int) -> str:
        joined = nx.Graph()
        joined.add_nodes_from(terminals)
        joined.add_edges_from((a, b) for _, a, b, _ in closure)
        groups = sorted(sorted(c) for c in nx.connected_components(joined))
        first, second = groups[0][0], groups[1][0]
        return (
            f"cannot join {', '.join(terminals)}: they fall into separate groups "
            f"({' | '.join(', '.join(g) for g in groups)}); "
            f"e.g. {self.explain_no_path(first, second, max_hops)}"
        )
