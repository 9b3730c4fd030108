"""`frontdesk guard …`: train the learned layer, measure both layers, screen a document.

frontdesk guard train [--ship]        # weights for the configured embeddings
frontdesk guard evaluate [--json F]   # LOSO, shared dev set unseen, held-out, in-sample
frontdesk guard check "text"          # one verdict
frontdesk guard check --file F        # how many of a file's messages are refused
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Annotated

import numpy as np
import typer
from rich.console import Console

guard_app = typer.Typer(help="Train and measure the prompt-injection guard.", no_args_is_help=True)
console = Console(stderr=True)
DEV_FILE = "injection_dev.jsonl"


def _embeddings():
    from frontdesk.config import get_settings
    from frontdesk.runtime import Models

    settings = get_settings()
    return Models(settings).embeddings, settings


def _space(embeddings) -> str:
    from frontdesk.guardrails.guard import vector_space_id

    space = vector_space_id(embeddings)
    if space is None:
        console.print(f"[bold red]error:[/] no learned layer for {type(embeddings).__name__}")
        raise typer.Exit(2)
    return space


def _progress(label: str):
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn

    progress = Progress(
        TextColumn(f"[bold]{label}"), BarColumn(), MofNCompleteColumn(), console=console
    )
    task = progress.add_task(label, total=None)

    def advance(done: int, total: int) -> None:
        progress.update(task, completed=done, total=total)

    return progress, advance


@guard_app.command("train")
def train(
    ship: Annotated[
        bool, typer.Option(help="Write into the package (data/weights/), to commit.")
    ] = False,
) -> None:
    """Fit the learned layer on the shipped data; write weights keyed on the embeddings."""
    from frontdesk.guardrails.guard import SHIPPED_WEIGHTS_DIR, train_for, weights_file

    embeddings, settings = _embeddings()
    space = _space(embeddings)
    progress, advance = _progress("embedding training rows")
    with progress:
        detector = train_for(embeddings, space, progress=advance)
    path = weights_file(SHIPPED_WEIGHTS_DIR if ship else settings.data_dir / "guard", space)
    detector.save(path)
    console.print(f"threshold {detector.threshold:.3f}, data {detector.data_digest}: {path}")


def _vectors(embeddings, space: str, rows, cache_dir: Path) -> np.ndarray:
    """Embeddings of `rows`, cached on disk by their digest (evaluation re-runs are quick)."""
    from frontdesk.guardrails.classifier import embed_in_batches
    from frontdesk.guardrails.datasets import rows_digest

    cache = cache_dir / f"vectors-{space}-{rows_digest(rows)}.npy"
    if cache.is_file():
        return np.load(cache)
    progress, advance = _progress("embedding rows")
    with progress:
        vectors = embed_in_batches(
            embeddings.embed_documents, [r.text for r in rows], progress=advance
        )
    cache.parent.mkdir(parents=True, exist_ok=True)
    np.save(cache, vectors)
    return vectors


@guard_app.command("evaluate")
def evaluate(
    as_json: Annotated[Path | None, typer.Option("--json", help="Also write figures here.")] = None,
    loso: Annotated[bool, typer.Option(help="Run leave-one-source-out (a minute or two).")] = True,
) -> None:
    """Rules, learned and both: LOSO per source, the shared dev set with a model trained
    without it, the held-out written rows, in-sample, and embedded BIPIA screening."""
    from frontdesk.guardrails import evaluation
    from frontdesk.guardrails.audit import audit_input
    from frontdesk.guardrails.datasets import heldout_rows, training_rows
    from frontdesk.guardrails.screening_eval import screening_report

    embeddings, settings = _embeddings()
    space = _space(embeddings)
    rows, held = training_rows(), heldout_rows()
    vectors = _vectors(embeddings, space, rows + held, settings.data_dir / "guard")
    train_vectors, held_vectors = vectors[: len(rows)], vectors[len(rows) :]
    rules = np.array([audit_input(r.text).flagged for r in rows])
    held_rules = np.array([audit_input(r.text).flagged for r in held])
    dev = np.array([r.source in _dev_sources() for r in rows])
    sections: dict[str, list] = {}
    if loso:
        with console.status("leave-one-source-out") as status:
            sections["leave-one-source-out (learned fitted without the source)"] = (
                evaluation.leave_one_source_out(
                    rows, train_vectors, rules, progress=lambda s: status.update(f"LOSO: {s}")
                )
            )
    not_dev = [r for r, d in zip(rows, dev) if not d]
    sections["shared dev set, learned fitted without any of it"] = evaluation.train_then_test(
        not_dev,
        train_vectors[~dev],
        [r for r, d in zip(rows, dev) if d],
        train_vectors[dev],
        rules[dev],
    )
    sections["written held-out rows (never trained or tuned on)"] = evaluation.train_then_test(
        rows, train_vectors, held, held_vectors, held_rules
    )
    sections["IN-SAMPLE: fitted on all training rows, scored on the same rows"] = (
        evaluation.train_then_test(rows, train_vectors, rows, train_vectors, rules)
    )
    for title, results in sections.items():
        print(evaluation.format_table(title, results) + "\n")
    screening = screening_report()
    print(screening["text"])
    if as_json:
        payload = {title: evaluation.as_dict(results) for title, results in sections.items()}
        payload["screening"] = {k: v for k, v in screening.items() if k != "text"}
        payload["embeddings"] = space
        as_json.write_text(json.dumps(payload, indent=2))
        console.print(f"figures: {as_json}")


def _dev_sources() -> set[str]:
    from frontdesk.guardrails.datasets import DATA_DIR, load_rows

    return {row.source for row in load_rows(DATA_DIR / DEV_FILE)}


def _messages(path: Path) -> list[str]:
    """Plain lines, or JSONL rows with a "text" or "question" (labelled sets of either kind)."""
    messages = []
    for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
        if not line.strip():
            continue
        if not line.lstrip().startswith("{"):
            messages.append(line)
            continue
        try:
            row = json.loads(line)
        except json.JSONDecodeError as error:
            console.print(f"[bold red]error:[/] {path}:{number}: not valid JSON ({error.msg})")
            raise typer.Exit(2) from None
        text = row.get("text", row.get("question"))
        if not isinstance(text, str):
            console.print(f'[bold red]error:[/] {path}:{number}: no "text" or "question"')
            raise typer.Exit(2)
        messages.append(text)
    return messages


@guard_app.command("check")
def check(
    text: Annotated[str | None, typer.Argument(help="One message.")] = None,
    file: Annotated[
        Path | None,
        typer.Option("--file", help="Many: plain lines, or JSONL with text/question."),
    ] = None,
) -> None:
    """The guard's verdict on one message, or how many of a file's messages it refuses."""
    from frontdesk.guardrails.guard import InjectionGuard

    if (text is None) == (file is None):
        console.print("[bold red]error:[/] give one message or --file, one of the two")
        raise typer.Exit(2)
    if file is not None and not file.is_file():
        console.print(f"[bold red]error:[/] no such file: {file}")
        raise typer.Exit(2)
    embeddings, settings = _embeddings()
    guard = InjectionGuard.load(embeddings, data_dir=settings.data_dir)
    if text is not None:
        print(json.dumps(guard.check(text).__dict__))
        return
    messages = _messages(file)
    refused = [(m, v) for m in messages for v in [guard.check(m)] if v.flagged]
    for message, verdict in refused:
        print(f"refused ({verdict.layer}: {verdict.matched}): {message}")
    print(f"{len(refused)} of {len(messages)} refused")
