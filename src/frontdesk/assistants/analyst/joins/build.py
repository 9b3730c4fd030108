"""Building the join graph once, offline, from the database and the overrides file.

Three sources are merged (see `graph` for what the graph holds):

1. declared foreign keys, read with SQLAlchemy introspection (type `foreign_key`, confidence 1);
2. naming inference (`employeeId` -> `employee.id`, Chinook-style `Album.ArtistId` ->
   `Artist.ArtistId`; type `inferred`, confidence < 1; see `inference`), because many
   production schemas declare few or no foreign keys;
3. manual overrides (the semantic file's joins and table flags, or a JSON file of the same:
   add, remove, hide tables; type `manual`).

An optional LLM pass then drops implausible inferred relationships, and the result is saved as
`join_graph_validated.json` (format: `JoinGraph.to_dict`).
"""

from __future__ import annotations

import json
import logging
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from pydantic import BaseModel, Field

from frontdesk.assistants.analyst.joins.graph import (
    _REL_FIELDS,
    JoinGraph,
    Relationship,
    TableInfo,
    _sorted,
    cardinality,
)
from frontdesk.assistants.analyst.joins.inference import infer_relationships

log = logging.getLogger(__name__)

# Which source wins when two relationships join the same two columns.
_PRIORITY = {"foreign_key": 3, "manual": 2, "inferred": 1}


# ---------------------------------------------------------------- introspection


def _excluded(name: str, exclude: Iterable[str], prefixes: Sequence[str]) -> bool:
    return name in set(exclude) or any(name.startswith(p) for p in prefixes if p)


def introspect(
    engine: Any,
    *,
    exclude: Iterable[str] = (),
    exclude_prefixes: Sequence[str] = ("_",),
    schema: str | None = None,
) -> JoinGraph:
    """Tables (views skipped) and declared single-column foreign keys of `engine`'s database.

    Composite foreign keys are skipped: one `a.x = b.y` edge would join them wrongly.
    """
    from sqlalchemy import inspect

    insp = inspect(engine)
    exclude = set(exclude)
    names = [
        n
        for n in insp.get_table_names(schema=schema)
        if not _excluded(n, exclude, exclude_prefixes)
    ]
    tables: dict[str, TableInfo] = {}
    fks: list[tuple[str, dict[str, Any]]] = []
    for name in names:
        columns = [c["name"] for c in insp.get_columns(name, schema=schema)]
        pk = list(insp.get_pk_constraint(name, schema=schema).get("constrained_columns") or [])
        keys = [pk, *(u["column_names"] for u in insp.get_unique_constraints(name, schema))]
        keys += [i["column_names"] for i in insp.get_indexes(name, schema) if i.get("unique")]
        # MySQL reports a unique key as both a constraint and an index: dict.fromkeys dedupes.
        unique = list(dict.fromkeys(k[0] for k in keys if len(k) == 1 and k[0]))
        tables[name] = TableInfo(columns, unique, pk)
        fks += [(name, fk) for fk in insp.get_foreign_keys(name, schema=schema)]
    # MySQL with case-insensitive table names may spell a referred table differently.
    by_lower = {n.lower(): n for n in tables}
    same_schema = (None, schema, insp.default_schema_name)
    declared = []
    for name, fk in fks:
        src, dst = fk["constrained_columns"], fk["referred_columns"]
        target = by_lower.get(fk["referred_table"].lower(), fk["referred_table"])
        if len(src) != 1 or len(dst) != 1:
            log.info("skipping composite foreign key %s(%s) -> %s", name, src, target)
            continue
        if target not in tables or fk.get("referred_schema") not in same_schema:
            continue  # references an excluded table or another schema
        ends = (name, src[0], target, dst[0])
        declared.append(Relationship(*ends, "foreign_key", 1.0, cardinality(tables, *ends)))
    return JoinGraph(tables, _sorted(declared))


# ---------------------------------------------------------------- manual overrides


@dataclass(frozen=True)
class ManualOverrides:
    """Relationships to add (type `manual`), to remove (any type); tables to hide, and
    tables join paths must not pass through (see `TableInfo.no_transit`)."""

    add: tuple[Relationship, ...] = ()
    remove: tuple[dict[str, str], ...] = ()
    hidden: frozenset[str] = field(default_factory=frozenset)
    no_transit: frozenset[str] = field(default_factory=frozenset)

    def removes(self, rel: Relationship) -> bool:
        """Whether a remove entry matches `rel` (in either orientation; absent fields = any)."""
        flipped = dict(zip(_REL_FIELDS, (rel.to_table, rel.to_column, *rel.key[:2]), strict=True))
        straight = dict(zip(_REL_FIELDS, rel.key, strict=True))
        return any(
            all(spec[k] == side[k] for k in spec)
            for spec in self.remove
            for side in (straight, flipped)
        )


def load_manual(path: str | Path | None) -> ManualOverrides:
    """Parse `{"add": [...], "remove": [...], "hidden": [...], "no_transit": [...]}`; a table
    can also be flagged as `"tables": {"t": {"hidden": true, "no_transit": true}}`."""
    if path is None:
        return ManualOverrides()
    data = json.loads(Path(path).read_text(encoding="utf-8"))
    add = []
    for item in data.get("add", []):
        rel = Relationship.from_dict({**item, "type": "manual", "cardinality": ""})
        add.append(rel)
    remove = []
    for item in data.get("remove", []):
        spec = {k: str(item[k]) for k in _REL_FIELDS if item.get(k)}
        if "from_table" not in spec or "from_column" not in spec:
            raise ValueError(f"{path}: a remove entry needs from_table and from_column: {item!r}")
        remove.append(spec)
    flags = {}
    for flag in ("hidden", "no_transit"):
        names = set(data.get(flag, []))
        flags[flag] = frozenset(
            names | {t for t, o in data.get("tables", {}).items() if o.get(flag)}
        )
    return ManualOverrides(tuple(add), tuple(remove), **flags)


# ---------------------------------------------------------------- merge


def _valid(tables: Mapping[str, TableInfo], rel: Relationship) -> bool:
    """Both endpoints are columns of (non-hidden) tables."""
    ends = ((rel.from_table, rel.from_column), (rel.to_table, rel.to_column))
    return all(t in tables and c in tables[t].columns for t, c in ends)


def merge(
    tables: Mapping[str, TableInfo],
    declared: Iterable[Relationship],
    inferred: Iterable[Relationship] = (),
    manual: ManualOverrides | None = None,
) -> JoinGraph:
    """One relationship per column pair: declared > manual > inferred; then removes and hides.

    An inferred relationship is also dropped when its source column already has a declared or
    manual relationship: the explicit one says where that column points.
    """
    manual = manual or ManualOverrides()
    tables = {
        n: replace(t, no_transit=t.no_transit or n in manual.no_transit)
        for n, t in tables.items()
        if n not in manual.hidden
    }
    explicit = list(declared)
    for rel in manual.add:
        if not _valid(tables, rel):
            log.warning("manual relationship %s: no such table/column, skipped", rel.describe())
            continue
        card = cardinality(tables, *rel.key)
        explicit.append(Relationship(*rel.key, "manual", rel.confidence, card))
    covered = {(r.from_table, r.from_column) for r in explicit}
    chosen: dict[Any, Relationship] = {}
    for rel in [*explicit, *inferred]:
        if not _valid(tables, rel):
            continue
        if rel.type == "inferred" and (rel.from_table, rel.from_column) in covered:
            continue
        old = chosen.get(rel.pair_key)
        rank = (_PRIORITY[rel.type], rel.confidence)
        if old is None or rank > (_PRIORITY[old.type], old.confidence):
            chosen[rel.pair_key] = rel
    kept = [r for r in chosen.values() if not manual.removes(r)]
    return JoinGraph(dict(tables), _sorted(kept))


# ---------------------------------------------------------------- LLM validation


class RelationshipVerdict(BaseModel):
    index: int = Field(description="the number of the proposed join, as listed")
    plausible: bool = Field(description="true if the two columns really hold the same key")
    reason: str = Field(default="", description="a few words")


class RelationshipVerdicts(BaseModel):
    verdicts: list[RelationshipVerdict]


_VALIDATION_PROMPT = """You review joins proposed from column names in a relational database.
For each numbered join, say whether the two columns plausibly hold the same key, so that
joining on them is meaningful. Answer with one verdict per number.

{items}"""


def _columns_hint(graph: JoinGraph, table: str, limit: int = 30) -> str:
    cols = graph.tables[table].columns if table in graph.tables else ()
    more = f", ... ({len(cols) - limit} more)" if len(cols) > limit else ""
    return ", ".join(cols[:limit]) + more


def validate_with_llm(
    graph: JoinGraph, llm: Any, *, batch_size: int = 20, types: Sequence[str] = ("inferred",)
) -> JoinGraph:
    """Ask `llm` (a chat model with `with_structured_output`) about each inferred relationship.

    Relationships judged implausible are dropped; plausible ones keep their confidence. A
    relationship the model does not answer about, or a batch whose call fails, is kept: the
    check may only remove what it has actually rejected.
    """
    from langchain_core.messages import HumanMessage

    structured = llm.with_structured_output(RelationshipVerdicts)
    candidates = [r for r in graph.relationships if r.type in types]
    rejected: set[tuple[str, str, str, str]] = set()
    for start in range(0, len(candidates), max(1, batch_size)):
        batch = candidates[start : start + max(1, batch_size)]
        items = "\n".join(
            f"{i}. {r.describe()}\n   {r.from_table} columns: {_columns_hint(graph, r.from_table)}"
            f"\n   {r.to_table} columns: {_columns_hint(graph, r.to_table)}"
            for i, r in enumerate(batch, 1)
        )
        prompt = _VALIDATION_PROMPT.format(items=items)
        try:
            result = structured.invoke([HumanMessage(prompt)])
            if not isinstance(result, RelationshipVerdicts):
                result = RelationshipVerdicts.model_validate(result)
        except Exception as exc:  # noqa: BLE001 - a failed batch must not lose relationships
            log.warning("LLM validation of %d relationships failed: %s", len(batch), exc)
            continue
        for verdict in result.verdicts:
            if 1 <= verdict.index <= len(batch) and not verdict.plausible:
                rel = batch[verdict.index - 1]
                log.info("LLM rejected %s: %s", rel.describe(), verdict.reason)
                rejected.add(rel.key)
    kept = [r for r in graph.relationships if r.key not in rejected]
    return JoinGraph(dict(graph.tables), kept, graph.version)


# ---------------------------------------------------------------- the pipeline


def build_join_graph(
    engine: Any,
    manual: str | Path | ManualOverrides | None = None,
    llm: Any = None,
    *,
    exclude: Iterable[str] = (),
    exclude_prefixes: Sequence[str] = ("_",),
    infer: bool = True,
    batch_size: int = 20,
    base: JoinGraph | None = None,
) -> JoinGraph:
    """Introspect + infer + manual overrides -> merge -> optional LLM check.

    `engine` is a SQLAlchemy engine (or URL string). `manual` is the overrides (a file, or
    already read: a semantic file's joins), or None. `base` is the engine's introspection when
    the caller already has it.
    """
    if base is None:
        if isinstance(engine, str):
            from sqlalchemy import create_engine

            engine = create_engine(engine)
        base = introspect(engine, exclude=exclude, exclude_prefixes=exclude_prefixes)
    overrides = manual if isinstance(manual, ManualOverrides) else load_manual(manual)
    existing = [*base.relationships, *overrides.add]
    inferred = infer_relationships(base.tables, existing) if infer else []
    graph = merge(base.tables, base.relationships, inferred, overrides)
    if llm is not None:
        graph = validate_with_llm(graph, llm, batch_size=batch_size)
    return graph
