"""`frontdesk eval retrieval|answers --assistant codeqa`: the code QA suites.

Both read the labelled sets' shape (`{"question", "repo", "gold_files", "gold_symbols"}`).
A case's repository is a shipped one with that id (the requests and click sdists under
data/eval/repos, unpacked and indexed the first time, in an index of their own under the data
folder, so they do not join the repositories a person asks about), else the indexed one.

- retrieval: `file_hit@1`, `file_hit@5`, `mrr@10`, `symbol_hit@5`, `fast_path_rate` and the
  time per question (evaluation.run_retrieval);
- answers: the whole turn with the chat model; an answer passes when it cites a gold file and
  names a gold symbol; `citation_precision` is the share of citations inside the code the
  answer was shown (1.0 by construction: answers/citations.py).
"""

from __future__ import annotations

import json
import re
import time
import uuid
from pathlib import Path
from typing import Any

from frontdesk.assistants.codeqa.evaluation import (
    RetrievalCase,
    load_cases,
    run_retrieval,
    shipped_archive,
    unpacked,
)
from frontdesk.assistants.codeqa.indexing.indexer import CodeIndex
from frontdesk.assistants.codeqa.repository import Repositories, UnknownRepository
from frontdesk.assistants.codeqa.retrieval.search import SearchSettings
from frontdesk.assistants.codeqa.settings import CodeQASettings
from frontdesk.assistants.plugin import EvalTarget
from frontdesk.config import Settings
from frontdesk.eval.datasets import load_answers
from frontdesk.eval.metrics import percentile
from frontdesk.eval.progress import progress_bar
from frontdesk.eval.suites import SuiteResult, run_answers
from frontdesk.runtime import Models

__all__ = ["answers_target", "retrieval_target"]

NAME = "codeqa"


class EvalRepositories:
    """A case's repository: a shipped one with its id (indexed once), else the indexed one."""

    def __init__(self, settings: Settings, models: Models):
        from frontdesk.assistants.codeqa.service import open_index

        own = CodeQASettings.of(settings)
        self.main = Repositories(open_index(settings, models), own.map_tokens)
        shipped = CodeIndex(
            settings.data_dir / "eval" / NAME / "index",
            models.embeddings,
            models.embeddings_id,
            budget=own.chunk_budget,
            outside_code_embed_chars=own.outside_code_embed_chars,
        )
        self.shipped = Repositories(shipped, own.map_tokens)
        self.unpacked_dir = settings.data_dir / "eval" / NAME / "repos"

    def prepare(self, repo_ids: set[str]) -> None:
        """Index the shipped repositories the cases name (only what changed), or fail
        naming a repository that is neither indexed nor shipped."""
        for repo_id in sorted(repo_ids):
            archive = shipped_archive(repo_id)
            if archive is None:
                if repo_id not in self.main.known():
                    raise UnknownRepository(repo_id, self.main.known())
                continue
            root = unpacked(archive, self.unpacked_dir)
            with progress_bar(f"indexing {repo_id}", 1) as advance:
                self.shipped.index.index(root, repo_id)
                advance()

    def check(self, repo_id: str) -> None:
        if repo_id not in self.main.known() and repo_id not in self.shipped.known():
            raise UnknownRepository(repo_id, self.main.known() + self.shipped.known())

    def __call__(self, repo_id: str):
        # The shipped copy first: the labels were written against that version.
        if repo_id in self.shipped.known():
            return self.shipped(repo_id)
        return self.main(repo_id)


def retrieval_target(settings: Settings, models: Models) -> EvalTarget:
    own = CodeQASettings.of(settings)
    repositories = EvalRepositories(settings, models)

    def run(dataset: Path) -> SuiteResult:
        cases = load_cases(dataset)
        repositories.prepare({c.repo for c in cases})
        with progress_bar("retrieval", len(cases)) as advance:
            metrics, rows = run_retrieval(
                cases,
                repositories,
                top_k=own.top_k,
                search=SearchSettings(bm25_weight=own.bm25_weight, dense_weight=own.dense_weight),
                advance=advance,
            )
        return SuiteResult("retrieval", metrics, rows)

    return EvalTarget(run=run)


async def answers_target(settings: Settings, models: Models) -> EvalTarget:
    """The service over the cases' repositories, without indexing its default one."""
    from frontdesk.agentkit.service import GraphAssistant
    from frontdesk.assistants.codeqa.service import build_service

    repositories = EvalRepositories(settings, models)
    quiet = settings.model_copy(
        update={
            "plugin_settings": {
                **settings.plugin_settings,
                NAME: {**settings.plugin_settings.get(NAME, {}), "index_on_start": False},
            }
        }
    )
    service: GraphAssistant = await build_service(quiet, models, repositories=repositories)

    async def run(dataset: Path) -> SuiteResult:
        if conversation_set(dataset):
            return await run_conversations(dataset, service, repositories)
        cases = load_cases(dataset)
        repositories.prepare({c.repo for c in cases})
        rows = []
        with progress_bar("answers", len(cases)) as advance:
            for line, case in enumerate(cases, 1):
                started = time.perf_counter()
                answer = await service.ask(case.question, str(uuid.uuid4()), scope=case.repo)
                rows.append(
                    {
                        "line": line,
                        **score_answer(case, answer),
                        "seconds": time.perf_counter() - started,
                    }
                )
                advance()
        return SuiteResult("code_answers", answers_metrics(rows), rows)

    return EvalTarget(run=run, close=service.aclose)


def conversation_set(dataset: Path) -> bool:
    """Whether `dataset` is in the core answers format (follow-up threads, questions about what
    a repository lacks, required strings) rather than codeqa's gold files and symbols."""
    return not any("gold_files" in row for row in _rows(dataset))


def _rows(dataset: Path) -> list[dict[str, Any]]:
    lines = dataset.read_text(encoding="utf-8").splitlines()
    return [
        json.loads(line) for line in lines if line.strip() and not line.lstrip().startswith("#")
    ]


async def run_conversations(
    dataset: Path, service: Any, repositories: EvalRepositories
) -> SuiteResult:
    """The core answers suite (`eval.suites.run_answers`: threads asked in order, absence
    stated, required strings), each question asked about its row's repository."""
    repo_of = {row["question"]: row["repo"] for row in _rows(dataset)}
    repositories.prepare(set(repo_of.values()))

    async def ask(question: str, thread_id: str) -> Any:
        return await service.ask(question, thread_id, scope=repo_of[question])

    return await run_answers(load_answers(dataset), ask)


def score_answer(case: RetrievalCase, answer: Any) -> dict[str, Any]:
    citations = answer.extra.get("citations") or []
    shown = answer.extra.get("shown") or []
    inside = [
        any(
            c["path"] == path and start <= c["start_line"] <= c["end_line"] <= end
            for path, start, end in shown
        )
        for c in citations
    ]
    text = answer.answer
    named = [s for s in case.gold_symbols if _names(text, s)]
    return {
        "query": case.question,
        "repo": case.repo,
        "answer": text,
        "citations": [c["label"] for c in citations],
        "cites_gold_file": any(c["path"] in case.gold_files for c in citations),
        "names_gold_symbol": bool(named) if case.gold_symbols else None,
        "citations_inside": sum(inside),
        "citations_total": len(inside),
        "fast_path": bool(answer.extra.get("fast_path")),
    }


def _names(text: str, symbol: str) -> bool:
    """The answer names the symbol: its last part (`Session.send` -> `send`) as a word."""
    last = symbol.rsplit(".", 1)[-1]
    return re.search(rf"(?<![\w]){re.escape(last)}(?![\w])", text) is not None


def answers_metrics(rows: list[dict[str, Any]]) -> dict[str, Any]:
    def share(key: str) -> float | None:
        values = [bool(r[key]) for r in rows if r[key] is not None]
        return round(sum(values) / len(values), 3) if values else None

    passed = [bool(r["cites_gold_file"]) and r["names_gold_symbol"] is not False for r in rows]
    total = sum(r["citations_total"] for r in rows)
    times = [r["seconds"] for r in rows]
    figures = {
        "cases": len(rows),
        "pass_rate": round(sum(passed) / len(rows), 3) if rows else None,
        "cites_gold_file": share("cites_gold_file"),
        "names_gold_symbol": share("names_gold_symbol"),
        "citation_precision": round(sum(r["citations_inside"] for r in rows) / total, 3)
        if total
        else None,
        "answers_with_citations": share("citations_total"),
        "fast_path_rate": share("fast_path"),
    }
    if times:
        figures["p50_s"] = round(percentile(times, 50), 2)
        figures["p95_s"] = round(percentile(times, 95), 2)
    return figures
