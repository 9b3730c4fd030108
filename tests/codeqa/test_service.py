"""The code QA service: it serves at once while its repository is indexed in the background,
says "still indexing" until it can answer, and stops the worker when it closes.

Scripted model and hash embeddings: these tests are about the service around the graph."""

from __future__ import annotations

import asyncio
import threading

import pytest
import typer

from frontdesk.assistants.codeqa.indexing.background import BackgroundIndexer
from frontdesk.assistants.codeqa.indexing.indexer import CodeIndex
from frontdesk.assistants.codeqa.plugin import PLUGIN
from frontdesk.assistants.codeqa.repository import UnknownRepository
from frontdesk.assistants.codeqa.service import build_service
from frontdesk.runtime import Models


@pytest.fixture
def settings(test_settings, small_repo):
    return test_settings.model_copy(
        update={"plugin_settings": {"codeqa": {"repo_path": small_repo, "repo_id": "small"}}}
    )


@pytest.fixture
def held_indexing(monkeypatch):
    """Every indexing run waits at its first progress report until `release` is set."""
    release = threading.Event()
    original = CodeIndex.index

    def index(self, root, repo_id=None, progress=None):
        def held(stage, done, total):
            release.wait(20)
            if progress:
                progress(stage, done, total)

        return original(self, root, repo_id, held)

    monkeypatch.setattr(CodeIndex, "index", index)
    return release


async def test_it_serves_at_once_and_says_still_indexing_until_the_repository_is_ready(
    settings, held_indexing
):
    service = await build_service(settings, Models(settings))
    try:
        info = service.info()
        assert info["repositories"] == [] and info["indexing"]["stage"] == "starting"
        early = await service.ask("Where is `get_json` defined?", "t1")
        assert "still being indexed" in early.answer and "small" in early.answer
        assert early.sources == []
        service.check_scope("small")  # the repository being indexed is a valid scope
        with pytest.raises(UnknownRepository, match="no repository 'other'"):
            service.check_scope("other")

        held_indexing.set()
        for _ in range(400):
            if service.info()["indexing"]["stage"] == "done":
                break
            await asyncio.sleep(0.05)
        worker_done = service.info()
        assert worker_done["repositories"] == ["small"]
        assert worker_done["indexing"]["status"] == "done"
        answer = await service.ask("Where is `get_json` defined?", "t2", scope="small")
        assert "pkg/client.py" in answer.answer
        assert any(s.startswith("pkg/client.py:") for s in answer.sources)
    finally:
        await service.aclose()


async def test_closing_the_service_stops_the_worker(settings, held_indexing):
    service = await build_service(settings, Models(settings))
    workers = [t for t in threading.enumerate() if t.name == "index-small"]
    assert len(workers) == 1
    held_indexing.set()
    await service.aclose()
    assert not workers[0].is_alive()


def test_a_stopped_run_keeps_what_it_embedded_and_the_next_one_embeds_only_the_rest(
    tmp_path, small_repo, recording_embeddings
):
    index = CodeIndex(tmp_path / "index", recording_embeddings, "rec", budget=150)
    worker = BackgroundIndexer(index, small_repo, "small")
    stop_at_second_batch = worker._update

    def update(stage, done, total):
        if stage == "embedding" and done > 0:
            worker._stop.set()
        stop_at_second_batch(stage, done, total)

    worker._update = update
    assert worker.start().wait(20).stage == "stopped"
    assert index.repositories() == [], "no manifest: the repository is not served half done"
    first = len(recording_embeddings.embedded)
    assert first > 0
    report = index.index(small_repo, "small")
    assert report.added == report.chunks - first
    assert len(recording_embeddings.embedded) == report.chunks, "nothing embedded twice"


def test_a_failed_run_says_why(tmp_path, hash_embeddings):
    index = CodeIndex(tmp_path / "index", hash_embeddings, "hash")
    progress = BackgroundIndexer(index, tmp_path / "missing", "gone").start().wait(20)
    assert progress.stage == "failed" and "missing" in progress.describe()


def test_the_plugin_mounts_its_commands_without_running_them():
    assert isinstance(PLUGIN.cli(), typer.Typer)


def test_progress_reads_as_its_stage_while_it_runs():
    from frontdesk.assistants.codeqa.indexing.background import IndexingProgress

    assert IndexingProgress("r", "embedding", 0, 0).describe() == "embedding"
    assert IndexingProgress("r", "embedding", 5, 10).describe() == "5 of 10 new chunks embedded"
    assert IndexingProgress("r", "failed", error="disk full").describe() == "failed: disk full"


async def test_a_restatement_about_a_repository_being_indexed_says_so():
    from frontdesk.assistants.codeqa.answers.compose import synthesize
    from frontdesk.assistants.codeqa.context import CodeQAContext
    from frontdesk.assistants.codeqa.repository import RepositoryIndexing
    from frontdesk.assistants.codeqa.settings import CodeQASettings

    def repository(repo_id):
        raise RepositoryIndexing(repo_id, "3 of 9 files read")

    ctx = CodeQAContext(None, None, repository, "big", CodeQASettings())
    state = {"intent": "follow_up", "repo_id": "big",
             "conversation_history": [{"query": "q", "answer": "a", "chunk_ids": ["c1"]}]}  # fmt: skip
    update = await synthesize(state, ctx)
    assert "still being indexed (3 of 9 files read)" in update["final_answer"]
    assert update["citations"] == []
