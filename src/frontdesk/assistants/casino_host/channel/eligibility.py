"""May this SMS be sent to this guest now? (WP1 items 27-30, C10, C15, C18, C19, T8, T9.)

`check_message_eligibility` is a pure function of what the store knows about the guest and the
casino, the kind of message and the time; the first rule that fails decides, in the seed's
order (item 27), then the blocks of item 28. It runs when a message is queued and again at send
time (a STOP in between wins).

Kinds (item 21): `transactional` answers the guest (no consent needed, sent at any hour);
`informational` needs the guest's prior express consent (C18: not the transactional tier);
`marketing` needs prior express written consent with its evidence (C15).

Quiet hours (item 30, C10): no non-transactional SMS 21:00-08:00 in the guest's local time;
the time zone is the profile's (what the guest said, or the one zone of their area code:
profile/timezone.py), else the area code's (every zone an area code spans must be outside
quiet hours), else the casino's; per-state windows override (Florida: 08:00-20:00).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime, time, timedelta
from typing import Literal
from zoneinfo import ZoneInfo

import phonenumbers
from phonenumbers import geocoder

# The area code's zones are the profile's too: it records the one zone of a one-zone area code.
from frontdesk.assistants.casino_host.profile.timezone import area_code_zones

MessageType = Literal["transactional", "informational", "marketing"]
CampaignStatus = Literal["approved", "pending", "missing"]
MESSAGE_TYPES: tuple[str, ...] = ("transactional", "informational", "marketing")

QUIET_HOURS = (time(21, 0), time(8, 0))  # from, until (local)
# Per-state sending windows that are stricter than the default (seed §3.3).
STATE_QUIET_HOURS = {"FL": (time(20, 0), time(8, 0))}
DAILY_CAP = 20  # item 28: non-transactional messages per guest per local day
# What the host discloses ("Up to 8 msgs/month", HELP and the opt-in confirmation), enforced:
# informational and marketing messages per guest per local calendar month.
MONTHLY_CAP = 8
FIRST_CONTACT_COOLDOWN = timedelta(hours=24)  # item 27, seed §3.19
REASSIGNMENT_AGE = timedelta(days=90)  # C19: numbers are recycled after 90 days

US_STATES = {
    "Alabama": "AL", "Alaska": "AK", "Arizona": "AZ", "Arkansas": "AR", "California": "CA",
    "Colorado": "CO", "Connecticut": "CT", "Delaware": "DE", "Florida": "FL", "Georgia": "GA",
    "Hawaii": "HI", "Idaho": "ID", "Illinois": "IL", "Indiana": "IN", "Iowa": "IA",
    "Kansas": "KS", "Kentucky": "KY", "Louisiana": "LA", "Maine": "ME", "Maryland": "MD",
    "Massachusetts": "MA", "Michigan": "MI", "Minnesota": "MN", "Mississippi": "MS",
    "Missouri": "MO", "Montana": "MT", "Nebraska": "NE", "Nevada": "NV", "New Hampshire": "NH",
    "New Jersey": "NJ", "New Mexico": "NM", "New York": "NY", "North Carolina": "NC",
    "North Dakota": "ND", "Ohio": "OH", "Oklahoma": "OK", "Oregon": "OR", "Pennsylvania": "PA",
    "Rhode Island": "RI", "South Carolina": "SC", "South Dakota": "SD", "Tennessee": "TN",
    "Texas": "TX", "Utah": "UT", "Vermont": "VT", "Virginia": "VA", "Washington": "WA",
    "West Virginia": "WV", "Wisconsin": "WI", "Wyoming": "WY", "Washington D.C.": "DC",
}  # fmt: skip


@dataclass(frozen=True)
class GuestStanding:
    """What the gate reads about the guest (from the profile's consent record and the store).
    `known=False`: a number the casino has never had a message from."""

    known: bool = True
    sms_opt_in: bool = False  # prior express consent (X4)
    written_consent: bool = False  # express written consent with its evidence stored (C15)
    marketing_consent: bool = False
    suppressed: bool = False  # STOP
    timezone: str | None = None  # the profile's (stated by the guest, or its area code's one)
    state: str | None = None  # the profile's US state
    self_excluded: bool = False
    pending_deletion: bool = False
    paused_until: datetime | None = None  # a person has the conversation
    sent_today: int = 0  # non-transactional messages already sent today
    sent_this_month: int = 0  # non-transactional messages already sent this calendar month
    last_inbound_at: datetime | None = None
    first_outbound_at: datetime | None = None  # the first message ever sent to this number
    reassigned: bool = False  # on the local list of recycled numbers


@dataclass(frozen=True)
class CasinoSending:
    timezone: str
    state: str | None
    campaign_status: CampaignStatus = "approved"
    safe_mode: bool = False


@dataclass(frozen=True)
class MessageEligibility:
    eligible: bool
    reason: str | None = None
    blocked_by: str | None = None
    consent_tier: str = "none"
    zones: tuple[str, ...] = field(default=())  # the time zones quiet hours were checked in


def area_code_state(e164: str) -> str | None:
    try:
        place = geocoder.description_for_number(phonenumbers.parse(e164), "en")
    except phonenumbers.NumberParseException:
        return None
    return US_STATES.get(place.split(", ")[-1].strip()) if place else None


def _quiet(local: datetime, window: tuple[time, time]) -> bool:
    start, end = window
    clock = local.time()
    return clock >= start or clock < end if start > end else start <= clock < end


def _tier(kind: str) -> str:
    return {"transactional": "none", "informational": "express", "marketing": "express_written"}[
        kind
    ]


def check_message_eligibility(
    e164: str, guest: GuestStanding, casino: CasinoSending, kind: str, now: datetime
) -> MessageEligibility:
    if kind not in MESSAGE_TYPES:
        raise ValueError(f"message type must be one of {', '.join(MESSAGE_TYPES)}, got {kind!r}")
    if now.tzinfo is None:
        raise ValueError("now must be timezone-aware")
    tier = _tier(kind)

    def blocked(rule: str, reason: str, zones: tuple[str, ...] = ()) -> MessageEligibility:
        return MessageEligibility(False, reason, rule, tier, zones)

    promotional = kind != "transactional"
    if guest.suppressed:
        return blocked("stop_status", "the guest opted out (STOP)")
    if kind == "informational" and not guest.sms_opt_in:
        return blocked("consent_tier", "informational messages need the guest's prior consent")
    if kind == "marketing" and not (guest.written_consent and guest.marketing_consent):
        return blocked("consent_tier", "marketing needs prior express written consent on file")
    zones = (guest.timezone,) if guest.timezone else area_code_zones(e164) or (casino.timezone,)
    if promotional:
        state = guest.state or area_code_state(e164) or casino.state
        window = STATE_QUIET_HOURS.get(state or "", QUIET_HOURS)
        if any(_quiet(now.astimezone(ZoneInfo(zone)), window) for zone in zones):
            start, end = window
            return blocked(
                "quiet_hours",
                f"quiet hours ({start:%H:%M}-{end:%H:%M} in {', '.join(zones)})",
                zones,
            )
    if casino.campaign_status != "approved":
        return blocked("10dlc_status", f"the casino's 10DLC campaign is {casino.campaign_status}")
    first = guest.first_outbound_at
    if promotional and not guest.known and first and now - first < FIRST_CONTACT_COOLDOWN:
        return blocked("cooldown", "a first message went to this number less than 24 h ago")
    if kind == "marketing" and (
        guest.reassigned
        or (guest.last_inbound_at is not None and now - guest.last_inbound_at > REASSIGNMENT_AGE)
    ):
        return blocked("reassigned_number", "the number may have been reassigned (silent 90 days)")
    if promotional:
        if guest.self_excluded:
            return blocked("self_exclusion", "the guest is on a self-exclusion list")
        if guest.pending_deletion:
            return blocked("pending_deletion", "the guest asked for their data to be deleted")
        if guest.paused_until is not None and now < guest.paused_until:
            return blocked("escalation_pause", "a person has the conversation")
        if guest.sent_today >= DAILY_CAP:
            return blocked("daily_cap", f"{DAILY_CAP} messages already sent today")
        if guest.sent_this_month >= MONTHLY_CAP:
            return blocked("monthly_cap", f"{MONTHLY_CAP} messages already sent this month")
        if casino.safe_mode:
            return blocked("safe_mode", "the casino is in safe mode: replies only")
    return MessageEligibility(True, None, None, tier, zones)
