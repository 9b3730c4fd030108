"""Delivery receipts (WP1 item 36, T16): each provider's status webhook read into one shape.

- simulator: JSON `{"message_id", "from", "status": "delivered|failed|unconfirmed", "error"}`;
- Twilio: the status callback form, `MessageSid`, `MessageStatus`, `From`, `ErrorCode`;
- Telnyx: JSON `{"data": {"event_type": "message.finalized", "payload": {"id", "from":
  {"phone_number"}, "to": [{"status"}], "errors": [...]}}}`.

`delivered` settles the message; `failed` retries it (5/25/125 s, then a dead letter);
`unconfirmed` (the carrier never said) and interim states change nothing: retrying an SMS that
may have arrived would text the guest twice.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Literal

from frontdesk.assistants.casino_host.channel.inbound import (
    MAX_BODY_BYTES,
    BadWebhook,
    _json,
    _message_id,
    _number,
    form_fields,
)

Outcome = Literal["delivered", "failed", "unconfirmed", "pending"]
TWILIO = {"delivered": "delivered", "undelivered": "failed", "failed": "failed"}
TELNYX = {
    "delivered": "delivered",
    "delivery_failed": "failed",
    "sending_failed": "failed",
    "delivery_unconfirmed": "unconfirmed",
}
SIMULATOR = {"delivered": "delivered", "failed": "failed", "unconfirmed": "unconfirmed"}


@dataclass(frozen=True)
class DeliveryReport:
    provider: str
    message_id: str  # the provider's id of the SMS we sent
    sender: str  # our number, E.164: it names the casino
    outcome: Outcome
    error: str | None = None


def _outcome(table: dict[str, str], status: Any) -> Outcome:
    if not isinstance(status, str) or not status:
        raise BadWebhook("a delivery report needs a status")
    return table.get(status, "pending")  # type: ignore[return-value]


def parse_receipt(provider: str, raw: bytes) -> DeliveryReport:
    if len(raw) > MAX_BODY_BYTES:
        raise BadWebhook(f"the body is larger than {MAX_BODY_BYTES // 1024} KiB")
    if provider == "twilio":
        form = dict(form_fields(raw))
        code = form.get("ErrorCode") or None
        return DeliveryReport("twilio", _message_id(form.get("MessageSid")),
                              _number(form.get("From"), "sending"),
                              _outcome(TWILIO, form.get("MessageStatus")),
                              f"Twilio error {code}"[:200] if code else None)  # fmt: skip
    body = _json(raw)
    if provider == "simulator":
        error = body.get("error")
        return DeliveryReport("simulator", _message_id(body.get("message_id")),
                              _number(body.get("from"), "sending"),
                              _outcome(SIMULATOR, body.get("status")),
                              str(error)[:200] if error else None)  # fmt: skip
    data = body.get("data")
    payload = data.get("payload") if isinstance(data, dict) else None
    if not isinstance(payload, dict):
        raise BadWebhook("a Telnyx webhook has data.payload")
    sender = payload.get("from")
    recipients = payload.get("to")
    first = recipients[0] if isinstance(recipients, list) and recipients else {}
    errors = payload.get("errors") or []
    detail = errors[0].get("title") if errors and isinstance(errors[0], dict) else None
    return DeliveryReport("telnyx", _message_id(payload.get("id")),
                          _number(sender.get("phone_number") if isinstance(sender, dict) else None,
                                  "sending"),
                          _outcome(TELNYX, first.get("status") if isinstance(first, dict) else None),
                          str(detail)[:200] if detail else None)  # fmt: skip
