"""`frontdesk sms ...`: the SMS channel's commands (issue 19). Output is JSON, for scripts.

frontdesk sms verify-chain --casino mohegan_sun --guest +18605550123
"""

from __future__ import annotations

import asyncio
import json
import time
import uuid
from datetime import datetime
from typing import Annotated, Any

import typer

from frontdesk.cli_common import fail, out, settings_for, with_service

app = typer.Typer(help="The casino host's SMS channel and consent.", no_args_is_help=True)

CasinoOpt = Annotated[str, typer.Option("--casino", help="The casino's id.")]
GuestOpt = Annotated[str, typer.Option("--guest", help="The guest's number, +1NXXNXXXXXX.")]


@app.command("verify-chain")
def verify_chain(casino: CasinoOpt, guest: GuestOpt) -> None:
    """Recompute the guest's consent hash chain: {valid, chain_length, broken_links,
    latest_hash}. Exits 1 when the chain is broken."""
    from frontdesk.assistants.casino_host.service import guest_number
    from frontdesk.assistants.casino_host.storage import StorageError, Store
    from frontdesk.config import get_settings
    from frontdesk.errors import FrontdeskError

    try:
        number = guest_number(guest)
        store = Store.from_settings(get_settings())
    except (FrontdeskError, StorageError) as exc:
        raise fail(str(exc), 2) from None
    try:
        guest_uuid = store.find_guest(casino, number)
        if guest_uuid is None:
            raise fail(f"no guest with that number at casino '{casino}'", 2)
        result = store.verify_consent_chain(casino, guest_uuid).as_dict()
    except StorageError as exc:
        raise fail(str(exc), 1) from None
    finally:
        store.close()
    out.print(json.dumps(result))
    if not result["valid"]:
        raise typer.Exit(1)


@app.command("simulate")
def simulate(
    text: Annotated[str, typer.Argument(help="What the guest texts.")],
    casino: CasinoOpt,
    sender: Annotated[str, typer.Option("--from", help="The guest's number, +1NXXNXXXXXX.")],
    at: Annotated[
        str | None, typer.Option("--at", help="The casino's clock for this message (ISO time).")
    ] = None,
) -> None:
    """Send one signed inbound SMS through the whole pipeline, in process (the webhook's own
    code), and print {"status", "replies": [texts sent back], "opted_in"}."""
    from frontdesk.assistants.casino_host.service import guest_number
    from frontdesk.errors import FrontdeskError

    try:
        number = guest_number(sender)
    except FrontdeskError as exc:
        raise fail(str(exc), 2) from None
    when = None
    if at is not None:
        try:
            when = datetime.fromisoformat(at)
        except ValueError:
            raise fail(f"--at must be an ISO time such as 2026-11-25T21:30:00-05:00, not {at!r}")
        if when.tzinfo is None:
            raise fail("--at needs a time zone offset, such as 2026-11-25T21:30:00-05:00")
    settings = settings_for("casino_host")
    try:
        result = asyncio.run(
            with_service(settings, lambda s: _simulate(s, casino, number, text, when))
        )
    except FrontdeskError as exc:
        raise fail(str(exc), 1) from None
    out.print(json.dumps(result, ensure_ascii=False))
    if result["status"] not in ("processed", "duplicate"):
        raise typer.Exit(1)


async def _simulate(service: Any, casino: str, number: str, text: str,
                    when: datetime | None) -> dict[str, Any]:  # fmt: skip
    from frontdesk.assistants.casino_host.channel.signatures import simulator_headers

    service.check_scope(casino)
    if when is not None:
        service.clock = lambda: when
    gateway = service.sms
    gateway.human_delay = False  # the command prints what would be sent; it need not wait
    to = service.services.content.catalog(casino).casino.sms_number
    if to is None:
        raise fail(f"casino '{casino}' has no SMS number (sms_number in its casino.yaml)", 2)
    body = json.dumps({"id": f"cli-{uuid.uuid4()}", "from": number, "to": to, "text": text})
    raw = body.encode()
    headers = simulator_headers(raw, gateway.secrets.simulator_keys[0], int(time.time()))
    sent_before = len(gateway.provider.sent_to(number))
    outcome = await gateway.handle("simulator", "http://localhost/sms/inbound/simulator",
                                   headers, raw)  # fmt: skip
    await gateway.drain()
    replies = [sms.body for sms in gateway.provider.sent_to(number)[sent_before:]]
    return {
        "status": outcome.body.get("status") or "error",
        "replies": replies,
        "opted_in": not await gateway.opted_out(casino, number),
        **({"error": outcome.body["error"]} if "error" in outcome.body else {}),
    }
