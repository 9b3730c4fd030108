"""The casino host's routing functions (WP2 items 1-4, G9, G10's routing) and its turn state."""

from __future__ import annotations

from datetime import UTC, datetime
from zoneinfo import ZoneInfo

import pytest
from langgraph.graph import END

from frontdesk.assistants.casino_host.conversation import routing as r
from frontdesk.assistants.casino_host.conversation.state import turn_state


def test_thirteen_known_nodes():
    assert len(r.KNOWN_NODES) == 13


@pytest.mark.parametrize(
    ("outcome", "route"),
    [
        ("blocked", END),
        ("safety", END),
        ("annotate", r.ROUTER),
        ("pass", r.ROUTER),
        (None, r.ROUTER),
    ],
)
def test_after_compliance(outcome, route):
    assert r.route_after_compliance({"compliance_outcome": outcome}) == route


@pytest.mark.parametrize(
    ("query_type", "confidence", "route"),
    [
        ("greeting", 0.9, r.GREETING),
        ("identity_check", 0.9, r.GREETING),
        ("off_topic", 0.9, r.OFF_TOPIC),
        ("ambiguous", 0.9, r.OFF_TOPIC),
        ("domain_query", 0.29, r.OFF_TOPIC),  # G9: under 0.3 is not trusted
        ("domain_query", 0.3, r.HANDOFF_ROUTER),
        ("sensitive", 0.8, r.HANDOFF_ROUTER),
    ],
)
def test_after_router(query_type, confidence, route):
    state = {"query_type": query_type, "router_confidence": confidence}
    assert r.route_after_router(state) == route


@pytest.mark.parametrize(
    ("active", "agent"),
    [
        ("spa", r.ENTERTAINMENT_AGENT),  # G9
        ("xyz", r.HOST_AGENT),  # G9
        ("dining", r.DINING_AGENT),
        ("Dining_Agent", r.DINING_AGENT),
        ("offer", r.COMP_AGENT),
        (None, r.HOST_AGENT),
    ],
)
def test_after_handoff(active, agent):
    assert r.route_after_handoff({"active_agent": active}) == agent


def test_after_validate_allows_one_retry_then_falls_back():
    state = {"active_agent": r.DINING_AGENT}
    assert r.route_after_validate({**state, "validation_result": "PASS"}) == r.PERSONA_ENVELOPE
    assert r.route_after_validate({**state, "validation_result": "RETRY", "retry_count": 1}) == (
        r.DINING_AGENT
    )
    assert r.route_after_validate({**state, "validation_result": "RETRY", "retry_count": 2}) == (
        r.FALLBACK
    )
    assert r.route_after_validate({**state, "validation_result": "FAIL"}) == r.FALLBACK
    assert r.route_after_validate(state) == r.FALLBACK


def test_a_turn_starts_with_every_per_turn_field_reset():
    now = datetime(2026, 11, 25, 19, 30, tzinfo=ZoneInfo("America/New_York"))
    state = turn_state("hi", now=now, casino_id="mohegan_sun", guest_uuid="g-1")
    assert state["retry_count"] == 0 and state["retry_feedback"] is None
    assert state["guardrail_hits"] == [] and state["whisper_plan"] is None
    assert state["current_time"] == "Wednesday, November 25, 2026 07:30 PM EST"
    assert state["messages"][0].content == "hi"
    with pytest.raises(ValueError, match="time zone"):
        turn_state("hi", now=datetime(2026, 11, 25), casino_id="c", guest_uuid="g")
    assert (
        turn_state("hi", now=datetime.now(UTC), casino_id="c", guest_uuid="g")["language"] == "en"
    )


@pytest.mark.parametrize(
    ("query_type", "confidence", "flags", "overruled"),
    [
        ("off_topic", 0.9, {"asks_a_field": True}, True),  # "til when is the pool open today?"
        ("greeting", 0.9, {"leans_on_a_domain_turn": True}, True),  # "y mañana?"
        ("ambiguous", 0.5, {"names_a_venue": True}, True),
        ("identity_check", 0.9, {"asks_a_field": True}, False),  # "are you a bot?" stays
        ("greeting", 0.9, {}, False),  # a plain hello
        ("domain_query", 0.9, {"asks_a_field": True}, False),  # nothing to overrule
        ("domain_query", 0.29, {"asks_a_field": True}, False),  # the seed's G9
        ("domain_query", 0.29, {"leans_on_a_domain_turn": True}, True),  # "and tmrw?"
    ],
)
def test_a_guide_question_the_classifier_missed(query_type, confidence, flags, overruled):
    arguments = {"asks_a_field": False, "names_a_venue": False, "leans_on_a_domain_turn": False}
    assert r.guide_question_after_all(query_type, confidence, **{**arguments, **flags}) is overruled
