"""The simulator's webhooks, in process: an inbound SMS from a guest (`text_the_host`, for
`frontdesk sms simulate` and the phone simulator page) and the delivery report of each SMS the
simulator "sent" (`report_delivery`), each signed as the simulator signs and handed to the
webhook's own pipeline (`SmsGateway.handle`, `handle_receipt`). The clock may be set for one
message (`simulated_at`), to try quiet hours without waiting for the night."""

from __future__ import annotations

import json
import time
import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from datetime import datetime
from typing import TYPE_CHECKING

from frontdesk.assistants.casino_host.channel.providers import SentSms
from frontdesk.assistants.casino_host.channel.signatures import simulator_headers
from frontdesk.errors import FrontdeskError

if TYPE_CHECKING:
    from frontdesk.assistants.casino_host.channel.acceptance import WebhookOutcome
    from frontdesk.assistants.casino_host.channel.gateway import SmsGateway

# The casino's clock for the message being simulated (None: the real clock). A context
# variable, so one simulated message never moves another request's clock.
DELIVERY_REPORT_AFTER_S = 0.5  # when the simulated handset acknowledges an SMS
INBOUND_URL = "http://localhost/sms/inbound/simulator"
STATUS_URL = "http://localhost/sms/status/simulator"

SIMULATED_NOW: ContextVar[datetime | None] = ContextVar("casino_host_simulated_now", default=None)


class SimulatorOff(FrontdeskError):
    """The simulator is for offline trials: it needs the simulator sending."""


@contextmanager
def simulated_at(when: datetime | None) -> Iterator[None]:
    if when is not None and when.tzinfo is None:
        raise ValueError("a simulated time needs a time zone offset")
    token = SIMULATED_NOW.set(when)
    try:
        yield
    finally:
        SIMULATED_NOW.reset(token)


def require_simulator(gateway: SmsGateway) -> None:
    if not gateway.secrets.simulator_keys:
        raise SimulatorOff(
            "the phone simulator exists in development only: FRONTDESK_CASINO_HOST_SMS_PROVIDER="
            "simulator with FRONTDESK_AUTH_MODE=open, or FRONTDESK_CASINO_HOST_SMS_SIMULATOR_"
            "ENABLED=true"
        )
    if not hasattr(gateway.provider, "sent_to"):
        raise SimulatorOff(
            "the phone simulator shows what the simulator sends: it needs "
            "FRONTDESK_CASINO_HOST_SMS_PROVIDER=simulator"
        )


async def text_the_host(
    gateway: SmsGateway, casino_id: str, number: str, text: str
) -> WebhookOutcome:
    """The webhook's outcome for one signed simulator message from `number` to the casino."""
    require_simulator(gateway)
    to = gateway.content.catalog(casino_id).casino.sms_number
    if to is None:
        raise FrontdeskError(
            f"casino '{casino_id}' has no SMS number (sms_number in its casino.yaml)"
        )
    raw = json.dumps({"id": f"sim-{uuid.uuid4()}", "from": number, "to": to, "text": text}).encode()
    headers = simulator_headers(raw, gateway.secrets.simulator_keys[0], int(time.time()))
    return await gateway.handle("simulator", INBOUND_URL, headers, raw)


async def report_delivery(gateway: SmsGateway, sms: SentSms) -> WebhookOutcome:
    """The delivery report the simulated carrier sends for `sms` (always `delivered`)."""
    raw = json.dumps({"message_id": sms.message_id, "from": sms.from_,
                      "status": "delivered"}).encode()  # fmt: skip
    headers = simulator_headers(raw, gateway.secrets.simulator_keys[0], int(time.time()))
    return await gateway.handle_receipt("simulator", STATUS_URL, headers, raw)
