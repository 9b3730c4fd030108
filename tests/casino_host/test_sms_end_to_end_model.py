"""The SMS channel end to end with the real embedded models (MiniLM + the GGUF chat model):
signed simulator webhooks through the whole pipeline. A guest is texted first and opts in
with YES, asks a question the model answers, says STOP; a marketing campaign to that guest and
another then skips the one who opted out and reaches the other. Slow, so marked `model`."""

from __future__ import annotations

import json
import time
from datetime import UTC, datetime

import pytest

from frontdesk.assistants.casino_host.build import build_service
from frontdesk.assistants.casino_host.channel.signatures import simulator_headers
from frontdesk.assistants.casino_host.sms import fits_one_sms
from frontdesk.runtime import Models

pytestmark = pytest.mark.model

NOW = datetime(2026, 11, 25, 19, 0, tzinfo=UTC)  # 2 PM in Connecticut: outside quiet hours
CASINO, CASINO_NUMBER = "mohegan_sun", "+18605550150"
STOPPER, STAYER = "+18605550181", "+18605550182"


@pytest.fixture(scope="module")
def settings(tmp_path_factory, real_model_settings):
    return real_model_settings(
        tmp_path_factory.mktemp("casino-host-sms-e2e"), checkpointer="sqlite", llm_timeout_s=300
    )


async def text(gateway, sender: str, body: str, message_id: str) -> dict:
    raw = json.dumps({"id": message_id, "from": sender, "to": CASINO_NUMBER, "text": body}).encode()
    headers = simulator_headers(raw, gateway.secrets.simulator_keys[0], int(time.time()))
    outcome = await gateway.handle("simulator", "http://local/sms/inbound/simulator", headers, raw)
    await gateway.drain()
    assert outcome.status == 200, outcome.body
    return outcome.body


async def test_opt_in_conversation_stop_then_a_campaign_skips_the_opted_out(settings):
    service = await build_service(settings, Models(settings))
    service.clock = lambda: NOW
    gateway = service.sms
    gateway.human_delay = False
    sender, outbox = gateway.outbound, gateway.provider
    try:
        # Opt-in: the casino texts first (the AI disclosure), the guests answer YES.
        for guest in (STOPPER, STAYER):
            welcome = await sender.queue(CASINO, guest, "transactional",
                                         "Thanks for joining Momentum. Reply YES for offers by text.",
                                         key=f"welcome:{guest}", now=NOW)  # fmt: skip
            [sent] = await sender.send_due(CASINO, NOW, only=[welcome.outbound_id])
            assert sent.sent and "AI" in outbox.sent_to(guest)[0].body
            subscribed = await text(gateway, guest, "YES", f"yes-{guest}")
            assert "subscribed" in subscribed["replies"][0]

        # A conversation with the real model.
        answer = await text(gateway, STOPPER, "What time does the buffet open today?", "q1")
        assert answer["status"] == "processed" and 1 <= len(answer["replies"]) <= 2
        assert all(fits_one_sms(part) for part in answer["replies"])
        assert [s.body for s in outbox.sent_to(STOPPER)][-len(answer["replies"]) :] == answer[
            "replies"
        ]

        # STOP: one confirmation, then nothing more.
        stopped = await text(gateway, STOPPER, "STOP", "stop-1")
        assert stopped["replies"][0].startswith("You've been unsubscribed from Mohegan Sun")
        texts_before_campaign = len(outbox.sent_to(STOPPER))

        # The campaign: every message through the gate.
        reports = {}
        for guest in (STOPPER, STAYER):
            queued = await sender.queue(CASINO, guest, "marketing", "Our seafood buffet is back Friday.",
                                        key=f"campaign:seafood:{guest}", now=NOW,
                                        campaign_id="seafood")  # fmt: skip
            [reports[guest]] = await sender.send_due(CASINO, NOW, only=[queued.outbound_id])
        assert (reports[STOPPER].sent, reports[STOPPER].reason) == (False, "stop_status")
        assert reports[STAYER].sent
        assert len(outbox.sent_to(STOPPER)) == texts_before_campaign
        assert outbox.sent_to(STAYER)[-1].body == "Our seafood buffet is back Friday."

        store = service.store
        for guest in (STOPPER, STAYER):
            chain = store.verify_consent_chain(CASINO, store.find_guest(CASINO, guest))
            assert chain.valid
        assert (
            store.verify_consent_chain(CASINO, store.find_guest(CASINO, STOPPER)).chain_length == 2
        )
    finally:
        await service.aclose()
