"""`frontdesk codeqa index|repos` and `frontdesk ask --assistant codeqa --repo`: what a person
sees, and bad input (a missing path, a file, an unknown repository). Scripted model and hash
embeddings."""

from __future__ import annotations

import threading
import time

import pytest
from typer.testing import CliRunner

from frontdesk.assistants.codeqa.cli import watch_repository
from frontdesk.assistants.codeqa.indexing.indexer import CodeIndex
from frontdesk.cli import app

runner = CliRunner()
pytestmark = pytest.mark.usefixtures("offline_cli_env")


def flat(result) -> str:
    return " ".join(result.output.split())


def test_index_then_again_then_list(small_repo):
    first = runner.invoke(app, ["codeqa", "index", str(small_repo), "--id", "small"])
    assert first.exit_code == 0, first.output
    assert "small: 6 files (6 read again)" in flat(first)
    again = runner.invoke(app, ["codeqa", "index", str(small_repo), "--id", "small"])
    assert "small: 6 files (0 read again)" in flat(again) and "(0 new, 0 removed)" in flat(again)
    listed = runner.invoke(app, ["codeqa", "repos"])
    assert listed.exit_code == 0 and flat(listed).startswith(f"small 6 files {small_repo}")


@pytest.mark.parametrize("target", ["missing", "file.py"])
def test_a_path_that_is_not_a_folder_is_a_clear_error(tmp_path, target):
    (tmp_path / "file.py").write_text("x = 1\n")
    result = runner.invoke(app, ["codeqa", "index", str(tmp_path / target)])
    assert result.exit_code == 2
    assert "error:" in result.output and "Traceback" not in result.output


def test_an_empty_repository_says_there_is_nothing_to_index(tmp_path):
    (tmp_path / "empty" / "assets").mkdir(parents=True)
    (tmp_path / "empty" / "assets" / "logo.png").write_bytes(b"\x89PNG\r\n\x1a\n\0\0")
    result = runner.invoke(app, ["codeqa", "index", str(tmp_path / "empty")])
    assert result.exit_code == 0
    assert "empty: 0 files" in flat(result)
    assert "nothing to index here: no source, doc or config files (1 skipped, below)" in flat(
        result
    )
    assert "skipped assets/logo.png: binary" in flat(result)


def test_a_bad_repository_id_is_refused(small_repo):
    result = runner.invoke(app, ["codeqa", "index", str(small_repo), "--id", "../up"])
    assert result.exit_code == 2 and "not usable" in flat(result)


def test_ask_about_an_indexed_repository_and_an_unknown_one(small_repo, monkeypatch):
    monkeypatch.setenv("FRONTDESK_CODEQA_INDEX_ON_START", "false")
    runner.invoke(app, ["codeqa", "index", str(small_repo), "--id", "small"])
    found = runner.invoke(
        app, ["ask", "--assistant", "codeqa", "--repo", "small", "Where is `get_json` defined?"]
    )
    assert found.exit_code == 0, found.output
    assert "pkg/client.py:" in found.output
    unknown = runner.invoke(app, ["ask", "--assistant", "codeqa", "--repo", "nope", "hello"])
    assert unknown.exit_code == 1
    assert "no repository 'nope' is indexed (indexed: small)" in flat(unknown)


def test_a_file_that_changes_during_indexing_is_skipped_and_the_rest_indexed(
    tmp_path, small_repo, hash_embeddings
):
    index = CodeIndex(tmp_path / "index", hash_embeddings, "hash")

    def delete_a_later_file(stage, done, total):
        if stage == "reading" and done == 1:
            (small_repo / "tests" / "test_client.py").unlink()

    report = index.index(small_repo, "small", delete_a_later_file)
    assert report.skipped["tests/test_client.py"].startswith("changed during indexing")
    assert report.files == 5


def test_watch_indexes_again_when_a_file_changes(tmp_path, small_repo, hash_embeddings):
    index = CodeIndex(tmp_path / "index", hash_embeddings, "hash")
    index.index(small_repo, "small")
    reports, stop = [], threading.Event()
    watcher = threading.Thread(
        target=watch_repository,
        args=(index, small_repo, "small", reports.append, stop, 0.05),
    )
    watcher.start()
    try:
        time.sleep(0.2)
        assert reports == [], "nothing changed, nothing indexed"
        (small_repo / "pkg" / "extra.py").write_text("def added_later():\n    return 1\n")
        deadline = time.monotonic() + 10
        while not reports and time.monotonic() < deadline:
            time.sleep(0.05)
    finally:
        stop.set()
        watcher.join(5)
    assert not watcher.is_alive(), "setting stop ends the watch"
    assert reports and reports[0].parsed == 1 and reports[0].files == 7
    assert "pkg/extra.py" in index.manifest("small").entries


def test_eval_retrieval_and_answers_on_an_indexed_repository(tmp_path, small_repo, monkeypatch):
    import json

    monkeypatch.setenv("FRONTDESK_CODEQA_INDEX_ON_START", "false")
    runner.invoke(app, ["codeqa", "index", str(small_repo), "--id", "small"])
    dataset = tmp_path / "cases.jsonl"
    cases = [
        {"question": "Where is `get_json` defined?", "repo": "small",
         "gold_files": ["pkg/client.py"], "gold_symbols": ["HTTPClient.get_json"]},
        {"question": "Which function reads the TOML settings file?", "repo": "small",
         "gold_files": ["pkg/config.py"], "gold_symbols": ["load_settings"]},
    ]  # fmt: skip
    dataset.write_text("".join(json.dumps(c) + "\n" for c in cases))
    retrieval = runner.invoke(
        app, ["eval", "retrieval", "--assistant", "codeqa", "--dataset", str(dataset), "--json"]
    )
    assert retrieval.exit_code == 0, retrieval.output
    metrics = json.loads(retrieval.output[retrieval.output.index("{") :].rsplit("}", 1)[0] + "}")
    figures = metrics["metrics"]
    assert set(figures) >= {"file_hit@1", "file_hit@5", "mrr@10", "symbol_hit@5", "fast_path_rate"}
    assert figures["cases"] == 2 and figures["fast_path_rate"] == 0.5
    assert figures["file_hit@1"] >= 0.5 and figures["symbol_hit@5"] >= 0.5

    answers = runner.invoke(
        app, ["eval", "answers", "--assistant", "codeqa", "--dataset", str(dataset), "--json"]
    )
    assert answers.exit_code == 0, answers.output
    scored = json.loads(answers.output[answers.output.index("{") :].rsplit("}", 1)[0] + "}")
    assert scored["metrics"]["citation_precision"] == 1.0
    assert scored["metrics"]["pass_rate"] >= 0.5, "the fast-path answer cites and names it"

    dataset.write_text(json.dumps({**cases[0], "repo": "nope"}) + "\n")
    unknown = runner.invoke(
        app, ["eval", "retrieval", "--assistant", "codeqa", "--dataset", str(dataset)]
    )
    assert unknown.exit_code == 1 and "no repository 'nope' is indexed" in flat(unknown)
