"""The inbound SMS pipeline (WP1 items 1-9, C4, T1-T3 end to end, T5's reply after a STOP):
signed webhooks of the three providers, clear statuses for bad ones, one run per delivery, the
fallback SMS with a 200 when the turn fails, and the opt-out checked again at send time.
Scripted model; the real one runs in test_end_to_end_model.py and `frontdesk sms simulate`."""

from __future__ import annotations

import asyncio
import base64
import dataclasses
import itertools
import json
import time
from urllib.parse import urlencode

import pytest
import pytest_asyncio
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

from frontdesk.assistants.casino_host.build import build_service
from frontdesk.assistants.casino_host.channel.gateway import SmsGateway
from frontdesk.assistants.casino_host.channel.outbound import OutboundSender
from frontdesk.assistants.casino_host.channel.providers import SimulatorProvider
from frontdesk.assistants.casino_host.channel.signatures import (
    WebhookSecrets,
    simulator_headers,
    twilio_signature,
)
from frontdesk.llm.scripted import ScriptedChatModel
from frontdesk.runtime import Models

from . import test_storage_support as support
from .test_service import StubRouter, offline_settings

pytestmark = pytest.mark.asyncio(loop_scope="module")

CASINO_NUMBER = "+18605550150"  # Mohegan Sun's, in its casino.yaml
KEY = "test-simulator-key"
TWILIO_TOKEN = "twilio-test-token"
TELNYX_KEY = Ed25519PrivateKey.generate()
URL = "https://host.example.com/sms/inbound/"
_numbers = itertools.count(1)
_ids = itertools.count(1)


def new_phone() -> str:
    return f"+1860555{next(_numbers) + 3000:04d}"


# The pipeline on both databases: SQLite, and the local PostgreSQL (a fresh database).
postgres_server = support.postgres_server


@pytest_asyncio.fixture(
    scope="module",
    loop_scope="module",
    params=["sqlite", pytest.param("postgresql", marks=pytest.mark.postgres)],
)
async def service(request, tmp_path_factory):
    data_dir = tmp_path_factory.mktemp("casino_gateway")
    if request.param == "postgresql":
        settings = offline_settings(
            data_dir, database_url=request.getfixturevalue("postgres_server")()
        )
    else:
        settings = offline_settings(data_dir)
    built = await build_service(
        settings, Models(settings, chat_override=ScriptedChatModel(script=lambda _: "unused"))
    )
    built.services = dataclasses.replace(
        built.services,
        llm=ScriptedChatModel(script=lambda _: "We have several great restaurants."),
        router=StubRouter("greeting", 0.95),
    )
    yield built
    await built.aclose()


@pytest.fixture
def gateway(service):
    public = TELNYX_KEY.public_key()
    provider = SimulatorProvider()
    return SmsGateway(
        service,
        provider,
        OutboundSender(service.store, service.services.content, provider),
        WebhookSecrets((KEY, "old-key"), TWILIO_TOKEN, public),
        human_delay=False,
    )


def simulator_request(sender: str, text: str, message_id: str | None = None, key: str = KEY):
    body = json.dumps(
        {"id": message_id or f"SIM{next(_ids)}", "from": sender, "to": CASINO_NUMBER, "text": text}
    ).encode()
    return "simulator", URL + "simulator", simulator_headers(body, key, int(time.time())), body


async def post(gateway: SmsGateway, request) -> tuple[int, dict]:
    outcome = await gateway.handle(*request)
    await gateway.drain()
    return outcome.status, outcome.body


async def test_a_signed_message_is_answered_by_sms(gateway):
    phone = new_phone()
    status, body = await post(gateway, simulator_request(phone, "Hi there"))
    assert status == 200 and body["status"] == "processed"
    sent = gateway.provider.sent_to(phone)
    assert [sms.body for sms in sent] == body["replies"] and sent
    assert sent[0].from_ == CASINO_NUMBER and "AI" in sent[0].body  # the disclosure


# A keyword's claim is taken in its own transaction, any other message's before the turn.
@pytest.mark.parametrize("text", ["Hi there", "STOP"])
async def test_the_same_delivery_runs_once(gateway, text):  # T3
    phone = new_phone()
    request = simulator_request(phone, text, message_id=f"SIM-twice-{text}")
    first = await post(gateway, request)
    second = await post(gateway, request)
    assert first[1]["status"] == "processed" and second == (200, {"status": "duplicate"})
    assert len(gateway.provider.sent_to(phone)) == len(first[1]["replies"])


@pytest.mark.parametrize("text", ["Hi there", "STOP"])
async def test_concurrent_deliveries_of_one_message_run_once(gateway, text):  # T3
    phone = new_phone()
    request = simulator_request(phone, text, message_id=f"SIM-together-{text}")
    outcomes = await asyncio.gather(*(gateway.handle(*request) for _ in range(4)))
    await gateway.drain()
    statuses = sorted(outcome.body["status"] for outcome in outcomes)
    assert statuses == ["duplicate"] * 3 + ["processed"]
    processed = next(o for o in outcomes if o.body["status"] == "processed")
    assert len(gateway.provider.sent_to(phone)) == len(processed.body["replies"]) >= 1
    if text == "STOP":
        guest = gateway.store.find_guest("mohegan_sun", phone)
        assert gateway.store.verify_consent_chain("mohegan_sun", guest).chain_length == 1


async def test_the_secondary_key_is_accepted_during_a_rotation(gateway):
    status, body = await post(gateway, simulator_request(new_phone(), "Hi", key="old-key"))
    assert status == 200 and body["status"] == "processed"


async def test_twilio_and_telnyx_webhooks(gateway):
    phone = new_phone()
    form = [("MessageSid", "SMtw1"), ("From", phone), ("To", CASINO_NUMBER), ("Body", "Hi"),
            ("NumMedia", "1"), ("MediaUrl0", "https://media.example/x.jpg")]  # fmt: skip
    url = URL + "twilio"
    headers = {"X-Twilio-Signature": twilio_signature(TWILIO_TOKEN, url, form)}
    status, body = await post(gateway, ("twilio", url, headers, urlencode(form).encode()))
    assert status == 200 and body["status"] == "processed"

    payload = {
        "data": {
            "event_type": "message.received",
            "payload": {
                "id": "tx-1",
                "text": "Hi",
                "from": {"phone_number": new_phone()},
                "to": [{"phone_number": CASINO_NUMBER}],
            },
        }
    }
    raw = json.dumps(payload).encode()
    stamp = str(int(time.time()))
    signature = base64.b64encode(TELNYX_KEY.sign(stamp.encode() + b"|" + raw)).decode()
    headers = {"telnyx-signature-ed25519": signature, "telnyx-timestamp": stamp}
    status, body = await post(gateway, ("telnyx", URL + "telnyx", headers, raw))
    assert status == 200 and body["status"] == "processed"


async def test_bad_webhooks_get_clear_statuses_and_nothing_is_sent(gateway):
    phone = new_phone()
    provider, url, headers, body = simulator_request(phone, "Hi")
    cases = {
        "bad signature": (provider, url, headers, body.replace(b"Hi", b"Yo")),
        "no signature": (provider, url, {}, body),
        "stale": (provider, url, simulator_headers(body, KEY, int(time.time()) - 301), body),
        "unknown provider": ("carrier-pigeon", url, headers, body),
        "binary body": (
            provider,
            url,
            simulator_headers(b"\xff\xfe", KEY, int(time.time())),
            b"\xff\xfe",
        ),
    }
    statuses = {name: (await post(gateway, request))[0] for name, request in cases.items()}
    assert statuses == {
        "bad signature": 401,
        "no signature": 401,
        "stale": 400,
        "unknown provider": 404,
        "binary body": 400,
    }
    for sender, to, expected in (("8605550123", CASINO_NUMBER, 400), (phone, "+15555550100", 404)):
        raw = json.dumps({"id": "SIMx", "from": sender, "to": to, "text": "Hi"}).encode()
        request = ("simulator", url, simulator_headers(raw, KEY, int(time.time())), raw)
        assert (await post(gateway, request))[0] == expected
    assert gateway.provider.sent_to(phone) == []


@pytest.mark.parametrize("text", ["Hi", "STOP"])
async def test_a_turn_that_fails_still_gets_200_and_the_fallback_sms(gateway, monkeypatch, text):
    phone = new_phone()

    def broken(*_args, **_kwargs):
        raise RuntimeError("the turn fell over")

    # The turn's first transaction fails: for a keyword, the one that takes its claim too.
    monkeypatch.setattr(gateway.store, "open_or_resume_conversation", broken)
    request = simulator_request(phone, text, message_id=f"SIM-fails-{text}")
    status, body = await post(gateway, request)
    assert status == 200 and body["status"] == "processed"
    assert [sms.body for sms in gateway.provider.sent_to(phone)] == body["replies"]
    assert "1-888-226-7711" in body["replies"][0]
    # The claim is marked failed: the provider's retry is processed again (C3), once.
    monkeypatch.undo()
    status, body = await post(gateway, request)
    assert body["status"] == "processed" and len(gateway.provider.sent_to(phone)) == 2
    assert await post(gateway, request) == (200, {"status": "duplicate"})


async def test_a_stop_during_the_delay_cancels_the_pending_reply(gateway):  # T5
    phone = new_phone()
    release = asyncio.Event()

    async def held(_seconds: float) -> None:
        await release.wait()

    gateway.human_delay, gateway.sleep = True, held
    await gateway.handle(*simulator_request(phone, "Hi there"))  # its reply waits
    await gateway.handle(*simulator_request(phone, "STOP"))  # so does the confirmation
    release.set()
    await gateway.drain()
    sent = [sms.body for sms in gateway.provider.sent_to(phone)]
    assert len(sent) == 1 and sent[0].startswith("You've been unsubscribed")


async def test_a_reply_the_process_did_not_live_to_send_is_sent_once_by_the_sweep(gateway):
    from datetime import UTC, datetime, timedelta

    from frontdesk.assistants.casino_host.storage import LEASE

    phone = new_phone()

    async def forever(_seconds: float) -> None:
        await asyncio.Event().wait()

    gateway.human_delay, gateway.sleep = True, forever
    outcome = await gateway.handle(*simulator_request(phone, "Hi there"))
    for task in list(gateway._sending):  # the process dies during the human-like delay
        task.cancel()
    await gateway.drain()
    assert outcome.body["replies"] and gateway.provider.sent_to(phone) == []
    # After a restart the sweep sends it when its lease runs out, once, each part in order.
    later = datetime.now(UTC) + LEASE + timedelta(seconds=10)
    await gateway.outbound.send_due("mohegan_sun", later)
    assert [sms.body for sms in gateway.provider.sent_to(phone)] == outcome.body["replies"]
    await gateway.outbound.send_due("mohegan_sun", later + timedelta(minutes=5))
    assert len(gateway.provider.sent_to(phone)) == len(outcome.body["replies"])


async def test_start_from_a_new_number_records_consent_with_its_evidence(gateway):
    phone = new_phone()
    status, body = await post(gateway, simulator_request(phone, "START"))
    assert (status, body["status"]) == (200, "processed")
    guest = gateway.store.find_guest("mohegan_sun", phone)
    assert gateway.store.load_profile("mohegan_sun", guest).profile.consent["sms_opt_in"]
    [event] = gateway.store.consent_chain("mohegan_sun", guest)
    payload = event.payload
    assert (payload["action"], payload["method"], payload["keyword"]) == (
        "opt_in", "sms_keyword", "start")  # fmt: skip
    assert payload["disclosure_text"] == body["replies"][0] and payload["tcpa_version"]
    assert body["replies"][0].startswith("You're subscribed to Mohegan Sun")  # not "welcome back"
    assert gateway.store.audit_entries("mohegan_sun", event="consent_granted", guest_uuid=guest)
    # A second START changes nothing: one event.
    await post(gateway, simulator_request(phone, "START"))
    assert len(gateway.store.consent_chain("mohegan_sun", guest)) == 1


async def test_yes_after_the_hosts_reply_is_not_written_consent(gateway):  # T19
    phone = new_phone()
    await post(gateway, simulator_request(phone, "Hi there"))  # its reply is queued and sent
    kinds = {m.kind for m in gateway.store.outbound_for(
        "mohegan_sun", gateway.store.find_guest("mohegan_sun", phone))}  # fmt: skip
    assert kinds == {"reply"}
    await post(gateway, simulator_request(phone, "YES"))
    guest = gateway.store.find_guest("mohegan_sun", phone)
    consent = gateway.store.load_profile("mohegan_sun", guest).profile.consent
    assert consent.get("consent_type") != "express_written" and not consent.get("marketing_consent")
    assert gateway.store.audit_entries("mohegan_sun", event="marketing_opt_in",
                                       guest_uuid=guest) == []  # fmt: skip


@pytest.mark.parametrize(
    ("text", "reply"), [("STOP", "You've been unsubscribed "), ("Hi", "Hi, this is Seven")]
)
async def test_a_database_that_goes_away_mid_turn_loses_nothing_and_sends_nothing_twice(
    gateway, monkeypatch, text, reply
):
    from contextlib import contextmanager

    from frontdesk.assistants.casino_host.channel import gateway as gateway_module
    from frontdesk.assistants.casino_host.storage import StorageUnavailable

    phone, store = new_phone(), gateway.store
    request = simulator_request(phone, text, message_id=f"SIM-db-away-{text}")
    real_transaction, real_finish = store.transaction, store.finish_webhook
    down = True

    @contextmanager
    def transaction():
        if down:  # the database goes away after the claim, before the turn's writes
            raise StorageUnavailable("sqlite", "connection refused")
        with real_transaction():
            yield

    def finish(*args, **kwargs):
        if down:
            raise StorageUnavailable("sqlite", "connection refused")
        return real_finish(*args, **kwargs)

    monkeypatch.setattr(store, "transaction", transaction)
    monkeypatch.setattr(store, "finish_webhook", finish)
    monkeypatch.setattr(gateway_module, "RELEASE_EVERY_S", 0.05)
    outcome = await gateway.handle(*request)
    # Not acknowledged: nothing was recorded, nothing sent; the provider sends it again.
    assert outcome.status == 503 and "nothing was recorded" in outcome.body["error"]
    assert gateway.provider.sent_to(phone) == [] and store.find_guest("mohegan_sun", phone) is None
    await asyncio.sleep(0.2)
    down = False  # the database is back: the claim is released, the redelivery processed
    await gateway.drain()
    status, body = await post(gateway, request)
    assert (status, body["status"]) == (200, "processed")
    assert [sms.body[: len(reply)] for sms in gateway.provider.sent_to(phone)] == [reply]
    assert await post(gateway, request) == (200, {"status": "duplicate"})
    guest = store.find_guest("mohegan_sun", phone)
    chain = store.verify_consent_chain("mohegan_sun", guest)
    assert chain.valid and chain.chain_length == (1 if text == "STOP" else 0)


async def test_the_eleventh_message_in_a_minute_gets_no_reply_but_stop_still_works(gateway):
    phone = new_phone()  # T14
    for _ in range(10):
        status, body = await post(gateway, simulator_request(phone, "Hi there"))
        assert (status, body["status"]) == (200, "processed")
    sent = len(gateway.provider.sent_to(phone))
    assert await post(gateway, simulator_request(phone, "Hi there")) == (
        200,
        {"status": "rate_limited"},
    )
    assert len(gateway.provider.sent_to(phone)) == sent
    [limited] = gateway.store.audit_entries(
        "mohegan_sun",
        event="sms_rate_limited",
        guest_uuid=gateway.store.find_guest("mohegan_sun", phone),
    )
    assert limited.details == {"window": "guest", "provider": "simulator", "message_length": 8}
    status, body = await post(gateway, simulator_request(phone, "STOP"))
    assert (status, body["status"]) == (200, "processed")
    assert gateway.provider.sent_to(phone)[-1].body.startswith("You've been unsubscribed")
    # Another guest of the casino is not limited by this one.
    assert (await post(gateway, simulator_request(new_phone(), "Hi")))[1]["status"] == "processed"


async def test_a_slow_model_gets_the_fallback_and_its_late_answer_is_never_sent(gateway):
    """WP5 R-C12: an SMS turn has its own time limit; the model's answer after it is dropped."""
    host = gateway.host
    before = host.services
    slow = ScriptedChatModel(script=lambda _: time.sleep(1.5) or "Todd English's Tuscany opens at 5.")
    limits = before.settings.model_copy(update={"sms_turn_timeout_s": 0.3})
    host.services = dataclasses.replace(before, llm=slow, router=StubRouter("dining", 0.95),
                                        settings=limits)  # fmt: skip
    try:
        phone = new_phone()
        status, body = await post(gateway, simulator_request(phone, "Which steakhouse is best for dinner?"))
        assert (status, body["status"]) == (200, "processed")
        await asyncio.sleep(2.0)  # the model has answered by now, too late
        await gateway.drain()
        sent = [sms.body for sms in gateway.provider.sent_to(phone)]
        assert sent == body["replies"] and sent
        assert "Tuscany" not in " ".join(sent)
        assert "A host can help you at" in " ".join(sent)  # the static fallback
        guest = gateway.store.find_guest("mohegan_sun", phone)
        queued = gateway.store.outbound_for("mohegan_sun", guest)
        assert [m.body for m in queued] == body["replies"]  # nothing else waits to be sent
    finally:
        host.services = before


async def test_keywords_have_a_window_of_their_own(gateway):
    """STOP/START flips one number's consent; past 20 a minute they are held like any text."""
    phone = new_phone()
    for i in range(20):
        status, body = await post(gateway, simulator_request(phone, ("STOP", "START")[i % 2]))
        assert (status, body["status"]) == (200, "processed")
    guest = gateway.store.find_guest("mohegan_sun", phone)
    chain = gateway.store.verify_consent_chain("mohegan_sun", guest).chain_length
    assert await post(gateway, simulator_request(phone, "STOP")) == (
        200,
        {"status": "rate_limited"},
    )
    assert gateway.store.verify_consent_chain("mohegan_sun", guest).chain_length == chain
    [limited] = gateway.store.audit_entries("mohegan_sun", event="sms_rate_limited",
                                            guest_uuid=guest)  # fmt: skip
    assert limited.details["window"] == "keyword"


def receipt_request(provider_message_id: str, status: str):
    body = json.dumps(
        {"message_id": provider_message_id, "from": CASINO_NUMBER, "status": status}
    ).encode()
    return "simulator", URL + "simulator", simulator_headers(body, KEY, int(time.time())), body


async def test_delivery_receipts_settle_or_retry_a_sent_message(gateway, service):  # T16
    from datetime import UTC, datetime

    phone, now = new_phone(), datetime.now(UTC)
    guest, _ = service.store.get_or_create_guest("mohegan_sun", phone, now=now)
    sent = []
    for key in ("a", "b", "c"):
        queued = await gateway.outbound.queue("mohegan_sun", phone, "transactional", f"Note {key}",
                                              key=f"receipt-{phone}-{key}", now=now)  # fmt: skip
        [report] = await gateway.outbound.send_due("mohegan_sun", now, only=[queued.outbound_id])
        assert report.sent
        sent.append(gateway.provider.sent_to(phone)[-1].message_id)
    delivered, failed, unconfirmed = sent

    async def receipt(message_id: str, status: str):
        outcome = await gateway.handle_receipt(*receipt_request(message_id, status))
        return outcome.status, outcome.body

    assert await receipt(delivered, "delivered") == (200, {"status": "delivered"})
    assert await receipt(delivered, "delivered") == (200, {"status": "delivered"})  # duplicate
    assert await receipt(failed, "failed") == (200, {"status": "queued"})  # retried at +5 s
    assert await receipt(failed, "failed") == (200, {"status": "queued"})  # duplicate: no change
    assert await receipt(unconfirmed, "unconfirmed") == (
        200,
        {"status": "noted", "outcome": "unconfirmed"},
    )
    statuses = [m.status for m in service.store.outbound_for("mohegan_sun", guest)]
    assert statuses == ["delivered", "queued", "sent"]  # a, b (to be retried), c
    assert await receipt("sim-unknown", "delivered") == (200, {"status": "unknown_message"})
    _, _, headers, body = receipt_request(delivered, "delivered")
    refused = await gateway.handle_receipt(
        "simulator", URL, {**headers, "x-simulator-signature": "0"}, body
    )
    assert refused.status == 401
