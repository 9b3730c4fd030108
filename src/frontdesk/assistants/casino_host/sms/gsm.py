"""SMS character encoding: the GSM 03.38 alphabet, UCS-2 fallback and segment counting.

An SMS is encoded GSM-7 when every character is in the GSM 03.38 default alphabet (basic table
plus extension table), otherwise UCS-2. The seed's two sketches (seed §3.5, §9.15) are
both wrong about the alphabet (one lacks £ ñ é ü à Ñ, the other admits all of Latin-1); the
README settles it: the real tables, with ñ é ü à basic, á í ó ú not, and the extension
characters counting two units (escape + code).

Limits (seed §3.5): one segment holds 160 GSM-7 units or 70 UCS-2 units; a concatenated
message loses room to its header and holds 153 / 67 units per segment.
"""

from __future__ import annotations

from typing import Literal

Encoding = Literal["GSM-7", "UCS-2"]
GSM7: Encoding = "GSM-7"
UCS2: Encoding = "UCS-2"

GSM7_SINGLE_UNITS = 160
GSM7_CONCATENATED_UNITS = 153
UCS2_SINGLE_UNITS = 70
UCS2_CONCATENATED_UNITS = 67

# 3GPP TS 23.038 (formerly GSM 03.38) section 6.2.1, the default 7-bit alphabet, indexed by
# code: row n holds codes 16n..16n+15. Code 0x1B is the escape to the extension table, not a
# character. 0x09 is the capital C-cedilla the standard shows; a small ç is not in the table
# (providers differ on it, so it is counted as UCS-2, the safe side).
GSM7_BASIC_TABLE = (
    "@£$¥èéùìòÇ\nØø\rÅå"
    "Δ_ΦΓΛΩΠΨΣΘΞ\x1bÆæßÉ"
    " !\"#¤%&'()*+,-./"
    "0123456789:;<=>?"
    "¡ABCDEFGHIJKLMNO"
    "PQRSTUVWXYZÄÖÑÜ§"
    "¿abcdefghijklmno"
    "pqrstuvwxyzäöñüà"
)

# 3GPP TS 23.038 section 6.2.1.1, the extension table: code after the escape -> character.
# Each costs two units (escape + code). 0x0A is a page break (form feed).
GSM7_EXTENSION_TABLE = {
    0x0A: "\x0c",
    0x14: "^",
    0x28: "{",
    0x29: "}",
    0x2F: "\\",
    0x3C: "[",
    0x3D: "~",
    0x3E: "]",
    0x40: "|",
    0x65: "€",
}

GSM7_BASIC_CHARS = frozenset(GSM7_BASIC_TABLE) - {"\x1b"}
GSM7_EXTENSION_CHARS = frozenset(GSM7_EXTENSION_TABLE.values())
GSM7_CHARS = GSM7_BASIC_CHARS | GSM7_EXTENSION_CHARS

# Characters a model (or a word processor) writes where a GSM-7 character means the same.
# One of them in an English reply would switch the whole SMS to UCS-2 and cut its room from
# 160 to 70 units, so split_sms folds them before counting. Accented Spanish letters are not
# folded: they change the spelling, and the seed accepts 2 UCS-2 SMS for Spanish (seed §9.15).
# The ellipsis "…" is not folded either: it is a style breach that apply_style removes.
LOOKALIKES = {
    "\u2018": "'",  # left single quotation mark
    "\u2019": "'",  # right single quotation mark, the usual apostrophe of a model
    "\u201a": "'",  # single low-9 quotation mark
    "\u201b": "'",  # single high-reversed-9 quotation mark
    "\u2032": "'",  # prime
    "\u00b4": "'",  # acute accent used as an apostrophe
    "`": "'",  # grave accent: not in the GSM alphabet (0x60 is ¿)
    "\u201c": '"',  # left double quotation mark
    "\u201d": '"',  # right double quotation mark
    "\u201e": '"',  # double low-9 quotation mark
    "\u201f": '"',  # double high-reversed-9 quotation mark
    "\u2033": '"',  # double prime
    "\u00ab": '"',  # « (Spanish quotes)
    "\u00bb": '"',  # »
    "\u2010": "-",  # hyphen
    "\u2011": "-",  # non-breaking hyphen
    "\u2012": "-",  # figure dash
    "\u2013": "-",  # en dash
    "\u2014": "-",  # em dash
    "\u2015": "-",  # horizontal bar
    "\u2212": "-",  # minus sign
    "\t": " ",  # tab: not in the GSM alphabet
    "\u00a0": " ",  # no-break space
    "\u2002": " ",  # en space
    "\u2003": " ",  # em space
    "\u2004": " ",
    "\u2005": " ",
    "\u2006": " ",
    "\u2007": " ",  # figure space
    "\u2008": " ",
    "\u2009": " ",  # thin space
    "\u200a": " ",  # hair space
    "\u202f": " ",  # narrow no-break space (French and some time formats)
    "\u3000": " ",  # ideographic space
    "\u2028": "\n",  # line separator
    "\u2029": "\n",  # paragraph separator
    "\u200b": "",  # zero-width space
    "\u2060": "",  # word joiner
    "\ufeff": "",  # byte-order mark / zero-width no-break space
}
_LOOKALIKE_TRANSLATION = str.maketrans(LOOKALIKES)


def fold_lookalikes(text: str) -> str:
    """Replace look-alike punctuation and spaces by their GSM-7 equivalents (see LOOKALIKES)."""
    return text.translate(_LOOKALIKE_TRANSLATION)


def encoding_of(text: str) -> Encoding:
    """GSM-7 when every character is in the GSM 03.38 basic or extension table, else UCS-2."""
    return GSM7 if all(char in GSM7_CHARS for char in text) else UCS2


def _char_units(char: str, encoding: Encoding) -> int:
    if encoding == GSM7:
        return 2 if char in GSM7_EXTENSION_CHARS else 1
    # UCS-2 as sent is UTF-16: a character outside the BMP (most emoji) is a surrogate pair.
    return 2 if ord(char) > 0xFFFF else 1


def units(text: str) -> int:
    """Length in the text's own encoding: GSM-7 septets (extension characters 2) or UTF-16
    code units (an emoji outside the BMP 2)."""
    encoding = encoding_of(text)
    return sum(_char_units(char, encoding) for char in text)


def single_limit(encoding: Encoding) -> int:
    """Units one unconcatenated SMS holds in this encoding (160 or 70)."""
    return GSM7_SINGLE_UNITS if encoding == GSM7 else UCS2_SINGLE_UNITS


def concatenated_limit(encoding: Encoding) -> int:
    """Units one part of a concatenated SMS holds in this encoding (153 or 67)."""
    return GSM7_CONCATENATED_UNITS if encoding == GSM7 else UCS2_CONCATENATED_UNITS


def segments_needed(text: str) -> int:
    """Segments a provider bills for `text` sent as one message; 0 for an empty text.

    Up to 160/70 units is one segment. Beyond that the parts hold 153/67 units each, and a
    two-unit character (an escape pair in GSM-7, a surrogate pair in UCS-2) is never split
    across two parts: it moves whole to the next one, as handsets and providers do. So the
    count can exceed ceil(units / 153) by one when such a character straddles a boundary.
    """
    if not text:
        return 0
    encoding = encoding_of(text)
    if units(text) <= single_limit(encoding):
        return 1
    per_part = concatenated_limit(encoding)
    parts, used = 1, 0
    for char in text:
        cost = _char_units(char, encoding)
        if used + cost > per_part:
            parts, used = parts + 1, 0
        used += cost
    return parts


def classify_encoding(text: str) -> tuple[Encoding, int]:
    """(encoding, segments) in one call, the shape of the seed's classify_encoding (seed §3.5)."""
    return encoding_of(text), segments_needed(text)


def fits_one_sms(text: str) -> bool:
    """True when `text` goes out as a single unconcatenated SMS (≤160 GSM-7 or ≤70 UCS-2)."""
    return segments_needed(text) <= 1
