"""Consent grants and revocation (item 31, D17): withdrawn fields leave every view."""

from __future__ import annotations

import json
from datetime import UTC, datetime, timedelta

import pytest

from frontdesk.assistants.casino_host.profile import (
    GuestProfile,
    active_grant,
    completeness,
    grant,
    marketing_fields,
    revoke_consent,
    revoke_grant,
)

NOW = datetime(2026, 3, 17, 9, 0, tzinfo=UTC)
LATER = NOW + timedelta(hours=2)


def _profile() -> GuestProfile:
    profile = GuestProfile(guest_uuid="g-2", created_at=NOW - timedelta(days=1))
    profile.set_field("name", "Maria", source="self_reported", confidence=0.95, now=NOW)
    profile.set_field(
        "cuisine", ["italian"], source="contextual_extraction", confidence=0.8, now=NOW
    )
    return profile


def test_personalization_is_implied_marketing_needs_a_grant():
    profile = _profile()
    implied = active_grant(profile, "personalization")
    assert implied is not None and implied.granted_via == "implied_engagement"
    assert set(implied.fields_covered) == {
        "core_identity.name",
        "preferences.dining.cuisine_preferences",
    }
    refused = profile.set_field("email", "m@x.com", source="self_reported", confidence=0.9, now=NOW)
    assert refused.reason == "no_consent" and profile.get("email") is None
    record = grant(
        profile,
        "marketing",
        granted_via="incentive_exchange",
        now=NOW,
        scope_detail="email_campaigns",
        consent_text="Want us to email you deals? YES",
    )
    assert record.consent_text_hash.startswith("sha256:")
    written = profile.set_field("email", "m@x.com", source="self_reported", confidence=0.9, now=NOW)
    assert written.written
    assert profile.get("email").consent_ref == record.id
    assert record.fields_covered == ["core_identity.email"]


def test_revoking_a_scope_withdraws_its_fields_and_reports_them():
    profile = _profile()
    before = profile.prompt_view(LATER)
    assert "core_identity.name" in before.values
    result = revoke_consent(profile, "personalization", "guest_request", LATER)
    assert result.consent_ref is not None and result.consent_refs == (result.consent_ref,)
    assert result.fields_affected == 2
    assert result.fields_updated == 2
    assert result.paths_withdrawn == (
        "core_identity.name",
        "preferences.dining.cuisine_preferences",
    )
    assert profile.get("name").consent_status == "withdrawn"
    assert profile.get("name").value == "Maria"  # kept for the audit trail
    view = profile.prompt_view(LATER)
    assert view.values == {}
    assert completeness(profile) == 0.0
    audit = result.audit_event
    assert audit["event_type"] == "consent_revocation" and audit["fields_updated"] == 2
    assert "Maria" not in json.dumps(result.to_dict())
    # Nothing is implied again after a revocation.
    again = profile.set_field("party_size", 3, source="self_reported", confidence=0.9, now=LATER)
    assert again.reason == "no_consent"
    # Revoking twice touches nothing.
    assert revoke_consent(profile, "personalization", "guest_request", LATER).fields_updated == 0


def test_revoking_marketing_leaves_personalization_alone():
    profile = _profile()
    grant(profile, "marketing", granted_via="web_form", now=NOW)
    profile.set_field("email", "m@x.com", source="self_reported", confidence=0.9, now=NOW)
    assert marketing_fields(profile) == {"core_identity.email": "m@x.com"}
    result = revoke_consent(profile, "marketing", "sms_stop_keyword", LATER)
    assert result.paths_withdrawn == ("core_identity.email",)
    assert marketing_fields(profile) == {}
    view = profile.prompt_view(LATER)
    assert "core_identity.email" not in view.values
    assert "core_identity.name" in view.values


def test_third_party_is_not_marketing():
    profile = _profile()
    grant(profile, "sharing", granted_via="explicit_reply", now=NOW)
    profile.set_field("loyalty_tier", "gold", source="crm_import", confidence=0.95, now=NOW)
    assert marketing_fields(profile) == {}
    assert profile.get("loyalty_tier").consent_scope == "personalization"
    # A field held for the casino CRM only (third_party) never reaches a prompt.
    shared = grant(profile, "third_party", granted_via="explicit_reply", now=NOW)
    profile.set_field(
        "loyalty_tier",
        "platinum",
        source="crm_import",
        confidence=0.95,
        now=NOW,
        consent_ref=shared.id,
    )
    assert profile.get("loyalty_tier").consent_scope == "third_party"
    assert "core_identity.loyalty_tier" not in profile.prompt_view(NOW).values


def test_revoking_one_grant_keeps_other_grants_of_the_scope():
    profile = _profile()
    first = grant(profile, "marketing", granted_via="web_form", now=NOW)
    profile.set_field("email", "m@x.com", source="self_reported", confidence=0.9, now=NOW)
    second = grant(profile, "marketing", granted_via="text_keyword", now=LATER)
    result = revoke_grant(profile, first.id, "guest_request", LATER)
    assert result.consent_ref == first.id
    assert result.fields_updated == 1
    assert active_grant(profile, "marketing") is second
    with pytest.raises(KeyError):
        revoke_grant(profile, "consent_grant:missing", "x", LATER)


def test_grants_survive_storage():
    profile = _profile()
    grant(profile, "marketing", granted_via="web_form", now=NOW)
    revoke_consent(profile, "marketing", "guest_request", LATER)
    again = GuestProfile.from_dict(json.loads(json.dumps(profile.to_dict())))
    assert again.consent_grants == profile.consent_grants
    assert (
        again.set_field(
            "email", "m@x.com", source="self_reported", confidence=0.9, now=LATER
        ).reason
        == "no_consent"
    )


def test_revoking_a_scope_never_granted_keeps_it_closed():
    profile = GuestProfile(guest_uuid="g-8", created_at=NOW)
    result = revoke_consent(profile, "personalization", "guest_request", NOW)
    assert result.consent_ref is None and result.fields_updated == 0
    refused = profile.set_field("name", "Maria", source="self_reported", confidence=0.9, now=NOW)
    assert refused.reason == "no_consent"


def test_a_grant_naming_existing_fields_links_them():
    profile = _profile()
    record = grant(profile, "personalization", granted_via="web_form", now=LATER, fields=["name"])
    assert profile.get("name").consent_ref == record.id
    assert revoke_grant(profile, record.id, "guest_request", LATER).paths_withdrawn == (
        "core_identity.name",
    )
    assert "preferences.dining.cuisine_preferences" in profile.prompt_view(LATER).values
