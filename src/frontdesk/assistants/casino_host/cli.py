"""`frontdesk casino_host ...`: the operator's commands for escalations (items 38-39)."""

from __future__ import annotations

import json
from datetime import UTC, datetime
from typing import Annotated

import typer

from frontdesk.cli_common import fail, out

app = typer.Typer(help="The casino host: escalations to people.", no_args_is_help=True)
escalations = typer.Typer(help="Escalated conversations.", no_args_is_help=True)
app.add_typer(escalations, name="escalations")

CasinoOpt = Annotated[str, typer.Option("--casino", help="The casino's id.")]


def _store():
    from frontdesk.assistants.casino_host.storage import StorageError, Store
    from frontdesk.config import get_settings

    try:
        return Store.from_settings(get_settings())
    except StorageError as exc:
        raise fail(str(exc), 1) from None


@escalations.command("list")
def list_open(casino: CasinoOpt = "mohegan_sun") -> None:
    """Escalations no person has acknowledged yet, oldest first, as JSON lines."""
    store = _store()
    try:
        for escalation in store.unacknowledged_escalations(casino):
            out.print(json.dumps(escalation.payload(), ensure_ascii=False))
    finally:
        store.close()


@escalations.command("ack")
def acknowledge(
    escalation_id: Annotated[str, typer.Argument(help="The escalation's id.")],
    by: Annotated[str, typer.Option("--by", help="Who takes it.")],
    casino: CasinoOpt = "mohegan_sun",
) -> None:
    """A person takes the conversation."""
    from frontdesk.assistants.casino_host.storage import StorageError

    store = _store()
    try:
        escalation = store.acknowledge(casino, escalation_id, by=by)
    except StorageError as exc:
        raise fail(str(exc), 1) from None
    finally:
        store.close()
    out.print(json.dumps(escalation.payload(), ensure_ascii=False))


@escalations.command("sweep")
def sweep() -> None:
    """Tell people again about every escalation no one has acknowledged: a failed alert is
    retried, a slow one reminded, a late one goes up the chain (item 39). The server runs
    this every 30 s; run it here when no server runs."""
    import asyncio

    from frontdesk.assistants.casino_host.content import CasinoContent
    from frontdesk.assistants.casino_host.staff.desk import STAFF_PAGE, StaffDesk
    from frontdesk.config import get_settings
    from frontdesk.notify import build_notifier

    settings = get_settings()
    store = _store()
    desk = StaffDesk(store, CasinoContent.load(), build_notifier(settings),
                     staff_url=f"{settings.public_url.rstrip('/')}{STAFF_PAGE}")  # fmt: skip
    try:
        done = asyncio.run(desk.sweep(datetime.now(UTC)))
    finally:
        store.close()
    for escalation, due in done:
        told = "told" if escalation.notice_failures == 0 else "NOT told"
        out.print(f"{escalation.escalation_id}: {due.kind} at level {due.level}, {told}"
                  f"{'' if not escalation.notice_error else ': ' + escalation.notice_error}")  # fmt: skip
    out.print(f"{len(done)} alerts sent")


gate = typer.Typer(help="The compliance gate's learned layer.", no_args_is_help=True)
app.add_typer(gate, name="gate")


def _gate_features():
    """The training rows, and their features in the learned layer's space (embedded once)."""
    from frontdesk.assistants.casino_host.compliance.learned import LEARNED_SPACES, training_rows
    from frontdesk.config import get_settings
    from frontdesk.guardrails.classifier import embed_in_batches
    from frontdesk.guardrails.guard import vector_space_id
    from frontdesk.guardrails.lexical import LEXICAL_ID, WithLexical
    from frontdesk.runtime import Models

    embeddings = Models(get_settings()).embeddings
    space = vector_space_id(embeddings)
    if space is None or not space.startswith(LEARNED_SPACES):
        raise fail(f"the learned layer needs the embedded sentence model, not {space}", 2)
    rows = training_rows()
    out.print(f"embedding {len(rows)} training rows ({space})")
    vectors = embed_in_batches(WithLexical(embeddings).embed_documents, [r.text for r in rows])
    return rows, vectors, f"{space}+{LEXICAL_ID}"


@gate.command("train")
def gate_train() -> None:
    """Fit the learned layer on its training rows and write the weights shipped with the code
    (`data/compliance/weights/`); a start with current weights trains nothing."""
    from frontdesk.assistants.casino_host.compliance.learned import (
        NAME,
        SHIPPED_WEIGHTS,
        SPEC,
    )
    from frontdesk.guardrails.guard import weights_file
    from frontdesk.guardrails.multilabel import train

    rows, vectors, space = _gate_features()
    out.print("fitting (about a minute)")
    detector = train(vectors, rows, SPEC, embeddings_id=space)
    path = weights_file(SHIPPED_WEIGHTS, space, NAME)
    detector.save(path)
    thresholds = dict(zip(detector.labels, detector.thresholds.round(3).tolist(), strict=True))
    out.print(json.dumps({"weights": str(path), "thresholds": thresholds}))


@gate.command("report")
def gate_report() -> None:
    """Leave-one-writer-out: each training source held out in turn, the layer fitted (and its
    thresholds chosen) on the others, and judged on it (a few minutes)."""
    from frontdesk.assistants.casino_host.compliance.learned import SPEC
    from frontdesk.guardrails.multilabel_eval import format_report, leave_one_source_out_report

    rows, vectors, _space = _gate_features()
    report = leave_one_source_out_report(
        vectors, rows, SPEC, progress=lambda source: out.print(f"held out {source}")
    )
    out.print(format_report(report))
