"""One entry point for the CLI: load a suite's dataset and run it against a callable.

`frontdesk eval SUITE --assistant NAME` builds the callable for SUITE from the assistant
(search / classify / audit / ask) and calls `evaluate`; everything else lives here so the
CLI stays a thin layer.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from frontdesk.eval.agent_suites import run_no_context, run_tools
from frontdesk.eval.datasets import PARSERS, load_dataset
from frontdesk.eval.sql_suite import run_sql
from frontdesk.eval.suites import (
    SuiteResult,
    run_answers,
    run_guardrails,
    run_retrieval,
    run_routing,
)

SUITES: dict[str, Callable[..., Any]] = {
    "retrieval": run_retrieval,
    "routing": run_routing,
    "guardrails": run_guardrails,
    "answers": run_answers,
    "no_context": run_no_context,
    "tools": run_tools,
    "sql": run_sql,
}
# What each suite's callable is, for help texts and error messages.
TARGETS: dict[str, str] = {
    "retrieval": "search(query, top_k) -> list of hits with metadata['item_name']",
    "routing": "classify(text) -> (label, confidence)",
    "guardrails": "audit(text) -> bool (flagged)",
    "answers": "async ask(question, thread_id) -> str or Answer",
    "no_context": "gate(question) -> bool (NO_CONTEXT fired)",
    "tools": "async decide(case) -> (tool name or None, args)",
    "sql": "async predict(case) -> SQLRun (the agent's rows and the gold SQL's rows)",
}
assert set(SUITES) == set(PARSERS) == set(TARGETS)
# Suites whose target runs the chat model (asynchronously); the others need embeddings only.
CHAT_MODEL_SUITES = frozenset({"answers", "tools", "sql"})


async def evaluate(
    suite: str, dataset: str | Path, target: Callable[..., Any], **options: Any
) -> SuiteResult:
    """Load `dataset` for `suite` and run it against `target`.

    `options` go to the suite's runner (for example `top_k` for retrieval, `labels` for
    routing, `timeout_s` for answers, `show_progress` for all).
    """
    if suite not in SUITES:
        raise ValueError(f"unknown suite {suite!r}; choose one of {', '.join(SUITES)}")
    if not callable(target):
        raise TypeError(f"the {suite} suite needs a callable: {TARGETS[suite]}")
    cases = load_dataset(suite, dataset)
    if suite in CHAT_MODEL_SUITES:
        return await SUITES[suite](cases, target, **options)
    return SUITES[suite](cases, target, **options)


def report_path(
    data_dir: str | Path, assistant: str, suite: str, when: datetime | None = None
) -> Path:
    """Where a run's markdown report goes by default: a new, sortable file per run,
    `<data_dir>/reports/<assistant>-<suite>-<UTC timestamp>.md`."""
    stamp = (when or datetime.now(UTC)).strftime("%Y%m%dT%H%M%SZ")
    # Names come from the command line; keep them from escaping the reports folder.
    safe = [re.sub(r"[^A-Za-z0-9_.-]+", "_", name).strip(".") or "_" for name in (assistant, suite)]
    return Path(data_dir) / "reports" / f"{safe[0]}-{safe[1]}-{stamp}.md"
