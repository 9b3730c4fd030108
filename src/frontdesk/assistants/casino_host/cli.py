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
def sweep(casino: CasinoOpt = "mohegan_sun") -> None:
    """Raise every escalation past its acknowledgement deadline one level (item 39)."""
    from frontdesk.assistants.casino_host.conversation.escalation import sweep_escalations

    store = _store()
    try:
        raised = sweep_escalations(store, casino, datetime.now(UTC))
    finally:
        store.close()
    for escalation in raised:
        out.print(f"{escalation.escalation_id}: level {escalation.escalation_level}")
    out.print(f"{len(raised)} raised")
