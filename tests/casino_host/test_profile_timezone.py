"""The guest's time zone in the profile: only real IANA names are stored, the area code's guess
is kept only for a one-zone area code, what the guest says replaces it (never the reverse),
and the zone in effect says where it came from and when."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from frontdesk.assistants.casino_host.profile import (
    TIMEZONE,
    GuestProfile,
    area_code_guess,
    canonical_zone,
    completeness,
    guest_zone,
    revoke_consent,
)
from frontdesk.assistants.casino_host.profile.timezone import area_code_zone

NOW = datetime(2026, 3, 17, 9, 0, tzinfo=UTC)
MANHATTAN = "+12125550147"  # 212: New York only
IDAHO = "+12085550147"  # 208: Boise and Los Angeles


def _profile(phone: str | None = MANHATTAN) -> GuestProfile:
    return GuestProfile(
        guest_uuid="g-1", created_at=NOW - timedelta(days=1), casino_id="mohegan", phone_e164=phone
    )


def _said(profile: GuestProfile, zone: str, *, at: datetime = NOW, source="self_reported"):
    return profile.set_field(TIMEZONE, zone, source=source, confidence=0.95, now=at)


@pytest.mark.parametrize(
    ("name", "expected"),
    [
        ("America/Denver", "America/Denver"),
        ("  america/los_angeles ", "America/Los_Angeles"),
        ("Pacific/Honolulu", "Pacific/Honolulu"),
        ("Pacific Time", None),
        ("PST", None),
        ("Mars/Olympus_Mons", None),
        ("../etc/passwd", None),
        ("Factory", None),
        ("", None),
        (None, None),
        (-5, None),
    ],
)
def test_only_names_the_time_zone_database_knows_are_zones(name, expected):
    assert canonical_zone(name) == expected


def test_an_invalid_zone_is_never_stored():
    profile = _profile()
    for bad in ("Pacific Time", "America/Atlantis", "EST5EDT-ish"):
        result = _said(profile, bad)
        assert not result.written and result.reason == "invalid_value"
    assert profile.get(TIMEZONE) is None
    assert _said(profile, "america/phoenix").written
    assert profile.get("timezone").value == "America/Phoenix"  # the registry alias, spelled right


def test_a_one_zone_area_code_is_guessed_as_the_area_codes():
    assert area_code_zone(MANHATTAN) == "America/New_York"
    profile = _profile()
    guess = area_code_guess(profile)
    assert guess == ("America/New_York", 0.6, "inferred")
    profile.apply_extraction({TIMEZONE: guess}, NOW)
    zone = guest_zone(profile, NOW)
    assert (zone.zone, zone.source, zone.noted_at) == ("America/New_York", "area_code", NOW)
    # Once the profile has a zone, nothing more is guessed.
    assert area_code_guess(profile) is None


@pytest.mark.parametrize("phone", [IDAHO, "+18005550147", "+1555", None])
def test_an_area_code_spanning_zones_or_no_number_gives_no_guess(phone):
    assert area_code_guess(_profile(phone)) is None
    assert guest_zone(_profile(phone), NOW) is None


def test_what_the_guest_says_replaces_the_area_code_and_the_guess_never_replaces_it():
    profile = _profile()
    profile.apply_extraction({TIMEZONE: area_code_guess(profile)}, NOW)
    later = NOW + timedelta(days=3)
    assert _said(profile, "America/Los_Angeles", at=later).reason == "written"
    zone = guest_zone(profile, later)
    assert (zone.zone, zone.source, zone.noted_at) == ("America/Los_Angeles", "guest_said", later)
    again = profile.set_field(
        TIMEZONE, "America/New_York", source="inferred", confidence=0.6, now=later
    )
    assert again.reason == "weaker_than_stored"
    assert guest_zone(profile, later).zone == "America/Los_Angeles"


def test_the_guest_confirming_the_area_codes_zone_makes_it_theirs():
    profile = _profile()
    profile.apply_extraction({TIMEZONE: area_code_guess(profile)}, NOW)
    later = NOW + timedelta(hours=2)
    assert _said(profile, "America/New_York", at=later).reason == "confirmed"
    zone = guest_zone(profile, later)
    assert (zone.source, zone.noted_at, zone.confidence) == ("guest_said", later, 0.95)


def test_where_the_guest_is_does_not_replace_where_they_live():
    profile = _profile()
    _said(profile, "America/Denver")
    visiting = _said(profile, "America/Phoenix", source="contextual_extraction")
    assert visiting.reason == "weaker_than_stored"
    assert guest_zone(profile, NOW).zone == "America/Denver"


def test_the_zone_survives_the_stored_document():
    profile = _profile()
    _said(profile, "America/Chicago")
    doc = profile.to_dict()
    assert doc["core_identity"]["timezone"]["value"] == "America/Chicago"
    assert doc["core_identity"]["timezone"]["source"] == "self_reported"
    again = GuestProfile.from_dict(doc)
    assert guest_zone(again, NOW) == guest_zone(profile, NOW)
    assert guest_zone(again, NOW).to_dict() == {
        "zone": "America/Chicago",
        "source": "guest_said",
        "noted_at": NOW.isoformat(),
        "confidence": 0.95,
    }


def test_a_stored_name_that_no_longer_loads_is_not_used():
    profile = _profile()
    _said(profile, "America/Chicago")
    profile.fields[TIMEZONE].value = "America/Nowhere"  # an old document, a hand edit
    assert guest_zone(profile, NOW) is None


def test_a_withdrawn_zone_is_not_used_and_not_guessed_again():
    profile = _profile()
    _said(profile, "America/Los_Angeles")
    revoke_consent(profile, "personalization", "guest asked", NOW)
    assert guest_zone(profile, NOW) is None  # the gate goes back to the area code's zones
    assert area_code_guess(profile) is None


def test_a_guess_fades_out_with_time_a_statement_lasts():
    profile = _profile()
    profile.apply_extraction({TIMEZONE: area_code_guess(profile)}, NOW)
    assert guest_zone(profile, NOW + timedelta(days=200)) is not None
    assert guest_zone(profile, NOW + timedelta(days=400)) is None
    said = _profile()
    _said(said, "America/Denver")
    assert guest_zone(said, NOW + timedelta(days=400)).zone == "America/Denver"


def test_the_zone_counts_toward_no_completeness_and_shows_in_the_prompt_view():
    profile = _profile()
    before = completeness(profile, NOW)
    _said(profile, "America/Denver")
    assert completeness(profile, NOW) == before
    assert profile.prompt_view(NOW).values[TIMEZONE] == "America/Denver"
