"""The eligibility gate (WP1 items 27-30, C10, C15, C18, C19, T8, T9): pure rules over what the
store knows, first failure wins. Issue 19."""

from __future__ import annotations

from dataclasses import replace
from datetime import UTC, datetime, timedelta
from zoneinfo import ZoneInfo

import pytest

from frontdesk.assistants.casino_host.channel.eligibility import (
    CasinoSending,
    GuestStanding,
    area_code_state,
    area_code_zones,
    check_message_eligibility,
)

NEW_YORK = ZoneInfo("America/New_York")
CASINO = CasinoSending(timezone="America/New_York", state="CT")
SUBSCRIBED = GuestStanding(
    sms_opt_in=True, written_consent=True, marketing_consent=True, timezone="America/New_York"
)
CT_PHONE = "+18605550123"


def at(hour: int, minute: int = 0, zone: ZoneInfo = NEW_YORK) -> datetime:
    return datetime(2026, 11, 25, hour, minute, tzinfo=zone)


def gate(kind: str, when: datetime, guest: GuestStanding = SUBSCRIBED, phone: str = CT_PHONE,
         casino: CasinoSending = CASINO):  # fmt: skip
    return check_message_eligibility(phone, guest, casino, kind, when)


def test_quiet_hours_in_the_guests_time_zone():  # T8
    assert gate("marketing", at(21, 0)).blocked_by == "quiet_hours"
    assert gate("marketing", at(20, 59)).eligible
    assert gate("marketing", at(8, 0)).eligible
    assert gate("marketing", at(7, 59)).blocked_by == "quiet_hours"
    assert gate("transactional", at(23, 30)).eligible
    assert gate("informational", at(22, 0)).blocked_by == "quiet_hours"


def test_without_a_profile_zone_the_area_code_decides():  # T8: 305 is Miami
    guest = replace(SUBSCRIBED, timezone=None)
    miami = gate("marketing", at(20, 30), guest, phone="+13055550123")
    assert miami.blocked_by == "quiet_hours"  # Florida's window ends at 20:00
    assert miami.zones == ("America/New_York",)
    # The same hour in Connecticut is allowed; 20:30 in New York is 17:30 in Las Vegas.
    assert gate("marketing", at(20, 30), guest).eligible
    vegas = gate("marketing", at(23, 30), guest, phone="+17025550100")
    assert vegas.eligible and vegas.zones == ("America/Los_Angeles",)


def test_an_area_code_spanning_zones_must_be_outside_quiet_hours_in_each():
    guest = replace(SUBSCRIBED, timezone=None)
    zones = area_code_zones("+19075550100")  # Alaska: Anchorage and Adak
    assert len(zones) == 2
    # 08:30 in Anchorage is 07:30 in Adak: still quiet there.
    anchorage_morning = datetime(2026, 11, 25, 8, 30, tzinfo=ZoneInfo("America/Anchorage"))
    assert gate("marketing", anchorage_morning, guest, phone="+19075550100").blocked_by == (
        "quiet_hours"
    )


def test_an_opted_out_guest_is_stop_status_before_anything_else():  # T8
    stopped = replace(SUBSCRIBED, suppressed=True)
    assert gate("marketing", at(23, 0), stopped).blocked_by == "stop_status"
    assert gate("transactional", at(12, 0), stopped).blocked_by == "stop_status"


def test_consent_tiers():  # C15, C18
    only_replies = GuestStanding(timezone="America/New_York")
    assert gate("transactional", at(12), only_replies).eligible
    informational = gate("informational", at(12), only_replies)
    assert (informational.blocked_by, informational.consent_tier) == ("consent_tier", "express")
    express = replace(only_replies, sms_opt_in=True)
    assert gate("informational", at(12), express).eligible
    marketing = gate("marketing", at(12), express)
    assert (marketing.blocked_by, marketing.consent_tier) == ("consent_tier", "express_written")


def test_no_approved_campaign_blocks_every_send():  # T9
    pending = replace(CASINO, campaign_status="pending")
    assert gate("marketing", at(12), casino=pending).blocked_by == "10dlc_status"
    missing = replace(CASINO, campaign_status="missing")
    assert gate("transactional", at(12), casino=missing).blocked_by == "10dlc_status"


def test_a_second_first_contact_within_24_hours_is_cooldown():  # T9
    unknown = replace(SUBSCRIBED, known=False)
    assert gate("marketing", at(12), unknown).eligible
    sent = replace(unknown, first_outbound_at=at(12))
    assert gate("marketing", at(18), sent).blocked_by == "cooldown"
    assert gate("marketing", at(12) + timedelta(hours=24), sent).eligible


def test_marketing_to_a_number_silent_for_90_days_may_be_a_reassigned_number():  # C19
    silent = replace(SUBSCRIBED, last_inbound_at=at(12) - timedelta(days=91))
    assert gate("marketing", at(12), silent).blocked_by == "reassigned_number"
    assert gate("informational", at(12), silent).eligible
    listed = replace(SUBSCRIBED, reassigned=True)
    assert gate("marketing", at(12), listed).blocked_by == "reassigned_number"


@pytest.mark.parametrize(
    ("change", "rule"),
    [
        ({"self_excluded": True}, "self_exclusion"),
        ({"pending_deletion": True}, "pending_deletion"),
        ({"paused_until": datetime(2026, 11, 25, 17, 30, tzinfo=UTC)}, "escalation_pause"),
        ({"sent_today": 20}, "daily_cap"),
        # The "Up to 8 msgs/month" the host discloses is kept (issue 33).
        ({"sent_this_month": 8}, "monthly_cap"),
    ],
)
def test_item_28_blocks_promotional_messages_not_replies(change, rule):
    guest = replace(SUBSCRIBED, **change)
    assert gate("marketing", at(12), guest).blocked_by == rule  # 12:00 New York = 17:00 UTC
    assert gate("transactional", at(12), guest).eligible


def test_the_seventh_and_eighth_message_of_a_month_still_go():
    assert gate("marketing", at(12), replace(SUBSCRIBED, sent_this_month=7)).eligible


def test_safe_mode_allows_replies_only():
    safe = replace(CASINO, safe_mode=True)
    assert gate("informational", at(12), casino=safe).blocked_by == "safe_mode"
    assert gate("transactional", at(12), casino=safe).eligible


def test_bad_input():
    with pytest.raises(ValueError, match="message type"):
        gate("promo", at(12))
    with pytest.raises(ValueError, match="timezone-aware"):
        gate("marketing", datetime(2026, 11, 25, 12))
    assert area_code_zones("not a number") == () and area_code_state("+1") is None


def test_the_area_codes_state():
    assert area_code_state("+13055550123") == "FL"
    assert area_code_state("+17025550100") == "NV"
