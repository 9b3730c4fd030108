"""The casino host's service around its graph: storage, bad input, failures of the model and
the database, tenant isolation, and a message delivered twice (feature map WP2, X1-X3, items
25, 38; the seeds README on idempotency).

One service is built for the module (scripted model, hash embeddings, SQLite under tmp); each
test gets a fresh model script and router and its own phone number.
"""

from __future__ import annotations

import dataclasses
import itertools
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest
import pytest_asyncio

from frontdesk.assistants.base import UnknownScope
from frontdesk.assistants.casino_host.build import breaker_for, build_service
from frontdesk.assistants.casino_host.conversation import prompts
from frontdesk.assistants.casino_host.records.turns import take_in, write_turn
from frontdesk.assistants.casino_host.storage import Store
from frontdesk.assistants.casino_host.storage.phone import guest_number
from frontdesk.config import Settings
from frontdesk.errors import FrontdeskError
from frontdesk.llm.scripted import ScriptedChatModel
from frontdesk.routing.router import RouteDecision
from frontdesk.runtime import Models

from .scripted_model import Brain

pytestmark = pytest.mark.asyncio(loop_scope="module")

CASINO = "mohegan_sun"
OTHER_CASINO = "bellagio"
CASINO_PHONE = "1-888-226-7711"
NOW = datetime(2026, 11, 25, 20, 0, tzinfo=UTC)  # Wednesday 15:00 at Mohegan Sun
UNREACHABLE_DB = "postgresql://nobody:secret-pw@127.0.0.1:1/x"
_numbers = itertools.count(1)

# Item 14, issue 19: the first SMS of a session says that an AI is texting.
FIRST_OF_SESSION = "Seven (AI host): "


def new_phone() -> str:
    return f"+1203555{next(_numbers):04d}"


class StubRouter:
    def __init__(self, label: str = "dining", confidence: float = 0.9) -> None:
        self.decision = RouteDecision(label, confidence, "classifier")
        self.seen: list[str] = []

    async def route(self, text: str) -> RouteDecision:
        self.seen.append(text)
        return self.decision


def offline_settings(data_dir, **plugin: Any) -> Settings:
    return Settings(
        data_dir=data_dir,
        llm_provider="scripted",
        embeddings_provider="hash",
        checkpointer="memory",
        router_llm="never",
        plugin_settings={"casino_host": plugin} if plugin else {},
        _env_file=None,
    )


@pytest_asyncio.fixture(scope="module", loop_scope="module")
async def built(tmp_path_factory):
    settings = offline_settings(tmp_path_factory.mktemp("casino_service"))
    service = await build_service(
        settings, Models(settings, chat_override=ScriptedChatModel(script=lambda _: "unused"))
    )
    yield service, settings
    await service.aclose()


@dataclasses.dataclass
class Host:
    service: Any
    brain: Brain
    router: StubRouter

    @property
    def store(self) -> Store:
        return self.service.store

    async def ask(self, text: str, phone: str, *, at: datetime = NOW, casino: str = CASINO):
        self.service.clock = lambda: at
        return await self.service.ask(text, "svc", user_id=phone, scope=casino)

    def inbound(self, answer) -> list[str]:
        messages = self.store.recent_messages(CASINO, answer.extra["conversation"], n=100)
        return [m.text for m in messages if m.direction == "inbound"]


@pytest.fixture
def host(built):
    service, _ = built
    base = service.services
    brain, router = Brain(), StubRouter()
    service.services = dataclasses.replace(
        base,
        llm=ScriptedChatModel(script=brain),
        router=router,
        breaker=breaker_for(base.settings, service.store, base.content),
    )
    yield Host(service, brain, router)
    service.services = base
    service.clock = lambda: NOW


def fallback_text(language: str = "en") -> str:
    return prompts.say(prompts.FALLBACK, language, casino="Mohegan Sun", phone=CASINO_PHONE)


# -- bad input -----------------------------------------------------------------------------------

ODD_MESSAGES = {
    "empty": "",
    "blank": " \n\t ",
    "oversized": "Which steakhouse is best for dinner? " * 1000,  # 37 000 characters
    "binary": "\x00\x01",
    "binary_inside": "Which steak\x00house is best\x01 for dinner?",
    "mixed_script": "Hola 你好 привет مرحبا, which steakhouse is best? 🎰",
    "lone_surrogate": "dinner \ud800 tonight?",
}


@pytest.mark.parametrize("kind", sorted(ODD_MESSAGES))
async def test_odd_messages_get_a_clear_reply_or_a_frontdesk_error(host, kind):
    text = ODD_MESSAGES[kind]
    try:
        answer = await host.ask(text, new_phone())
    except FrontdeskError as exc:
        assert str(exc).strip()
        return
    assert answer.answer.strip(), "a reply the guest can read"
    assert "\x00" not in answer.answer
    assert 1 <= len(answer.extra["sms"]) <= 2
    assert answer.extra["segments"] <= 4


async def test_an_oversized_message_reaches_the_model_bounded(host):
    """A 37 000-character message (no SMS is that long) is not pasted whole into a prompt: it
    is cut or refused before the model."""
    text = ODD_MESSAGES["oversized"]
    try:
        await host.ask(text, new_phone())
    except FrontdeskError:
        return
    for call in host.brain.calls:
        assert sum(len(str(m.content)) for m in call) < 20_000


async def test_control_characters_are_not_stored(host):
    """PostgreSQL, the production database, refuses NUL in text: what is stored must not hold
    one (SQLite, here, would accept it silently)."""
    text = ODD_MESSAGES["binary_inside"]
    try:
        answer = await host.ask(text, new_phone())
    except FrontdeskError:
        return
    stored = host.inbound(answer)
    assert len(stored) == 1
    assert "\x00" not in stored[0]


async def test_an_unknown_casino_is_unknown_scope_and_creates_nothing(host):
    phone = new_phone()
    with pytest.raises(UnknownScope, match="no casino 'atlantis'"):
        await host.ask("Hi", phone, casino="atlantis")
    assert host.store.find_guest(CASINO, phone) is None
    assert host.brain.calls == [] and host.router.seen == []


@pytest.mark.parametrize(
    "user_id", ["860-555-0123", "hello", "+1", "+0860555012", "+1860555012345678", ""]
)
async def test_a_guest_that_is_not_an_e164_number_is_refused(host, user_id):
    host.service.clock = lambda: NOW
    with pytest.raises(FrontdeskError, match="E.164"):
        await host.service.ask("Hi", "svc", user_id=user_id or "not-a-number", scope=CASINO)
    assert host.brain.calls == [] and host.router.seen == []


@pytest.mark.parametrize(
    ("user_id", "number"),
    [("+18605550123", "+18605550123"), ("18605550123", "+18605550123"),
     ("8605550123", "+18605550123"), ("+447911123456", "+447911123456")],
)  # fmt: skip
async def test_a_guest_number_is_read_as_e164_and_ten_us_digits_as_plus_one(user_id, number):
    assert guest_number(user_id) == number


async def test_a_bad_number_streams_an_error_event_not_an_exception(host):
    host.service.clock = lambda: NOW
    events = [e async for e in host.service.stream("Hi", "svc", user_id="hello", scope=CASINO)]
    assert [e.event for e in events] == ["metadata", "error", "done"]
    assert "E.164" in events[1].data["error"]


async def test_a_number_without_its_plus_is_the_same_guest(host):
    digits = new_phone()[1:]
    first = await host.ask("Hi", f"+{digits}")
    second = await host.ask("Hi again", digits, at=NOW + timedelta(minutes=1))
    assert first.extra["guest_uuid"] == second.extra["guest_uuid"]


# -- the pause, the model's failures -------------------------------------------------------------


async def test_a_message_during_an_escalation_pause_is_held_stored_and_not_modelled(host):
    phone = new_phone()
    asked = await host.ask("Can I talk to a real host?", phone)
    assert asked.extra["escalation"] is not None
    held = await host.ask(
        "Which steakhouse is best for dinner?", phone, at=NOW + timedelta(minutes=5)
    )
    assert held.extra["agent"] == "holding"
    assert held.answer == prompts.say(
        prompts.HOLDING, "en", casino="Mohegan Sun", phone=CASINO_PHONE
    )
    assert host.brain.calls == [] and host.router.seen == []
    assert "Which steakhouse is best for dinner?" in host.inbound(held)
    # The held message is part of the conversation the host sees later.
    snapshot = await host.service.graph.aget_state(host.service.config(held.extra["conversation"]))
    texts = [str(m.content) for m in snapshot.values["messages"]]
    assert "Which steakhouse is best for dinner?" in texts and held.answer in texts


@pytest.mark.parametrize(
    "failure",
    [RuntimeError("model crashed"), TimeoutError("model timed out"), "", "   "],
    ids=["raises", "times_out", "empty", "blank"],
)
async def test_a_failing_or_garbage_model_gets_the_fallback_with_the_casino_phone(host, failure):
    host.brain.default = failure
    answer = await host.ask("Which steakhouse is best for dinner?", new_phone())
    assert answer.answer == FIRST_OF_SESSION + fallback_text()
    assert CASINO_PHONE in answer.answer
    assert answer.extra["agent"] == "fallback_node"
    assert answer.extra["offer"] is None


async def test_a_garbage_draft_is_replaced_by_the_facts_restated_in_code(host):
    """ "{{{" says nothing: sent back once, the agent restates what its search found."""
    host.brain.default = "{{{"
    answer = await host.ask("Which steakhouse is best for dinner?", new_phone())
    assert len(host.brain.calls) == 1
    assert answer.extra["agent"] == "dining_agent"
    assert "{" not in answer.answer
    names = [c["content"].split(":", 1)[0] for c in answer.context]
    assert any(name in answer.answer for name in names), (answer.answer, names)


async def test_a_first_reply_that_opens_with_the_question_still_answers_in_its_one_sms(host):
    """A first message is one SMS: a draft that says the question back first lost its answer
    to the cut (found with make run); the echo is dropped before the reply is checked."""
    question = "Which steakhouse is best for dinner?"
    host.brain.default = f"{question} Michael Jordan's Steak House is a great pick."
    answer = await host.ask(question, new_phone())
    # The session's first SMS also says an AI is texting (issue 19, item 14).
    assert answer.extra["sms"] == ["Seven (AI host): Michael Jordan's Steak House is a great pick."]


async def test_the_fallback_is_in_the_guests_language(host):
    host.brain.default = RuntimeError("model crashed")
    answer = await host.ask("¿Qué restaurante italiano me recomienda para la cena?", new_phone())
    assert answer.extra["language"] == "es"
    assert answer.answer == "Seven (anfitrion IA): " + fallback_text("es")


# -- the database down ---------------------------------------------------------------------------


async def test_a_database_that_is_down_at_start_is_a_frontdesk_error(tmp_path):
    settings = offline_settings(tmp_path / "down", database_url=UNREACHABLE_DB)
    models = Models(settings, chat_override=ScriptedChatModel(script=lambda _: "unused"))
    service = None
    with pytest.raises(FrontdeskError) as caught:
        service = await build_service(settings, models)
        service.clock = lambda: NOW
        await service.ask("Hi", "svc", user_id="+18605550123", scope=CASINO)
    if service is not None:
        await service.aclose()
    message = str(caught.value)
    assert "database" in message
    assert "secret-pw" not in message


async def test_a_database_that_goes_down_fails_the_turn_with_a_frontdesk_error(host, built):
    _, settings = built
    healthy = host.service.store
    down = Store(UNREACHABLE_DB, settings=settings, migrate=False)
    host.service.store = down
    try:
        with pytest.raises(FrontdeskError, match="database") as caught:
            await host.ask("Which steakhouse is best for dinner?", new_phone())
    finally:
        host.service.store = healthy
        down.close()
    assert "secret-pw" not in str(caught.value)
    assert host.brain.calls == []  # nothing was answered that could not be recorded


# -- tenants -------------------------------------------------------------------------------------


async def test_a_conversation_without_a_guest_is_a_guest_of_its_own(host):
    """Anonymous web visitors never share a profile, a pause or a language: each conversation
    that names no guest is its own (made-up) guest; the same conversation stays that guest."""
    first = await host.service.ask("Hi", "conversation-a", scope=CASINO)
    again = await host.service.ask("Hello again", "conversation-a", scope=CASINO)
    other = await host.service.ask("Hi", "conversation-b", scope=CASINO)
    assert first.extra["guest_uuid"] == again.extra["guest_uuid"]
    assert other.extra["guest_uuid"] != first.extra["guest_uuid"]


async def test_the_same_phone_at_two_casinos_is_two_guests(host):
    phone = new_phone()
    host.router.decision = RouteDecision("greeting", 1.0, "classifier")
    at_mohegan = await host.ask("Hi, my name is Maria", phone)
    at_bellagio = await host.ask("Hi", phone, casino=OTHER_CASINO, at=NOW + timedelta(minutes=1))
    assert at_mohegan.extra["guest_uuid"] != at_bellagio.extra["guest_uuid"]
    assert at_mohegan.extra["conversation"].startswith(f"{CASINO}:")
    assert at_bellagio.extra["conversation"].startswith(f"{OTHER_CASINO}:")
    assert at_bellagio.extra["session"] == "new_guest"
    assert "core_identity.name" in at_mohegan.extra["profile"]["fields"]
    assert "core_identity.name" not in at_bellagio.extra["profile"]["fields"]
    assert "Maria" not in at_bellagio.answer
    # Each casino's store sees only its own guest.
    mohegan_guest = host.store.find_guest(CASINO, phone)
    bellagio_guest = host.store.find_guest(OTHER_CASINO, phone)
    assert mohegan_guest == at_mohegan.extra["guest_uuid"]
    assert bellagio_guest == at_bellagio.extra["guest_uuid"]
    bellagio_profile = host.store.load_profile(OTHER_CASINO, bellagio_guest).profile
    assert bellagio_profile.get("core_identity.name") is None
    # No raw number in what the turn reports (X2).
    assert phone not in repr(at_mohegan.extra) and phone[1:] not in repr(at_mohegan.extra)


# -- one message, delivered twice ---------------------------------------------------------------


def _turn_state(offer: bool = True, escalation: bool = True) -> dict[str, Any]:
    state: dict[str, Any] = {
        "extracted_fields": {
            "core_identity.name": {"value": "Maria", "confidence": 0.95, "source": "self_reported"}
        },
        "compliance_outcome": "pass",
        "guardrail_hits": [],
        "whisper_plan": None,
        "offer": None,
        "escalation_request": None,
    }
    if offer:
        state["offer"] = {
            "tier": "dining",
            "value_usd": 10.0,
            "value": "a $10 dining credit",
            "title": "Host Welcome Dining Credit",
            "redemption_instruction": "Show this text at the host stand.",
        }
    if escalation:
        state["escalation_request"] = {
            "severity": "P2",
            "reason": "guest_request",
            "source": "router",
        }
    return state


async def test_the_same_delivery_is_stored_once(built):
    service, _ = built
    store = service.store
    phone = new_phone()
    first = take_in(store, CASINO, phone, "My name is Maria", "sms:SM-dup-1", NOW)
    again = take_in(
        store, CASINO, phone, "My name is Maria", "sms:SM-dup-1", NOW + timedelta(seconds=30)
    )
    assert first.is_new and not again.is_new
    assert again.message_id == first.message_id
    inbound = [
        m for m in store.recent_messages(CASINO, first.thread_id, n=50) if m.direction == "inbound"
    ]
    assert len(inbound) == 1


async def test_a_turn_written_twice_is_applied_once(built):
    service, _ = built
    store = service.store
    phone = new_phone()
    intake = take_in(store, CASINO, phone, "My name is Maria", "sms:SM-dup-2", NOW)
    state = _turn_state()
    reply = "Lovely to meet you, Maria."
    first = write_turn(store, intake, state, "My name is Maria", reply, [reply], "host_agent", NOW)
    # The provider retries the same message: taken in again, written again.
    again_intake = take_in(store, CASINO, phone, "My name is Maria", "sms:SM-dup-2", NOW)
    assert again_intake.answered is not None and again_intake.answered.text == reply
    second = write_turn(
        store, again_intake, state, "My name is Maria", reply, [reply], "host_agent", NOW
    )
    assert len(store.list_offers(CASINO, intake.guest_uuid)) == 1
    assert first.offer is not None and second.offer is not None
    assert second.offer.offer_id == first.offer.offer_id
    escalations = [
        e for e in store.unacknowledged_escalations(CASINO) if e.guest_uuid == intake.guest_uuid
    ]
    assert len(escalations) == 1
    assert second.escalation is not None
    assert second.escalation.escalation_id == first.escalation.escalation_id
    profile = store.load_profile(CASINO, intake.guest_uuid).profile
    assert profile.engagement.total_messages_received == 1
    assert profile.engagement.total_messages_sent == 1
    assert profile.engagement.offers_sent == 1
    assert profile.engagement.escalations == 1
    outbound = [
        m
        for m in store.recent_messages(CASINO, intake.thread_id, n=50)
        if m.direction == "outbound"
    ]
    assert len(outbound) == 1 and outbound[0].message_id == first.reply_id == second.reply_id


async def test_a_turn_whose_writes_fail_half_way_lands_nothing_and_is_applied_once_later(
    built, monkeypatch
):
    service, _ = built
    store = service.store
    phone = new_phone()
    intake = take_in(store, CASINO, phone, "My name is Maria", "sms:SM-half-1", NOW)
    state = _turn_state()
    reply = "Lovely to meet you, Maria."
    real_record_outbound = store.record_outbound

    def lost_database(*_args, **_kwargs):
        raise RuntimeError("the connection dropped before the reply was written")

    monkeypatch.setattr(store, "record_outbound", lost_database)
    with pytest.raises(RuntimeError):
        write_turn(store, intake, state, "My name is Maria", reply, [reply], "host_agent", NOW)
    # The profile, offer and escalation were written before the reply: none of them landed.
    assert store.list_offers(CASINO, intake.guest_uuid) == []
    assert not [
        e for e in store.unacknowledged_escalations(CASINO) if e.guest_uuid == intake.guest_uuid
    ]
    loaded = store.load_profile(CASINO, intake.guest_uuid).profile
    assert loaded.get("core_identity.name") is None
    assert loaded.engagement.total_messages_received == 0
    # The provider delivers the message again: it is answered and applied once.
    monkeypatch.setattr(store, "record_outbound", real_record_outbound)
    again = take_in(store, CASINO, phone, "My name is Maria", "sms:SM-half-1", NOW)
    assert again.answered is None and again.message_id == intake.message_id
    write_turn(store, again, state, "My name is Maria", reply, [reply], "host_agent", NOW)
    assert len(store.list_offers(CASINO, intake.guest_uuid)) == 1
    profile = store.load_profile(CASINO, intake.guest_uuid).profile
    assert profile.get("core_identity.name").value == "Maria"
    assert profile.engagement.total_messages_received == 1
    assert profile.engagement.offers_sent == 1


# -- the items a reply draws on (issue 34: sentences tied to their sources) -------------------


async def test_a_reply_worked_out_from_a_venue_cites_it_at_its_hours(host):
    answer = await host.ask("is michael jordan's steak house open on monday?", new_phone())
    assert answer.extra["agent"] == "dining_agent"
    assert answer.sources == ["Michael Jordan's Steak House"]
    [document] = answer.extra["documents"]
    assert document["title"] == "Michael Jordan's Steak House" and "Hours" in document["text"]
    [claim] = answer.extra["claims"]
    assert claim["cites"] == [1] and "Hours" in claim["quote"]
    assert host.brain.calls == []  # worked out in code


async def test_a_model_reply_cites_the_item_it_names_and_nothing_else(host):
    host.brain.default = "Michael Jordan's Steak House is a great pick."
    answer = await host.ask("Which steakhouse is best for dinner?", new_phone())
    # The search gave the model other items too: only the one the reply rests on is listed.
    assert answer.sources == ["Michael Jordan's Steak House"]
    assert [d["title"] for d in answer.extra["documents"]] == answer.sources
    [claim] = answer.extra["claims"]
    assert claim["cites"] == [1]
    assert len(answer.context) > 1  # what the model was shown


async def test_a_fallback_cites_nothing(host):
    host.brain.default = RuntimeError("model crashed")
    answer = await host.ask("Which steakhouse is best for dinner?", new_phone())
    assert answer.extra["agent"] == "fallback_node"
    assert answer.sources == [] and answer.extra["documents"] == []
    assert answer.extra["claims"] == []


async def test_the_stream_carries_the_documents_and_each_sentences_citations(host):
    host.service.clock = lambda: NOW
    events = [
        e async for e in host.service.stream(
            "is michael jordan's steak house open on monday?", "svc-stream",
            user_id=new_phone(), scope=CASINO,
        )
    ]  # fmt: skip
    [sources] = [e.data for e in events if e.event == "sources"]
    assert sources["sources"] == ["Michael Jordan's Steak House"]
    assert sources["claims"][0]["cites"] == [1]


async def test_another_casinos_restaurant_asked_by_name_is_said_to_be_missing(host):
    # Picasso is Bellagio's: at Mohegan Sun the reply names it only as the guest's own word,
    # and the grounding check must not take it for an invented venue (it fell to the fallback).
    answer = await host.ask("is picasso open tonight?", new_phone())
    assert "doesn't have a picasso" in answer.answer
    assert answer.extra["agent"] != "fallback_node"
    assert answer.extra["used_tools"] == ["absent_reply"]
