"""Persona envelope: sanitize, the SMS style rules, and violations (WP2 item 24)."""

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from frontdesk.assistants.casino_host.sms import apply_style, sanitize, violations

# The seed's own first messages (L12752-12770) already follow the rules and must not change.
SEED_FIRST_MESSAGES = [
    (
        "Hi! I'm Seven, an AI host at Mohegan Sun. Planning a visit? Reply YES and I'll help "
        "make it special -- dining, shows, exclusive offers. STOP to opt out."
    ),
    (
        "Hey! I'm Seven from Mohegan Sun. Planning a visit? Reply YES and I'll set you up -- "
        "dining, shows, and a little something special. Text STOP anytime."
    ),
    (
        "Hola! Soy Seven, anfitrion AI de Mohegan Sun. Planeas visitarnos? Responde SI y te "
        "ayudo con restaurantes, shows y ofertas. Envia PARA para salir."
    ),
]


def styled(text, **kwargs):
    return apply_style(text, **kwargs).text


# --- sanitize -------------------------------------------------------------------------


def test_sanitize_strips_prompt_leaks_state_dumps_and_markdown():
    raw = "System prompt: **Great** news! plan: {'next': 'ask_name'} Our `spa` is #1_ today."
    assert sanitize(raw) == "Great news! Our spa is 1 today."


def test_sanitize_removes_nested_dumps_placeholders_and_role_labels():
    assert sanitize("Seven: Hi {guest_name}! state: {a: {b: 1}} See you.") == "Hi! See you."
    assert sanitize("Book [here](https://x.com/book) today") == "Book here today"


def test_sanitize_leaves_a_clean_reply_alone():
    text = "Our steakhouse has a great kids menu! Want me to check what's gluten-free?"
    assert sanitize(text) == text


# --- the seed's examples pass untouched -------------------------------------------------


@pytest.mark.parametrize("text", SEED_FIRST_MESSAGES)
def test_seed_first_messages_break_no_rule(text):
    assert violations(text) == []
    reply = apply_style(text)
    assert reply.text == text and reply.changes == ()


# --- one rule at a time: a case that changes and one that must not ------------------------


def test_at_most_one_question_keeps_the_first():
    reply = apply_style("What food do you like? How many people? Any allergies?")
    assert reply.text == "What food do you like?"
    assert "question" in reply.rules
    assert styled("Our Italian place is lovely. How many in your party?") == (
        "Our Italian place is lovely. How many in your party?"
    )


def test_spanish_question_marks_count_once():
    assert violations("¿Le gustaría reservar una mesa?") == []
    assert styled("¿A qué hora? ¿Cuántas personas?") == "¿A qué hora?"


def test_run_of_question_marks_collapses():
    assert styled("Really?? Want a table?!") == "Really?"


def test_at_most_one_exclamation_later_ones_become_periods():
    assert styled("Great choice! See you soon!!") == "Great choice! See you soon."
    assert styled("¡Hola! ¡Bienvenida a Mohegan Sun!") == "¡Hola! Bienvenida a Mohegan Sun."
    assert styled("Great choice! See you soon.") == "Great choice! See you soon."


def test_all_caps_words_are_lowered_but_acronyms_and_keywords_stay():
    assert styled("GREAT NEWS, your VIP table is ready") == "Great news, your VIP table is ready"
    assert styled("I'M SO EXCITED FOR YOU") == "I'm so excited for you"
    assert styled("Text STOP to opt out, HELP for help, or MENU for dining.") == (
        "Text STOP to opt out, HELP for help, or MENU for dining."
    )
    assert styled("Sunday at 8 PM works, ATM by the door.") == (
        "Sunday at 8 PM works, ATM by the door."
    )


def test_a_casino_can_keep_its_own_brand_in_caps():
    assert styled("Dinner at TAO tonight") == "Dinner at tao tonight"
    assert styled("Dinner at TAO tonight", keep_caps=["TAO"]) == "Dinner at TAO tonight"


def test_urls_are_removed_and_a_sentence_pointing_at_one_goes():
    reply = apply_style("Our steakhouse opens at 5. See the menu at https://mohegansun.com/menu.")
    assert reply.text == "Our steakhouse opens at 5."
    assert "url" in reply.rules
    assert styled("Book online at www.example.com today! We have tables.") == "We have tables."
    assert (
        styled("Email vip@mohegansun.com for details.") == "Email vip@mohegansun.com for details."
    )


def test_line_breaks_are_joined_into_one_line():
    reply = apply_style("Great choice\nWant a table?")
    assert reply.text == "Great choice. Want a table?"
    assert styled("Options:\n- Spa\n- Jazz show\n- Dinner") == "Options: Spa, Jazz show, Dinner"
    assert styled("We have a spa, a pool, and a jazz show.") == (
        "We have a spa, a pool, and a jazz show."
    )


def test_ellipses_become_a_dash_or_a_period():
    assert styled("Let me check... one moment") == "Let me check - one moment"
    assert styled("See you then…") == "See you then."
    assert styled("Hmm... Great pick.") == "Hmm. Great pick."
    assert styled("See you at 8.30 tonight.") == "See you at 8.30 tonight."


def test_numbers_as_digits_where_they_count_something():
    assert styled("A table for four guests at seven pm.") == "A table for 4 guests at 7 pm."
    assert styled("Dos personas a las ocho.") == "2 personas a las 8."
    assert styled("Dinner at seven.") == "Dinner at 7."
    # Not a count: the persona's name, "one of", "no one", Spanish "una mesa".
    unchanged = "I'm Seven, one of the hosts. No one waits long. Tenemos una mesa."
    assert styled(unchanged) == unchanged


def test_the_guest_name_only_once_and_only_at_the_start():
    assert styled("Maria, the spa is open. Maria, want a table?", guest_name="Maria") == (
        "Maria, the spa is open. Want a table?"
    )
    assert styled("Our steakhouse, Maria, is perfect for you.", guest_name="Maria") == (
        "Our steakhouse is perfect for you."
    )
    assert styled("Enjoy your dinner, Maria!", guest_name="María") == "Enjoy your dinner!"
    assert styled("Hi Maria, your table is ready.", guest_name="Maria") == (
        "Hi Maria, your table is ready."
    )
    # "Will" the guest is not the verb "will".
    assert styled("Will, I will book it.", guest_name="Will") == "Will, I will book it."


def test_the_name_is_added_after_a_bare_greeting_on_a_first_message_only():
    text = SEED_FIRST_MESSAGES[0]
    first = apply_style(text, guest_name="Maria", first_message=True)
    assert first.text.startswith("Hi Maria! I'm Seven")
    assert first.max_parts == 1
    later = apply_style(text, guest_name="Maria")
    assert later.text == text and later.max_parts == 2


def test_emoji_removed_unless_allowed_then_one():
    assert styled("Great choice 🎉 see you soon 👍🏽") == "Great choice see you soon"
    assert styled("Great choice 🎉🎉", emoji_allowed=True) == "Great choice 🎉"
    assert styled("See you soon 👨‍👩‍👧", emoji_allowed=True) == "See you soon 👨‍👩‍👧"


def test_an_all_caps_name_gets_its_own_casing_back():
    assert styled("MARÍA, YOUR TABLE IS READY", guest_name="María") == (
        "María, your table is ready"
    )


# --- violations ------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "rule"),
    [
        ("Want a table? How many?", "question"),
        ("¿Mesa? ¿Para cuántos?", "question"),
        ("Great! See you!", "exclamation"),
        ("GREAT news", "caps"),
        ("Menu at https://x.com/menu", "url"),
        ("Menu at mohegansun.com", "url"),
        ("See you\nsoon", "line_break"),
        ("Well... ok", "ellipsis"),
        ("Well… ok", "ellipsis"),
        ("Table for four guests", "number"),
        ("Great 🎉", "emoji"),
    ],
)
def test_violations_finds_each_rule(text, rule):
    assert rule in violations(text)
    assert rule in apply_style(text).rules
    assert violations(apply_style(text).text) == []


def test_violations_of_the_name_rule():
    assert violations("The spa is open, Maria.", guest_name="Maria") == ["name"]
    assert violations("Maria, see you. Bye Maria.", guest_name="Maria") == ["name"]
    assert violations("Maria, see you.", guest_name="Maria") == []
    assert violations("Great 🎉", emoji_allowed=True) == []


TOKENS = st.sampled_from(
    ["great", "GREAT", "NEWS", "VIP", "STOP", "table", "Maria", "María,", "four", "guests",
     "at", "seven", "pm", "What?", "¿Qué", "tal?", "wow!", "¡Hola!", "...", "…", "\n", "- ",
     "https://x.com/a", "mohegansun.com", "🎉", "👍🏽", "I'M", "so", "tonight.", "la", "mesa",
     "dos", "personas", "one", "of", "Hi", "Hi!", "Seven", ",", "?", "!", "??", "—", "8",
     "PM.", "Dr.", "the", "spa", "MARIA", "Hi Maria,", "\n1. ", "NON-STOP", "VIP-ONLY",
     '"Wow!"', "(see", "x.com/menu)", "p.m.", "A", "TABLE", "¡¡", "¿¿", "?!", "Visit", "...?",
     "👨‍👩‍👧", "once", "noches", "a las", "tres", "Will", "ÉXITO"]
)  # fmt: skip


@settings(max_examples=300, deadline=None)
@given(st.lists(TOKENS, min_size=1, max_size=30), st.booleans(), st.booleans())
def test_styled_text_breaks_no_rule_and_styling_again_changes_nothing(tokens, emoji, first):
    text = " ".join(tokens)
    reply = apply_style(text, guest_name="Maria", emoji_allowed=emoji, first_message=first)
    assert violations(reply.text, guest_name="Maria", emoji_allowed=emoji) == []
    again = apply_style(reply.text, guest_name="Maria", emoji_allowed=emoji)
    assert again.text == reply.text
    assert "..." not in reply.text and "…" not in reply.text
