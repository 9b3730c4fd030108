"""Webhook signatures, exactly as each provider signs (WP1 items 4-6, C1, T1, T2).

- Telnyx: Ed25519 over `"{telnyx-timestamp}|{raw body}"`, headers `telnyx-signature-ed25519`
  (base64) and `telnyx-timestamp` (Unix seconds), checked with the account's public key
  (base64 of its 32 bytes); the timestamp within 300 s of now. As `telnyx.lib.
  webhook_verification` checks it.
- Twilio: `X-Twilio-Signature` = base64 HMAC-SHA1(auth token, the full URL, then each form field
  name and value, names sorted); the URL is tried with and without its default port, as
  `twilio.request_validator.RequestValidator.validate` does.
- The simulator: hex HMAC-SHA256 over `"{timestamp}.{raw body}"` (headers
  `x-simulator-signature`, `x-simulator-timestamp`), accepted under the primary or the
  secondary key, so that a key can be rotated without refusing a message (seed §3.20).

A failure raises `SignatureError` with the HTTP status the route answers (items 4, C1): 401 for
a missing or wrong signature, 400 for a missing, malformed or stale timestamp. Comparisons are
constant-time.
"""

from __future__ import annotations

import base64
import binascii
import hashlib
import hmac
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from urllib.parse import urlsplit, urlunsplit

from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PublicKey

from frontdesk.assistants.casino_host.channel.inbound import BadWebhook, form_fields
from frontdesk.errors import FrontdeskError

TIMESTAMP_TOLERANCE_S = 300

TELNYX_SIGNATURE = "telnyx-signature-ed25519"
TELNYX_TIMESTAMP = "telnyx-timestamp"
TWILIO_SIGNATURE = "x-twilio-signature"
SIMULATOR_SIGNATURE = "x-simulator-signature"
SIMULATOR_TIMESTAMP = "x-simulator-timestamp"


class SignatureError(FrontdeskError):
    """A webhook that did not prove where it came from; `status` is the HTTP answer."""

    def __init__(self, status: int, reason: str):
        super().__init__(reason)
        self.status = status
        self.reason = reason


def _header(headers: Mapping[str, str], name: str) -> str | None:
    for key, value in headers.items():
        if key.lower() == name:
            return value
    return None


def _fresh_timestamp(headers: Mapping[str, str], name: str, now: float) -> str:
    value = _header(headers, name)
    if value is None:
        raise SignatureError(400, f"missing {name} header")
    try:
        stamp = int(value.strip())
    except ValueError:
        raise SignatureError(400, f"malformed {name} header") from None
    if abs(now - stamp) > TIMESTAMP_TOLERANCE_S:
        raise SignatureError(400, f"stale {name}: more than {TIMESTAMP_TOLERANCE_S} s from now")
    return value.strip()


# -- Telnyx ---------------------------------------------------------------------------------


def telnyx_public_key(encoded: str) -> Ed25519PublicKey:
    """The account's public key from its base64 text (a configuration error if malformed)."""
    try:
        raw = base64.b64decode(encoded, validate=True)
        return Ed25519PublicKey.from_public_bytes(raw)
    except (binascii.Error, ValueError) as exc:
        raise ValueError("the Telnyx public key must be base64 of 32 bytes") from exc


def verify_telnyx(
    raw_body: bytes, headers: Mapping[str, str], public_key: Ed25519PublicKey, *, now: float
) -> None:
    encoded = _header(headers, TELNYX_SIGNATURE)
    if encoded is None:
        raise SignatureError(401, f"missing {TELNYX_SIGNATURE} header")
    timestamp = _fresh_timestamp(headers, TELNYX_TIMESTAMP, now)
    try:
        signature = base64.b64decode(encoded, validate=True)
    except binascii.Error:
        raise SignatureError(401, "the Telnyx signature is not base64") from None
    if len(signature) != 64:
        raise SignatureError(401, "the Telnyx signature is not 64 bytes")
    try:
        public_key.verify(signature, timestamp.encode() + b"|" + raw_body)
    except InvalidSignature:
        raise SignatureError(401, "the Telnyx signature does not match") from None


# -- Twilio ---------------------------------------------------------------------------------


def twilio_signature(auth_token: str, url: str, form: Iterable[tuple[str, str]]) -> str:
    """The signature Twilio sends for a POST of `form` to `url`."""
    values: dict[str, set[str]] = {}
    for name, value in form:
        values.setdefault(name, set()).add(value)
    text = url + "".join(name + value for name in sorted(values) for value in sorted(values[name]))
    digest = hmac.new(auth_token.encode(), text.encode(), hashlib.sha1).digest()
    return base64.b64encode(digest).decode()


def _with_and_without_port(url: str) -> list[str]:
    """The URL without any port, and with its port (the scheme's default when it has none):
    Twilio may have signed either."""
    parts = urlsplit(url)
    host = parts.hostname or ""
    port = parts.port or (443 if parts.scheme == "https" else 80)
    return [
        urlunsplit(parts._replace(netloc=host)) if parts.port else url,
        url if parts.port else urlunsplit(parts._replace(netloc=f"{host}:{port}")),
    ]


def verify_twilio(
    url: str, form: Sequence[tuple[str, str]], headers: Mapping[str, str], auth_token: str
) -> None:
    given = _header(headers, TWILIO_SIGNATURE)
    if given is None:
        raise SignatureError(401, f"missing {TWILIO_SIGNATURE} header")
    for candidate in _with_and_without_port(url):
        if hmac.compare_digest(twilio_signature(auth_token, candidate, form), given.strip()):
            return
    raise SignatureError(401, "the Twilio signature does not match")


# -- the simulator --------------------------------------------------------------------------


def simulator_headers(raw_body: bytes, key: str, timestamp: int) -> dict[str, str]:
    digest = hmac.new(key.encode(), str(timestamp).encode() + b"." + raw_body, hashlib.sha256)
    return {SIMULATOR_SIGNATURE: digest.hexdigest(), SIMULATOR_TIMESTAMP: str(timestamp)}


def verify_simulator(
    raw_body: bytes, headers: Mapping[str, str], keys: Sequence[str], *, now: float
) -> None:
    """`keys`: the primary key, then the secondary one while a rotation is under way."""
    given = _header(headers, SIMULATOR_SIGNATURE)
    if given is None:
        raise SignatureError(401, f"missing {SIMULATOR_SIGNATURE} header")
    timestamp = _fresh_timestamp(headers, SIMULATOR_TIMESTAMP, now)
    for key in keys:
        expected = simulator_headers(raw_body, key, int(timestamp))[SIMULATOR_SIGNATURE]
        if hmac.compare_digest(expected, given.strip().lower()):
            return
    raise SignatureError(401, "the simulator signature does not match")


@dataclass(frozen=True)
class WebhookSecrets:
    """What the webhooks are checked with: the simulator's keys (primary, then secondary),
    Twilio's auth token, Telnyx's public key; a provider with none configured is refused."""

    simulator_keys: tuple[str, ...] = ()
    twilio_auth_token: str | None = None
    telnyx_public_key: Ed25519PublicKey | None = None


def verify_webhook(secrets: WebhookSecrets, provider: str, url: str, headers: Mapping[str, str],
                   raw: bytes, *, now: float) -> None:  # fmt: skip
    """A provider's webhook checked as that provider signs it; SignatureError when it is not."""
    if provider == "simulator":
        if not secrets.simulator_keys:
            raise SignatureError(401, "the simulator has no signing key configured")
        verify_simulator(raw, headers, secrets.simulator_keys, now=now)
    elif provider == "twilio":
        if secrets.twilio_auth_token is None:
            raise SignatureError(401, "no Twilio auth token is configured")
        try:
            form = form_fields(raw)
        except BadWebhook:
            form = []
        verify_twilio(url, form, headers, secrets.twilio_auth_token)
    else:
        if secrets.telnyx_public_key is None:
            raise SignatureError(401, "no Telnyx public key is configured")
        verify_telnyx(raw, headers, secrets.telnyx_public_key, now=now)
