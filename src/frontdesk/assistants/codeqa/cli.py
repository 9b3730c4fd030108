"""Code QA's own commands: `frontdesk codeqa index PATH`, `frontdesk codeqa repos`."""

from __future__ import annotations

import contextlib
import os
import threading
from pathlib import Path
from typing import Annotated

import typer
from rich.console import Console

app = typer.Typer(no_args_is_help=True)
console = Console(stderr=True)
out = Console(highlight=False, soft_wrap=True)

WATCH_INTERVAL_S = 2.0
WATCH_NICENESS = 10
SKIPPED_SHOWN = 10


@app.command("index")
def index_command(
    path: Annotated[Path, typer.Argument(help="The repository: a folder or a git checkout.")],
    repo_id: Annotated[
        str | None, typer.Option("--id", help="Its id (default: the folder's name).")
    ] = None,
    watch: Annotated[
        bool, typer.Option("--watch", help="Stay running and index again when files change.")
    ] = False,
) -> None:
    """Index a repository for questions (again: only the files that changed)."""
    from frontdesk.assistants.codeqa.indexing.indexer import InvalidRepository
    from frontdesk.assistants.codeqa.service import open_index
    from frontdesk.cli_common import progress_bar
    from frontdesk.config import get_settings
    from frontdesk.runtime import Models

    settings = get_settings()
    index = open_index(settings, Models(settings))
    # Taken before indexing: a change made while it runs is indexed by the first look.
    before = _snapshot(path) if watch and path.is_dir() else None
    try:
        report = _index_once(index, path, repo_id, progress_bar)
    except InvalidRepository as error:
        console.print(f"[bold red]error:[/] {error}")
        raise typer.Exit(2) from None
    _print_report(report)
    if not watch:
        return
    console.print(f"watching {report.root} (Ctrl+C to stop)")
    # A background job: the CPU goes to whatever else runs first (the server answering).
    with contextlib.suppress(OSError, AttributeError):  # AttributeError: not on Windows
        os.nice(WATCH_NICENESS)
    try:
        watch_repository(
            index, report.root, report.repo_id, _print_report, threading.Event(), snapshot=before
        )
    except KeyboardInterrupt:
        console.print("stopped watching")


def watch_repository(index, root: Path, repo_id: str, on_report, stop: threading.Event,
                     interval: float = WATCH_INTERVAL_S, snapshot=None) -> None:  # fmt: skip
    """Index `root` again (only what changed) whenever a file's time or size changes, until
    `stop` is set. Looking costs a `stat` per file every `interval` seconds. A run that fails
    (the folder was moved away) is reported and the watch goes on."""
    from frontdesk.errors import FrontdeskError

    snapshot = _snapshot(root) if snapshot is None else snapshot
    failing = False
    while not stop.wait(interval):
        try:
            current = _snapshot(root)
            if current != snapshot:
                on_report(index.index(root, repo_id))
                snapshot = current
            failing = False
        except (FrontdeskError, OSError) as error:
            if not failing:  # said once, until it works again
                console.print(f"[yellow]warning:[/] indexing {root} again failed: {error}")
            failing = True


@app.command("repos")
def repos_command() -> None:
    """List the indexed repositories."""
    from frontdesk.assistants.codeqa.service import open_index
    from frontdesk.config import get_settings
    from frontdesk.runtime import Models

    settings = get_settings()
    index = open_index(settings, Models(settings))
    repos = index.repositories()
    if not repos:
        out.print("no repository is indexed yet: frontdesk codeqa index PATH")
    for repo_id in repos:
        manifest = index.manifest(repo_id)
        out.print(f"{repo_id}\t{len(manifest.entries)} files\t{manifest.root}")


def _index_once(index, path: Path, repo_id: str | None, progress_bar):
    with progress_bar() as progress:
        tasks: dict[str, int] = {}

        def update(stage: str, done: int, total: int) -> None:
            if stage not in tasks:
                label = "Reading files" if stage == "reading" else "Embedding new chunks"
                tasks[stage] = progress.add_task(label, total=total)
            progress.update(tasks[stage], completed=done, total=total)

        return index.index(path, repo_id, update)


def _print_report(report) -> None:
    for line in report.lines(SKIPPED_SHOWN):
        out.print(line)


def _snapshot(root: Path) -> dict[str, tuple[int, int]]:
    """Each indexable file's modification time and size: cheap to take every few seconds,
    and a change in it is worth a (incremental) re-index."""
    from frontdesk.assistants.codeqa.indexing.walker import walk_repository

    snapshot = {}
    for file in walk_repository(root).files:
        try:
            stat = file.absolute.stat()
        except OSError:
            continue
        snapshot[file.path] = (stat.st_mtime_ns, stat.st_size)
    return snapshot
