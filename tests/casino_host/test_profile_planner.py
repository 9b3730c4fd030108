"""Whisper planner rules (items 20-21, 33) and the message signals they read."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from frontdesk.assistants.casino_host.profile import (
    FIELDS,
    GuestProfile,
    ProfileView,
    WhisperPlan,
    estimate_sentiment,
    is_substantive,
    offer_readiness,
    plan_next,
    rapport_score,
)

NOW = datetime(2026, 3, 17, 9, 0, tzinfo=UTC)
TALK = [
    ("host", "Hi, I'm Seven from the casino!"),
    ("guest", "Hey, we're planning a trip soon"),
    ("host", "Wonderful! When are you thinking?"),
    ("guest", "Probably next month with my sister"),
]


def _view(known: dict[str, object], phase: str = "active", **extra) -> ProfileView:
    return ProfileView(
        values=dict(known),
        confidences=dict.fromkeys(known, 0.9),
        conversation_phase=phase,
        **extra,
    )


def test_first_contact_asks_the_name():
    plan = plan_next(_view({}), [("guest", "What's going on this weekend?")], "active", NOW)
    assert plan.next_topic == "name"
    assert plan.extraction_targets == ("core_identity.name",)
    assert plan.reciprocity_flag is False


def test_profiling_order():
    known: dict[str, object] = {}
    expected = ["name", "visit_date", "party_size", "dining", "entertainment", "occasions"]
    fills = {
        "name": "core_identity.name",
        "visit_date": "visit_context.planned_visit_date",
        "party_size": "visit_context.party_size",
        "dining": "preferences.dining.cuisine_preferences",
        "entertainment": "preferences.entertainment.interests",
        "occasions": "visit_context.occasion",
    }
    for topic in expected:
        plan = plan_next(_view(known), TALK, "rapport", NOW)
        assert plan.next_topic == topic, known
        assert plan.extraction_targets and all(p in FIELDS for p in plan.extraction_targets)
        assert fills[topic] in plan.extraction_targets
        known[fills[topic]] = "x"
    # Gaming waits for rapport; companions are last and never asked.
    assert plan_next(_view(known), TALK, "rapport", NOW).next_topic == "companions"
    last = plan_next(_view(known), TALK, "rapport", NOW)
    assert last.reciprocity_flag is False and "Never ask" in last.conversation_note
    assert plan_next(_view(known, "discovery"), TALK, "discovery", NOW).next_topic == "gaming"


def test_gaming_is_never_planned_after_a_responsible_gaming_trigger():
    known = {path: "x" for path in FIELDS if FIELDS[path].topic not in ("gaming", "companions")}
    view = _view(known, "discovery", responsible_gaming_triggered=True)
    talk = [*TALK, ("host", "Any plans?"), ("guest", "I love poker and blackjack")]
    plan = plan_next(view, talk, "discovery", NOW)
    assert plan.next_topic != "gaming"
    assert not any(FIELDS[path].topic == "gaming" for path in plan.extraction_targets)


def test_guest_intent_wins_over_the_order():
    view = _view({"core_identity.name": "Maria"})
    talk = [*TALK, ("host", "Great!"), ("guest", "Where should we have dinner on Saturday?")]
    plan = plan_next(view, talk, "active", NOW)
    assert plan.next_topic == "dining"
    assert "preferences.dining.dietary_restrictions" in plan.extraction_targets
    assert "visit_context.kids_ages" in plan.extraction_targets  # listened for, not asked
    assert plan.reciprocity_flag is True


def test_volunteered_gaming_before_rapport_is_listened_for_not_asked():
    view = _view({"core_identity.name": "Maria"})
    talk = [*TALK, ("host", "Great!"), ("guest", "I mostly play slots honestly")]
    plan = plan_next(view, talk, "active", NOW)
    assert plan.next_topic == "visit_date"
    assert "preferences.gaming.preferred_games" in plan.extraction_targets


def test_negative_guest_gets_no_profiling():
    view = _view({"core_identity.name": "Maria"})
    talk = [*TALK, ("host", "Great!"), ("guest", "This is ridiculous, your staff was rude")]
    plan = plan_next(view, talk, "rapport", NOW)
    assert (plan.next_topic, plan.sentiment_estimate) == ("none", "negative")
    assert plan.extraction_targets == () and plan.offer_readiness_score <= 0.2


def test_offer_ready_needs_completeness_engagement_and_the_right_phase():
    talk = []
    for text in [
        "Love it",
        "We want steak",
        "Comedy show sounds amazing",
        "It's our anniversary",
        "Party of four",
        "Can't wait, thanks!",
    ]:
        talk += [("host", "..."), ("guest", text)]
    view = _view({"core_identity.name": "Maria"}, "discovery", completeness=0.7)
    plan = plan_next(view, talk, "discovery", NOW)
    assert plan.offer_readiness_score > 0.8
    assert plan.next_topic == "offer_ready"
    assert plan.extraction_targets == ("core_identity.email",)
    assert plan_next(view, talk, "rapport", NOW).next_topic != "offer_ready"
    thin = _view({"core_identity.name": "Maria"}, "discovery", completeness=0.5)
    assert plan_next(thin, talk, "discovery", NOW).next_topic != "offer_ready"


def test_readiness_stays_low_before_three_substantive_exchanges():
    assert offer_readiness(1.0, 2, "positive") == 0.3
    assert offer_readiness(0.9, 6, "positive") >= 0.85
    assert offer_readiness(0.9, 6, "negative") <= 0.2


def test_cautious_guest_gets_value_first():
    view = _view({"core_identity.name": "Maria"})
    talk = [*TALK, ("host", "When are you visiting?"), ("guest", "not sure, why do you ask")]
    plan = plan_next(view, talk, "active", NOW)
    assert plan.sentiment_estimate == "cautious"
    assert plan.reciprocity_flag and "2-3 recommendations" in plan.conversation_note
    off = plan_next(view, talk, "active", NOW, reciprocity_enabled=False)
    assert off.reciprocity_flag is False


def test_plan_from_a_real_profile_view_and_message_shapes():
    profile = GuestProfile(guest_uuid="g-6", created_at=NOW - timedelta(days=1))
    profile.set_field("name", "Maria", source="self_reported", confidence=0.95, now=NOW)

    class Msg:
        def __init__(self, type_, content):
            self.type, self.content = type_, content

    messages = [Msg("ai", "Hi!"), {"role": "user", "content": "hello"}, ("guest", "hi again")]
    plan = plan_next(profile.prompt_view(NOW), messages, "active", NOW)
    assert plan.next_topic == "visit_date"
    assert len(plan.conversation_note) <= 200
    assert WhisperPlan.from_dict(plan.to_dict()) == plan


def test_plan_validates_its_fields():
    with pytest.raises(ValueError):
        WhisperPlan("dessert", 0.5, "", "neutral")
    with pytest.raises(ValueError):
        WhisperPlan("none", 0.5, "x" * 201, "neutral")
    with pytest.raises(ValueError):
        WhisperPlan("none", 0.5, "", "neutral", extraction_targets=("kids_ages",))


@pytest.mark.parametrize(
    ("text", "substantive", "sentiment"),
    [
        ("ok", False, "cautious"),
        ("Yes!", False, "cautious"),
        ("Thanks!", False, "positive"),
        ("We love Italian food", True, "positive"),
        ("We're 4 adults coming Friday", True, "neutral"),
        ("not great honestly", True, "cautious"),
        ("Who is this?", True, "cautious"),
        ("This is unacceptable", True, "negative"),
        ("Me encanta la comida italiana", True, "positive"),
    ],
)
def test_message_signals(text, substantive, sentiment):
    assert is_substantive(text) is substantive
    assert estimate_sentiment(text) == sentiment


def test_rapport_score_over_the_last_three_messages():
    assert rapport_score(["We love Italian food"]) == pytest.approx(1 / 3, abs=1e-3)
    warm = ["We love Italian food", "Friday works", "Amazing, thanks"]
    assert rapport_score(warm) > 0.6
    assert rapport_score(["ok", "sure", "fine"]) < 0.6
