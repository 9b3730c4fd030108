"""Escalations that reach a person (issue 33), end to end: the alert goes out by a real SMTP
server and a signed webhook; the guest is told the truth about it; a notifier that is down
keeps the escalation and the sweep tells people later; a host answers from the staff page by
SMS, through the sending gate."""

from __future__ import annotations

import asyncio
import uuid
from datetime import UTC, datetime, timedelta
from zoneinfo import ZoneInfo

import httpx
import pytest
import pytest_asyncio
from pydantic import SecretStr
from tests.casino_host.notifiers import ScriptedNotifier
from tests.notify_servers import free_port

from frontdesk.assistants.casino_host.build import build_service
from frontdesk.assistants.casino_host.conversation import prompts
from frontdesk.assistants.casino_host.staff.desk import StaffDesk
from frontdesk.config import NotifyLevel
from frontdesk.llm.scripted import ScriptedChatModel
from frontdesk.notify import SIGNATURE_HEADER, TIMESTAMP_HEADER, build_notifier, verify_signature
from frontdesk.runtime import Models
from frontdesk.server.app import create_app, serving

from .test_service import offline_settings

pytestmark = pytest.mark.asyncio(loop_scope="module")

CASINO, SECURITY = "mohegan_sun", "860-862-7200"
SECRET, KEY = "w" * 40, "staff-desk-key-0123456789"
EMERGENCY = "my friend just collapsed by the slot machines and he isn't breathing"


@pytest_asyncio.fixture(scope="module", loop_scope="module")
async def built(tmp_path_factory):
    settings = offline_settings(tmp_path_factory.mktemp("casino_staff"), sms_human_delay=False)
    settings.api_keys = {"hostdesk": {"key": KEY, "assistants": ["casino_host"]}}
    service = await build_service(
        settings, Models(settings, chat_override=ScriptedChatModel(script=lambda _: "Sure."))
    )
    service.clock = lambda: datetime.now(UTC)
    yield service, settings
    await service.aclose()


def chain_settings(settings, smtp_port: int, webhook: str | None):
    return settings.model_copy(update={
        "notify_chain": [NotifyLevel(email=["host@casino.example"], webhook=webhook),
                         NotifyLevel(email=["manager@casino.example"])],
        "notify_webhook_secret": SecretStr(SECRET), "notify_smtp_host": "127.0.0.1",
        "notify_smtp_port": smtp_port, "notify_timeout_s": 2.0,
    })  # fmt: skip


def phone() -> str:
    return f"+1860555{uuid.uuid4().int % 10_000:04d}"


def desk(service) -> StaffDesk:
    return service.staff


async def escalations_of(service, number: str):
    guest = service.store.find_guest(CASINO, number)
    return [e for e in service.store.open_escalations(CASINO) if e.guest_uuid == guest]


async def test_an_emergency_alerts_by_email_and_signed_webhook_and_says_so(built, smtp, hook):
    service, settings = built
    inbox, port = smtp
    desk(service).notifier = build_notifier(chain_settings(settings, port, hook.url))
    number = phone()
    answer = await service.ask(EMERGENCY, "t", user_id=number, scope=CASINO)

    assert "911" in answer.answer and answer.answer.endswith(prompts.SECURITY_ALERTED["en"])
    assert answer.extra["sms"][-1] == prompts.SECURITY_ALERTED["en"]
    [(to, mail)] = inbox.mails
    assert to == ["host@casino.example"] and mail["Subject"].startswith("[P0 URGENT] Guest safety")
    body = mail.get_payload()
    assert number not in body and number[-4:] in body and "/casino_host/staff#esc_" in body
    [(headers, raw)] = hook.posts
    assert verify_signature(SECRET, headers[TIMESTAMP_HEADER], raw, headers[SIGNATURE_HEADER])
    assert number not in raw.decode()
    [escalation] = await escalations_of(service, number)
    assert escalation.notified_level == 1 and escalation.notice_failures == 0
    # When, on the casino's clock and named so (Mohegan Sun: Eastern).
    local = escalation.created_at.astimezone(ZoneInfo("America/New_York"))
    assert f"Since {local:%Y-%m-%d %H:%M %Z}" in body
    # What the conversation records is what the guest was sent.
    stored = service.store.recent_messages(CASINO, escalation.thread_id, 10)
    assert stored[-1].direction == "outbound" and stored[-1].text == answer.answer


async def test_a_notifier_that_is_down_keeps_the_escalation_and_tells_the_guest_the_truth(
    built, smtp, hook
):
    service, settings = built
    inbox, port = smtp
    hook.status = 503
    desk(service).notifier = build_notifier(chain_settings(settings, free_port(), hook.url))
    number = phone()
    answer = await service.ask(EMERGENCY, "t", user_id=number, scope=CASINO)

    assert "alerted" not in answer.answer and SECURITY in answer.answer
    assert SECURITY in answer.extra["sms"][-1]  # its own SMS: never cut to fit
    [escalation] = await escalations_of(service, number)
    assert escalation.notified_level == 0 and escalation.notice_failures == 1
    assert "503" in (escalation.notice_error or "")
    stored = service.store.recent_messages(CASINO, escalation.thread_id, 10)
    assert stored[-1].text == answer.answer

    # The mail server comes back: the sweep tells level 1 once the retry is due, not before.
    hook.status = 200
    desk(service).notifier = build_notifier(chain_settings(settings, port, hook.url))
    assert await desk(service).sweep(datetime.now(UTC)) == []
    done = await desk(service).sweep(datetime.now(UTC) + timedelta(seconds=31))
    ours = [e for e, _due in done if e.escalation_id == escalation.escalation_id]
    assert ours and ours[0].notified_level == 1
    assert any(to == ["host@casino.example"] for to, _ in inbox.mails)


async def test_the_sweep_reminds_then_goes_up_the_chain(built, smtp):
    service, settings = built
    inbox, port = smtp
    desk(service).notifier = build_notifier(chain_settings(settings, port, None))
    number = phone()
    await service.ask("I want to talk to a real person", "t", user_id=number, scope=CASINO)
    [escalation] = await escalations_of(service, number)
    assert escalation.severity == "P2" and escalation.notified_level == 1
    start = escalation.created_at

    async def sweep_at(minutes: float) -> list[str]:
        done = await desk(service).sweep(start + timedelta(minutes=minutes))
        return [due.kind for e, due in done if e.escalation_id == escalation.escalation_id]

    assert await sweep_at(59) == []
    assert await sweep_at(60) == ["remind"]
    assert await sweep_at(61) == []
    assert await sweep_at(120) == ["raise"]
    recipients = [to for to, _ in inbox.mails]
    assert recipients[-1] == ["host@casino.example", "manager@casino.example"]
    assert "(reminder)" in inbox.mails[-2][1]["Subject"]
    service.store.acknowledge(CASINO, escalation.escalation_id, by="ana")
    assert await sweep_at(600) == []


async def test_an_accepted_alert_leaves_the_reply_and_its_sms_as_they_were(built):
    service, _settings = built
    desk(service).notifier = ScriptedNotifier()
    answer = await service.ask("Esto es inaceptable, llevo una hora esperando mi habitación. "
                               "Quiero poner una queja.", "t", user_id=phone(), scope=CASINO)  # fmt: skip
    assert answer.extra["escalation"]["severity"] == "P1"
    assert "Para algo urgente" not in answer.answer  # no "hosts can't be reached" line
    assert "".join(answer.extra["sms"]).replace(" ", "") == answer.answer.replace(" ", "")
    assert len(answer.extra["sms"]) <= 2


async def test_a_long_spanish_reply_keeps_the_line_that_no_host_was_reached(built):
    service, _settings = built
    desk(service).notifier = ScriptedNotifier(accept=False)
    answer = await service.ask("Esto es inaceptable, llevo una hora esperando mi habitación. "
                               "Quiero poner una queja.", "t", user_id=phone(), scope=CASINO)  # fmt: skip
    unreached = prompts.say(prompts.HOSTS_NOT_ALERTED, "es", phone="1-888-226-7711")
    assert answer.answer.endswith(unreached)
    assert " ".join(answer.extra["sms"]).endswith(unreached)


async def test_two_replicas_sweeping_at_once_send_one_alert(built):
    service, _settings = built
    desk(service).notifier = ScriptedNotifier(accept=False)
    number = phone()
    await service.ask(EMERGENCY, "t", user_id=number, scope=CASINO)
    later = datetime.now(UTC) + timedelta(seconds=31)
    first, second = ScriptedNotifier(), ScriptedNotifier()
    replicas = [StaffDesk(service.store, service.services.content, n, staff_url="x")
                for n in (first, second)]  # fmt: skip
    await asyncio.gather(*(replica.sweep(later) for replica in replicas))
    [escalation] = await escalations_of(service, number)
    sent = [a for a in first.sent + second.sent if a.alert_id == escalation.escalation_id]
    assert len(sent) == 1 and escalation.notified_level == 1


@pytest_asyncio.fixture(scope="module", loop_scope="module")
async def staff_api(built):
    """The API over the module's service (closing the app closes the service: one per module)."""
    service, settings = built
    desk(service).notifier = ScriptedNotifier()

    async def services(_settings):
        return {"casino_host": service}

    app = create_app(settings, service_factory=services)
    async with serving(app):
        transport = httpx.ASGITransport(app=app)
        async with httpx.AsyncClient(transport=transport, base_url="http://t") as client:
            yield client, service


def staff(**extra):
    return {"Authorization": f"Bearer {KEY}", **extra}


async def test_a_host_answers_from_the_staff_page_by_sms_through_the_gate(staff_api):
    client, service = staff_api
    number = phone()
    await service.ask("this is unacceptable, I want to complain", "t", user_id=number,
                      scope=CASINO)  # fmt: skip
    listed = await client.get(f"/casino_host/staff/escalations?casino={CASINO}", headers=staff())
    assert listed.status_code == 200 and number not in listed.text
    [item] = [e for e in listed.json()["escalations"] if e["guest_last_four"] == number[-4:]]
    assert item["severity"] == "P1" and item["seconds_left"] > 0 and item["transcript"]

    url = f"/casino_host/staff/escalations/{item['escalation_id']}"
    body = {"casino": CASINO, "by": "Ana", "text": "Hi, this is Ana from guest services.",
            "key": "answer-0001"}  # fmt: skip
    sent = await client.post(f"{url}/reply", json=body, headers=staff())
    again = await client.post(f"{url}/reply", json=body, headers=staff())
    assert sent.status_code == 200 and sent.json()["sent"] is True
    assert again.json()["sent"] is False  # the same answer twice goes once
    outbox = service.sms.outbound.provider.sent_to(number)
    assert [sms.body for sms in outbox].count(sent.json()["body"]) == 1
    taken = service.store.escalation(CASINO, item["escalation_id"])
    assert taken.acknowledged and taken.acknowledged_by == "Ana (key:hostdesk)"
    # The host is quiet while a person has the guest, and answers again once closed.
    held = await service.ask("ok thanks, what time is it open?", "t", user_id=number, scope=CASINO)
    assert held.extra.get("speaker") == "holding" or "has your conversation" in held.answer
    closed = await client.post(f"{url}/close", json={"casino": CASINO, "by": "Ana"},
                               headers=staff())  # fmt: skip
    assert closed.status_code == 200
    after = await client.get(f"/casino_host/staff/escalations?casino={CASINO}", headers=staff())
    assert item["escalation_id"] not in after.text


async def test_a_guest_who_said_stop_is_not_texted_by_staff(staff_api):
    client, service = staff_api
    number = phone()
    await service.ask("get me a real person", "t", user_id=number, scope=CASINO)
    await service.ask("STOP", "t", user_id=number, scope=CASINO)
    [escalation] = await escalations_of(service, number)
    reply = await client.post(
        f"/casino_host/staff/escalations/{escalation.escalation_id}/reply",
        json={"casino": CASINO, "by": "Ana", "text": "Hello?", "key": "answer-0002"},
        headers=staff(),
    )
    assert reply.status_code == 200 and reply.json()["sent"] is False
    assert reply.json()["reason"]
    assert not [s for s in service.sms.outbound.provider.sent_to(number) if s.body == "Hello?"]


async def test_the_staff_routes_refuse_guests_and_strangers(staff_api):
    client, _service = staff_api
    listing = f"/casino_host/staff/escalations?casino={CASINO}"
    assert (await client.get(listing, headers={"Authorization": "Bearer wrong-key-000000000"})
            ).status_code == 401  # fmt: skip
    session = await client.get("/session")  # a guest's web session cookie
    assert session.status_code == 200
    assert (await client.get(listing)).status_code == 403
    client.cookies.clear()
    assert (await client.get("/casino_host/staff/escalations?casino=nowhere",
                             headers=staff())).status_code == 404  # fmt: skip
    missing = "/casino_host/staff/escalations/esc_" + "0" * 32 + "/ack"
    assert (await client.post(missing, json={"casino": CASINO, "by": "Ana"},
                              headers=staff())).status_code == 404  # fmt: skip
    page = await client.get("/casino_host/staff")
    assert page.status_code == 200 and "Staff desk" in page.text
