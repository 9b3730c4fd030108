"""The retrieval evaluation scores what the pipeline returns, and reads its sets strictly."""

from __future__ import annotations

import json

import pytest
from langchain_core.documents import Document

from frontdesk.assistants.codeqa.evaluation import (
    EVAL_DIR,
    InvalidCase,
    RetrievalCase,
    load_cases,
    run_retrieval,
    score,
)
from frontdesk.assistants.codeqa.indexing.indexer import CodeIndex
from frontdesk.assistants.codeqa.repository import open_repository
from frontdesk.embeddings.hashing import HashEmbeddings


def chunk(path, symbols):
    return Document(page_content="", metadata={"path": path, "symbols": symbols, "start_line": 1})


def test_the_metrics_of_one_case():
    case = RetrievalCase("q", "r", ("a.py",), ("A.f",))
    ranked = [chunk("b.py", "g"), chunk("c.py", "h"), chunk("a.py", "A A.f")]
    scored = score(case, ranked)
    assert (scored["file_hit@1"], scored["file_hit@5"], scored["mrr@10"]) == (False, True, 1 / 3)
    assert scored["symbol_hit@5"] is True
    assert score(RetrievalCase("q", "r", ("z.py",), ()), ranked)["symbol_hit@5"] is None
    assert score(case, [])["mrr@10"] == 0.0


def test_the_shipped_sets_are_well_formed_and_apart():
    dev = load_cases(EVAL_DIR / "retrieval.jsonl")
    held_out = load_cases(EVAL_DIR / "retrieval_heldout.jsonl")
    assert len(dev) + len(held_out) >= 60
    assert {c.repo for c in dev} == {c.repo for c in held_out} == {"requests", "click"}
    assert not {c.question for c in dev} & {c.question for c in held_out}
    for cases in (dev, held_out):
        described = sum(c.style == "describes" for c in cases)
        assert described > len(cases) / 2  # most describe the code without naming it


def test_a_malformed_line_is_named(tmp_path):
    path = tmp_path / "bad.jsonl"
    path.write_text(json.dumps({"question": "q", "repo": "r", "gold_files": ["a"]}) + "\n{oops\n")
    with pytest.raises(InvalidCase, match="bad.jsonl:2"):
        load_cases(path)


def test_a_run_over_an_indexed_repository(tmp_path, small_repo):
    index = CodeIndex(tmp_path / "index", HashEmbeddings(), "hash-test", budget=150)
    index.index(small_repo, "small")
    repo = open_repository(index, "small")
    cases = [
        RetrievalCase("Where is `load_settings` defined?", "small", ("pkg/config.py",),
                      ("load_settings",), "names"),
        RetrievalCase("which code retries a failed request?", "small", ("pkg/client.py",),
                      ("HTTPClient._fetch",), "describes"),
    ]  # fmt: skip
    metrics, rows = run_retrieval(cases, lambda repo_id: repo)
    assert metrics["cases"] == 2 and metrics["fast_path_rate"] == 0.5
    assert rows[0]["file_hit@1"] and rows[0]["fast_path"]
    assert metrics["file_hit@5"] == 1.0
    assert set(metrics["by_style"]) == {"names", "describes"}
