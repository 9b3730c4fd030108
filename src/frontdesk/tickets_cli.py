"""`frontdesk tickets ...`: the operator's side of a handoff, on this machine.

The operator works on the ticket store directly (the threads' database in the data dir), for
every assistant. An answer reaches the customer's conversation when it is next read or
answered (the server's `GET /conversations/...`, the next turn).
"""

from __future__ import annotations

import json
from typing import Annotated, Literal

import typer
from rich.console import Console
from rich.markup import escape
from rich.table import Table

from frontdesk.config import get_settings
from frontdesk.memory.tickets import ACTIVE, Ticket, TicketClosed, TicketStore

tickets_app = typer.Typer(
    help="Conversations handed to a person: list, read, answer, close.", no_args_is_help=True
)
console = Console(stderr=True)
out = Console(highlight=False, soft_wrap=True)

OPERATOR = "operator"
StatusChoice = Literal["active", "open", "answered", "closed"]
TicketArg = Annotated[int, typer.Argument(help="The ticket number.", min=1)]
JsonOpt = Annotated[bool, typer.Option("--json", help="Print JSON.")]


def _store() -> TicketStore:
    return TicketStore(get_settings().threads_path)


def _fail(message: str, code: int = 1) -> typer.Exit:
    console.print(f"[bold red]error:[/] {escape(message)}")
    return typer.Exit(code)


def _found(ticket: Ticket | None, ticket_id: int) -> Ticket:
    if ticket is None:
        raise _fail(f"no ticket {ticket_id}")
    return ticket


@tickets_app.command("list")
def list_tickets(
    assistant: Annotated[
        str | None, typer.Option("--assistant", "-a", help="Only this assistant's.")
    ] = None,
    status: Annotated[
        StatusChoice,
        typer.Option(help="active: open or answered (the bot is silent on those threads)."),
    ] = "active",
    as_json: JsonOpt = False,
) -> None:
    """List tickets, who waited longest first."""
    store = _store()
    try:
        statuses = ACTIVE if status == "active" else (status,)
        found = store.find_sync([assistant] if assistant else None, statuses)
    finally:
        store.close()
    if as_json:
        out.print(json.dumps({"tickets": [t.public() for t in found]}, ensure_ascii=False))
        return
    if not found:
        out.print(f"no {status} tickets")
        return
    table = Table("#", "assistant", "status", "owner", "thread", "updated", "transcript")
    for ticket in found:
        table.add_row(
            str(ticket.id),
            escape(ticket.assistant),
            ticket.status,
            escape(ticket.owner),
            escape(ticket.thread_key),
            ticket.updated_at.strftime("%Y-%m-%d %H:%M"),
            str(len(ticket.transcript)),
        )
    out.print(table)


@tickets_app.command("show")
def show_ticket(ticket_id: TicketArg, as_json: JsonOpt = False) -> None:
    """Show a ticket: the conversation when it was opened and what was written since."""
    store = _store()
    try:
        ticket = _found(store.get_sync(ticket_id), ticket_id)
    finally:
        store.close()
    if as_json:
        out.print(json.dumps(ticket.public(), ensure_ascii=False))
        return
    out.print(
        f"[bold]ticket #{ticket.id}[/] · {escape(ticket.assistant)} · {ticket.status} · "
        f"owner {escape(ticket.owner)} · thread {escape(ticket.thread_key)}"
    )
    out.print("[dim]-- conversation when it was opened --[/]")
    for entry in ticket.transcript:
        who = "person" if entry.get("from") == "person" else entry.get("role", "?")
        out.print(f"[bold]{who}>[/] {escape(str(entry.get('content', '')))}")
    if ticket.messages:
        out.print("[dim]-- since --[/]")
    for message in ticket.messages:
        who = "customer" if message.sender == "customer" else f"person ({message.author})"
        out.print(f"[bold]{escape(who)}>[/] {escape(message.text)}")


@tickets_app.command("answer")
def answer_ticket(
    ticket_id: TicketArg,
    text: Annotated[str, typer.Argument(help="The answer, shown in the customer's chat.")],
    author: Annotated[str, typer.Option(help="Who answers.")] = OPERATOR,
) -> None:
    """Answer the customer; the ticket stays open for them until you close it."""
    from frontdesk.server.schemas import check_message

    try:
        text = check_message(text)
    except ValueError as exc:
        raise _fail(str(exc), 2) from None
    store = _store()
    try:
        ticket = _found(store.answer_sync(ticket_id, author.strip() or OPERATOR, text), ticket_id)
    except TicketClosed as exc:
        raise _fail(str(exc)) from None
    finally:
        store.close()
    out.print(f"answered ticket #{ticket.id}; it shows in the conversation when next opened")


@tickets_app.command("close")
def close_ticket(
    ticket_id: TicketArg,
    by: Annotated[str, typer.Option("--by", help="Who closes it.")] = OPERATOR,
) -> None:
    """Close the ticket: the assistant answers on that thread again."""
    store = _store()
    try:
        ticket = _found(store.close_ticket_sync(ticket_id, by.strip() or OPERATOR), ticket_id)
    finally:
        store.close()
    out.print(f"ticket #{ticket.id} is closed (by {escape(ticket.closed_by or by)})")
