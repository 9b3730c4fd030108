"""Webhook signatures (WP1 items 4-6, T1, T2): Telnyx Ed25519 over "ts|body", Twilio HMAC-SHA1
over the URL and sorted form fields, the simulator's HMAC-SHA256 under two keys.

The fixed vectors were made with the providers' own libraries (twilio 9.13.0
`RequestValidator.compute_signature`; a request signed with PyNaCl and accepted by telnyx
4.189.0 `lib.webhook_verification.verify_webhook_signature`), so the code is checked against
what the providers send, not against itself."""

from __future__ import annotations

import base64

import pytest
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

from frontdesk.assistants.casino_host.channel.signatures import (
    SignatureError,
    simulator_headers,
    telnyx_public_key,
    twilio_signature,
    verify_simulator,
    verify_telnyx,
    verify_twilio,
)

TELNYX = {
    "public_key": "A6EHv/POEL4dcN0Y50vAmWfk1jCbpQ1fHdyGZBJVMbg=",
    "timestamp": "1764072000",
    "body": '{"data":{"event_type":"message.received","id":"b0c1e2d3-0000-4000-8000-000000000001",'
    '"payload":{"id":"40385f64-5717-4562-b3fc-2c963f66afa6","text":"Is the buffet open?",'
    '"from":{"phone_number":"+18605550123"},"to":[{"phone_number":"+18605559999"}]}}}',
    "signature": "CwHrOKxwhhBRg2IEvBkCZCfYFe/N9tSCIdLl2aBaMlPYemHispHkXU02RRA9glq9/MlGjWZWbPLpIQOlHneiAg==",
}
TWILIO = {
    "auth_token": "12345",
    "url": "https://frontdesk.example.com/sms/inbound/twilio?casino=mohegan_sun",
    "form": [
        ("MessageSid", "SM1234567890abcdef1234567890abcdef"),
        ("AccountSid", "AC00000000000000000000000000000000"),
        ("From", "+18605550123"),
        ("To", "+18605559999"),
        ("Body", "Is the buffet open?"),
        ("NumMedia", "0"),
    ],
    "signature": "wUSxr4L3pwzE/84/NLaFqZ/YVWk=",
}
NOW = int(TELNYX["timestamp"]) + 10


def _telnyx_headers(signature: str = TELNYX["signature"], timestamp: str = TELNYX["timestamp"]):
    return {"Telnyx-Signature-Ed25519": signature, "Telnyx-Timestamp": timestamp}


def _status(call) -> int:
    with pytest.raises(SignatureError) as raised:
        call()
    return raised.value.status


# -- Telnyx (T1) ------------------------------------------------------------------------------


def test_a_request_telnyx_signed_is_accepted():
    key = telnyx_public_key(TELNYX["public_key"])
    verify_telnyx(TELNYX["body"].encode(), _telnyx_headers(), key, now=NOW)


def test_telnyx_failures_and_their_statuses():
    key = telnyx_public_key(TELNYX["public_key"])
    body = TELNYX["body"].encode()
    flipped = body.replace(b"buffet", b"buffeT")
    assert _status(lambda: verify_telnyx(flipped, _telnyx_headers(), key, now=NOW)) == 401
    stale = int(TELNYX["timestamp"]) + 301
    assert _status(lambda: verify_telnyx(body, _telnyx_headers(), key, now=stale)) == 400
    no_signature = {"Telnyx-Timestamp": TELNYX["timestamp"]}
    assert _status(lambda: verify_telnyx(body, no_signature, key, now=NOW)) == 401
    no_timestamp = {"Telnyx-Signature-Ed25519": TELNYX["signature"]}
    assert _status(lambda: verify_telnyx(body, no_timestamp, key, now=NOW)) == 400
    garbled = _telnyx_headers(signature="not base64!")
    assert _status(lambda: verify_telnyx(body, garbled, key, now=NOW)) == 401
    bad_time = _telnyx_headers(timestamp="yesterday")
    assert _status(lambda: verify_telnyx(body, bad_time, key, now=NOW)) == 400


def test_the_separator_is_a_bar_not_a_dot():
    # The seed's own scheme, "{ts}.{body}", must not pass (T1, C1).
    private = Ed25519PrivateKey.generate()
    public = base64.b64encode(private.public_key().public_bytes_raw()).decode()
    body = b'{"data":{}}'
    dotted = base64.b64encode(private.sign(b"1764072000." + body)).decode()
    barred = base64.b64encode(private.sign(b"1764072000|" + body)).decode()
    key = telnyx_public_key(public)
    verify_telnyx(body, _telnyx_headers(barred), key, now=NOW)
    assert _status(lambda: verify_telnyx(body, _telnyx_headers(dotted), key, now=NOW)) == 401


def test_a_malformed_public_key_is_a_configuration_error():
    with pytest.raises(ValueError, match="base64 of 32 bytes"):
        telnyx_public_key("c2hvcnQ=")


# -- Twilio (T2) ------------------------------------------------------------------------------


def test_a_request_twilio_signed_is_accepted():
    assert (
        twilio_signature(TWILIO["auth_token"], TWILIO["url"], TWILIO["form"])
        == (TWILIO["signature"])
    )
    headers = {"X-Twilio-Signature": TWILIO["signature"]}
    verify_twilio(TWILIO["url"], TWILIO["form"], headers, TWILIO["auth_token"])
    # Behind a proxy the URL may carry the default port; Twilio signed it without.
    ported = TWILIO["url"].replace(".com/", ".com:443/")
    verify_twilio(ported, TWILIO["form"], headers, TWILIO["auth_token"])


def test_one_changed_field_or_token_fails():
    headers = {"X-Twilio-Signature": TWILIO["signature"]}
    changed = [(k, "+18605550124" if k == "From" else v) for k, v in TWILIO["form"]]
    for call in (
        lambda: verify_twilio(TWILIO["url"], changed, headers, TWILIO["auth_token"]),
        lambda: verify_twilio(TWILIO["url"], TWILIO["form"], headers, "54321"),
        lambda: verify_twilio(TWILIO["url"], TWILIO["form"], {}, TWILIO["auth_token"]),
    ):
        assert _status(call) == 401


# -- the simulator (item 6) -------------------------------------------------------------------


def test_the_simulator_accepts_either_key_during_a_rotation():
    body = b'{"from":"+18605550123","text":"hi"}'
    old = simulator_headers(body, "old-key", NOW)
    new = simulator_headers(body, "new-key", NOW)
    verify_simulator(body, new, ["new-key", "old-key"], now=NOW)
    verify_simulator(body, old, ["new-key", "old-key"], now=NOW)
    # After the rotation window the old key is gone.
    assert _status(lambda: verify_simulator(body, old, ["new-key"], now=NOW)) == 401
    assert _status(lambda: verify_simulator(body + b" ", new, ["new-key"], now=NOW)) == 401
    assert _status(lambda: verify_simulator(body, new, ["new-key"], now=NOW + 301)) == 400
