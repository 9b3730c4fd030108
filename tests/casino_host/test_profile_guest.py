"""GuestProfile: writes (D18), confirm/contradict, prompt view (G15), JSON round trip, no phone."""

from __future__ import annotations

import json
from datetime import UTC, datetime, timedelta

import pytest

from frontdesk.assistants.casino_host.profile import SCHEMA_VERSION, GuestProfile

NOW = datetime(2026, 3, 17, 9, 0, tzinfo=UTC)
PHONE = "+12035551234"


def _profile() -> GuestProfile:
    return GuestProfile(
        guest_uuid="g-1", created_at=NOW - timedelta(days=1), casino_id="mohegan", phone_e164=PHONE
    )


def test_writes_only_above_05_and_clamps_into_the_source_range():
    profile = _profile()
    low = profile.set_field("name", "Maria", source="self_reported", confidence=0.5, now=NOW)
    assert not low.written and low.reason == "below_write_threshold"
    assert profile.get("name") is None
    result = profile.set_field(
        "party_size", "4", source="contextual_extraction", confidence=0.95, now=NOW
    )
    assert result.written and result.confidence == 0.85
    stored = profile.get("visit_context.party_size")
    assert stored.value == 4 and stored.source == "contextual_extraction"
    assert stored.consent_ref.startswith("consent_grant:")


def test_same_value_again_confirms():
    profile = _profile()
    profile.set_field("cuisine", ["Italian"], source="inferred", confidence=0.6, now=NOW)
    again = profile.set_field(
        "cuisine_preferences", ["italian"], source="contextual_extraction", confidence=0.7, now=NOW
    )
    assert again.reason == "confirmed"
    assert profile.get("cuisine").confidence == pytest.approx(0.75)


def test_a_weaker_source_does_not_overwrite_what_the_guest_said():
    profile = _profile()
    profile.set_field("name", "Maria", source="self_reported", confidence=0.95, now=NOW)
    weak = profile.set_field("name", "Mary", source="inferred", confidence=0.7, now=NOW)
    assert weak.reason == "weaker_than_stored"
    assert profile.get("name").value == "Maria"
    corrected = profile.set_field("name", "Mia", source="self_reported", confidence=0.9, now=NOW)
    assert corrected.reason == "written"
    assert profile.get("name").value == "Mia"


def test_invalid_and_unknown_values():
    profile = _profile()
    assert (
        profile.set_field(
            "party_size", "a few", source="self_reported", confidence=0.9, now=NOW
        ).reason
        == "invalid_value"
    )
    with pytest.raises(KeyError):
        profile.set_field("shoe_size", 42, source="self_reported", confidence=0.9, now=NOW)


def test_g15_confirm_and_contradict_through_the_profile():
    profile = _profile()
    profile.set_field("name", "Maria", source="self_reported", confidence=0.9, now=NOW)
    assert profile.confirm("name", NOW) == 1.0
    profile.set_field(
        "visit_date", "2026-04-10", source="contextual_extraction", confidence=0.8, now=NOW
    )
    assert profile.contradict("visit_date", NOW, "guest said May") == pytest.approx(0.5)
    assert profile.fields_needing_review() == ["visit_context.planned_visit_date"]


def test_g15_low_confidence_and_old_fields_in_the_prompt_view():
    profile = _profile()
    profile.set_field("name", "Maria", source="self_reported", confidence=0.95, now=NOW)
    profile.set_field("interests", ["comedy"], source="inferred", confidence=0.6, now=NOW)
    profile.get("interests").confidence = 0.39
    profile.set_field(
        "cuisine",
        ["steak"],
        source="contextual_extraction",
        confidence=0.8,
        now=NOW - timedelta(days=91),
    )
    view = profile.prompt_view(NOW)
    assert view.values["core_identity.name"] == "Maria"
    assert "preferences.entertainment.interests" not in view.values
    assert view.confidences["preferences.dining.cuisine_preferences"] == pytest.approx(0.72)
    profile.get("interests").confidence = 0.40
    assert "preferences.entertainment.interests" in profile.prompt_view(NOW).values


def test_decayed_below_040_leaves_the_view_and_the_decay_check_writes_once():
    profile = _profile()
    profile.set_field("budget_range", "$$", source="inferred", confidence=0.55, now=NOW)
    later = NOW + timedelta(days=361)  # four 90-day steps: 0.55 × 0.9⁴ ≈ 0.36
    assert "preferences.dining.budget_range" in profile.prompt_view(NOW).values
    assert "preferences.dining.budget_range" not in profile.prompt_view(later).values
    assert profile.apply_decay(later) == ["preferences.dining.budget_range"]
    assert profile.apply_decay(later) == []
    assert profile.get("budget_range").confidence == pytest.approx(0.55 * 0.9**4, abs=1e-4)


def test_prompt_view_masks_email_and_never_has_the_phone():
    profile = _profile()
    from frontdesk.assistants.casino_host.profile import grant

    grant(profile, "marketing", granted_via="incentive_exchange", now=NOW)
    profile.set_field(
        "email", "maria@example.com", source="incentive_exchange", confidence=0.9, now=NOW
    )
    view = profile.prompt_view(NOW)
    assert view.values["core_identity.email"] == "m***@example.com"
    assert PHONE not in json.dumps(view.to_dict())
    assert view.as_prompt_dict() == {"core_identity": {"email": "m***@example.com"}}
    assert "responsible_gaming" not in json.dumps(view.as_prompt_dict())


def test_repr_never_shows_the_phone():
    profile = _profile()
    profile.phone_history.append("+12035550000")
    assert PHONE not in repr(profile) and PHONE not in str(profile)
    assert "2035550000" not in repr(profile)
    assert "g-1" in repr(profile)


def test_extraction_writes_only_targeted_fields():
    profile = _profile()
    results = profile.apply_extraction(
        {
            "preferences.dining.dietary_restrictions": (["gluten-free"], 0.9, "self_reported"),
            "visit_context.party_size": (4, 0.8, "contextual_extraction"),
            "music_preferences": (["jazz"], 0.45, "contextual_extraction"),
            "shoe_size": (42, 0.9, "self_reported"),
        },
        NOW,
        targets=["dietary_restrictions", "music_preferences"],
    )
    assert results["preferences.dining.dietary_restrictions"].written
    assert results["visit_context.party_size"].reason == "not_targeted"
    assert results["preferences.entertainment.interests"].reason == "below_write_threshold"
    assert profile.get("party_size") is None
    assert results["shoe_size"].reason == "unknown_field"
    odd = profile.apply_extraction({"name": ("Maria", 0.9, "gossip")}, NOW)
    assert odd["core_identity.name"].reason == "unknown_source"


def test_responsible_gaming_flag_is_permanent_and_survives_storage():
    profile = _profile()
    profile.mark_responsible_gaming(NOW)
    profile.mark_responsible_gaming(NOW + timedelta(days=1))
    again = GuestProfile.from_dict(json.loads(json.dumps(profile.to_dict())))
    assert again.responsible_gaming_triggered is True
    assert again.responsible_gaming_triggered_at == NOW


def test_profile_json_round_trip():
    profile = _profile()
    profile.set_field("name", "Maria", source="self_reported", confidence=0.95, now=NOW)
    profile.set_field("language", "es", source="auto_detected", confidence=0.85, now=NOW)
    profile.set_field(
        "companions",
        [{"relationship": "spouse", "name": "Carlos"}, {"relationship": "child", "age": 8}],
        source="contextual_extraction",
        confidence=0.8,
        now=NOW,
    )
    profile.contradict("name", NOW)
    profile.record_guest_message(substantive=True, now=NOW)
    doc = json.loads(json.dumps(profile.to_dict()))
    assert doc["_schema_version"] == SCHEMA_VERSION
    assert doc["core_identity"]["name"]["value"] == "Maria"
    assert doc["companions"]["value"][1]["age"] == 8
    again = GuestProfile.from_dict(doc)
    assert again.to_dict() == profile.to_dict()
    assert again.fields == profile.fields
    assert again.phone_e164 == PHONE
    assert again.prompt_view(NOW) == profile.prompt_view(NOW)


def test_a_newer_schema_is_refused():
    doc = _profile().to_dict()
    doc["_schema_version"] = SCHEMA_VERSION + 1
    with pytest.raises(ValueError):
        GuestProfile.from_dict(doc)
