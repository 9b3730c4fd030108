"""Code QA's index and retrieval (issue 17 targets): indexing the two shipped repositories
(requests and click, 203 indexed files) and Frontdesk's own package (the default repository,
about 330 files) from nothing, re-indexing after one file changes, retrieval time per question
and the fast path, with the embedded MiniLM model."""

from __future__ import annotations

import statistics
import tempfile
import time
from pathlib import Path

from frontdesk.assistants.codeqa.evaluation import EVAL_DIR, load_cases, prepare_repositories
from frontdesk.assistants.codeqa.indexing.indexer import CodeIndex
from frontdesk.assistants.codeqa.repository import open_repository
from frontdesk.assistants.codeqa.retrieval.fast_path import named_targets
from frontdesk.assistants.codeqa.retrieval.pipeline import retrieve, route_question
from frontdesk.assistants.codeqa.retrieval.search import SearchSettings
from frontdesk.assistants.codeqa.settings import DEFAULT_REPOSITORY
from frontdesk.config import get_settings
from frontdesk.runtime import Models


def _pct(values: list[float], q: int) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(len(ordered) * q / 100))]


def bench_codeqa(tmp: Path | None = None) -> dict:
    models = Models(get_settings())
    with tempfile.TemporaryDirectory(prefix="frontdesk-codeqa-") as name:
        base = Path(tmp or name)
        index = CodeIndex(base / "index", models.embeddings, models.embeddings_id)
        started = time.perf_counter()
        ids = prepare_repositories(index, base / "src")
        first = time.perf_counter() - started
        files = sum(len(index.manifest(i).entries) for i in ids)
        chunks = sum(index.knowledge.count(i) for i in ids)
        root = Path(index.manifest("requests").root)
        target = root / "src" / "requests" / "status_codes.py"
        target.write_text(target.read_text() + "\n\ndef benchmark_marker():\n    return 1\n")
        started = time.perf_counter()
        again = index.index(root, "requests")
        reindex = time.perf_counter() - started
        repos = {i: open_repository(index, i) for i in ids}
        cases = load_cases(EVAL_DIR / "retrieval.jsonl") + load_cases(
            EVAL_DIR / "retrieval_heldout.jsonl"
        )
        retrieval_ms, fast_ms = [], []
        for _ in range(2):  # the second round is the one timed: caches warm, as in service
            retrieval_ms.clear()
            fast_ms.clear()
            for case in cases:
                repo = repos[case.repo]
                started = time.perf_counter()
                output = route_question(case.question, repo)
                retrieve(output, repo, top_k=5, search=SearchSettings(), min_similarity=0.25)
                retrieval_ms.append((time.perf_counter() - started) * 1000)
                started = time.perf_counter()
                named_targets(case.question, repo.symbols)
                fast_ms.append((time.perf_counter() - started) * 1000)
        own = CodeIndex(base / "own-index", models.embeddings, models.embeddings_id)
        own_report = own.index(DEFAULT_REPOSITORY, "frontdesk")
    return {
        "own_package_files": own_report.files,
        "own_package_chunks": own_report.chunks,
        "own_package_index_from_nothing_s": round(own_report.seconds, 1),
        "files": files,
        "chunks": chunks,
        "index_from_nothing_s": round(first, 1),
        "reindex_one_file_s": round(reindex, 2),
        "reindex_parsed_files": again.parsed,
        "reindex_new_chunks": again.added,
        "retrieval_p50_ms": round(statistics.median(retrieval_ms), 2),
        "retrieval_p95_ms": round(_pct(retrieval_ms, 95), 2),
        "fast_path_p50_ms": round(statistics.median(fast_ms), 3),
        "fast_path_p95_ms": round(_pct(fast_ms, 95), 3),
        "questions": len(cases),
    }
