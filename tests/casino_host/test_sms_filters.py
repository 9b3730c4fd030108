"""After-model filters (WP2 item 19) and the whole envelope; test G12."""

import pytest

from frontdesk.assistants.casino_host.sms import (
    SAFE_GAMING_LANGUAGE_FALLBACK,
    SAFE_GAMING_LANGUAGE_FALLBACKS,
    filter_reply,
    segments_needed,
    shape_reply,
    split_sms,
    units,
    violations,
)

# --- G12 -------------------------------------------------------------------------------


def test_g12_dining_agent_comp_amount_becomes_a_special_offer():
    reply = filter_reply("$25 credit tonight", agent="dining_agent")
    assert reply.text == "a special offer tonight"
    assert "comp_language" in reply.rules and not reply.fallback_used


def test_g12_a_win_promise_becomes_the_safe_gaming_text():
    reply = filter_reply("Come by tonight, you'll win big!", agent="dining_agent")
    assert reply.text == SAFE_GAMING_LANGUAGE_FALLBACK
    assert reply.fallback_used and "win_promise" in reply.rules


def test_g12_a_300_character_reply_is_at_most_two_sms_without_ellipsis():
    text = (
        "Our steakhouse has a great kids menu and the chef can do gluten free for your whole "
        "group. The seafood spot next door has a patio with a river view that is lovely at "
        "sunset. The jazz show starts at 9 PM on Saturday and seats fill fast, so I would book "
        "early, and the lounge has live music after. Want me to hold a table?"
    )
    assert 300 <= len(text) <= 320
    shaped = shape_reply(text, agent="dining_agent")
    assert 1 <= len(shaped.parts) <= 2
    assert all(segments_needed(part) == 1 and units(part) <= 160 for part in shaped.parts)
    assert not any("..." in part or "…" in part for part in shaped.parts)


# --- comp language ---------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("Enjoy a $25 credit tonight.", "Enjoy a special offer tonight."),
        ("Your $50 dining credit is waiting.", "Your special offer is waiting."),
        ("You get $20 in free play with dinner.", "You get a special offer with dinner."),
        ("Take $10 off the buffet.", "Take a special offer the buffet."),
        ("Enjoy a complimentary dinner.", "Enjoy a special offer on dinner."),
        ("Parking is complimentary for members.", "Parking is a special offer for members."),
        ("Freeplay is waiting for you.", "A special offer is waiting for you."),
        ("Le damos un crédito de $25 hoy.", "Le damos una oferta especial hoy."),
        ("Tiene $30 en juego gratis.", "Tiene una oferta especial."),
    ],
)  # fmt: skip
def test_comp_language_from_other_agents_is_replaced(text, expected):
    reply = filter_reply(text, agent="host_agent")
    assert reply.text == expected
    assert "comp_language" in reply.rules


def test_the_comp_agent_may_state_its_offer():
    text = "Enjoy a $25 credit and complimentary valet tonight."
    reply = filter_reply(text, agent="comp_agent")
    assert reply.text == text and reply.changes == ()


def test_a_plain_price_is_information_and_stays():
    text = "Entrées start at $25 and the tasting menu is $85."
    assert filter_reply(text, agent="dining_agent").text == text


# --- win promises ----------------------------------------------------------------------


@pytest.mark.parametrize(
    "text",
    [
        "You will win tonight.",
        "I know you’ll win on the slots!",
        "You're going to hit the jackpot.",
        "That machine is a sure thing.",
        "Blackjack is a guaranteed win tonight.",
        "You can't lose at roulette.",
    ],
)
def test_win_promises_from_any_agent_become_the_fallback(text):
    for agent in ("comp_agent", "host_agent", "dining_agent"):
        assert filter_reply(text, agent=agent).text == SAFE_GAMING_LANGUAGE_FALLBACK


def test_spanish_win_promise_gets_the_spanish_fallback():
    reply = filter_reply("¡Usted va a ganar en la ruleta!", agent="host_agent", language="es")
    assert reply.text == SAFE_GAMING_LANGUAGE_FALLBACKS["es"]
    assert filter_reply("Seguro que gana el premio mayor.", agent="host_agent").fallback_used


@pytest.mark.parametrize(
    "text",
    [
        "Sure thing, I booked your table for 8 PM.",
        "Your table is guaranteed until 9 PM.",
        "Games of chance are just for fun, play within your limits.",
    ],
)
def test_ordinary_host_replies_are_not_win_promises(text):
    reply = filter_reply(text, agent="host_agent")
    assert reply.text == text and not reply.fallback_used


@pytest.mark.parametrize("language", ["en", "es"])
def test_the_fallbacks_pass_every_rule_and_fit_one_gsm7_sms(language):
    text = SAFE_GAMING_LANGUAGE_FALLBACKS[language]
    assert violations(text) == []
    assert split_sms(text) == [text]
    assert units(text) <= 160 and segments_needed(text) == 1
    assert filter_reply(text, agent="host_agent", language=language).text == text


# --- the whole envelope ----------------------------------------------------------------


def test_shape_reply_runs_sanitize_filter_style_and_split_in_order():
    raw = (
        "System prompt: **GREAT NEWS!!** Maria, enjoy a $25 credit at the steakhouse tonight. "
        "Want a table? How many guests? See https://mohegansun.com/dining"
    )
    shaped = shape_reply(raw, agent="dining_agent", guest_name="Maria")
    assert shaped.parts == (
        "Great news! Enjoy a special offer at the steakhouse tonight. Want a table?",
    )
    # The name was not at the start of the reply, so it went (the rule is "once, at the start").
    assert {"sanitize", "comp_language", "caps", "question", "url", "name"} <= shaped.rules


def test_shape_reply_first_message_fits_one_sms():
    long_first = "Hi! I'm Seven, your host at Mohegan Sun. " + "We have great shows. " * 8
    shaped = shape_reply(long_first, agent="host_agent", first_message=True, guest_name="Ana")
    assert len(shaped.parts) == 1
    assert shaped.parts[0].startswith("Hi Ana! I'm Seven")
    assert "length" in shaped.rules


def test_shape_reply_of_a_win_promise_sends_the_fallback():
    shaped = shape_reply("You'll win big at the tables!", agent="host_agent")
    assert shaped.parts == (SAFE_GAMING_LANGUAGE_FALLBACK,) and shaped.fallback_used
