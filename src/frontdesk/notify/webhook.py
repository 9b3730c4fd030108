"""A signed webhook post in the body Slack-compatible incoming webhooks accept.

Incoming webhooks (Slack, Mattermost, Rocket.Chat, Teams' Slack-compatible connector) take a
JSON body with `text`; `blocks` adds the formatted version. Our own receivers check the
signature: HMAC-SHA256 of "v1:<timestamp>:<body>" with the shared secret, sent as
`X-Frontdesk-Signature: v1=<hex>` beside `X-Frontdesk-Timestamp`, so a replayed or forged post
is told apart (`verify_signature`).
"""

from __future__ import annotations

import hashlib
import hmac
import json
import time
from urllib.parse import urlsplit

import httpx

from frontdesk.notify.alerts import Alert

SIGNATURE_HEADER = "X-Frontdesk-Signature"
TIMESTAMP_HEADER = "X-Frontdesk-Timestamp"
ALERT_ID_HEADER = "X-Frontdesk-Alert-Id"
MAX_SKEW_S = 300  # a signature older than this is a replay


def signature(secret: str, timestamp: str, body: bytes) -> str:
    mac = hmac.new(secret.encode(), b"v1:" + timestamp.encode() + b":" + body, hashlib.sha256)
    return "v1=" + mac.hexdigest()


def verify_signature(secret: str, timestamp: str, body: bytes, presented: str,
                     *, now: float | None = None) -> bool:  # fmt: skip
    """Whether a post carries our signature and is fresh (within MAX_SKEW_S)."""
    try:
        age = abs((time.time() if now is None else now) - int(timestamp))
    except ValueError:
        return False
    return age <= MAX_SKEW_S and hmac.compare_digest(signature(secret, timestamp, body), presented)


def slack_body(alert: Alert) -> dict[str, object]:
    """`text` for every receiver (and notifications); `blocks` for those that format."""
    details = "\n".join(alert.lines)
    link = f"\n<{alert.link}|Open on the staff page>" if alert.link else ""
    return {
        "text": alert.subject,
        "blocks": [
            {"type": "header", "text": {"type": "plain_text", "text": alert.subject[:150]}},
            {"type": "section", "text": {"type": "mrkdwn", "text": (details + link)[:3000] or "-"}},
            {
                "type": "context",
                "elements": [{"type": "mrkdwn", "text": f"Level {alert.level} · {alert.alert_id}"}],
            },
        ],
    }


def target_name(url: str) -> str:
    """How a webhook is named in logs and reports: its host, never the secret path."""
    return f"webhook:{urlsplit(url).hostname or '?'}"


class SignedWebhook:
    """Posts alerts to incoming-webhook URLs, each post signed with the shared secret."""

    def __init__(self, secret: str | None, *, timeout_s: float,
                 transport: httpx.AsyncBaseTransport | None = None):  # fmt: skip
        self._secret = secret
        self._timeout_s = timeout_s
        self._transport = transport

    async def post(self, url: str, alert: Alert) -> None:
        """Raises httpx.HTTPError (or HTTPStatusError for an answer other than 2xx)."""
        body = json.dumps(slack_body(alert), ensure_ascii=False).encode()
        stamp = str(int(time.time()))
        headers = {"Content-Type": "application/json", ALERT_ID_HEADER: alert.alert_id}
        if self._secret:
            headers |= {TIMESTAMP_HEADER: stamp, SIGNATURE_HEADER: signature(self._secret, stamp,
                                                                              body)}  # fmt: skip
        async with httpx.AsyncClient(timeout=self._timeout_s, transport=self._transport) as client:
            answer = await client.post(url, content=body, headers=headers)
            answer.raise_for_status()
