"""split_sms: at most max_parts separate SMS, cut at sentences then words (WP1 item 32)."""

import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from frontdesk.assistants.casino_host.sms import (
    encoding_of,
    fold_lookalikes,
    segments_needed,
    split_sentences,
    split_sms,
    units,
)

SENTENCE_A = "The steakhouse opens at 5 PM and has a great kids menu for the whole family."
SENTENCE_B = "Our seafood spot is right next door and has a patio with a view of the river."
SENTENCE_C = "Want me to check what is gluten free for your group before you come in tonight?"


def _within_limits(parts):
    return all(segments_needed(part) == 1 for part in parts)


def test_short_text_is_one_part_unchanged():
    assert split_sms("See you at 8 PM.") == ["See you at 8 PM."]
    assert split_sms("   ") == []


def test_a_300_character_reply_goes_in_two_sms_within_limits():  # T11
    text = f"{SENTENCE_A} {SENTENCE_B} {SENTENCE_C} {SENTENCE_A}"[:300].rsplit(" ", 1)[0]
    assert 280 <= len(text) <= 300
    parts = split_sms(text)
    assert len(parts) == 2
    assert all(units(part) <= 160 for part in parts)
    assert " ".join(parts).split() == text.split()
    assert "..." not in " ".join(parts) and "…" not in " ".join(parts)


def test_cut_falls_on_a_sentence_end_when_past_40_percent():
    text = f"{SENTENCE_A} {SENTENCE_B} {SENTENCE_C}"
    parts = split_sms(text, max_parts=3)
    assert parts == [SENTENCE_A + " " + SENTENCE_B, SENTENCE_C]


def test_a_sentence_end_before_40_percent_is_not_used_even_when_it_would_fit():
    text = "Yes. " + "we have plenty of tables tonight and " * 4 + "more room."
    assert 160 < len(text) < 200
    parts = split_sms(text)
    assert parts[0] != "Yes."
    assert len(parts) == 2 and _within_limits(parts)


def test_cut_falls_on_a_word_when_the_sentence_end_is_too_early():
    text = "Yes. " + "we have plenty of tables tonight and " * 6 + "more."
    parts = split_sms(text)
    assert not parts[0].endswith("Yes.")
    assert len(parts[0]) > 100
    assert _within_limits(parts)
    assert " ".join(parts).split() == text.split()


def test_overlong_text_is_shortened_at_a_sentence_end_without_ellipsis():
    text = f"{SENTENCE_A} {SENTENCE_B} {SENTENCE_A} {SENTENCE_B} {SENTENCE_A}"
    parts = split_sms(text)
    joined = " ".join(parts)
    assert len(parts) == 2 and _within_limits(parts)
    assert joined.endswith(".")
    assert text.startswith(joined)
    assert "..." not in joined and "…" not in joined


def test_shortening_keeps_the_closing_question():
    text = f"{SENTENCE_A} {SENTENCE_B} {SENTENCE_A} {SENTENCE_B} {SENTENCE_C}"
    parts = split_sms(text)
    assert parts == [f"{SENTENCE_A} {SENTENCE_B}", f"{SENTENCE_A} {SENTENCE_C}"]
    assert _within_limits(parts)


def test_max_parts_one_keeps_whole_sentences_only():
    parts = split_sms(f"{SENTENCE_A} {SENTENCE_C} {SENTENCE_B}", max_parts=1)
    assert parts == [f"{SENTENCE_A} {SENTENCE_C}"]  # 156 units; B would pass 160
    # A closing question is kept in place of the sentences before it.
    parts = split_sms(f"{SENTENCE_A} {SENTENCE_B} {SENTENCE_C}", max_parts=1)
    assert parts == [f"{SENTENCE_A} {SENTENCE_C}"]


def test_a_single_sentence_too_long_is_cut_at_a_word():
    text = "We have " + "lovely " * 60 + "tables"
    parts = split_sms(text)
    assert len(parts) == 2 and _within_limits(parts)
    words = " ".join(parts).split()
    assert words == text.split()[: len(words)]


def test_a_single_overlong_word_is_cut_hard_as_a_last_resort():
    parts = split_sms("x" * 400)
    assert parts == ["x" * 160, "x" * 160]


def test_an_extension_character_at_the_cut_point_stays_whole():
    # 159 units, then "€" (2 units) would end at 161: it must open the next part.
    text = "a" * 159 + "€" + "b" * 20
    parts = split_sms(text)
    assert parts == ["a" * 159, "€" + "b" * 20]
    assert [units(part) for part in parts] == [159, 22]


def test_spanish_ucs2_text_is_split_in_70_unit_parts():
    text = (
        "Le recomiendo nuestro restaurante italiano. "
        "También tenemos música en vivo el sábado por la noche."
    )
    assert encoding_of(text) == "UCS-2"
    parts = split_sms(text)
    assert parts == [
        "Le recomiendo nuestro restaurante italiano.",
        "También tenemos música en vivo el sábado por la noche.",
    ]
    assert all(units(part) <= 70 for part in parts)


def test_each_part_is_encoded_on_its_own():
    english = "Our steakhouse opens at 5 PM tonight and the bar stays open late for a nightcap."
    spanish = "¿Le gustaría una mesa para la cena de aniversario?"
    parts = split_sms(f"{english} {english} {spanish}")
    assert encoding_of(parts[0]) == "GSM-7" and len(parts[0]) > 70
    assert encoding_of(parts[-1]) == "UCS-2"
    assert _within_limits(parts)


def test_curly_quotes_are_folded_so_english_keeps_160_units():
    text = "It’s a " + "great night " * 12 + "out."
    assert encoding_of(text) == "UCS-2"
    parts = split_sms(text)
    assert parts == [fold_lookalikes(text)]
    assert encoding_of(parts[0]) == "GSM-7"


def test_abbreviations_are_not_sentence_ends():
    assert split_sentences("Dinner at 8 p.m. in the lounge. See you!") == [
        "Dinner at 8 p.m. in the lounge.",
        "See you!",
    ]
    assert split_sentences("¿Qué tal? ¡Bien!") == ["¿Qué tal?", "¡Bien!"]


def test_max_parts_must_be_positive():
    with pytest.raises(ValueError):
        split_sms("hi", max_parts=0)


WORDS = st.sampled_from(
    ["the", "steakhouse", "opens", "at", "5", "PM", "mesa", "información", "café", "€20",
     "{table}", "música", "🎉", "great", "a", "I'm", "river-view", "noche", "¿Qué", "tal?",
     "ok.", "tonight!", "niño", "sí,", "x" * 40]
)  # fmt: skip


@settings(max_examples=150, deadline=None)
@given(st.lists(WORDS, min_size=1, max_size=90), st.integers(min_value=1, max_value=3))
def test_parts_fit_and_rejoin_to_a_prefix_of_the_words(words, max_parts):
    text = " ".join(words)
    parts = split_sms(text, max_parts=max_parts)
    assert 1 <= len(parts) <= max_parts
    assert _within_limits(parts)
    assert all(part == part.strip() and part for part in parts)
    kept = " ".join(parts).split()
    if kept != words[: len(kept)]:
        # Shortened with its closing question kept: leading words, then the question's.
        question = split_sentences(text)[-1].split()
        assert kept[-len(question) :] == question
        assert kept[: -len(question)] == words[: len(kept) - len(question)]
    if segments_needed(text) == 1:
        assert parts == [text]


@settings(max_examples=100, deadline=None)
@given(st.text(min_size=0, max_size=500))
def test_any_text_gives_parts_within_limits(text):
    parts = split_sms(text)
    assert len(parts) <= 2
    assert _within_limits(parts)
    kept = re.sub(r"\s", "", "".join(parts))
    assert re.sub(r"\s", "", fold_lookalikes(text)).startswith(kept)
    assert bool(parts) == bool(fold_lookalikes(text).strip())
