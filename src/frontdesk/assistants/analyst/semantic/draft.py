"""`frontdesk analyst describe`: a first semantic file drafted from the database itself.

What the schema says is written out for a person to correct: each table's comment (or its
name in words) as its description, column comments as notes, and the joins naming inference
found, as comments to confirm (declared foreign keys need nothing). Examples are left for the
person to write: an example is only worth showing the model when someone checked its SQL.
"""

from __future__ import annotations

from typing import Any

import yaml
from sqlalchemy import inspect

from frontdesk.assistants.analyst.joins.graph import JoinGraph
from frontdesk.assistants.analyst.joins.inference import split_name

HEADER = """# Semantic file for {database}: what its schema does not say. Drafted by
# `frontdesk analyst describe`; edit it, then restart. The analyst reads it at every start
# and refuses to start with a message naming each mistake (unknown table, column, bad SQL).
#   tables:   description (helps choose tables), columns (notes shown with the schema),
#             hidden: true (never offered), no_transit: true (join paths avoid it)
#   joins:    add / remove relationships, e.g. {{from: order.customer_ref, to: customer.id}}
#   examples: questions with the SQL that answers them, shown to the SQL writer, e.g.
#             - question: How many orders were shipped last month?
#               sql: SELECT COUNT(*) FROM orders WHERE status = 'shipped' AND ...
"""


def _words(name: str) -> str:
    return " ".join(split_name(name))


def draft_semantic(engine: Any, graph: JoinGraph, database: str) -> str:
    """The YAML text of a draft semantic file for `engine`'s database and its join graph."""
    inspector = inspect(engine)
    tables: dict[str, dict[str, Any]] = {}
    for name in sorted(graph.tables):
        try:
            comment = (inspector.get_table_comment(name) or {}).get("text")
        except NotImplementedError:  # SQLite keeps no comments
            comment = None
        entry: dict[str, Any] = {"description": (comment or _words(name)).strip()}
        notes = {
            c["name"]: c["comment"].strip()
            for c in inspector.get_columns(name)
            if (c.get("comment") or "").strip()
        }
        if notes:
            entry["columns"] = notes
        tables[name] = entry
    body = yaml.safe_dump(
        {"version": 1, "tables": tables, "joins": {"add": [], "remove": []}, "examples": []},
        sort_keys=False,
        width=100,
        allow_unicode=True,
    )
    inferred = [r for r in graph.relationships if r.type != "foreign_key"]
    review = "".join(
        f"#   {r.from_table}.{r.from_column} -> {r.to_table}.{r.to_column} "
        f"(confidence {r.confidence:.2f}{', used' if r.confidence >= 0.7 else ', not used'})\n"
        for r in inferred
    )
    if review:
        review = (
            "# Joins inferred from column names (no foreign key declares them). Under\n"
            "# `joins`, remove the wrong ones, and add the unused ones that are right:\n" + review
        )
    return HEADER.format(database=database) + review + body
