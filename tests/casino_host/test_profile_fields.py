"""Field registry (D19), source clamping (D18) and ProfileField confidence rules (item 30, G15)."""

from __future__ import annotations

import json
from datetime import UTC, datetime, timedelta

import pytest

from frontdesk.assistants.casino_host.profile import (
    FIELDS,
    SOURCE_CONFIDENCE_RANGES,
    ProfileField,
    UnknownFieldError,
    clamp_to_source,
    paths_for_agent,
    resolve,
    spec_for,
)

NOW = datetime(2026, 3, 17, 9, 0, tzinfo=UTC)

CANONICAL = [
    "core_identity.name",
    "core_identity.email",
    "core_identity.language",
    "visit_context.planned_visit_date",
    "visit_context.party_size",
    "visit_context.occasion",
    "preferences.dining.dietary_restrictions",
    "preferences.dining.cuisine_preferences",
    "preferences.dining.budget_range",
    "preferences.dining.kids_menu_needed",
    "preferences.entertainment.interests",
    "preferences.entertainment.accessibility_needs",
    "preferences.gaming.level",
    "preferences.gaming.preferred_games",
    "preferences.gaming.typical_spend",
    "preferences.spa.treatments_interested",
    "companions",
]


def test_canonical_paths_the_extractor_uses_are_registered():
    for path in CANONICAL:
        assert path in FIELDS
        assert resolve(path) == path


@pytest.mark.parametrize(
    ("alias", "path"),
    [
        ("music_preferences", "preferences.entertainment.interests"),
        ("name", "core_identity.name"),
        ("visit_date", "visit_context.planned_visit_date"),
        ("occasions", "visit_context.occasion"),
        ("kids_ages", "visit_context.kids_ages"),
        ("companion_preferences", "companions"),
        ("date_preferences", "preferences.entertainment.date_preferences"),
        ("gaming_level", "preferences.gaming.level"),
        ("loyalty_tier", "core_identity.loyalty_tier"),
        ("visit_frequency", "visit_context.visit_frequency"),
        ("spend_pattern", "preferences.gaming.typical_spend"),
        ("spa_preferences", "preferences.spa.treatments_interested"),
        ("  Music_Preferences ", "preferences.entertainment.interests"),
    ],
)
def test_aliases_resolve_to_one_canonical_path(alias, path):
    assert resolve(alias) == path


def test_unknown_name_is_an_error():
    with pytest.raises(UnknownFieldError):
        resolve("favourite_colour")


def test_item_17_extraction_targets_all_resolve_to_their_agent():
    targets = {
        "host_agent": ["name", "visit_date", "party_size", "occasions"],
        "dining_agent": [
            "dietary_restrictions",
            "kids_ages",
            "cuisine_preferences",
            "budget_range",
        ],
        "entertainment_agent": [
            "interests",
            "companion_preferences",
            "accessibility_needs",
            "date_preferences",
        ],
        "comp_agent": ["gaming_level", "loyalty_tier", "visit_frequency", "spend_pattern"],
    }
    for agent, names in targets.items():
        for name in names:
            assert resolve(name) in paths_for_agent(agent), (agent, name)


def test_scopes_and_groups():
    assert spec_for("email").consent_scope == "marketing"
    assert spec_for("name").consent_scope == "personalization"
    assert spec_for("cuisine").completeness_group == "dining_preferences"
    assert spec_for("companions").completeness_group == "companion_details"
    assert spec_for("spa_preferences").completeness_group == "entertainment_preferences"


@pytest.mark.parametrize(
    ("source", "claimed", "stored"),
    [
        ("self_reported", 0.6, 0.85),
        ("self_reported", 0.97, 0.97),
        ("contextual_extraction", 0.95, 0.85),
        ("contextual_extraction", 0.55, 0.65),
        ("inferred", 0.9, 0.70),
        ("crm_import", 0.6, 0.90),
        ("incentive_exchange", 1.0, 0.95),
        ("auto_detected", 0.42, 0.42),
    ],
)
def test_confidence_is_clamped_into_the_source_range(source, claimed, stored):
    assert clamp_to_source(claimed, source) == pytest.approx(stored)
    assert source in SOURCE_CONFIDENCE_RANGES


def test_unknown_source_is_rejected():
    with pytest.raises(ValueError):
        clamp_to_source(0.9, "gossip")


def _field(confidence: float, age_days: float = 0) -> ProfileField:
    return ProfileField(
        value="Maria",
        confidence=confidence,
        source="self_reported",
        collected_at=NOW - timedelta(days=age_days),
    )


def test_g15_confirm_caps_at_one():
    stored = _field(0.9)
    assert stored.confirm(NOW) == 1.0
    assert stored.verified_at == NOW


def test_g15_contradict_drops_by_030_and_flags_review():
    stored = _field(0.8)
    assert stored.contradict(NOW) == pytest.approx(0.5)
    assert stored.needs_review is True
    floor = _field(0.2)
    assert floor.contradict(NOW) == 0.0


def test_g15_a_91_day_old_field_decays_once():
    stored = _field(0.8, age_days=91)
    assert stored.effective_confidence(NOW) == pytest.approx(0.72)
    assert stored.confidence == 0.8  # reading does not write
    assert stored.apply_decay(NOW) is True
    assert stored.confidence == pytest.approx(0.72)
    # A second check, the same day or a week later, changes nothing.
    assert stored.apply_decay(NOW) is False
    assert stored.apply_decay(NOW + timedelta(days=7)) is False
    assert stored.confidence == pytest.approx(0.72)


def test_decay_is_independent_of_how_often_it_is_checked():
    daily = _field(0.8)
    for day in range(1, 200):
        daily.apply_decay(NOW + timedelta(days=day))
    once = _field(0.8)
    once.apply_decay(NOW + timedelta(days=199))
    assert daily.confidence == once.confidence == pytest.approx(0.8 * 0.9 * 0.9)


def test_90_days_exactly_is_not_old_and_confirmation_restarts_the_clock():
    stored = _field(0.8, age_days=90)
    assert stored.effective_confidence(NOW) == 0.8
    old = _field(0.7, age_days=120)
    old.confirm(NOW)
    assert old.confidence == pytest.approx(0.7 * 0.9 + 0.15)
    assert old.effective_confidence(NOW + timedelta(days=80)) == old.confidence


def test_profile_field_json_round_trip():
    stored = _field(0.8, age_days=100)
    stored.apply_decay(NOW)
    stored.contradict(NOW, "guest said Mary")
    data = json.loads(json.dumps(stored.to_dict()))
    again = ProfileField.from_dict(data)
    assert again == stored


def test_a_stored_value_without_confidence_reads_as_05():
    loaded = ProfileField.from_dict({"value": 4}, default_time=NOW)
    assert loaded.confidence == 0.5
    assert loaded.source == "inferred"


def test_naive_timestamps_are_refused():
    with pytest.raises(ValueError):
        ProfileField(
            value="x", confidence=0.9, source="self_reported", collected_at=datetime(2026, 1, 1)
        )
