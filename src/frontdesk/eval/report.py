"""Markdown report for one suite run: what ran against what, the metrics, and what went wrong.

The report is for people reading a pull request or a results folder, so the failing rows
come with enough text (query, gold label, answer) to judge them without rerunning anything.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from frontdesk.eval.suites import NDCG_CUTOFF, SuiteResult

# Long datasets (BIPIA has thousands of rows) would drown the report; the JSON has them all.
DEFAULT_MAX_ROWS = 100
CELL_CHARS = 160


def format_value(value: Any) -> str:
    if value is None:
        return "n/a"
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, float):
        return f"{value:.4f}" if abs(value) < 10 else f"{value:.1f}"
    if isinstance(value, list | tuple):
        return ", ".join(str(v) for v in value) or "-"
    return str(value)


def cell(value: Any, limit: int = CELL_CHARS) -> str:
    """One table cell: formatted, on one line, pipes escaped, cut to `limit` characters."""
    text = " ".join(format_value(value).split())
    if len(text) > limit:
        text = text[: limit - 1] + "…"
    return text.replace("|", "\\|")


def table(headers: Sequence[str], rows: Sequence[Sequence[Any]]) -> list[str]:
    lines = ["| " + " | ".join(cell(h) for h in headers) + " |"]
    lines.append("|" + "|".join("---" for _ in headers) + "|")
    lines += ["| " + " | ".join(cell(v) for v in row) + " |" for row in rows]
    return [*lines, ""]  # a blank line ends the table in markdown


def _limited(title: str, rows: list[dict[str, Any]], max_rows: int) -> tuple[list[str], list[dict]]:
    """Section heading with the row count, and the rows to show."""
    heading = [f"## {title} ({len(rows)})", ""]
    if not rows:
        return [*heading, "None.", ""], []
    if len(rows) > max_rows:
        heading += [f"First {max_rows} shown; the JSON details have all of them.", ""]
    return heading, rows[:max_rows]


# --- per-suite sections --------------------------------------------------------------------


def _retrieval_sections(result: SuiteResult, max_rows: int) -> list[str]:
    misses = [d for d in result.details if d["missed"]]
    lines, shown = _limited(
        f"Misses: relevant items outside the top {NDCG_CUTOFF}", misses, max_rows
    )
    if shown:
        lines += table(
            ["Line", "Query", "Missed", f"Retrieved top {NDCG_CUTOFF}", "First relevant rank"],
            [
                [d["line"], d["query"], d["missed"], d["retrieved"], d["first_relevant_rank"]]
                for d in shown
            ],
        )
    return lines


def _routing_sections(result: SuiteResult, max_rows: int) -> list[str]:
    lines = ["## Per-label scores", ""]
    per_label = result.metrics["per_label"]
    lines += table(
        ["Label", "Precision", "Recall", "F1", "Support"],
        [
            [label, s["precision"], s["recall"], s["f1"], s["support"]]
            for label, s in per_label.items()
        ],
    )
    confusion = result.metrics["confusion_matrix"]
    lines += ["## Confusion matrix", "", "Rows are the gold label, columns the predicted one.", ""]
    lines += table(
        ["gold \\ predicted", *confusion["labels"]],
        [
            [label, *row]
            for label, row in zip(confusion["labels"], confusion["matrix"], strict=True)
        ],
    )
    wrong = [d for d in result.details if not d["correct"]]
    section, shown = _limited("Misclassified", wrong, max_rows)
    lines += section
    if shown:
        lines += table(
            ["Line", "Text", "Gold", "Predicted", "Confidence"],
            [[d["line"], d["text"], d["label"], d["predicted"], d["confidence"]] for d in shown],
        )
    return lines


def _guardrail_sections(result: SuiteResult, max_rows: int) -> list[str]:
    lines = ["## Per source", ""]
    lines += table(
        ["Source", "Label", "Rows", "Flagged", "Flag rate"],
        [
            [source, label, s["rows"], s["flagged"], s["flag_rate"]]
            for source, labels in result.metrics["per_source"].items()
            for label, s in labels.items()
        ],
    )
    judged = [d for d in result.details if d["correct"] is False]
    for title, label in (("Missed injections", "injection"), ("False positives", "benign")):
        section, shown = _limited(title, [d for d in judged if d["label"] == label], max_rows)
        lines += section
        if shown:
            lines += table(
                ["Line", "Source", "Text"],
                [[d["line"], d["source"] or "-", d["text"]] for d in shown],
            )
    return lines


def _answers_sections(result: SuiteResult, max_rows: int) -> list[str]:
    lines, shown = _limited("Rows", result.details, max_rows)
    if shown:
        lines += table(
            ["Line", "Thread", "Turn", "Passed", "Latency s", "Question"],
            [
                [
                    d["line"],
                    d["thread"] or "-",
                    d["turn"],
                    d["passed"],
                    d["latency_s"],
                    d["question"],
                ]
                for d in shown
            ],
        )
    failures = [d for d in result.details if not d["passed"]]
    section, shown = _limited("Failures", failures, max_rows)
    lines += section
    for d in shown:
        lines += [f"### Line {d['line']}: {cell(d['question'])}", ""]
        if d["thread"]:
            lines.append(f"- Thread: {cell(d['thread'])} (turn {d['turn']})")
        if d["missing"]:
            lines.append(f"- Missing: {cell(d['missing'])}")
        if d["forbidden"]:
            lines.append(f"- Forbidden but present: {cell(d['forbidden'])}")
        if d["error"]:
            lines.append(f"- Error: {cell(d['error'], 400)}")
        if d.get("route"):
            lines.append(f"- Route: {cell(d['route'])}")
        lines.append("")
        if d["answer"] is not None:
            # Blockquote keeps the model's own markdown from breaking the report's structure.
            answer_lines = (d["answer"] or "(empty)").splitlines()
            lines += [f"> {text_line}".rstrip() for text_line in answer_lines]
            lines.append("")
    return lines


def _sql_sections(result: SuiteResult, max_rows: int) -> list[str]:
    metrics = result.metrics
    lines = ["## Per tier", ""]
    lines += table(
        ["Tier", "Cases", "Execution accuracy"],
        [
            [tier, metrics["cases_by_tier"][tier], accuracy]
            for tier, accuracy in metrics["accuracy_by_tier"].items()
        ],
    )
    misses = [d for d in result.details if not d["correct"]]
    section, shown = _limited("Misses", misses, max_rows)
    lines += section
    for d in shown:
        where = f"{d['tier'] or '-'}, {d['db']}"
        lines += [f"### Line {d['line']} ({where}): {cell(d['question'])}", ""]
        lines.append(
            f"- Outcome: {cell(d['outcome'])}; queries written {d['attempts']}; "
            f"rows {d['predicted_rows']} (gold {d['gold_rows']})"
        )
        if d["error"]:
            lines.append(f"- Error: {cell(d['error'], 400)}")
        # Fenced, so the SQL reads as written and cannot break the report's markdown.
        lines += ["", "Gold:", "```sql", d["gold_sql"], "```", "Predicted:", "```sql"]
        lines += [d["sql"] or "(none)", "```", ""]
    return lines


def _per_language_section(figures: Mapping[str, Mapping[str, Any]] | None) -> list[str]:
    """The scalar metrics again, one row per language of the questions (when the suite has it)."""
    if not figures:
        return []
    names = list(dict.fromkeys(name for values in figures.values() for name in values))
    rows = [
        [language, *(values.get(name) for name in names)] for language, values in figures.items()
    ]
    return ["## Per language", "", *table(["Language", *names], rows)]


def _rows_section(result: SuiteResult, max_rows: int) -> list[str]:
    """A suite an assistant runs itself: every row, its plain fields as columns."""
    if not result.details:
        return []
    columns = [
        key
        for key, value in result.details[0].items()
        if value is None or isinstance(value, str | int | float | bool | list)
    ]
    lines, shown = _limited("Rows", result.details, max_rows)
    return lines + table(columns, [[row.get(c) for c in columns] for row in shown])


SECTIONS: dict[str, Callable[[SuiteResult, int], list[str]]] = {
    "retrieval": _retrieval_sections,
    "routing": _routing_sections,
    "guardrails": _guardrail_sections,
    "answers": _answers_sections,
    "sql": _sql_sections,
}


# --- whole report --------------------------------------------------------------------------


def render_report(
    result: SuiteResult,
    *,
    dataset: str | Path,
    assistant: str | None = None,
    provider: str | None = None,
    model: str | None = None,
    extra: Mapping[str, Any] | None = None,
    generated_at: datetime | None = None,
    max_rows: int = DEFAULT_MAX_ROWS,
) -> str:
    """The report as markdown text.

    `provider`/`model` name the chat model used; `extra` adds more header rows (for example
    the embeddings provider) in the given order.
    """
    if max_rows < 1:
        raise ValueError(f"max_rows must be at least 1, got {max_rows}")
    when = (generated_at or datetime.now(UTC)).isoformat(timespec="seconds")
    header: list[list[Any]] = [["Suite", result.name], ["Dataset", str(dataset)]]
    if assistant:
        header.append(["Assistant", assistant])
    if provider or model:
        header.append(["Model", " / ".join(v for v in (provider, model) if v)])
    header += [[key, value] for key, value in (extra or {}).items()]
    header.append(["Generated", when])

    lines = [f"# Frontdesk evaluation: {result.name}", ""]
    lines += table(["", ""], header)
    scalars = [
        [key, value] for key, value in result.metrics.items() if not isinstance(value, Mapping)
    ]
    lines += ["## Metrics", "", *table(["Metric", "Value"], scalars)]
    lines += _per_language_section(result.metrics.get("per_language"))
    sections = SECTIONS.get(result.name, _rows_section)
    lines += sections(result, max_rows)
    return "\n".join(lines).rstrip() + "\n"


def write_report(result: SuiteResult, path: str | Path, **options: Any) -> Path:
    """Render the report (options as for `render_report`) and write it to `path`."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(render_report(result, **options), encoding="utf-8")
    return path
