"""The analyst's deterministic SQL path on the demo database (132 tables): join path finding
(pairs and Steiner plans, cached and not) and pre-validation (parse, read-only check, secure
rewrite, LIMIT, every table and column checked) of the shipped gold queries."""

from __future__ import annotations

import json
import tempfile
import time
from pathlib import Path

from frontdesk.assistants.analyst.database import demo_semantic
from frontdesk.assistants.analyst.db.engine import open_engine
from frontdesk.assistants.analyst.db.secure_views import SECURE_VIEW_MAP
from frontdesk.assistants.analyst.demo.build import build_sqlite
from frontdesk.assistants.analyst.joins.benchmark import benchmark_paths
from frontdesk.assistants.analyst.joins.build import build_join_graph
from frontdesk.assistants.analyst.service import EVAL_DIR
from frontdesk.assistants.analyst.sql import check as sqlcheck

KEY = "bench-key"


def gold_queries() -> list[str]:
    path = EVAL_DIR / "sql.jsonl"
    return [json.loads(line)["gold_sql"] for line in path.read_text().splitlines() if line.strip()]


def bench_analyst(tmp: Path | None = None) -> dict:
    with tempfile.TemporaryDirectory(prefix="frontdesk-analyst-") as name:
        path = Path(tmp or name) / "demo.sqlite"
        started = time.perf_counter()
        build_sqlite(path, KEY)
        built = time.perf_counter() - started
        engine = open_engine(f"sqlite:///{path}", KEY, read_only=True)
        started = time.perf_counter()
        graph = build_join_graph(engine, demo_semantic().overrides)
        introspected = time.perf_counter() - started
        engine.dispose()
    catalog = sqlcheck.SchemaCatalog({t: list(i.columns) for t, i in graph.tables.items()})
    queries = gold_queries()
    return {
        "tables": len(graph.tables),
        "relationships": len(graph.relationships),
        "build_sqlite_s": round(built, 2),
        "join_graph_s": round(introspected, 2),
        "paths": benchmark_paths(graph, n=1000),
        "validation_sqlite": sqlcheck.benchmark_validation(
            catalog, queries, n=20, dialect="sqlite", secure_map=SECURE_VIEW_MAP
        ),
        "validation_mysql": sqlcheck.benchmark_validation(
            catalog, queries, n=20, dialect="mysql", secure_map=SECURE_VIEW_MAP
        ),
    }


if __name__ == "__main__":
    print(json.dumps(bench_analyst(), indent=2))
