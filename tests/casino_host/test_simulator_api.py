"""The phone simulator's API (issue 19) through the HTTP app: text and outbound answer with each
SMS's encoding, segments and delay; a time without an offset is the casino's own clock; bad
input is a clear 4xx; and with a real provider sending the simulator is off (404)."""

from __future__ import annotations

from contextlib import asynccontextmanager

import httpx

from frontdesk.assistants.casino_host.build import build_service
from frontdesk.runtime import Models
from frontdesk.server.app import create_app
from frontdesk.server.app import serving as started

from .test_service import offline_settings


@asynccontextmanager
async def serving(settings):
    service = await build_service(settings, Models(settings))

    async def services(_settings):
        return {"casino_host": service}

    app = create_app(settings.model_copy(update={"assistant": "casino_host"}),
                     service_factory=services)  # fmt: skip
    async with started(app):
        transport = httpx.ASGITransport(app=app)
        async with httpx.AsyncClient(transport=transport, base_url="http://test") as client:
            yield client


async def test_text_outbound_and_the_guest_view(tmp_path):
    async with serving(offline_settings(tmp_path)) as client:
        guest = {"casino": "mohegan_sun", "number": "+18605550171"}
        answer = await client.post("/sms/simulator/text", json={**guest, "text": "HELP"})
        assert answer.status_code == 200, answer.text
        first, second = answer.json()["replies"]  # HELP's text takes two SMS
        assert first["body"].startswith("This is Seven, the AI host for Mohegan Sun")
        for sms in (first, second):
            assert (sms["encoding"], sms["segments"]) == ("GSM-7", 1)
            assert 1.0 <= sms["delay_s"] <= 3.0
        # 21:30 on the casino's clock (no offset): quiet hours for an informational text.
        late = await client.post("/sms/simulator/outbound", json={
            **guest, "type": "informational", "text": "Buffet Friday", "at": "2026-11-25T21:30:00",
        })  # fmt: skip
        assert late.json()["reason"] in ("consent_tier", "quiet_hours")
        view = (await client.get("/sms/simulator/guest", params=guest)).json()
        assert view["known"] and view["chain"]["valid"]
        # The queue holds the replies too: HELP's two SMS (keyword) and the blocked text. (In
        # the casino's clock order: the text's 21:30 may come before or after the real now.)
        queue = view["outbound"]
        assert sorted(m["kind"] for m in queue) == ["informational", "keyword", "keyword"]
        assert [m["status"] for m in queue if m["kind"] == "informational"] == ["blocked"]
        keywords = [m for m in queue if m["kind"] == "keyword"]
        assert [m["body"] for m in keywords] == [first["body"], second["body"]]
        # Each reply names its queued SMS, so the phone can show what became of it.
        assert [m["outbound_id"] for m in keywords] == [first["outbound_id"], second["outbound_id"]]
        again = await client.post("/sms/simulator/text", json={**guest, "text": "HELP"})
        assert all(sms["outbound_id"] for sms in again.json()["replies"])
        assert {sms["outbound_id"] for sms in again.json()["replies"]}.isdisjoint(
            {first["outbound_id"], second["outbound_id"]}
        )
        unknown = await client.get(
            "/sms/simulator/guest", params={**guest, "number": "+18605550999"}
        )
        assert unknown.json()["known"] is False
        refused = await client.post("/sms/simulator/text", json={**guest, "casino": "nowhere",
                                                                 "text": "hi"})  # fmt: skip
        assert refused.status_code == 404 and "bellagio, mohegan_sun" in refused.json()["error"]
        bad = await client.post(
            "/sms/simulator/text", json={**guest, "number": "860555", "text": "x"}
        )
        assert bad.status_code == 422


async def test_the_simulator_is_off_while_a_real_provider_sends(tmp_path):
    settings = offline_settings(
        tmp_path, sms_provider="twilio", sms_twilio_account_sid="AC1", sms_twilio_auth_token="t"
    )
    async with serving(settings) as client:
        answer = await client.post(
            "/sms/simulator/text",
            json={"casino": "mohegan_sun", "number": "+18605550171", "text": "hi"},
        )
        assert answer.status_code == 404
        assert "FRONTDESK_CASINO_HOST_SMS_PROVIDER=simulator" in answer.json()["error"]


async def test_the_simulator_reports_each_delivery_through_the_status_webhook(tmp_path):
    from frontdesk.assistants.casino_host.channel.simulator import text_the_host

    settings = offline_settings(tmp_path)
    service = await build_service(settings, Models(settings))
    try:
        gateway, number = service.sms, "+18605550172"
        gateway.human_delay = False
        outcome = await text_the_host(gateway, "mohegan_sun", number, "HELP")
        await gateway.drain()  # the replies, then their delivery reports
        guest = service.store.find_guest("mohegan_sun", number)
        messages = service.store.outbound_for("mohegan_sun", guest)
        assert [m.body for m in messages] == outcome.body["replies"]
        assert [m.status for m in messages] == ["delivered", "delivered"]
        # Each report named the SMS the simulator sent: its id is unique across restarts.
        assert {m.provider_message_id for m in messages} == {
            sms.message_id for sms in gateway.provider.sent_to(number)
        }
    finally:
        await service.aclose()
