"""Join plans: what `paths.JoinPathFinder` answers, and how much a plan weighs.

A `JoinPlan` is `FROM root` then `JoinStep`s, each joining one more table to one already in the
plan (`JoinPlan.from_tree` orders a tree of relationships so); it renders as SQL text for the
agent's prompt. The weights live here, beside the plan whose `weight` they give; the finder
searches with the same `edge_weight` (why `1 + (1 - confidence)`: see `paths`). Kept
apart from the search so the result types stand on their own.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass

from frontdesk.assistants.analyst.joins.graph import Relationship

Path = tuple[Relationship, ...]


def edge_weight(confidence: float) -> float:
    return 1.0 + (1.0 - confidence)


def path_weight(relationships: Iterable[Relationship]) -> float:
    return sum(edge_weight(r.confidence) for r in relationships)


@dataclass(frozen=True)
class JoinStep:
    """`JOIN <table> ON ...`: joins `table` to one already in the plan through `relationship`."""

    table: str
    relationship: Relationship
    # Other relationships between the same two tables (e.g. createdBy / assignedTo): the plan
    # picked the most certain one, but the question may mean another.
    alternatives: tuple[Relationship, ...] = ()

    def on_clause(self, quote: Callable[[str], str] = str) -> str:
        r, q = self.relationship, quote
        return f"{q(r.from_table)}.{q(r.from_column)} = {q(r.to_table)}.{q(r.to_column)}"

    def to_sql(self, quote: Callable[[str], str] = str) -> str:
        return f"JOIN {quote(self.table)} ON {self.on_clause(quote)}"


@dataclass(frozen=True)
class JoinPlan:
    """Joins for a set of tables: `FROM root` then `steps` in an order where each is joinable."""

    root: str
    steps: tuple[JoinStep, ...]
    weight: float

    @property
    def relationships(self) -> Path:
        return tuple(step.relationship for step in self.steps)

    @property
    def tables(self) -> tuple[str, ...]:
        """Every table the plan joins, intermediate ones included, in join order."""
        return (self.root, *(step.table for step in self.steps))

    def to_text(self, quote: Callable[[str], str] = str, *, alternatives: bool = True) -> str:
        """`FROM a\\nJOIN b ON a.x = b.y ...` for a prompt; other join columns as comments."""
        lines = [f"FROM {quote(self.root)}"]
        for step in self.steps:
            line = step.to_sql(quote)
            if alternatives and step.alternatives:
                other = "; ".join(
                    JoinStep(step.table, r).on_clause(quote) for r in step.alternatives
                )
                line += f"  -- or: {other}"
            lines.append(line)
        return "\n".join(lines)

    @classmethod
    def from_tree(
        cls,
        root: str,
        rels: Iterable[Relationship],
        parallel: Mapping[frozenset[str], Sequence[Relationship]],
    ) -> JoinPlan:
        """Breadth-first from `root`, so each step joins a table to one already joined.

        `parallel`: every relationship between two tables, by the pair; those other than the
        step's own become its `alternatives`.
        """
        adj: dict[str, list[tuple[str, Relationship]]] = {}
        for r in rels:
            adj.setdefault(r.from_table, []).append((r.to_table, r))
            adj.setdefault(r.to_table, []).append((r.from_table, r))
        seen, queue, steps = {root}, deque([root]), []
        while queue:
            table = queue.popleft()
            for other, rel in sorted(adj.get(table, ()), key=lambda e: (e[0], e[1].key)):
                if other in seen:
                    continue
                seen.add(other)
                queue.append(other)
                alts = parallel.get(frozenset((table, other)), [])
                steps.append(JoinStep(other, rel, tuple(a for a in alts if a != rel)))
        plan_rels = [s.relationship for s in steps]
        return cls(root, tuple(steps), path_weight(plan_rels))
