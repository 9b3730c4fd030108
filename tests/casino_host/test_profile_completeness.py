"""Completeness (item 32, G16)."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from frontdesk.assistants.casino_host.profile import (
    COMPLETENESS_WEIGHTS,
    GuestProfile,
    completeness,
    completeness_breakdown,
)

NOW = datetime(2026, 3, 17, 9, 0, tzinfo=UTC)


def _profile() -> GuestProfile:
    return GuestProfile(guest_uuid="g-3", created_at=NOW)


def test_weights_sum_to_one():
    assert sum(COMPLETENESS_WEIGHTS.values()) == pytest.approx(1.0)


def test_g16_name_and_visit_date():
    profile = _profile()
    profile.set_field("name", "Maria", source="self_reported", confidence=0.95, now=NOW)
    profile.set_field("visit_date", "2026-04-10", source="self_reported", confidence=0.90, now=NOW)
    assert completeness(profile) == pytest.approx(0.2775)
    assert profile.engagement.profile_completeness == pytest.approx(0.2775)


def test_a_group_counts_once_at_its_best_confidence():
    profile = _profile()
    profile.set_field(
        "cuisine", ["italian"], source="contextual_extraction", confidence=0.7, now=NOW
    )
    profile.set_field(
        "dietary_restrictions", ["vegan"], source="self_reported", confidence=0.9, now=NOW
    )
    assert completeness_breakdown(profile)["dining_preferences"] == pytest.approx(0.15 * 0.9)
    assert completeness(profile) == pytest.approx(0.135)


def test_unscored_value_counts_half_and_zero_counts_zero():
    doc = _profile().to_dict()
    doc["visit_context"]["party_size"] = {"value": 4, "collected_at": NOW.isoformat()}
    loaded = GuestProfile.from_dict(doc)
    assert completeness(loaded) == pytest.approx(0.10 * 0.5)
    loaded.get("party_size").confidence = 0.0
    assert completeness(loaded) == 0.0


def test_with_now_the_due_decay_is_counted():
    profile = _profile()
    profile.set_field("name", "Maria", source="self_reported", confidence=1.0, now=NOW)
    later = NOW + timedelta(days=91)
    assert completeness(profile) == pytest.approx(0.15)
    assert completeness(profile, later) == pytest.approx(0.135)
