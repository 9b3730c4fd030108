"""The Twilio and Telnyx senders against local fakes of their APIs, and the failover between
two providers (WP1 items 34-35, T15): 5 failures in 60 s move sends to the secondary, the
primary is probed after 300 s, and when both fail the send fails (the queue retries it)."""

from __future__ import annotations

import logging

import httpx
import pytest

from frontdesk.assistants.casino_host.channel.senders import (
    FAILOVER_BREAKER,
    FailoverProvider,
    TelnyxProvider,
    TwilioProvider,
)
from frontdesk.llm.breaker import CircuitBreaker

from .fake_sms_apis import SID, TELNYX_KEY, TOKEN, FakeSmsApis

GUEST, CASINO_NUMBER = "+18605550123", "+18605550150"


@pytest.fixture
def apis() -> FakeSmsApis:
    return FakeSmsApis()


def client(apis: FakeSmsApis) -> httpx.AsyncClient:
    return httpx.AsyncClient(transport=httpx.ASGITransport(app=apis.app()), base_url="http://fake")


def twilio(apis, token: str = TOKEN) -> TwilioProvider:
    return TwilioProvider(SID, token, client=client(apis), base_url="http://fake")


def telnyx(apis, key: str = TELNYX_KEY) -> TelnyxProvider:
    return TelnyxProvider(key, client=client(apis), base_url="http://fake")


async def test_twilio_sends_the_form_twilio_expects(apis):
    result = await twilio(apis).send(GUEST, CASINO_NUMBER, "Señor, your table is ready", "m")
    assert result.success and result.message_id.startswith("SM") and result.provider == "twilio"
    assert apis.received == [
        {"provider": "twilio", "To": GUEST, "From": CASINO_NUMBER,
         "Body": "Señor, your table is ready"}
    ]  # fmt: skip


async def test_telnyx_sends_the_json_telnyx_expects(apis):
    result = await telnyx(apis).send(GUEST, CASINO_NUMBER, "Your table is ready", "m")
    assert (
        result.success and result.message_id == "msg-1" and result.cost_cents == pytest.approx(0.4)
    )
    assert apis.received == [
        {"provider": "telnyx", "from": CASINO_NUMBER, "to": GUEST, "text": "Your table is ready"}
    ]


@pytest.mark.parametrize(
    ("make", "error"),
    [
        (lambda apis: twilio(apis, token="wrong"), "HTTP 401 20003: Authenticate"),
        (lambda apis: telnyx(apis, key="wrong"), "HTTP 401 10009: Authentication failed"),
    ],
)
async def test_a_refusal_is_a_failed_result_with_the_providers_reason(apis, make, error):
    result = await make(apis).send(GUEST, CASINO_NUMBER, "Hi", "m")
    assert (result.success, result.error) == (False, error)


async def test_a_network_error_is_a_failed_result():
    def refuse(request):
        raise httpx.ConnectError("connection refused", request=request)

    down = httpx.AsyncClient(transport=httpx.MockTransport(refuse))
    result = await TwilioProvider(SID, TOKEN, client=down).send(GUEST, CASINO_NUMBER, "Hi", "m")
    assert not result.success and result.error.startswith("ConnectError")
    assert len(result.error) <= 200


async def test_failover_after_five_failures_then_a_probe_after_300_s(apis, caplog):  # T15
    now = [0.0]
    breaker = CircuitBreaker("sms:twilio", FAILOVER_BREAKER, clock=lambda: now[0])
    primary, secondary = twilio(apis), telnyx(apis)
    failover = FailoverProvider(primary, secondary, breaker)
    apis.fail_next["twilio"] = 5  # the primary's next five sends fail; the secondary answers
    for _ in range(5):
        assert (await failover.send(GUEST, CASINO_NUMBER, "Hi", "m")).provider == "telnyx"
    sixth = await failover.send(GUEST, CASINO_NUMBER, "Hi", "m")
    assert sixth.provider == "telnyx" and failover.health_check() == "DEGRADED"
    providers = [r["provider"] for r in apis.received]
    assert providers == ["telnyx"] * 6  # the sixth never tried the primary
    now[0] = 301.0
    probe = await failover.send(GUEST, CASINO_NUMBER, "Hi", "m")
    assert probe.provider == "twilio" and failover.health_check() == "HEALTHY"
    apis.fail_next.update(twilio=1, telnyx=1)  # both fail: one alert, a failed result
    with caplog.at_level(logging.ERROR):
        both = await failover.send(GUEST, CASINO_NUMBER, "Hi", "m")
    assert not both.success
    assert sum("ALERT sms" in r.message for r in caplog.records) == 1


def test_the_configured_sender_and_a_missing_credential_is_a_start_up_error():
    from frontdesk.assistants.casino_host.build import sms_provider
    from frontdesk.assistants.casino_host.channel.providers import SimulatorProvider
    from frontdesk.assistants.casino_host.settings import CasinoHostSettings

    assert isinstance(sms_provider(CasinoHostSettings()), SimulatorProvider)
    both = CasinoHostSettings(
        sms_provider="twilio", sms_secondary_provider="telnyx", sms_twilio_account_sid=SID,
        sms_twilio_auth_token=TOKEN, sms_telnyx_api_key=TELNYX_KEY,
    )  # fmt: skip
    failover = sms_provider(both)
    assert isinstance(failover, FailoverProvider)
    assert (failover.primary.name, failover.secondary.name) == ("twilio", "telnyx")
    with pytest.raises(ValueError, match="SMS_TELNYX_API_KEY"):
        sms_provider(CasinoHostSettings(sms_provider="telnyx"))
