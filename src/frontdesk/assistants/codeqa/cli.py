"""Code QA's own commands: `frontdesk codeqa index PATH`, `frontdesk codeqa repos`."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Annotated

import typer
from rich.console import Console

app = typer.Typer(no_args_is_help=True)
console = Console(stderr=True)
out = Console(highlight=False, soft_wrap=True)

WATCH_INTERVAL_S = 2.0
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
    try:
        report = _index_once(index, path, repo_id, progress_bar)
    except InvalidRepository as error:
        console.print(f"[bold red]error:[/] {error}")
        raise typer.Exit(2) from None
    _print_report(report)
    if not watch:
        return
    console.print(f"watching {report.root} (Ctrl+C to stop)")
    snapshot = _snapshot(report.root)
    try:
        while True:
            time.sleep(WATCH_INTERVAL_S)
            current = _snapshot(report.root)
            if current != snapshot:
                snapshot = current
                again = index.index(report.root, report.repo_id)
                _print_report(again)
    except KeyboardInterrupt:
        console.print("stopped watching")


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
