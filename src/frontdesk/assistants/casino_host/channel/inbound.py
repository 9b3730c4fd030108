"""An inbound SMS webhook's body, as each provider sends it, read into one shape (WP1 item 1).

- simulator: JSON `{"id", "from", "to", "text", "media": [urls]}`;
- Twilio: a form, `MessageSid`, `From`, `To`, `Body`, `NumMedia`, `MediaUrl0..`;
- Telnyx: JSON `{"data": {"event_type": "message.received", "payload": {"id", "text",
  "from": {"phone_number"}, "to": [{"phone_number"}], "media": [{"url"}]}}}`.

A body that is not what the provider sends raises `BadWebhook` (400). Media are counted and
dropped: the host answers the text only (item 3).
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from typing import Any
from urllib.parse import parse_qsl

from frontdesk.errors import FrontdeskError

PROVIDERS = ("simulator", "twilio", "telnyx")
E164 = re.compile(r"^\+[1-9]\d{7,14}$")
MAX_BODY_BYTES = 64 * 1024
MAX_TEXT_CHARS = 1600  # ten concatenated SMS: longer is not a text message


class BadWebhook(FrontdeskError):
    status = 400


@dataclass(frozen=True)
class InboundSms:
    provider: str
    message_id: str
    sender: str  # E.164
    recipient: str  # E.164: the casino's number
    text: str
    media_count: int = 0

    @property
    def key(self) -> str:
        """The idempotency key (item 7): the provider's own message id."""
        return f"{self.provider}:{self.message_id}"


def _number(value: Any, what: str) -> str:
    if not isinstance(value, str) or not E164.match(value.strip()):
        raise BadWebhook(f"the {what} number is not in E.164 form (+ and 8-15 digits)")
    return value.strip()


def _text(value: Any) -> str:
    if value is None:
        return ""
    if not isinstance(value, str):
        raise BadWebhook("the message text must be a string")
    if len(value) > MAX_TEXT_CHARS:
        raise BadWebhook(f"the message text is longer than {MAX_TEXT_CHARS} characters")
    return value


def _message_id(value: Any) -> str:
    if not isinstance(value, str) or not value.strip() or len(value) > 120:
        raise BadWebhook("the message id is missing or longer than 120 characters")
    return value.strip()


def _media_count(media: Any) -> int:
    return len(media) if isinstance(media, list) else 0


def _json(raw: bytes) -> dict[str, Any]:
    try:
        body = json.loads(raw.decode("utf-8"))
    except (UnicodeDecodeError, json.JSONDecodeError):
        raise BadWebhook("the body is not JSON") from None
    if not isinstance(body, dict):
        raise BadWebhook("the body is not a JSON object")
    return body


def form_fields(raw: bytes) -> list[tuple[str, str]]:
    try:
        return parse_qsl(raw.decode("utf-8"), keep_blank_values=True, strict_parsing=bool(raw))
    except (UnicodeDecodeError, ValueError):
        raise BadWebhook("the body is not a URL-encoded form") from None


def parse_inbound(provider: str, raw: bytes) -> InboundSms:
    if provider not in PROVIDERS:
        raise BadWebhook(f"unknown SMS provider '{provider}'; one of {', '.join(PROVIDERS)}")
    if len(raw) > MAX_BODY_BYTES:
        raise BadWebhook(f"the body is larger than {MAX_BODY_BYTES // 1024} KiB")
    if provider == "twilio":
        form = dict(form_fields(raw))
        try:
            media = int(form.get("NumMedia") or 0)
        except ValueError:
            raise BadWebhook("NumMedia is not a number") from None
        return InboundSms(
            "twilio",
            _message_id(form.get("MessageSid")),
            _number(form.get("From"), "sender's"),
            _number(form.get("To"), "receiving"),
            _text(form.get("Body")),
            max(media, 0),
        )
    body = _json(raw)
    if provider == "simulator":
        return InboundSms(
            "simulator",
            _message_id(body.get("id")),
            _number(body.get("from"), "sender's"),
            _number(body.get("to"), "receiving"),
            _text(body.get("text")),
            _media_count(body.get("media")),
        )
    data = body.get("data")
    payload = data.get("payload") if isinstance(data, dict) else None
    if not isinstance(payload, dict):
        raise BadWebhook("a Telnyx webhook has data.payload")
    if data.get("event_type") != "message.received":
        raise BadWebhook(f"not an inbound message: {str(data.get('event_type'))[:40]}")
    sender = payload.get("from")
    recipients = payload.get("to")
    to = recipients[0] if isinstance(recipients, list) and recipients else None
    return InboundSms(
        "telnyx",
        _message_id(payload.get("id")),
        _number(sender.get("phone_number") if isinstance(sender, dict) else None, "sender's"),
        _number(to.get("phone_number") if isinstance(to, dict) else None, "receiving"),
        _text(payload.get("text")),
        _media_count(payload.get("media")),
    )
