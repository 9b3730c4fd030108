"""Conversation phases (item 36, D23, G18)."""

from __future__ import annotations

from datetime import UTC, date, datetime, timedelta

import pytest

from frontdesk.assistants.casino_host.profile import (
    GuestProfile,
    PhaseChange,
    PhaseSignals,
    advance_phase,
    campaign_reengagement_allowed,
    count_preference_fields,
    sweep,
)

NOW = datetime(2026, 3, 17, 9, 0, tzinfo=UTC)


def test_pre_visit_and_dormant_become_active_on_any_reply_but_not_on_stop():
    for phase in ("pre_visit", "dormant"):
        change = advance_phase(phase, PhaseSignals(exchanges_in_phase=1), NOW)
        assert change.to_phase == "active"
        assert advance_phase(phase, PhaseSignals(is_stop=True), NOW) is None


def test_g18_active_with_two_substantive_replies_reaches_rapport():
    one = PhaseSignals(exchanges_in_phase=1, substantive_in_phase=1)
    assert advance_phase("active", one, NOW) is None
    two = PhaseSignals(exchanges_in_phase=2, substantive_in_phase=2)
    change = advance_phase("active", two, NOW)
    assert (change.to_phase, change.trigger) == ("rapport", "goal")
    fallback = advance_phase("active", PhaseSignals(exchanges_in_phase=5), NOW)
    assert (fallback.to_phase, fallback.trigger) == ("rapport", "fallback")
    escalated = PhaseSignals(exchanges_in_phase=5, substantive_in_phase=5, escalated=True)
    assert advance_phase("active", escalated, NOW) is None


def test_rapport_to_discovery_needs_a_known_name_or_date():
    warm = PhaseSignals(exchanges_in_phase=1, rapport_score=0.7)
    assert advance_phase("rapport", warm, NOW) is None
    known = PhaseSignals(exchanges_in_phase=1, rapport_score=0.7, identity_known=True)
    assert advance_phase("rapport", known, NOW).to_phase == "discovery"
    cool = PhaseSignals(exchanges_in_phase=2, rapport_score=0.6, identity_known=True)
    assert advance_phase("rapport", cool, NOW) is None
    after_three = PhaseSignals(exchanges_in_phase=3, rapport_score=0.2, identity_known=True)
    assert advance_phase("rapport", after_three, NOW).trigger == "fallback"


def test_g18_discovery_with_three_fields_and_readiness_06_reaches_offer():
    ready = PhaseSignals(exchanges_in_phase=2, preference_fields=3, offer_readiness_score=0.6)
    change = advance_phase("discovery", ready, NOW)
    assert (change.to_phase, change.trigger) == ("offer", "goal")
    unready = PhaseSignals(exchanges_in_phase=2, preference_fields=3, offer_readiness_score=0.5)
    assert advance_phase("discovery", unready, NOW) is None
    two_fields = PhaseSignals(exchanges_in_phase=2, preference_fields=2, offer_readiness_score=0.9)
    assert advance_phase("discovery", two_fields, NOW) is None
    seventh = PhaseSignals(exchanges_in_phase=7, preference_fields=1)
    assert advance_phase("discovery", seventh, NOW).trigger == "fallback"
    assert advance_phase("discovery", PhaseSignals(exchanges_in_phase=7), NOW) is None


def test_g18_sweep_at_48_hours_of_silence_is_dormant():
    last = NOW - timedelta(hours=48)
    for phase in ("active", "rapport", "discovery", "pre_visit"):
        change = sweep(phase, last, None, NOW)
        assert change.to_phase == "dormant" and change.trigger == "timed"
    assert sweep("rapport", NOW - timedelta(hours=47, minutes=59), None, NOW) is None
    assert sweep("dormant", last - timedelta(days=30), None, NOW) is None


def test_offer_moves_to_post_visit_24h_after_the_visit_not_to_dormant():
    last = NOW - timedelta(days=5)
    visit = date(2026, 3, 15)
    assert sweep("offer", last, visit, datetime(2026, 3, 15, 23, tzinfo=UTC)) is None
    change = sweep("offer", last, visit, datetime(2026, 3, 16, 0, tzinfo=UTC))
    assert change.to_phase == "post_visit"
    assert sweep("offer", last, "2026-04-10", NOW) is None  # waiting on the visit
    entered = NOW - timedelta(days=14)
    assert sweep("offer", last, None, NOW, phase_entered_at=entered).trigger == "fallback"


def test_post_visit_resets_to_pre_visit_after_7_days_and_opens_a_new_arc():
    entered = NOW - timedelta(days=7)
    change = sweep("post_visit", NOW - timedelta(days=9), None, NOW, phase_entered_at=entered)
    assert change.to_phase == "pre_visit" and change.starts_new_arc
    assert (
        sweep(
            "post_visit",
            NOW - timedelta(days=9),
            None,
            NOW - timedelta(hours=1),
            phase_entered_at=entered,
        )
        is None
    )
    # The fresh arc's silence clock starts at the reset, not at the old last message.
    assert (
        sweep(
            "pre_visit",
            NOW - timedelta(days=9),
            None,
            NOW + timedelta(hours=47),
            phase_entered_at=NOW,
        )
        is None
    )
    assert (
        sweep(
            "pre_visit",
            NOW - timedelta(days=9),
            None,
            NOW + timedelta(hours=48),
            phase_entered_at=NOW,
        ).to_phase
        == "dormant"
    )


def test_next_visit_interest_resets_post_visit():
    signals = PhaseSignals(exchanges_in_phase=1, next_visit_interest=True)
    assert advance_phase("post_visit", signals, NOW).to_phase == "pre_visit"
    assert advance_phase("post_visit", PhaseSignals(exchanges_in_phase=1), NOW) is None


def test_profile_applies_changes_and_resets_counters():
    profile = GuestProfile(guest_uuid="g-5", created_at=NOW - timedelta(days=20))
    profile.record_guest_message(substantive=True, now=NOW)
    change = advance_phase(profile.conversation_phase, PhaseSignals(exchanges_in_phase=1), NOW)
    profile.apply_phase_change(change)
    assert profile.conversation_phase == "active"
    assert profile.phase_state.exchanges == 0 and profile.phase_state.entered_at == NOW
    with pytest.raises(ValueError):
        profile.apply_phase_change(change)  # from pre_visit, no longer the phase
    reset = PhaseChange("post_visit", "pre_visit", "timed", "7 days", NOW)
    profile.phase_state.phase = "post_visit"
    profile.apply_phase_change(reset)
    assert profile.phase_state.arc_started_at == NOW
    assert PhaseChange.from_dict(reset.to_dict()) == reset
    assert reset.span_event()["attributes"]["phase.to"] == "pre_visit"


def test_helpers():
    paths = [
        "core_identity.name",
        "preferences.dining.cuisine_preferences",
        "preferences.dining.dietary_restrictions",
        "visit_context.occasion",
    ]
    assert count_preference_fields(paths) == 3
    assert campaign_reengagement_allowed("dormant", NOW - timedelta(days=7), NOW)
    assert not campaign_reengagement_allowed("dormant", NOW - timedelta(days=6), NOW)
    with pytest.raises(ValueError):
        advance_phase("lost", PhaseSignals(), NOW)


def test_profile_walks_the_phases_from_its_own_counters():
    profile = GuestProfile(guest_uuid="g-7", created_at=NOW - timedelta(days=1))
    profile.set_field("name", "Maria", source="self_reported", confidence=0.95, now=NOW)
    moment = NOW
    for text_is_substantive in (True, True, True):
        moment += timedelta(minutes=5)
        profile.record_guest_message(substantive=text_is_substantive, now=moment)
        change = advance_phase(profile.conversation_phase, profile.phase_signals(moment), moment)
        if change:
            profile.apply_phase_change(change)
    # pre_visit -> active on the first reply, active -> rapport after two more substantive ones.
    assert profile.conversation_phase == "rapport"
    signals = profile.phase_signals(moment, rapport_score=0.7)
    assert signals.identity_known and signals.preference_fields == 0
    assert profile.due_sweep(moment + timedelta(hours=47)) is None
    assert profile.due_sweep(moment + timedelta(hours=48)).to_phase == "dormant"
