"""Twilio and Telnyx behind `SMSProvider` (WP1 items 34-35, T15), and the failover between two.

The request shapes are the providers' own:
- Twilio: `POST {base}/2010-04-01/Accounts/{AccountSid}/Messages.json`, HTTP basic auth with the
  account SID and auth token, form fields `To`, `From`, `Body`; 201 with `{"sid", "status",
  "num_segments"}`, or 4xx with `{"code", "message"}`.
- Telnyx: `POST {base}/v2/messages`, `Authorization: Bearer {API key}`, JSON `{"from", "to",
  "text"}`; 200 with `{"data": {"id", "parts", "cost": {"amount"}}}`, or 4xx with
  `{"errors": [{"code", "title", "detail"}]}`.

A send never raises: a refusal, a timeout or a network error is a failed `SendResult` whose
error (at most 200 characters, item 35) says which. `FailoverProvider` sends through the
primary while its breaker is closed (5 failures in 60 s open it; a probe after 300 s), else
through the secondary; when both fail the message stays in the durable queue for its retries.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass, field
from typing import Any

import httpx

from frontdesk.assistants.casino_host.channel.providers import ERROR_CHARS, Health, SendResult
from frontdesk.assistants.casino_host.sms.gsm import classify_encoding
from frontdesk.llm.breaker import BreakerSettings, CircuitBreaker

logger = logging.getLogger(__name__)

SEND_TIMEOUT_S = 10.0
FAILOVER_BREAKER = BreakerSettings(
    failure_threshold=5, window_s=60.0, cooldown_s=300.0, success_threshold=1
)


def _failed(provider: str, error: str, segments: int = 0) -> SendResult:
    return SendResult(False, None, provider, segments, error=error[:ERROR_CHARS])


def _error_of(response: httpx.Response) -> str:
    try:
        body = response.json()
    except ValueError:
        return f"HTTP {response.status_code}"
    if isinstance(body, dict) and isinstance(body.get("errors"), list) and body["errors"]:
        first = body["errors"][0] or {}
        return f"HTTP {response.status_code} {first.get('code', '')}: {first.get('detail') or first.get('title', '')}"
    if isinstance(body, dict) and "message" in body:
        return f"HTTP {response.status_code} {body.get('code', '')}: {body['message']}"
    return f"HTTP {response.status_code}"


@dataclass
class TwilioProvider:
    account_sid: str
    auth_token: str
    client: httpx.AsyncClient = field(
        default_factory=lambda: httpx.AsyncClient(timeout=SEND_TIMEOUT_S)
    )
    base_url: str = "https://api.twilio.com"
    name: str = "twilio"

    async def send(self, to: str, from_: str, body: str, casino_id: str) -> SendResult:
        _encoding, segments = classify_encoding(body)
        url = f"{self.base_url}/2010-04-01/Accounts/{self.account_sid}/Messages.json"
        try:
            response = await self.client.post(
                url, data={"To": to, "From": from_, "Body": body},
                auth=(self.account_sid, self.auth_token),
            )  # fmt: skip
        except httpx.HTTPError as exc:
            return _failed(self.name, f"{type(exc).__name__}: {exc}", segments)
        if response.status_code != 201:
            return _failed(self.name, _error_of(response), segments)
        answer: dict[str, Any] = response.json()
        parts = int(answer.get("num_segments") or segments)
        return SendResult(True, str(answer["sid"]), self.name, parts)

    def health_check(self) -> Health:
        return "HEALTHY"


@dataclass
class TelnyxProvider:
    api_key: str
    client: httpx.AsyncClient = field(
        default_factory=lambda: httpx.AsyncClient(timeout=SEND_TIMEOUT_S)
    )
    base_url: str = "https://api.telnyx.com"
    name: str = "telnyx"

    async def send(self, to: str, from_: str, body: str, casino_id: str) -> SendResult:
        _encoding, segments = classify_encoding(body)
        try:
            response = await self.client.post(
                f"{self.base_url}/v2/messages",
                json={"from": from_, "to": to, "text": body},
                headers={"Authorization": f"Bearer {self.api_key}"},
            )
        except httpx.HTTPError as exc:
            return _failed(self.name, f"{type(exc).__name__}: {exc}", segments)
        if response.status_code not in (200, 201, 202):
            return _failed(self.name, _error_of(response), segments)
        data: dict[str, Any] = response.json().get("data") or {}
        cost = float((data.get("cost") or {}).get("amount") or 0) * 100
        return SendResult(True, str(data["id"]), self.name, int(data.get("parts") or segments),
                          cost_cents=cost)  # fmt: skip

    def health_check(self) -> Health:
        return "HEALTHY"


@dataclass
class FailoverProvider:
    """The primary while it is healthy, else the secondary (T15)."""

    primary: Any  # SMSProvider
    secondary: Any  # SMSProvider
    breaker: CircuitBreaker | None = None
    name: str = "failover"

    def __post_init__(self) -> None:
        if self.breaker is None:
            self.breaker = CircuitBreaker(f"sms:{self.primary.name}", FAILOVER_BREAKER)

    async def send(self, to: str, from_: str, body: str, casino_id: str) -> SendResult:
        breaker = self.breaker
        assert breaker is not None
        if breaker.allow():
            result = await self.primary.send(to, from_, body, casino_id)
            if result.success:
                breaker.record_success()
                return result
            breaker.record_failure()
            logger.warning("sms primary %s failed (%s); trying %s", self.primary.name,
                           result.error, self.secondary.name)  # fmt: skip
        result = await self.secondary.send(to, from_, body, casino_id)
        if not result.success:
            logger.error("ALERT sms: %s and %s both failed; the message waits for its retry",
                         self.primary.name, self.secondary.name)  # fmt: skip
        return result

    def health_check(self) -> Health:
        assert self.breaker is not None
        return "HEALTHY" if self.breaker.state == "closed" else "DEGRADED"
