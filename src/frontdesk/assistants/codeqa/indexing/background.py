"""Indexing a repository while the service answers: a worker thread at low CPU priority.

The service starts at once. A repository indexed before is served as it was while the worker
brings it up to date (only what changed is parsed and embedded); one never indexed answers
"still indexing, N of M" until the worker is done. Closing the service stops the worker at
its next batch: what it embedded so far is kept and not embedded again.
"""

from __future__ import annotations

import logging
import os
import threading
from dataclasses import dataclass
from pathlib import Path

from frontdesk.assistants.codeqa.indexing.indexer import CodeIndex, IndexReport

__all__ = ["BackgroundIndexer", "IndexingProgress"]

logger = logging.getLogger(__name__)
# The nice value of the worker thread, which reads, hashes, parses and chunks the files (the
# embedding model's own threads are shared with turns and keep their priority; the chat
# model runs in a process of its own).
WORKER_NICENESS = 10


class _Stopped(Exception):
    """Raised from the progress callback to end an indexing run early."""


@dataclass(frozen=True)
class IndexingProgress:
    repo_id: str
    stage: str  # "starting", "reading", "embedding", "done", "stopped" or "failed"
    done: int = 0
    total: int = 0
    error: str | None = None

    @property
    def running(self) -> bool:
        return self.stage in ("starting", "reading", "embedding")

    def describe(self) -> str:
        """How far it is, as a person would say it."""
        if self.stage == "embedding" and self.total:
            return f"{self.done:,} of {self.total:,} new chunks embedded"
        if self.stage == "reading" and self.total:
            return f"{self.done:,} of {self.total:,} files read"
        if self.stage == "failed":
            return f"failed: {self.error}"
        return self.stage


class BackgroundIndexer:
    """Indexes `root` as `repo_id` once, in a daemon thread."""

    def __init__(self, index: CodeIndex, root: Path, repo_id: str) -> None:
        self.index = index
        self.root = Path(root)
        self.repo_id = repo_id
        self.report: IndexReport | None = None
        self._progress = IndexingProgress(repo_id, "starting")
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, name=f"index-{repo_id}", daemon=True)

    @property
    def progress(self) -> IndexingProgress:
        return self._progress

    def start(self) -> BackgroundIndexer:
        self._thread.start()
        return self

    def stop(self, timeout: float | None = 30.0) -> None:
        """Ask the worker to stop at its next file or batch, and wait for it."""
        self._stop.set()
        if self._thread.is_alive():
            self._thread.join(timeout)

    def wait(self, timeout: float | None = None) -> IndexingProgress:
        self._thread.join(timeout)
        return self._progress

    def _update(self, stage: str, done: int, total: int) -> None:
        if self._stop.is_set():
            raise _Stopped
        self._progress = IndexingProgress(self.repo_id, stage, done, total)

    def _run(self) -> None:
        _lower_priority()
        try:
            self.report = self.index.index(self.root, self.repo_id, self._update)
        except _Stopped:
            self._progress = IndexingProgress(self.repo_id, "stopped")
            return
        except Exception as error:  # reported in the service's info and in the log
            logger.exception("indexing %s (%s) failed", self.repo_id, self.root)
            self._progress = IndexingProgress(self.repo_id, "failed", error=str(error))
            return
        report = self.report
        self._progress = IndexingProgress(self.repo_id, "done", report.chunks, report.chunks)
        logger.info(
            "indexed %s: %d files (%d read again), %d chunks (%d new) in %.1f s",
            report.repo_id, report.files, report.parsed, report.chunks, report.added,
            report.seconds,
        )  # fmt: skip


def _lower_priority() -> None:
    """Lower this thread's CPU priority (Linux gives each thread its own nice value)."""
    try:
        os.setpriority(os.PRIO_PROCESS, threading.get_native_id(), WORKER_NICENESS)
    except (AttributeError, OSError):  # not Linux, or not permitted: run at normal priority
        pass
