"""The SMS channel under load (issue 19's figures), through the HTTP app in process (routing,
middleware, the webhook route, the whole pipeline, storage in SQLite) with the scripted model:

- ack: inbound webhook acknowledgement, sequential, ordinary questions (target p95 < 100 ms);
- keywords: STOP/HELP/START acknowledgement (target p95 < 20 ms);
- stop_race: 200 concurrent webhooks from one guest, one of them STOP, replies on a (scaled)
  human delay: no SMS but the STOP's own confirmation may go out after the STOP is
  acknowledged (target 100 % honoured);
- retry_storm: 1,000 deliveries of 100 messages (each 10 times, concurrently): replies sent
  beyond one per message (target 0 duplicates);
- fuzz: 1,000 fuzzed bodies and headers on the inbound and status routes (target 0 5xx).

    python -m benchmarks.sms_load
"""

from __future__ import annotations

import asyncio
import json
import random
import tempfile
import time
from collections import Counter
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path

import httpx

from frontdesk.assistants.casino_host.build import build_service
from frontdesk.assistants.casino_host.channel.providers import SendResult, SimulatorProvider
from frontdesk.assistants.casino_host.channel.rate_limits import RateLimiter
from frontdesk.assistants.casino_host.channel.signatures import simulator_headers
from frontdesk.config import get_settings
from frontdesk.eval.metrics import percentile
from frontdesk.llm.scripted import ScriptedChatModel
from frontdesk.runtime import Models
from frontdesk.server.app import create_app, serving

CASINO_NUMBER = "+18605550150"
QUESTIONS = [
    "What time does the buffet open?",
    "Is the spa open tomorrow?",
    "Any comedy shows this weekend?",
    "Where can I get a steak dinner?",
    "Hi there",
]
KEYWORDS = ["STOP", "START", "HELP"]


def pct(values: list[float], q: int) -> float:
    return round(percentile(values, q) or 0.0, 2)


@dataclass
class TimedProvider(SimulatorProvider):
    """The simulator, with when each SMS went out."""

    sent_at: list[tuple[float, str, str]] = field(default_factory=list)  # (time, to, body)

    async def send(self, to: str, from_: str, body: str, casino_id: str) -> SendResult:
        result = await super().send(to, from_, body, casino_id)
        self.sent_at.append((time.perf_counter(), to, body))
        return result


class Load:
    def __init__(self, client: httpx.AsyncClient, key: str):
        self.client, self.key = client, key
        self._ids = 0

    def body(self, sender: str, text: str, message_id: str | None = None) -> bytes:
        self._ids += 1
        return json.dumps({"id": message_id or f"load-{self._ids}", "from": sender,
                           "to": CASINO_NUMBER, "text": text}).encode()  # fmt: skip

    async def post(self, raw: bytes, *, path: str = "/sms/inbound/simulator",
                   headers: dict[str, str] | None = None) -> tuple[int, float, dict]:  # fmt: skip
        signed = simulator_headers(raw, self.key, int(time.time()))
        started = time.perf_counter()
        response = await self.client.post(
            path, content=raw, headers={"content-type": "application/json", **(headers or signed)}
        )
        elapsed = (time.perf_counter() - started) * 1000
        try:
            body = response.json()
        except ValueError:
            body = {}
        return response.status_code, elapsed, body


async def ack_latency(load: Load, rounds: int = 3) -> dict:
    timings = []
    for round_ in range(rounds):
        for index, text in enumerate(QUESTIONS * 8):
            status, ms, _ = await load.post(load.body(f"+1860556{index:04d}", text))
            assert status == 200, status
            if round_:  # the first round creates the guests and warms caches
                timings.append(ms)
    return {"webhooks": len(timings), "p50_ms": pct(timings, 50), "p95_ms": pct(timings, 95)}


async def keyword_latency(load: Load) -> dict:
    timings = []
    for index in range(240):
        text = KEYWORDS[index % 3]
        status, ms, _ = await load.post(load.body(f"+1860557{index // 3:04d}", text))
        assert status == 200, status
        if index >= 30:
            timings.append(ms)
    return {"webhooks": len(timings), "p50_ms": pct(timings, 50), "p95_ms": pct(timings, 95)}


async def stop_race(load: Load, provider: TimedProvider, gateway, n: int = 200) -> dict:
    guest = "+18605558000"
    await load.post(load.body(guest, "Hi there"))
    await gateway.drain()
    stop_at = n // 2
    acked: dict[int, float] = {}

    async def one(index: int) -> None:
        text = "STOP" if index == stop_at else random.choice(QUESTIONS)
        await load.post(load.body(guest, text))
        acked[index] = time.perf_counter()

    await asyncio.gather(*(one(i) for i in range(n)))
    await gateway.drain()
    stop_acked = acked[stop_at]
    to_guest = [(at, body) for at, to, body in provider.sent_at if to == guest]
    before = [body for at, body in to_guest if at <= stop_acked]
    after = [body for at, body in to_guest if at > stop_acked]
    violations = [b for b in after if not b.startswith("You've been unsubscribed")]
    return {"webhooks": n, "sms_before_stop_ack": len(before),
            "sends_after_stop_ack": len(violations), "honoured": not violations}  # fmt: skip


async def retry_storm(load: Load, provider: TimedProvider, gateway, messages: int = 100,
                      copies: int = 10) -> dict:  # fmt: skip
    bodies = [load.body(f"+1860559{i:04d}", random.choice(QUESTIONS), f"storm-{i}")
              for i in range(messages)]  # fmt: skip
    deliveries = [raw for raw in bodies for _ in range(copies)]
    random.shuffle(deliveries)
    before = len(provider.sent_at)
    outcomes = Counter()
    replies = {}
    for start in range(0, len(deliveries), 50):
        batch = await asyncio.gather(*(load.post(raw) for raw in deliveries[start : start + 50]))
        for (status, _ms, body), raw in zip(batch, deliveries[start : start + 50], strict=True):
            outcomes[f"{status} {body.get('status')}"] += 1
            if body.get("status") == "processed":
                replies[raw] = len(body.get("replies") or [])
    await gateway.drain()
    sent = len(provider.sent_at) - before
    return {"deliveries": len(deliveries), "messages": messages, "outcomes": dict(outcomes),
            "processed": len(replies), "sms_sent": sent,
            "duplicate_sms": sent - sum(replies.values())}  # fmt: skip


def fuzzed(rng: random.Random, load: Load) -> tuple[str, bytes, dict[str, str] | None]:
    provider = rng.choice(["simulator", "twilio", "telnyx", "nope", "simulator"])
    route = rng.choice(["inbound", "status"])
    kind = rng.randrange(10)
    good = load.body("+18605551234", "Hi")
    bodies = [
        bytes(rng.randrange(256) for _ in range(rng.randrange(0, 300))),
        good[: rng.randrange(len(good))],
        json.dumps({"id": rng.random(), "from": 12, "to": None, "text": ["x"]}).encode(),
        json.dumps(
            {"id": "x" * 500, "from": "+1" + "9" * 30, "to": CASINO_NUMBER, "text": "é" * 2000}
        ).encode(),
        json.dumps({"id": "m", "from": "8605551234", "to": CASINO_NUMBER, "text": "Hi"}).encode(),
        json.dumps(
            {
                "id": "mms",
                "from": "+18605551234",
                "to": CASINO_NUMBER,
                "text": "",
                "media": ["http://x/1.jpg"] * rng.randrange(5),
            }
        ).encode(),
        json.dumps(
            {"id": "u", "from": "+18605551234", "to": "+19995550000", "text": "Hi"}
        ).encode(),
        json.dumps(
            {
                "message_id": "sim-x",
                "from": CASINO_NUMBER,
                "status": rng.choice(["delivered", "failed", "odd", 3]),
            }
        ).encode(),
        json.dumps([1, 2, 3]).encode(),
        b"MessageSid=SM1&From=%2B1&To=&Body=" + bytes([rng.randrange(256)]) * 5,
    ]
    raw = bodies[kind]
    signed = simulator_headers(raw, load.key, int(time.time()))
    headers_options: list[dict[str, str] | None] = [
        None,  # signed properly: the body is what is fuzzed
        {},
        {"x-simulator-timestamp": "yesterday", "x-simulator-signature": "zz"},
        {**signed, "x-simulator-timestamp": str(int(time.time()) - 10_000)},
        {"x-twilio-signature": "abc", "telnyx-signature-ed25519": "!!", "telnyx-timestamp": "x"},
        {**signed, "content-type": "text/plain; charset=latin-1"},
    ]
    return f"/sms/{route}/{provider}", raw, rng.choice(headers_options)


async def fuzz(load: Load, n: int = 1000) -> dict:
    rng = random.Random(19)
    statuses = Counter()
    for _ in range(n):
        path, raw, headers = fuzzed(rng, load)
        status, _ms, _ = await load.post(raw, path=path, headers=headers)
        statuses[status] += 1
    return {"requests": n, "statuses": dict(sorted(statuses.items())),
            "responses_5xx": sum(c for s, c in statuses.items() if s >= 500)}  # fmt: skip


async def run(tmp: Path) -> dict:
    base = get_settings()
    settings = base.model_copy(update={"data_dir": tmp, "models_dir": base.models_dir,
                                       "checkpointer": "sqlite", "router_llm": "never"})  # fmt: skip
    models = Models(settings, chat_override=ScriptedChatModel(script=lambda _: "Happy to help."))
    service = await build_service(settings, models)
    service.clock = lambda: datetime(2026, 11, 25, 19, 0, tzinfo=UTC)
    gateway = service.sms
    provider = TimedProvider()
    gateway.provider = gateway.outbound.provider = provider
    # The limits (10/100/1000 a minute, and the casino's number sending 1 SMS a second) would
    # turn most of this load away in the first minute, or queue its replies for minutes: each
    # scenario gets fresh, wide windows (the limits themselves are tested, T14 and item 40).
    wide = {"guest": 100_000, "casino": 100_000, "global": 100_000, "number": 100_000,
            "burst": 100_000}  # fmt: skip
    gateway.sleep = lambda delay: asyncio.sleep(delay / 20)  # the 1-3 s delay, scaled down

    async def services(_settings):
        return {"casino_host": service}

    app = create_app(settings.model_copy(update={"assistant": "casino_host"}),
                     service_factory=services)  # fmt: skip
    results = {}
    async with serving(app):
        transport = httpx.ASGITransport(app=app)
        async with httpx.AsyncClient(transport=transport, base_url="http://bench") as client:
            load = Load(client, gateway.secrets.simulator_keys[0])
            results["ack"] = await fresh(gateway, wide, ack_latency(load))
            results["keywords"] = await fresh(gateway, wide, keyword_latency(load))
            results["stop_race"] = await fresh(gateway, wide, stop_race(load, provider, gateway))
            results["retry_storm"] = await fresh(
                gateway, wide, retry_storm(load, provider, gateway)
            )
            results["fuzz"] = await fresh(gateway, wide, fuzz(load))
            await gateway.drain()
    return results


async def fresh(gateway, limits: dict[str, int], scenario):
    gateway.limiter = gateway.outbound.limiter = RateLimiter(limits=dict(limits))
    return await scenario


def bench_sms(tmp: Path | None = None) -> dict:
    with tempfile.TemporaryDirectory(prefix="frontdesk-sms-load-") as name:
        return asyncio.run(run(Path(tmp or name)))


if __name__ == "__main__":
    print(json.dumps(bench_sms(), indent=2))
