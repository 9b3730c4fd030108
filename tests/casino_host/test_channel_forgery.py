"""A channel no one can forge (issue 33): the phone simulator exists only in development, the
public development key is never accepted in a production set-up, every refused webhook leaves
a de-identified `auth_failure` audit row, and the server will not start with a public secret.
"""

from __future__ import annotations

import json
import time
from urllib.parse import urlencode

import httpx
import pytest
from pydantic import SecretStr

from frontdesk.assistants.casino_host.build import build_service, insecure_settings
from frontdesk.assistants.casino_host.channel.signatures import (
    simulator_headers,
    twilio_signature,
)
from frontdesk.assistants.casino_host.settings import DEV_SIMULATOR_KEY
from frontdesk.assistants.registry import plugin
from frontdesk.config import NotifyLevel
from frontdesk.runtime import Models
from frontdesk.server.app import create_app, serving
from frontdesk.server.startup_checks import InsecureSettings, production_problems

from .test_service import offline_settings

CASINO, CASINO_NUMBER = "mohegan_sun", "+18605550150"
TOKEN, SID, PEPPER = "a-twilio-token-of-this-account", "AC0123", "a-pepper-of-this-deployment"


# Who is told of escalations: a production server does not start without someone.
STAFF_CHAIN = {"notify_chain": [NotifyLevel(email=["host-desk@casino.example"])],
               "notify_smtp_host": "smtp.casino.example"}  # fmt: skip


def production(tmp_path, **plugin_settings):
    """Required auth, a real provider's credentials and the deployment's own pepper."""
    settings = offline_settings(
        tmp_path, sms_provider="twilio", sms_twilio_account_sid=SID,
        sms_twilio_auth_token=TOKEN, phone_pepper=PEPPER, **plugin_settings,
    )  # fmt: skip
    return settings.model_copy(
        update={"auth_mode": "required", "demo_sign_in": False, "assistant": "casino_host",
                **STAFF_CHAIN}
    )


def forged_simulator_sms(number: str, text: str, message_id: str) -> tuple[dict, bytes]:
    raw = json.dumps({"id": message_id, "from": number, "to": CASINO_NUMBER, "text": text}).encode()
    return simulator_headers(raw, DEV_SIMULATOR_KEY, int(time.time())), raw


@pytest.fixture
async def production_app(tmp_path):
    settings = production(tmp_path)
    service = await build_service(settings, Models(settings))

    async def services(_settings):
        return {"casino_host": service}

    app = create_app(settings, service_factory=services)
    async with serving(app):
        transport = httpx.ASGITransport(app=app)
        async with httpx.AsyncClient(transport=transport, base_url="http://test") as client:
            yield client, service
    await service.aclose()


async def test_a_forged_stop_and_start_with_the_public_key_change_nothing(production_app):
    client, service = production_app
    number = "+18605550187"
    # The guest opted in through the real provider (signed with the account's token).
    form = [("MessageSid", "SMreal1"), ("From", number), ("To", CASINO_NUMBER), ("Body", "START")]
    url = "http://test/sms/inbound/twilio"
    signed = {"X-Twilio-Signature": twilio_signature(TOKEN, url, form)}
    real = await client.post(url, content=urlencode(form), headers=signed)
    assert real.status_code == 200 and real.json()["status"] == "processed"
    guest = service.store.find_guest(CASINO, number)
    before = service.store.load_profile(CASINO, guest).profile.consent
    chain_before = service.store.verify_consent_chain(CASINO, guest).chain_length
    sent_before = len(service.sms.provider.outbox) if hasattr(service.sms.provider, "outbox") else 0

    for i, text in enumerate(("STOP", "START")):
        headers, raw = forged_simulator_sms(number, text, f"forged-{i}")
        forged = await client.post("/sms/inbound/simulator", content=raw, headers=headers)
        assert forged.status_code == 404
    assert service.store.load_profile(CASINO, guest).profile.consent == before
    assert service.store.verify_consent_chain(CASINO, guest).chain_length == chain_before
    after = len(service.sms.provider.outbox) if hasattr(service.sms.provider, "outbox") else 0
    assert after == sent_before
    # Each refusal is audited, de-identified: the claimed guest as a hash prefix, no text.
    failures = service.store.audit_entries(CASINO, event="auth_failure", guest_uuid=guest)
    assert len(failures) == 2
    for row in failures:
        assert row.details["provider"] == "simulator" and row.details["status"] == 404
        assert "STOP" not in json.dumps(row.details) and number not in json.dumps(row.details)


async def test_the_simulator_page_and_routes_do_not_exist_in_production(production_app):
    client, _service = production_app
    key = {"Authorization": "Bearer nothing"}
    for path in ("/sms/simulator", "/sms/simulator/simulator.js"):
        assert (await client.get(path)).status_code == 404
    text = await client.post("/sms/simulator/text", headers=key, json={
        "casino": CASINO, "number": "+18605550188", "text": "hi"})  # fmt: skip
    assert text.status_code == 404


async def test_a_badly_signed_provider_webhook_is_refused_and_audited(production_app):
    client, service = production_app
    number = "+18605550189"
    form = [("MessageSid", "SMbad1"), ("From", number), ("To", CASINO_NUMBER), ("Body", "STOP")]
    url = "http://test/sms/inbound/twilio"
    wrong = {"X-Twilio-Signature": twilio_signature("not-the-token", url, form)}
    refused = await client.post(url, content=urlencode(form), headers=wrong)
    assert refused.status_code == 401
    unsigned = await client.post(url, content=b"garbage")
    assert unsigned.status_code == 401
    rows = service.store.audit_entries(CASINO, event="auth_failure")
    assert [row.details["status"] for row in rows] == [401, 401]
    # The forged one names its casino and its claimed guest (hashed); the garbage one neither.
    assert [row.guest_hash is not None for row in rows] == [False, True]
    assert service.store.find_guest(CASINO, number) is None  # nothing of it was believed


def test_required_mode_lists_every_public_secret_by_its_variable(tmp_path):
    settings = offline_settings(tmp_path, sms_simulator_enabled=True).model_copy(
        update={"auth_mode": "required", "assistant": "casino_host"}
    )
    problems = production_problems(settings, [plugin("casino_host")])
    text = "\n".join(problems)
    for variable in (
        "FRONTDESK_DEMO_SIGN_IN",
        "FRONTDESK_CASINO_HOST_PHONE_PEPPER",
        "FRONTDESK_CASINO_HOST_SMS_SIMULATOR_KEYS",
    ):
        assert variable in text
    with pytest.raises(InsecureSettings) as refused:
        create_app(settings)
    assert "FRONTDESK_CASINO_HOST_PHONE_PEPPER" in str(refused.value)


def test_a_real_provider_without_its_credentials_is_named(tmp_path):
    settings = offline_settings(
        tmp_path, sms_provider="twilio", sms_secondary_provider="telnyx", phone_pepper=PEPPER
    ).model_copy(update={"auth_mode": "required", **STAFF_CHAIN})
    problems = insecure_settings(settings)
    assert problems == [
        "FRONTDESK_CASINO_HOST_SMS_TWILIO_ACCOUNT_SID is not set, and the SMS provider is twilio",
        "FRONTDESK_CASINO_HOST_SMS_TWILIO_AUTH_TOKEN is not set, and the SMS provider is twilio",
        "FRONTDESK_CASINO_HOST_SMS_TELNYX_API_KEY is not set, and the SMS provider is telnyx",
        "FRONTDESK_CASINO_HOST_SMS_TELNYX_PUBLIC_KEY is not set, and the SMS provider is telnyx",
    ]


def test_a_production_set_up_starts_and_open_mode_is_never_refused(tmp_path):
    assert production_problems(production(tmp_path), [plugin("casino_host")]) == []
    create_app(production(tmp_path))  # no InsecureSettings
    assert production_problems(offline_settings(tmp_path), [plugin("casino_host")]) == []


def test_a_short_session_secret_is_refused_in_required_mode(tmp_path):
    settings = production(tmp_path).model_copy(update={"session_secret": SecretStr("short")})
    with pytest.raises(InsecureSettings, match="FRONTDESK_SESSION_SECRET"):
        create_app(settings)


def test_the_simulator_is_on_only_in_development():
    from frontdesk.assistants.casino_host.settings import CasinoHostSettings

    assert CasinoHostSettings().simulator_on("open")
    assert not CasinoHostSettings().simulator_on("required")
    assert not CasinoHostSettings(sms_provider="twilio").simulator_on("open")
    assert CasinoHostSettings(sms_simulator_enabled=True).simulator_on("required")
    assert not CasinoHostSettings(sms_simulator_enabled=False).simulator_on("open")
