"""Quiet hours in the guest's own time zone: the gate reads the zone the profile keeps (what
the guest said, else their one-zone area code's), and a guest whose area code spans zones, who
has said nothing, still gets every zone checked. The turn is what records the zone."""

from __future__ import annotations

import dataclasses
from datetime import UTC, datetime, time, timedelta
from zoneinfo import ZoneInfo

import pytest
import pytest_asyncio

from frontdesk.assistants.casino_host.build import build_service
from frontdesk.assistants.casino_host.channel.outbound import OutboundSender, guest_standing
from frontdesk.assistants.casino_host.channel.providers import SimulatorProvider
from frontdesk.assistants.casino_host.content import CasinoContent
from frontdesk.assistants.casino_host.conversation.extraction import extract
from frontdesk.assistants.casino_host.profile import TIMEZONE, area_code_guess, guest_zone
from frontdesk.assistants.casino_host.storage import Store
from frontdesk.config import Settings
from frontdesk.llm.scripted import ScriptedChatModel
from frontdesk.routing.router import RouteDecision
from frontdesk.runtime import Models

CASINO = "mohegan_sun"
MANHATTAN = "+12125550163"  # 212: New York only
IDAHO = "+12085550163"  # 208: Boise (Mountain) and the panhandle (Pacific)
EASTERN, PACIFIC = ZoneInfo("America/New_York"), ZoneInfo("America/Los_Angeles")
BOISE = ZoneInfo("America/Boise")
NOON = datetime(2026, 11, 25, 17, 0, tzinfo=UTC)  # 12:00 in New York, the guest's last text
HALF_NINE_EASTERN = datetime(2026, 11, 25, 21, 30, tzinfo=EASTERN)  # 18:30 in Los Angeles
HALF_TEN_PACIFIC = datetime(2026, 11, 25, 22, 30, tzinfo=PACIFIC)  # 01:30 in New York


def sender_for(store: Store) -> OutboundSender:
    return OutboundSender(store, CasinoContent.load(), SimulatorProvider())


def subscribed(store: Store, phone: str, said: str | None = None) -> str:
    """A guest who texted at noon, with marketing consent in writing; `said`: a message whose
    extracted fields (the turn's, as the service writes them) are applied to the profile."""
    guest, _ = store.get_or_create_guest(CASINO, phone, now=NOON)
    loaded = store.load_profile(CASINO, guest)
    profile = loaded.profile
    profile.consent.update(sms_opt_in=True, consent_type="express_written", marketing_consent=True)
    profile.record_guest_message(substantive=True, now=NOON)
    updates = {}
    if guess := area_code_guess(profile):
        updates[TIMEZONE] = guess
    if said:
        for item in extract(said, now=NOON):
            updates[item.path] = (item.value, item.confidence, item.source)
    profile.apply_extraction(updates, NOON)
    store.save_profile(CASINO, profile, loaded.version, now=NOON)
    return guest


def test_a_new_york_number_that_lives_in_los_angeles_is_texted_on_pacific_evenings(store):
    subscribed(store, MANHATTAN, said="We live in Los Angeles, any steakhouse open late?")
    sender = sender_for(store)
    evening = sender.check(CASINO, MANHATTAN, "marketing", HALF_NINE_EASTERN)
    assert evening.eligible, evening.reason
    assert evening.zones == ("America/Los_Angeles",)
    late = sender.check(CASINO, MANHATTAN, "marketing", HALF_TEN_PACIFIC)
    assert (late.eligible, late.blocked_by) == (False, "quiet_hours")
    assert late.zones == ("America/Los_Angeles",)
    # 07:30 in New York is 04:30 in Los Angeles: the guest's night, so no promotion.
    early = sender.check(CASINO, MANHATTAN, "marketing", datetime(2026, 11, 26, 7, 30,
                                                                   tzinfo=EASTERN))  # fmt: skip
    assert early.blocked_by == "quiet_hours"


def test_without_a_statement_the_area_codes_one_zone_decides(store):
    guest = subscribed(store, MANHATTAN)
    profile = store.load_profile(CASINO, guest).profile
    assert guest_zone(profile, NOON).source == "area_code"
    day_start = datetime.combine(NOON.astimezone(EASTERN).date(), time(0), tzinfo=EASTERN)
    standing = guest_standing(store, CASINO, guest, day_start=day_start, now=NOON)
    assert standing.timezone == "America/New_York"
    verdict = sender_for(store).check(CASINO, MANHATTAN, "marketing", HALF_NINE_EASTERN)
    assert (verdict.blocked_by, verdict.zones) == ("quiet_hours", ("America/New_York",))


def test_an_area_code_spanning_zones_keeps_the_strict_check_until_the_guest_says(store):
    guest = subscribed(store, IDAHO)
    assert store.load_profile(CASINO, guest).profile.get(TIMEZONE) is None
    # 21:30 in Boise is 20:30 on the panhandle: quiet in one of the area code's zones.
    boise_evening = datetime(2026, 11, 25, 21, 30, tzinfo=BOISE)
    sender = sender_for(store)
    verdict = sender.check(CASINO, IDAHO, "marketing", boise_evening)
    assert verdict.blocked_by == "quiet_hours"
    assert set(verdict.zones) == {"America/Boise", "America/Los_Angeles"}
    assert sender.check(CASINO, IDAHO, "marketing", boise_evening - timedelta(hours=1)).eligible


def test_the_guest_saying_their_zone_settles_a_many_zone_area_code(store):
    subscribed(store, IDAHO, said="I'm on Pacific time")
    verdict = sender_for(store).check(
        CASINO, IDAHO, "marketing", datetime(2026, 11, 25, 21, 30, tzinfo=BOISE)
    )
    assert verdict.eligible and verdict.zones == ("America/Los_Angeles",)


# -- the turn records the zone -----------------------------------------------------------------


class StubRouter:
    async def route(self, text: str) -> RouteDecision:
        return RouteDecision("dining", 0.9, "classifier")


@pytest_asyncio.fixture(scope="module", loop_scope="module")
async def service(tmp_path_factory):
    settings = Settings(
        data_dir=tmp_path_factory.mktemp("casino_timezone"),
        llm_provider="scripted",
        embeddings_provider="hash",
        checkpointer="memory",
        router_llm="never",
        _env_file=None,
    )
    built = await build_service(
        settings, Models(settings, chat_override=ScriptedChatModel(script=lambda _: "Sure."))
    )
    built.services = dataclasses.replace(built.services, router=StubRouter())
    yield built
    await built.aclose()


@pytest.mark.asyncio(loop_scope="module")
async def test_a_turn_records_the_area_codes_zone_then_what_the_guest_says(service):
    async def ask(text: str):
        service.clock = lambda: NOON
        return await service.ask(text, "tz", user_id=MANHATTAN, scope=CASINO)

    first = await ask("Hi! What's good for dinner?")
    zone = first.extra["profile"]["timezone"]
    assert (zone["zone"], zone["source"]) == ("America/New_York", "area_code")
    assert first.extra["extracted"][TIMEZONE] == "America/New_York"

    second = await ask("I live in Los Angeles btw, is the steakhouse open late?")
    zone = second.extra["profile"]["timezone"]
    assert (zone["zone"], zone["source"]) == ("America/Los_Angeles", "guest_said")
    fields = second.extra["profile"]["fields"]
    assert fields[TIMEZONE] == {"value": "America/Los_Angeles", "confidence": 0.9,
                                "source": "self_reported"}  # fmt: skip

    third = await ask("Thanks!")  # nothing said of the zone: the guess is not made again
    assert TIMEZONE not in third.extra["extracted"]
    assert third.extra["profile"]["timezone"]["zone"] == "America/Los_Angeles"
