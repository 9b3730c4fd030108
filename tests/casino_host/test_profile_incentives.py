"""Incentive tiers and offer rules (items 34-35, D13-D15, G17)."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from frontdesk.assistants.casino_host.profile import (
    GuestProfile,
    IncentivePolicy,
    OfferHistory,
    PastOffer,
    completeness,
    decide_incentive,
    grant,
)

NOW = datetime(2026, 3, 17, 9, 0, tzinfo=UTC)
ENGAGED = OfferHistory(substantive_exchanges=4, guest_replies=4)


def _profile(*, email: bool = True) -> GuestProfile:
    """Completeness 0.4525: name .95, visit date .90, party size .85, email .90."""
    profile = GuestProfile(guest_uuid="g-4", created_at=NOW - timedelta(days=3))
    profile.set_field("name", "Maria", source="self_reported", confidence=0.95, now=NOW)
    profile.set_field("visit_date", "2026-04-10", source="self_reported", confidence=0.90, now=NOW)
    profile.set_field("party_size", 4, source="self_reported", confidence=0.85, now=NOW)
    if email:
        grant(profile, "marketing", granted_via="incentive_exchange", now=NOW - timedelta(days=2))
        profile.set_field("email", "m@x.com", source="incentive_exchange", confidence=0.9, now=NOW)
    return profile


def _rich_profile(*, email: bool = True) -> GuestProfile:
    profile = _profile(email=email)
    for name, value in [
        ("cuisine", ["steak"]),
        ("interests", ["comedy"]),
        ("occasion", "anniversary"),
        ("language", "en"),
        ("companions", [{"relationship": "spouse"}]),
        ("gaming_level", "casual"),
    ]:
        profile.set_field(name, value, source="self_reported", confidence=1.0, now=NOW)
    profile.confirm("name", NOW)
    profile.confirm("visit_date", NOW)
    return profile


def test_g17_completeness_045_with_email_gets_at_most_freeplay():
    profile = _profile()
    assert completeness(profile) == pytest.approx(0.4525)
    decision = decide_incentive(profile, ENGAGED, NOW)
    assert decision.should_offer
    assert decision.tier == "freeplay" and decision.value_usd == 25
    assert decision.redemption_instruction
    assert decision.offer_text.startswith("We'd love to welcome you with $25 in free play")
    assert "hotel" in decision.blocked_by and "vip" in decision.blocked_by


def test_without_email_the_same_guest_gets_dining():
    decision = decide_incentive(_profile(email=False), ENGAGED, NOW)
    assert decision.tier == "dining" and decision.value == "a $10 dining credit"


def test_g17_rg_flagged_guest_never_gets_a_gaming_incentive():
    for profile in (_profile(), _rich_profile()):
        profile.mark_responsible_gaming(NOW)
        policy = IncentivePolicy(weekly_cap_usd=500)
        decision = decide_incentive(profile, ENGAGED, NOW, policy=policy)
        assert decision.tier not in ("freeplay", "vip")
        assert decision.tier in ("dining", "hotel")


def test_g17_second_offer_in_an_arc_is_refused():
    profile = _profile()
    first = PastOffer("dining", 10, NOW - timedelta(hours=1), "accepted")
    history = OfferHistory(offers=[first], substantive_exchanges=9, guest_replies=9)
    decision = decide_incentive(profile, history, NOW)
    assert not decision.should_offer and "one_offer_per_arc" in decision.blocked_by
    # The same offer made before this arc began does not block.
    new_arc = OfferHistory(
        offers=[first],
        substantive_exchanges=9,
        guest_replies=9,
        arc_started_at=NOW - timedelta(minutes=30),
    )
    assert decide_incentive(profile, new_arc, NOW).should_offer


def test_g17_weekly_cap_refuses_the_third_offer():
    profile = _profile()
    offers = [
        PastOffer("freeplay", 25, NOW - timedelta(days=6), "accepted"),
        PastOffer("freeplay", 25, NOW - timedelta(days=2), "accepted"),
    ]
    history = OfferHistory(
        offers=offers,
        substantive_exchanges=9,
        guest_replies=9,
        messages_since_last_rejection=None,
        arc_started_at=NOW - timedelta(days=1),
    )
    decision = decide_incentive(profile, history, NOW)
    assert not decision.should_offer
    assert "weekly cap" in decision.blocked_by["dining"]
    # A week later the budget is back.
    assert decide_incentive(profile, history, NOW + timedelta(days=6, hours=1)).should_offer
    # One $25 left this week: dining fits, freeplay does not.
    one = OfferHistory(
        offers=offers[1:],
        substantive_exchanges=9,
        guest_replies=9,
        arc_started_at=NOW - timedelta(days=1),
    )
    assert decide_incentive(profile, one, NOW).tier == "freeplay"
    spent_35 = OfferHistory(
        offers=[*offers[1:], PastOffer("dining", 10, NOW - timedelta(days=1, hours=1), "pending")],
        substantive_exchanges=9,
        guest_replies=9,
        arc_started_at=NOW - timedelta(days=1),
    )
    assert decide_incentive(profile, spent_35, NOW).tier == "dining"


def test_first_offer_needs_three_substantive_exchanges():
    history = OfferHistory(substantive_exchanges=2, guest_replies=5)
    decision = decide_incentive(_profile(), history, NOW)
    assert not decision.should_offer and "min_exchanges" in decision.blocked_by


def test_five_message_cool_off_after_a_rejection():
    rejected = PastOffer("dining", 10, NOW - timedelta(days=9), "rejected")
    arc = NOW - timedelta(days=1)
    for since, allowed in [(None, False), (4, False), (5, True)]:
        history = OfferHistory(
            offers=[rejected],
            substantive_exchanges=9,
            guest_replies=9,
            messages_since_last_rejection=since,
            arc_started_at=arc,
        )
        assert decide_incentive(_profile(), history, NOW).should_offer is allowed


def test_vip_stays_off_under_the_default_cap_and_nj_cooling_off_applies():
    profile = _rich_profile()
    assert completeness(profile) > 0.8
    assert decide_incentive(profile, ENGAGED, NOW).tier == "hotel"
    raised = IncentivePolicy(
        weekly_cap_usd=500, tier_values={"dining": 10, "freeplay": 25, "hotel": 50, "vip": 150}
    )
    assert decide_incentive(profile, ENGAGED, NOW, policy=raised).tier == "vip"
    nj = IncentivePolicy(weekly_cap_usd=500, casino_state="NJ", tier_values=raised.tier_values)
    # Marketing consent was granted 2 days ago: cooling-off is over.
    assert decide_incentive(profile, ENGAGED, NOW, policy=nj).tier == "vip"
    fresh = _rich_profile(email=False)
    assert completeness(fresh) > 0.8
    no_consent = decide_incentive(fresh, ENGAGED, NOW, policy=nj)
    assert no_consent.tier == "hotel" and "cooling-off" in no_consent.blocked_by["vip"]
    grant(fresh, "marketing", granted_via="text_keyword", now=NOW - timedelta(hours=2))
    decision = decide_incentive(fresh, ENGAGED, NOW, policy=nj)
    assert decision.tier == "hotel" and "cooling-off" in decision.blocked_by["vip"]
    assert decide_incentive(fresh, ENGAGED, NOW + timedelta(hours=23), policy=nj).tier == "vip"
    # Outside NJ there is no cooling-off.
    assert decide_incentive(fresh, ENGAGED, NOW, policy=raised).tier == "vip"


def test_readiness_gate_and_copy():
    profile = _profile()
    assert not decide_incentive(profile, ENGAGED, NOW, offer_readiness_score=0.8).should_offer
    decision = decide_incentive(profile, ENGAGED, NOW, offer_readiness_score=0.85)
    text = decision.offer_text.casefold()
    assert decision.should_offer and "qualify" not in text and "earned" not in text
    assert decision.to_dict()["tier"] == "freeplay"


def test_history_round_trip():
    history = OfferHistory(
        offers=(PastOffer("dining", 10, NOW, "rejected"),),
        substantive_exchanges=3,
        guest_replies=4,
        messages_since_last_rejection=2,
        arc_started_at=NOW,
    )
    assert OfferHistory.from_dict(history.to_dict()) == history
