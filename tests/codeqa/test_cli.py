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
