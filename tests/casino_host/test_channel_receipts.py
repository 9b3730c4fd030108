"""Delivery reports as each provider sends them (T16): delivered settles, failed retries,
unconfirmed and interim states change nothing; a body that is not a report is a 400."""

from __future__ import annotations

import json
from urllib.parse import urlencode

import pytest

from frontdesk.assistants.casino_host.channel.inbound import BadWebhook
from frontdesk.assistants.casino_host.channel.receipts import parse_receipt

OURS = "+18605550150"


def telnyx(status: str, errors: list | None = None) -> bytes:
    payload = {
        "id": "40385f64",
        "from": {"phone_number": OURS},
        "to": [{"phone_number": "+18605550123", "status": status}],
        "errors": errors or [],
    }
    return json.dumps({"data": {"event_type": "message.finalized", "payload": payload}}).encode()


@pytest.mark.parametrize(
    ("status", "outcome"),
    [("delivered", "delivered"), ("undelivered", "failed"), ("failed", "failed"),
     ("sent", "pending"), ("queued", "pending")],
)  # fmt: skip
def test_twilio_status_callbacks(status: str, outcome: str):
    raw = urlencode({"MessageSid": "SM1", "MessageStatus": status, "From": OURS,
                     "To": "+18605550123", "ErrorCode": "30003" if outcome == "failed" else ""})  # fmt: skip
    report = parse_receipt("twilio", raw.encode())
    assert (report.message_id, report.sender, report.outcome) == ("SM1", OURS, outcome)
    assert report.error == ("Twilio error 30003" if outcome == "failed" else None)


@pytest.mark.parametrize(
    ("status", "outcome"),
    [("delivered", "delivered"), ("delivery_failed", "failed"), ("sending_failed", "failed"),
     ("delivery_unconfirmed", "unconfirmed"), ("sent", "pending")],
)  # fmt: skip
def test_telnyx_finalized_events(status: str, outcome: str):
    report = parse_receipt("telnyx", telnyx(status, [{"code": "40300", "title": "Blocked"}]))
    assert (report.message_id, report.outcome, report.error) == ("40385f64", outcome, "Blocked")


@pytest.mark.parametrize(
    ("provider", "raw", "message"),
    [
        ("simulator", b"\xff\xfe", "not JSON"),
        ("simulator", b'{"message_id": "m", "from": "860", "status": "delivered"}', "E.164"),
        ("simulator", b'{"message_id": "m", "from": "+18605550150"}', "status"),
        ("twilio", b"MessageStatus=delivered&From=%2B18605550150", "message id"),
        ("telnyx", b'{"data": {}}', "data.payload"),
    ],
)
def test_bad_reports_are_refused(provider: str, raw: bytes, message: str):
    with pytest.raises(BadWebhook, match=message):
        parse_receipt(provider, raw)
