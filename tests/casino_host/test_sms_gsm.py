"""GSM 03.38 / UCS-2 encoding, units and segment counts (WP1 item 31, test T10)."""

import pytest

from frontdesk.assistants.casino_host.sms import (
    GSM7_BASIC_TABLE,
    GSM7_EXTENSION_TABLE,
    classify_encoding,
    encoding_of,
    fits_one_sms,
    fold_lookalikes,
    segments_needed,
    units,
)


def test_tables_are_the_standard_ones():
    assert len(GSM7_BASIC_TABLE) == 128
    # A few fixed codes of 3GPP TS 23.038: @ at 0, $ at 2, escape at 0x1B, ¡ at 0x40, à last.
    assert GSM7_BASIC_TABLE[0x00] == "@"
    assert GSM7_BASIC_TABLE[0x02] == "$"
    assert GSM7_BASIC_TABLE[0x1B] == "\x1b"
    assert GSM7_BASIC_TABLE[0x24] == "¤"
    assert GSM7_BASIC_TABLE[0x40] == "¡"
    assert GSM7_BASIC_TABLE[0x60] == "¿"
    assert GSM7_BASIC_TABLE[0x7F] == "à"
    assert sorted(GSM7_EXTENSION_TABLE.values()) == sorted("\x0c^{}\\[~]|€")


@pytest.mark.parametrize(
    "text",
    ["Señor, café, pingüino, à la carte", "Hola ¿qué tal? ¡Bien!", "Ñandu y ñoño", "£5 @ 8", "Δ"],
)
def test_basic_table_texts_are_gsm7(text):
    assert encoding_of(text) == "GSM-7"
    assert classify_encoding(text) == ("GSM-7", 1)


@pytest.mark.parametrize("char", ["á", "í", "ó", "ú", "ç", "🎉", "’", "…", "\t"])
def test_characters_outside_the_tables_force_ucs2(char):
    assert encoding_of(f"Hola {char}") == "UCS-2"


def test_information_in_spanish_is_ucs2():
    assert classify_encoding("información") == ("UCS-2", 1)


@pytest.mark.parametrize("char", list("€[]{}^~\\|"))
def test_extension_characters_count_two(char):
    assert encoding_of(char) == "GSM-7"
    assert units(f"a{char}b") == 4


def test_ucs2_counts_utf16_code_units():
    assert units("🎉") == 2
    assert units("ó🎉") == 3
    assert units("óó") == 2


@pytest.mark.parametrize(
    ("text", "segments"),
    [
        ("", 0),
        ("a" * 160, 1),
        ("a" * 161, 2),
        ("a" * 306, 2),
        ("a" * 307, 3),
        ("a" * 159 + "€", 2),  # 161 units
        ("a" * 158 + "€", 1),  # exactly 160 units
        ("ó" * 70, 1),
        ("ó" * 71, 2),
        ("ó" * 134, 2),
        ("ó" * 135, 3),
        ("🎉" * 35, 1),  # 70 code units
        ("🎉" * 36, 2),
    ],
)
def test_segment_boundaries(text, segments):
    assert segments_needed(text) == segments
    assert fits_one_sms(text) == (segments <= 1)


def test_an_escape_pair_straddling_a_part_boundary_moves_whole():
    # 152 units then "€": the pair would occupy units 153-154, so it opens part 2, and
    # 306 units need 3 parts instead of ceil(306 / 153) = 2.
    text = "a" * 152 + "€" + "a" * 152
    assert units(text) == 306
    assert segments_needed(text) == 3
    assert segments_needed("a" * 151 + "€" + "a" * 153) == 2


def test_a_surrogate_pair_straddling_a_ucs2_boundary_moves_whole():
    text = "ó" * 66 + "🎉" + "ó" * 66
    assert units(text) == 134
    assert segments_needed(text) == 3


def test_fold_lookalikes_turns_smart_punctuation_into_gsm7():
    text = "It’s “great” – really\u00a0great"
    folded = fold_lookalikes(text)
    assert folded == 'It\'s "great" - really great'
    assert encoding_of(text) == "UCS-2"
    assert encoding_of(folded) == "GSM-7"
    assert fold_lookalikes("información") == "información"
