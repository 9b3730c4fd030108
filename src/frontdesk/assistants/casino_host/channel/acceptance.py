"""A provider's webhook accepted or refused, before anything of it is believed: the provider
known, the signature checked, the body parsed, and the casino of the number it names found.

Every refusal of a signature (a forged, unsigned or stale webhook, or one for the phone
simulator where it does not exist) leaves an `auth_failure` audit row: de-identified (the
claimed number only as its hash prefix, never the text), in the casino the body names when it
can be read, else in the host's default casino, so that an operator sees forgery attempts.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any, TypeVar

from frontdesk.assistants.casino_host.channel.inbound import PROVIDERS, BadWebhook
from frontdesk.assistants.casino_host.channel.signatures import (
    SignatureError,
    WebhookSecrets,
    verify_webhook,
)
from frontdesk.assistants.casino_host.content import CasinoContent
from frontdesk.assistants.casino_host.storage import StorageError, Store
from frontdesk.assistants.casino_host.storage.phone import E164

logger = logging.getLogger(__name__)
T = TypeVar("T")

AUTH_FAILURE = "auth_failure"
SIMULATOR = "simulator"


@dataclass(frozen=True)
class WebhookOutcome:
    status: int
    body: dict[str, Any]


@dataclass(frozen=True)
class Webhook:
    """One delivery as the route received it."""

    provider: str
    url: str
    headers: Mapping[str, str]
    raw: bytes


def casino_of(content: CasinoContent, number: str) -> str | None:
    """The casino that texts from `number`, or None."""
    for casino_id in content.casino_ids:
        if content.catalog(casino_id).casino.sms_number == number:
            return casino_id
    return None


async def accept(
    webhook: Webhook,
    *,
    secrets: WebhookSecrets,
    content: CasinoContent,
    store: Store,
    now: float,
    parse: Callable[[str, bytes], T],
    numbers: Callable[[T], tuple[str, str, str]],
    audit_casino: str,
) -> tuple[T, str] | WebhookOutcome:
    """The parsed webhook and its casino, or its refusal. `numbers`: the casino's number, which
    side it is on ("receiving", "sending"), and the guest's number."""
    provider = webhook.provider
    if provider not in PROVIDERS:
        return WebhookOutcome(404, {"error": f"unknown SMS provider '{provider[:20]}'"})
    try:
        if provider == SIMULATOR and not secrets.simulator_keys:
            # The phone simulator exists only in development: here its webhook is not a route.
            raise SignatureError(404, "unknown SMS provider 'simulator'")
        verify_webhook(secrets, provider, webhook.url, webhook.headers, webhook.raw, now=now)
        parsed = parse(provider, webhook.raw)
    except SignatureError as exc:
        logger.warning("sms webhook refused (%s): %s", provider, exc.reason)
        await _record_refusal(webhook, exc, content, store, parse, numbers, audit_casino)
        return WebhookOutcome(exc.status, {"error": exc.reason})
    except BadWebhook as exc:
        return WebhookOutcome(400, {"error": str(exc)})
    number, side, _guest = numbers(parsed)
    casino_id = casino_of(content, number)
    if casino_id is None:
        return WebhookOutcome(404, {"error": f"no casino texts from the {side} number"})
    return parsed, casino_id


async def _record_refusal(
    webhook: Webhook,
    refusal: SignatureError,
    content: CasinoContent,
    store: Store,
    parse: Callable[[str, bytes], T],
    numbers: Callable[[T], tuple[str, str, str]],
    audit_casino: str,
) -> None:
    casino_id, guest = audit_casino, None
    try:  # what the unproven body claims: its casino and its guest, for the operator only
        number, _side, claimed = numbers(parse(webhook.provider, webhook.raw))
        casino_id = casino_of(content, number) or audit_casino
        guest = claimed if E164.match(claimed) else None
    except (BadWebhook, ValueError, TypeError):
        pass
    details = {"provider": webhook.provider, "status": refusal.status,
               "reason": refusal.reason, "body_bytes": len(webhook.raw)}  # fmt: skip

    def write() -> None:
        phone_hash = store.phone_hash(casino_id, guest) if guest else None
        store.audit(casino_id, AUTH_FAILURE, phone_hash=phone_hash, details=details)

    try:
        await asyncio.to_thread(write)
    except StorageError:
        logger.error("sms webhook refused: its audit row could not be written")
