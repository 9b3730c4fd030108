"""Outbound shaping of the SMS channel: the human-like delay (WP1 item 33, T12) and the carrier
risk score with its rewording (item 46, T13). Issue 19."""

from __future__ import annotations

import random

import pytest

from frontdesk.assistants.casino_host.channel.carrier_risk import carrier_risk, check_for_carriers
from frontdesk.assistants.casino_host.channel.timing import (
    TIMING_PROFILES,
    delays_for,
    human_delay,
    message_type,
)

# -- delay (T12) ------------------------------------------------------------------------------


def test_every_delay_is_between_one_and_three_seconds():
    rng = random.Random(7)
    texts = ["ok", "x" * 80, "y" * 160, "z" * 320]
    samples = [
        human_delay(text, kind, rng)
        for _ in range(1000 // (len(TIMING_PROFILES) * len(texts)) + 1)
        for kind in TIMING_PROFILES
        for text in texts
    ]
    assert len(samples) >= 1000
    assert min(samples) >= 1.0 and max(samples) <= 3.0
    # Not a constant: the profiles and the jitter still show within the clamp.
    assert max(samples) - min(samples) > 1.5


def test_the_second_sms_waits_a_multi_segment_pause():
    rng = random.Random(11)
    for _ in range(500):
        first, second = delays_for(["a" * 153, "b" * 120], "question", rng)
        assert 1.0 <= first <= 3.0
        assert 1.5 <= second <= 3.0


@pytest.mark.parametrize(
    ("text", "flags", "kind"),
    [
        ("Hi, this is Seven, the AI host.", {"first_of_session": True}, "greeting"),
        ("Please call the helpline.", {"sensitive": True}, "sensitive"),
        ("x" * 170, {}, "multi_segment"),
        ("Sorry, I had that wrong: it opens at 5.", {}, "apology"),
        ("You qualify for a complimentary dessert.", {}, "offer"),
        ("Let me check the show times for you.", {}, "lookup"),
        ("Great, see you then.", {}, "acknowledgment"),
        ("Bobby Flay's opens at 5 PM. Would you like the menu?", {}, "question"),
    ],
)
def test_the_message_type_rules(text, flags, kind):
    values = {"first_of_session": False, "sensitive": False, **flags}
    assert message_type(text, **values) == kind


# -- carrier risk (T13) -----------------------------------------------------------------------


def test_a_spammy_text_scores_one_and_is_reworded():
    spam = "LIMITED TIME!!! Get $50 at https://x.co"
    risk = carrier_risk(spam)
    assert risk.score == 1.0 and risk.blocked
    checked = check_for_carriers(spam)
    assert checked.reworded and checked.sendable
    assert "http" not in checked.text and "!" not in checked.text and "LIMITED" not in checked.text


def test_a_plain_text_scores_zero_and_a_repeat_adds_point_four():
    plain = "See you Saturday at 7pm"
    assert carrier_risk(plain).score == 0.0
    recent = ["Welcome back!", plain, "a", "b", "c"]
    assert carrier_risk(plain, recent).score == 0.4
    # Only the last five count.
    assert carrier_risk(plain, [plain, "a", "b", "c", "d", "e"]).score == 0.0


def test_names_in_capitals_are_not_shouting():
    assert carrier_risk("Reply STOP to opt out. I'm Seven, your AI host.").score == 0.0


def test_the_block_threshold_is_above_point_six():
    # A repeat of a recent text with a dollar amount scores exactly 0.6: still sendable.
    sent = "Your $25 dining credit is ready."
    at_threshold = check_for_carriers(sent, [sent])
    assert at_threshold.risk.score == pytest.approx(0.6) and at_threshold.sendable
    # Shouted, with a link (0.7), reworded it is that same text again: 0.6, sent.
    linked = check_for_carriers("YOUR $25 dining credit is ready at https://x.co/d!!", [sent])
    assert linked.reworded and linked.text == sent and linked.sendable


def test_a_text_still_risky_after_rewording_is_not_sent():
    # Urgency stays in the words (rewording never cuts words out): repeat 0.4 + dollar 0.2 +
    # urgency 0.15.
    sent = "Your $25 credit expires Sunday."
    checked = check_for_carriers("Your $25 credit expires Sunday! https://x.co", [sent])
    assert checked.reworded and checked.text == sent
    assert checked.risk.score == pytest.approx(0.75) and not checked.sendable


def test_rewording_keeps_the_sentence_whole():
    checked = check_for_carriers(
        "Your $25 dining credit is ready. It EXPIRES Sunday: https://x.co/d"
    )
    assert checked.text == "Your $25 dining credit is ready. It Expires Sunday."
