"""`frontdesk sms ...`: the SMS channel's commands (issue 19). Output is JSON, for scripts.

frontdesk sms verify-chain --casino mohegan_sun --guest +18605550123
"""

from __future__ import annotations

import asyncio
import json
import time
import uuid
from collections.abc import Awaitable, Callable
from datetime import UTC, datetime
from typing import TYPE_CHECKING, Annotated, Any

import typer

from frontdesk.cli_common import fail, out, settings_for, with_service

if TYPE_CHECKING:
    from frontdesk.assistants.casino_host.channel.gateway import SmsGateway

app = typer.Typer(help="The casino host's SMS channel and consent.", no_args_is_help=True)


def _consent_commands() -> typer.Typer:
    from frontdesk.assistants.casino_host.channel.consent_cli import app as consent

    return consent


app.add_typer(_consent_commands(), name="consent")

CasinoOpt = Annotated[str, typer.Option("--casino", help="The casino's id.")]
GuestOpt = Annotated[str, typer.Option("--guest", help="The guest's number, +1NXXNXXXXXX.")]


def _number(value: str) -> str:
    """A guest's number in E.164, or exit 2 saying what is wrong with it."""
    from frontdesk.assistants.casino_host.storage.phone import guest_number
    from frontdesk.errors import FrontdeskError

    try:
        return guest_number(value)
    except FrontdeskError as exc:
        raise fail(str(exc), 2) from None


@app.command("verify-chain")
def verify_chain(
    casino: CasinoOpt,
    guest: Annotated[
        str | None, typer.Option("--guest", help="The guest's number, +1NXXNXXXXXX.")
    ] = None,
    every: Annotated[bool, typer.Option("--all", help="Every guest's chain.")] = False,
) -> None:
    """Recompute a guest's consent hash chain, or with --all every guest's of the casino:
    {valid, chain_length, broken_links, latest_hash}; with --all, one line per broken chain
    (by guest id, never a number) and a summary line. Exits 1 when a chain is broken."""
    from frontdesk.assistants.casino_host.storage import StorageError, Store
    from frontdesk.config import get_settings
    from frontdesk.errors import FrontdeskError

    if every == (guest is not None):
        raise fail("give --guest NUMBER or --all", 2)
    number = _number(guest) if guest is not None else None
    try:
        store = Store.from_settings(get_settings())
    except (FrontdeskError, StorageError) as exc:
        raise fail(str(exc), 2) from None
    try:
        if number is None:
            results = {g: store.verify_consent_chain(casino, g).as_dict()
                       for g in store.consent_chain_guests(casino)}  # fmt: skip
        else:
            guest_uuid = store.find_guest(casino, number)
            if guest_uuid is None:
                raise fail(f"no guest with that number at casino '{casino}'", 2)
            results = {guest_uuid: store.verify_consent_chain(casino, guest_uuid).as_dict()}
    except StorageError as exc:
        raise fail(str(exc), 1) from None
    finally:
        store.close()
    broken = {g: result for g, result in results.items() if not result["valid"]}
    if number is not None:
        out.print(json.dumps(next(iter(results.values()))))
    else:
        for guest_uuid, result in broken.items():
            out.print(json.dumps({"guest_uuid": guest_uuid, **result}))
        out.print(json.dumps({"casino": casino, "chains": len(results), "valid": not broken,
                              "broken": len(broken)}))  # fmt: skip
    if broken:
        raise typer.Exit(1)


@app.command("send")
def send(
    text: Annotated[str, typer.Argument(help="What the guest texts.")],
    casino: CasinoOpt,
    sender: Annotated[str, typer.Option("--from", help="The guest's number, +1NXXNXXXXXX.")],
    url: Annotated[
        str, typer.Option("--url", help="The running server.")
    ] = "http://127.0.0.1:8080",
) -> None:
    """Text a running server as the guest: one inbound SMS, signed as the simulator signs it,
    posted to its /sms/inbound/simulator; prints the server's answer."""
    import httpx

    from frontdesk.assistants.casino_host.channel.signatures import simulator_headers
    from frontdesk.assistants.casino_host.content import CasinoContent
    from frontdesk.assistants.casino_host.settings import CasinoHostSettings
    from frontdesk.config import get_settings
    from frontdesk.errors import FrontdeskError

    settings = get_settings()
    number = _number(sender)
    try:
        to = CasinoContent.load().catalog(casino).casino.sms_number
    except (FrontdeskError, LookupError) as exc:
        raise fail(str(exc), 2) from None
    body = json.dumps({"id": f"cli-{uuid.uuid4()}", "from": number, "to": to, "text": text})
    key = CasinoHostSettings.of(settings).sms_simulator_keys[0]
    headers = simulator_headers(body.encode(), key, int(time.time()))
    try:
        answer = httpx.post(f"{url.rstrip('/')}/sms/inbound/simulator", content=body,
                            headers={**headers, "content-type": "application/json"},
                            timeout=120)  # fmt: skip
    except httpx.HTTPError as exc:
        raise fail(f"could not reach {url}: {exc}", 1) from None
    out.print(json.dumps({"http_status": answer.status_code, **answer.json()}, ensure_ascii=False))
    if answer.status_code >= 400:
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
    from frontdesk.assistants.casino_host.channel.simulator import SimulatorOff
    from frontdesk.errors import FrontdeskError

    number = _number(sender)
    when = _when(at)
    settings = settings_for("casino_host")
    try:
        result = asyncio.run(
            with_service(settings, lambda s: _simulate(_gateway(s), casino, number, text, when))
        )
    except SimulatorOff as exc:
        raise fail(str(exc), 2) from None
    except FrontdeskError as exc:
        raise fail(str(exc), 1) from None
    out.print(json.dumps(result, ensure_ascii=False))
    if result["status"] not in ("processed", "duplicate"):
        raise typer.Exit(1)


async def _simulate(gateway: SmsGateway, casino: str, number: str, text: str,
                    when: datetime | None) -> dict[str, Any]:  # fmt: skip
    from frontdesk.assistants.casino_host.channel.simulator import simulated_at, text_the_host

    gateway.check_casino(casino)
    gateway.human_delay = False  # the command prints what would be sent; it need not wait
    sent_before = len(getattr(gateway.provider, "outbox", []))
    with simulated_at(when):
        outcome = await text_the_host(gateway, casino, number, text)
    await gateway.drain()
    replies = [sms.body for sms in gateway.provider.outbox[sent_before:] if sms.to == number]
    return {
        "status": outcome.body.get("status") or "error",
        "replies": replies,
        "opted_in": not await gateway.opted_out(casino, number),
        **({"error": outcome.body["error"]} if "error" in outcome.body else {}),
    }


KindOpt = Annotated[
    str,
    typer.Option("--type", help="transactional | informational | marketing (the consent tier)."),
]
AtOpt = Annotated[
    str | None, typer.Option("--at", help="The clock for the gate (ISO time with an offset).")
]


def _when(at: str | None) -> datetime | None:
    if at is None:
        return None
    try:
        when = datetime.fromisoformat(at)
    except ValueError:
        raise fail(f"--at must be an ISO time such as 2026-11-25T21:30:00-05:00, not {at!r}")
    if when.tzinfo is None:
        raise fail("--at needs a time zone offset, such as 2026-11-25T21:30:00-05:00")
    return when


def _kind(kind: str) -> str:
    from frontdesk.assistants.casino_host.channel.eligibility import MESSAGE_TYPES

    if kind not in MESSAGE_TYPES:
        raise fail(f"--type must be one of {', '.join(MESSAGE_TYPES)}, not {kind!r}")
    return kind


def _gateway(service: object) -> SmsGateway:
    from frontdesk.assistants.casino_host.channel.deps import gateway_of

    return gateway_of(service)


def _run(work: Callable[[SmsGateway], Awaitable[dict[str, Any]]]) -> dict[str, Any]:
    from frontdesk.errors import FrontdeskError

    settings = settings_for("casino_host")
    try:
        return asyncio.run(with_service(settings, lambda service: work(_gateway(service))))
    except (FrontdeskError, LookupError, ValueError) as exc:
        raise fail(str(exc), 1) from None


@app.command("outbound")
def outbound(
    text: Annotated[str, typer.Argument(help="The SMS to send.")],
    casino: CasinoOpt,
    to: Annotated[str, typer.Option("--to", help="The guest's number, +1NXXNXXXXXX.")],
    kind: KindOpt,
    at: AtOpt = None,
) -> None:
    """Send one SMS through the eligibility gate (queued durably, then sent) and print
    {"sent", "reason"}: reason is null, or the gate's rule that refused it (stop_status,
    consent_tier, quiet_hours, 10dlc_status, cooldown, …)."""

    number = _number(to)
    when, kind = _when(at), _kind(kind)

    async def work(gateway: SmsGateway) -> dict[str, Any]:
        from frontdesk.assistants.casino_host.channel.outbound import CarrierRiskTooHigh

        gateway.check_casino(casino)
        now = when or datetime.now(UTC)
        sender = gateway.outbound
        try:
            report = await sender.send(casino, number, kind, text, key=f"cli:{uuid.uuid4()}",
                                       now=now)  # fmt: skip
        except CarrierRiskTooHigh as exc:
            return {"sent": False, "reason": "carrier_risk", "detail": str(exc)}
        return report.as_dict()

    out.print(json.dumps(_run(work), ensure_ascii=False))


@app.command("campaign")
def campaign(
    text: Annotated[str, typer.Argument(help="The SMS every recipient gets.")],
    casino: CasinoOpt,
    kind: KindOpt,
    to: Annotated[
        list[str], typer.Option("--to", help="A recipient's number (repeat the option).")
    ],
    campaign_id: Annotated[
        str | None,
        typer.Option("--id", help="The campaign's id: a second run sends nothing twice."),
    ] = None,
    dry_run: Annotated[
        bool, typer.Option("--dry-run", help="Only say who would be sent to and who skipped.")
    ] = False,
    at: AtOpt = None,
) -> None:
    """Send one SMS to many guests, each through the gate; prints {"campaign_id", "sent",
    "skipped": [{"to", "reason"}]}. A number that opted out is skipped with stop_status."""

    numbers = list(dict.fromkeys(_number(n) for n in to))
    when, kind = _when(at), _kind(kind)
    name = campaign_id or f"campaign-{uuid.uuid4().hex[:12]}"

    async def work(gateway: SmsGateway) -> dict[str, Any]:
        gateway.check_casino(casino)
        now = when or datetime.now(UTC)
        sender = gateway.outbound
        sent, skipped = [], []
        for number in numbers:
            if dry_run:
                verdict = await asyncio.to_thread(sender.check, casino, number, kind, now)
                (sent if verdict.eligible else skipped).append(
                    {"to": number, "reason": verdict.blocked_by}
                )
                continue
            report = await sender.send(casino, number, kind, text, key=f"{name}:{number}",
                                       now=now, campaign_id=name)  # fmt: skip
            (sent if report.sent else skipped).append({"to": number, "reason": report.reason})
        return {"campaign_id": name, "dry_run": dry_run, "sent": sent, "skipped": skipped}

    out.print(json.dumps(_run(work), ensure_ascii=False))


@app.command("retry-queue")
def retry_queue(
    casino: CasinoOpt,
    run: Annotated[
        bool, typer.Option("--run", help="Send what is due now, through the gate.")
    ] = False,
) -> None:
    """The outbound messages waiting (queued, being sent, retrying) and the dead letters; with
    --run, send the due ones first."""

    async def work(gateway: SmsGateway) -> dict[str, Any]:
        gateway.check_casino(casino)
        reports = await gateway.outbound.send_due(casino, datetime.now(UTC)) if run else []
        store = gateway.store
        waiting = await asyncio.to_thread(store.outbound_for, casino,
                                          statuses=("queued", "sending"))  # fmt: skip
        dead = await asyncio.to_thread(store.outbound_for, casino, statuses=("dead",))
        return {
            "sent_now": [r.as_dict() for r in reports],
            "waiting": [m.as_dict() for m in waiting],
            "dead_letters": [m.as_dict() for m in dead],
        }

    out.print(json.dumps(_run(work), ensure_ascii=False))


@app.command("inbox")
def inbox(casino: CasinoOpt, guest: GuestOpt) -> None:
    """What the guest texted and was sent (the conversation), and the outbound queue's
    messages to them with their status."""

    number = _number(guest)

    async def work(gateway: SmsGateway) -> dict[str, Any]:
        gateway.check_casino(casino)
        store = gateway.store
        guest_uuid = await asyncio.to_thread(store.find_guest, casino, number)
        if guest_uuid is None:
            raise ValueError(f"no guest with that number at casino '{casino}'")
        messages = await asyncio.to_thread(store.guest_messages, casino, guest_uuid)
        queued = await asyncio.to_thread(store.outbound_for, casino, guest_uuid)
        return {
            "conversation": [
                {
                    "direction": m.direction,
                    "text": m.text,
                    "agent": m.agent,
                    "at": m.created_at.isoformat(),
                }
                for m in messages
            ],
            "outbound": [m.as_dict() for m in queued],
        }

    out.print(json.dumps(_run(work), ensure_ascii=False))
