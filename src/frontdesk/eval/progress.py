"""A Rich progress bar for suite runs, drawn on stderr so `--json` output on stdout stays clean."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager

from rich.console import Console
from rich.progress import (
    BarColumn,
    MofNCompleteColumn,
    Progress,
    SpinnerColumn,
    TextColumn,
    TimeElapsedColumn,
    TimeRemainingColumn,
)


@contextmanager
def progress_bar(
    description: str, total: int, *, show: bool = True, console: Console | None = None
) -> Iterator[Callable[[], None]]:
    """Yield an `advance()` to call once per finished row; a no-op when `show` is False.

    With a real model on a small CPU each answers row takes seconds, so a run without
    feedback looks hung; the remaining-time column says whether to wait or come back later.
    """
    if not show:
        yield lambda: None
        return
    with Progress(
        SpinnerColumn(),
        TextColumn("[bold]{task.description}"),
        BarColumn(),
        MofNCompleteColumn(),
        TimeElapsedColumn(),
        TextColumn("eta"),
        TimeRemainingColumn(),
        console=console or Console(stderr=True),
    ) as progress:
        task = progress.add_task(description, total=total)
        yield lambda: progress.advance(task)
