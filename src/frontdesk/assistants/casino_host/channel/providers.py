"""Sending an SMS: one interface for every provider (WP1 item 34).

The simulator keeps what it would have sent in an outbox (per process), for the phone
simulator page, `frontdesk sms simulate` and tests; the Twilio and Telnyx senders and the
failover between two providers are in `senders.py`.
"""

from __future__ import annotations

import threading
import uuid
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Literal, Protocol

from frontdesk.assistants.casino_host.sms.gsm import classify_encoding

Health = Literal["HEALTHY", "DEGRADED", "DOWN"]
ERROR_CHARS = 200  # item 35


@dataclass(frozen=True)
class SendResult:
    success: bool
    message_id: str | None
    provider: str
    segments: int
    cost_cents: float = 0.0
    error: str | None = None


class SMSProvider(Protocol):
    name: str

    async def send(self, to: str, from_: str, body: str, casino_id: str) -> SendResult: ...

    def health_check(self) -> Health: ...


@dataclass(frozen=True)
class SentSms:
    casino_id: str
    to: str
    from_: str
    body: str
    encoding: str
    segments: int
    message_id: str


@dataclass
class SimulatorProvider:
    """Sends nothing: records each SMS in `outbox`, and tells `on_sent` (the gateway, which
    then posts the simulator's signed delivery report to its own status webhook)."""

    name: str = "simulator"
    outbox: list[SentSms] = field(default_factory=list)
    on_sent: Callable[[SentSms], None] | None = None
    _lock: threading.Lock = field(default_factory=threading.Lock)

    async def send(self, to: str, from_: str, body: str, casino_id: str) -> SendResult:
        encoding, segments = classify_encoding(body)
        with self._lock:
            # Unique across restarts, like a provider's: a delivery report names one message.
            message_id = f"sim-{uuid.uuid4().hex[:20]}"
            sent = SentSms(casino_id, to, from_, body, encoding, segments, message_id)
            self.outbox.append(sent)
        if self.on_sent is not None:
            self.on_sent(sent)
        return SendResult(True, message_id, self.name, segments)

    def health_check(self) -> Health:
        return "HEALTHY"

    def sent_to(self, number: str) -> list[SentSms]:
        with self._lock:
            return [sms for sms in self.outbox if sms.to == number]
