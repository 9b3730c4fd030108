"""Evaluation harness: datasets, metrics, suite runners and markdown reports.

Suites take plain callables (search, classify, audit, ask), so they work with any assistant
and with fakes in tests. `evaluate(suite, dataset, target)` is what the CLI calls.
"""

from frontdesk.eval.datasets import (
    AnswerCase,
    DatasetError,
    GuardrailCase,
    RetrievalCase,
    RoutingCase,
    load_dataset,
)
from frontdesk.eval.harness import SUITES, TARGETS, evaluate, report_path
from frontdesk.eval.report import render_report, write_report
from frontdesk.eval.suites import (
    EvalError,
    SuiteResult,
    run_answers,
    run_guardrails,
    run_retrieval,
    run_routing,
)

__all__ = [
    "SUITES",
    "TARGETS",
    "AnswerCase",
    "DatasetError",
    "EvalError",
    "GuardrailCase",
    "RetrievalCase",
    "RoutingCase",
    "SuiteResult",
    "evaluate",
    "load_dataset",
    "render_report",
    "report_path",
    "run_answers",
    "run_guardrails",
    "run_retrieval",
    "run_routing",
    "write_report",
]
