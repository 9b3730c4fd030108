"""How often the analyst's tables hold every table the gold query uses, no model.

    PYTHONPATH=src .venv/bin/python -m benchmarks.analyst_tables [--dataset FILE ...]

For each question of a SQL set (the analyst's own 80 by default): the gold query's tables (read
with sqlglot), and whether the pre-filter's first k tables hold all of them, for k = 3, 5, 8
and 12. The SQL is written over the first `SQL_CHOSEN_TABLES` (8); a question whose gold tables
are not all there can only be answered through the join planner's extra tables.
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path

import sqlglot

DEFAULT = Path("src/frontdesk/assistants/analyst/data/eval/sql.jsonl")
DEPTHS = (3, 5, 8, 12)


def gold_tables(sql: str, known: set[str]) -> set[str]:
    return {t.name.lower() for t in sqlglot.parse_one(sql).find_all(sqlglot.exp.Table)} & known


def main() -> None:
    from frontdesk.assistants.analyst.evaluation import sql_target
    from frontdesk.config import Settings
    from frontdesk.runtime import Models

    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--dataset", type=Path, nargs="*", default=[DEFAULT])
    args = parser.parse_args()
    settings = Settings()
    target = sql_target(settings, Models(settings))
    for path in args.dataset:
        rows = [json.loads(line) for line in path.read_text().splitlines() if line.strip()]
        held = dict.fromkeys(DEPTHS, 0)
        counted = 0
        for row in rows:
            toolkit = target.toolkit(row["db"])
            gold = gold_tables(row["gold_sql"], {t.lower() for t in toolkit.graph.tables})
            if not gold:
                continue
            counted += 1
            ranked = [t.lower() for t in toolkit.search_tables(row["question"], max(DEPTHS))]
            for depth in DEPTHS:
                held[depth] += gold <= set(ranked[:depth])
        shares = {f"first {d}": round(held[d] / max(counted, 1), 3) for d in DEPTHS}
        print(json.dumps({"dataset": str(path), "questions": counted, **shares}))
    target.close()


if __name__ == "__main__":
    main()
