"""Measuring retrieval on labelled questions: does what the answer is shown hold the code?

Each case names its repository, the files that answer it and the symbols (qualified names).
Scored on the chunks the retrieval pipeline returns, in order, exactly as the graph gets them:

- `file_hit@1` / `file_hit@5`: a gold file among the files of the first 1 / 5 chunks;
- `mrr@10`: 1 / the rank of the first chunk (of 10) from a gold file, 0 if none;
- `symbol_hit@5`: a gold symbol defined in one of the first 5 chunks (cases with symbols);
- `fast_path_rate`: questions that named something the index has (answered without search
  ranking when they ask where it is);
- retrieval time per question, p50 / p95 (routing, search and the gate; no model).

The sdists of the shipped repositories are unpacked under the data folder and indexed there
the first time (`prepare_repositories`)."""

from __future__ import annotations

import json
import tarfile
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from langchain_core.documents import Document

from frontdesk.assistants.codeqa.indexing.indexer import CodeIndex
from frontdesk.assistants.codeqa.repository import Repository
from frontdesk.assistants.codeqa.retrieval.pipeline import retrieve, route_question
from frontdesk.assistants.codeqa.retrieval.search import SearchSettings
from frontdesk.errors import FrontdeskError
from frontdesk.eval.metrics import percentile

__all__ = ["RetrievalCase", "load_cases", "prepare_repositories", "run_retrieval", "score"]

EVAL_DIR = Path(__file__).parent / "data" / "eval"
REPOS_DIR = EVAL_DIR / "repos"


class InvalidCase(FrontdeskError):
    pass


@dataclass(frozen=True)
class RetrievalCase:
    question: str
    repo: str
    gold_files: tuple[str, ...]
    gold_symbols: tuple[str, ...]
    style: str = ""


def load_cases(path: Path) -> list[RetrievalCase]:
    """The cases of a JSONL file; a malformed line is an error naming its line."""
    cases = []
    for number, line in enumerate(Path(path).read_text(encoding="utf-8").splitlines(), 1):
        if not line.strip():
            continue
        try:
            row = json.loads(line)
            cases.append(
                RetrievalCase(
                    question=str(row["question"]),
                    repo=str(row["repo"]),
                    gold_files=tuple(row["gold_files"]),
                    gold_symbols=tuple(row.get("gold_symbols") or ()),
                    style=str(row.get("style", "")),
                )
            )
        except (ValueError, KeyError, TypeError) as error:
            raise InvalidCase(f"{path}:{number}: not a retrieval case ({error})") from None
    return cases


def score(case: RetrievalCase, chunks: list[Document]) -> dict[str, Any]:
    files = [d.metadata.get("path", "") for d in chunks]
    gold = set(case.gold_files)
    first = next((rank for rank, f in enumerate(files[:10], 1) if f in gold), None)
    defined = {s for d in chunks[:5] for s in str(d.metadata.get("symbols", "")).split()}
    return {
        "first_relevant_rank": first,
        # Gold files none of the first five chunks is from (the report lists these rows).
        "missed": sorted(gold - set(files[:5])) if not gold & set(files[:5]) else [],
        "file_hit@1": bool(files[:1]) and files[0] in gold,
        "file_hit@5": any(f in gold for f in files[:5]),
        "mrr@10": 1.0 / first if first else 0.0,
        "symbol_hit@5": any(s in defined for s in case.gold_symbols) if case.gold_symbols else None,
        "retrieved": [
            f"{d.metadata.get('path')}:{d.metadata.get('start_line')}" for d in chunks[:5]
        ],
    }


def run_retrieval(
    cases: list[RetrievalCase],
    repository: Callable[[str], Repository],
    *,
    top_k: int = 5,
    search: SearchSettings | None = None,
    min_similarity: float = -1.0,
    advance: Callable[[], None] = lambda: None,
) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    rows = []
    for line, case in enumerate(cases, 1):
        repo = repository(case.repo)
        started = time.perf_counter()
        output = route_question(case.question, repo)
        found = retrieve(output, repo, top_k=top_k, search=search or SearchSettings(),
                         min_similarity=min_similarity)  # fmt: skip
        seconds = time.perf_counter() - started
        rows.append({"line": line, "query": case.question, "repo": case.repo, "style": case.style,
                     "fast_path": output["fast_path"], "seconds": seconds,
                     **score(case, found.chunks)})  # fmt: skip
        advance()
    return metrics_of(rows), rows


def metrics_of(rows: list[dict[str, Any]]) -> dict[str, Any]:
    def mean(key: str, subset: list[dict[str, Any]]) -> float | None:
        values = [float(r[key]) for r in subset if r[key] is not None]
        return round(sum(values) / len(values), 3) if values else None

    figures: dict[str, Any] = {"cases": len(rows)}
    for key in ("file_hit@1", "file_hit@5", "mrr@10", "symbol_hit@5"):
        figures[key] = mean(key, rows)
    figures["fast_path_rate"] = mean("fast_path", rows)
    times = [r["seconds"] * 1000 for r in rows]
    if times:
        figures["retrieval_p50_ms"] = round(percentile(times, 50), 2)
        figures["retrieval_p95_ms"] = round(percentile(times, 95), 2)
    figures["by_style"] = {
        style: {k: mean(k, [r for r in rows if r["style"] == style])
                for k in ("file_hit@5", "symbol_hit@5")}
        for style in sorted({r["style"] for r in rows})
    }  # fmt: skip
    figures["by_repo"] = {
        repo: {k: mean(k, [r for r in rows if r["repo"] == repo])
               for k in ("file_hit@5", "symbol_hit@5")}
        for repo in sorted({r["repo"] for r in rows})
    }  # fmt: skip
    return figures


def shipped_archive(repo_id: str, sdists: Path = REPOS_DIR) -> Path | None:
    """The shipped sdist (`<repo_id>-<version>.tar.gz`) of a labelled set's repository."""
    found = sorted(sdists.glob(f"{repo_id}-*.tar.gz"))
    return found[-1] if found else None


def unpacked(archive: Path, folder: Path) -> Path:
    """`archive` unpacked into `folder` once: its top folder. Unpacked beside, then moved, so
    an interrupted run leaves no half a copy to be reused."""
    root = folder / archive.name.removesuffix(".tar.gz")
    if not root.is_dir():
        folder.mkdir(parents=True, exist_ok=True)
        with tempfile.TemporaryDirectory(dir=folder) as scratch:
            with tarfile.open(archive) as tar:
                tar.extractall(scratch, filter="data")
            (Path(scratch) / root.name).rename(root)
    return root


def prepare_repositories(index: CodeIndex, folder: Path, sdists: Path = REPOS_DIR) -> list[str]:
    """Unpack each shipped sdist into `folder` once and index it as `<name>` (incrementally:
    a second run embeds nothing)."""
    ids = []
    for archive in sorted(sdists.glob("*.tar.gz")):
        name = archive.name.removesuffix(".tar.gz").rsplit("-", 1)[0]
        index.index(unpacked(archive, folder), name)
        ids.append(name)
    return ids
