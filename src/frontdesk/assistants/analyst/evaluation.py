"""Evaluation targets for the analyst: the SQL graph agent on labelled questions.

`frontdesk eval sql --assistant analyst [--dataset FILE]` runs each row's question through the
SQL graph agent on the row's database (`demo`: the configured one; `chinook`: the public
sample database beside the checkout; `nycflights13`: the public sample vendored under
`data/eval/nycflights13/`, built into `<data_dir>/analyst_nycflights13.sqlite` on first use,
offline; more via FRONTDESK_ANALYST_DATABASES='{"name": "sqlalchemy-url"}') and executes the
gold SQL there through the same read-only path.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from pathlib import Path
from typing import Any

import sqlglot
from sqlglot import exp

from frontdesk.assistants.analyst.sample_databases import build_nycflights13
from frontdesk.assistants.analyst.settings import AnalystSettings
from frontdesk.assistants.analyst.sql_agent.graph import build_sql_graph
from frontdesk.assistants.analyst.sql_agent.toolkit import SQLToolkit
from frontdesk.assistants.analyst.state import AnalystContext
from frontdesk.config import Settings
from frontdesk.eval.datasets import SQLCase
from frontdesk.eval.sql_suite import SQLRun
from frontdesk.eval.suites import EvalError
from frontdesk.runtime import Models

logger = logging.getLogger(__name__)

# The public Chinook sample beside the checkout (../shared/datasets), when present.
SHARED = Path(__file__).resolve().parents[5] / "shared"
CHINOOK = SHARED / "datasets" / "chinook" / "Chinook_Sqlite.sqlite"
# Sample databases vendored in the package: name -> builder (writes the SQLite file at the path
# unless an up-to-date one is there; offline, about a second).
BUILT_IN: dict[str, Callable[[Path], Path]] = {"nycflights13": build_nycflights13}


def built_in_path(settings: Settings, name: str) -> Path:
    return settings.data_dir / f"analyst_{name}.sqlite"


def database_urls(settings: Settings) -> dict[str, str | None]:
    """Database names a dataset may use -> URL (None: the configured/demo database)."""
    urls: dict[str, str | None] = {"demo": None}
    if CHINOOK.exists():
        urls["chinook"] = f"sqlite:///{CHINOOK}"
    for name in BUILT_IN:
        urls[name] = f"sqlite:///{built_in_path(settings, name)}"
    urls.update(AnalystSettings.of(settings).databases)
    return urls


def ensure_built(settings: Settings, name: str, url: str | None) -> None:
    """Build a vendored sample database before its first use (unless FRONTDESK_ANALYST_DATABASES
    points the name somewhere else)."""
    if name in BUILT_IN and url == f"sqlite:///{built_in_path(settings, name)}":
        BUILT_IN[name](built_in_path(settings, name))


def gold_is_ordered(sql: str, dialect: str) -> bool:
    """Whether the gold query orders its result (then the order must match too)."""
    tree = sqlglot.parse_one(sql, read=dialect)
    return isinstance(tree, exp.Query) and tree.args.get("order") is not None


class SQLTarget:
    """`await target(case) -> SQLRun`; opens each database once."""

    def __init__(self, settings: Settings, models: Models):
        self.settings = settings
        self.models = models
        self.urls = database_urls(settings)
        self.graph = build_sql_graph(
            pre_validation=AnalystSettings.of(settings).sql_pre_validation_enabled
        )
        self.toolkits: dict[str, SQLToolkit] = {}

    def toolkit(self, db: str) -> SQLToolkit:
        from frontdesk.assistants.analyst.service import open_database

        if db not in self.toolkits:
            if db not in self.urls:
                raise EvalError(
                    f"unknown database {db!r}; known: {', '.join(sorted(self.urls))} "
                    "(add more with FRONTDESK_ANALYST_DATABASES)"
                )
            url = self.urls[db]
            ensure_built(self.settings, db, url)
            self.toolkits[db] = open_database(self.settings, self.models, url=url, name=db)
        return self.toolkits[db]

    def gold_rows(self, tk: SQLToolkit, case: SQLCase) -> list[tuple[Any, ...]] | str:
        """The gold SQL's rows, or why it failed (then the row is reported, not scored)."""
        prepared = tk.prepare(case.gold_sql)
        if not prepared.ok:
            return f"the gold SQL fails the checks: {prepared.error}"
        result = tk.execute(prepared.sql)
        if not result.ok:
            return f"the gold SQL failed: {result.error}"
        return [tuple(row) for row in result.rows]

    async def __call__(self, case: SQLCase) -> SQLRun:
        tk = self.toolkit(case.db)
        gold = self.gold_rows(tk, case)
        if isinstance(gold, str):  # a broken row of the dataset: no model call measures it
            logger.warning("line %s: %s", case.line, gold)
            return SQLRun(None, [], outcome="gold_error", gold_error=gold)
        context = AnalystContext(
            llm=self.models.chat,
            router=None,
            sql=tk,
            sql_graph=self.graph,
            manual=None,
            write_answers=False,
        )
        limits = tk.limits
        try:
            state = await self._run(case, context, limits)
        except Exception as exc:  # one broken case is a miss in the report, not a dead run
            logger.exception("line %s failed", case.line)
            return SQLRun(None, gold, outcome="error", error=f"{type(exc).__name__}: {exc}")
        return self._result(state, gold, tk, case)

    async def _run(self, case: SQLCase, context: AnalystContext, limits) -> dict[str, Any]:
        return await self.graph.ainvoke(
            {
                "question": case.question,
                "retries": 0,
                "iterations": 0,
                "sql_correction_attempts": 0,
                "correction_history": [],
                "max_correction_attempts": limits.correction_max_attempts,
                "max_iterations": limits.agent_max_iterations,
            },
            context=context,
        )

    def _result(self, state: dict[str, Any], gold, tk: SQLToolkit, case: SQLCase) -> SQLRun:
        ran = state.get("outcome") in ("answered", "empty")
        columns = state.get("column_names") or []
        rows = [tuple(r.get(c) for c in columns) for r in state.get("structured_result") or []]
        history = state.get("correction_history") or []
        return SQLRun(
            predicted_rows=rows if ran else None,
            gold_rows=gold,
            sql=state.get("executed_sql") or state.get("sql"),
            attempts=state.get("iterations", 1),  # queries written: first, regenerated, corrected
            corrections=state.get("sql_correction_attempts", 0),
            needed_correction=bool(history),
            outcome=state.get("outcome"),
            error=None if ran else state.get("last_sql_error"),
            ordered=gold_is_ordered(case.gold_sql, tk.dialect),
        )

    def close(self) -> None:
        for tk in self.toolkits.values():
            tk.engine.dispose()


def sql_target(settings: Settings, models: Models) -> SQLTarget:
    return SQLTarget(settings, models)
