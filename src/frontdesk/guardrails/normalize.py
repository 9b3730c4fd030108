"""Text normalisation that runs before any injection pattern is matched.

Attackers dodge keyword filters with look-alike characters (fullwidth "ｉｇｎｏｒｅ", Cyrillic
"о" for Latin "o"), invisible characters ("ig\u200bnore"), odd spacing, leetspeak ("1gn0r3")
and spaced-out letters ("i g n o r e"). Two views are produced:

* `normalize_text` — the canonical view every pattern is matched against: NFKC, invisible and
  control characters removed, case-folded, confusable letters mapped to Latin, whitespace
  collapsed. It keeps digits and punctuation, so it stays readable in logs.
* `deobfuscate` — a second, more aggressive view (leetspeak undone inside words, spaced-out
  letters joined). It is only matched when the canonical view found nothing, because undoing
  leetspeak everywhere would turn "table for 4" into "table for a".
"""

from __future__ import annotations

import re
import unicodedata

# Cyrillic and Greek letters that render like Latin ones (after case-folding). Mapping them
# only affects matching: a real Russian or Greek sentence still matches no English pattern.
_CONFUSABLES = str.maketrans(
    "авеёкмнорстухіїјѕԁԛԝһӏαβεικνορτυχɡıʟɪ",
    "abeekmhopctyxiijsdqwhlabeikvoptuxgili",
)

# Characters that survive NFKC but should not split or join words when matching.
_QUOTES = str.maketrans("‘’‚‛‹›“”„«»", "''''''\"\"\"\"\"")

_HORIZONTAL_SPACE = re.compile(r"[^\S\n]+")
_BLANK_LINES = re.compile(r"\s*\n\s*")

# Leetspeak digits/symbols, undone only inside tokens that also contain letters.
_LEET = str.maketrans("01345789@$!|+", "oieastbgasilt")
_LEET_CHARS = frozenset("01345789@$!|+")
_TOKEN = re.compile(r"\S+")
_NUMBER_WITH_UNIT = re.compile(
    r"[$€£]?\d+(?:[.,:]\d+)*"
    r"(?:am|pm|h|hr|hrs|st|nd|rd|th|g|k|m|km|mi|mb|gb|kg|lb|lbs|oz|min|mins|s|x|p|yo|ish)"
)
# Three or more single letters separated by one space, dot, dash, underscore or star:
# "i g n o r e", "i.g.n.o.r.e". Two or more spaces between runs mark a word boundary.
_SPACED_LETTERS = re.compile(r"(?<![^\s])(?:[^\W\d_][ .\-_*]){2,}[^\W\d_](?![^\s])")


def _is_kept_char(char: str) -> bool:
    """Drop format characters (zero-width space/joiner, BOM, bidi overrides), control and
    private-use characters, and combining accents, but keep the ordinary whitespace that
    separates words and lines."""
    if char in "\n\t ":
        return True
    category = unicodedata.category(char)
    return not (category in ("Cf", "Cc", "Co", "Cs", "Mn") or char in "\u2028\u2029")


# ASCII control characters other than tab and line breaks.
_ASCII_CONTROL = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f]")


def _require_str(text: object) -> str:
    if not isinstance(text, str):
        raise TypeError(f"expected the message text as str, got {type(text).__name__}")
    return text


def visible_text(text: str) -> str:
    """NFKC with invisible and control characters removed, case and accents kept: the view
    for detectors that look at character shapes rather than words."""
    text = _require_str(text)
    if text.isascii():  # Fast path: ASCII is already NFKC; only control characters to drop.
        return _ASCII_CONTROL.sub("", text)
    text = unicodedata.normalize("NFKC", text)
    return "".join(
        char
        for char in text
        if char in "\n\t " or unicodedata.category(char) not in ("Cf", "Cc", "Co", "Cs")
    )


def _canonical(text: str) -> str:
    """Everything but whitespace collapsing, so `deobfuscate` can still see double spaces."""
    text = _require_str(text).replace("\r\n", "\n").replace("\r", "\n")
    if text.isascii():  # Fast path for most messages: nothing to fold but case.
        return _ASCII_CONTROL.sub("", text).lower()
    # NFKC folds fullwidth and other compatibility forms; NFD then splits accents off so they
    # can be dropped: Spanish patterns are written without accents and match "instrucción"
    # and "instruccion" alike.
    text = unicodedata.normalize("NFD", unicodedata.normalize("NFKC", text))
    text = "".join(char for char in text if _is_kept_char(char))
    text = unicodedata.normalize("NFC", text)
    return text.casefold().translate(_CONFUSABLES).translate(_QUOTES)


def _collapse_whitespace(text: str) -> str:
    text = _HORIZONTAL_SPACE.sub(" ", text)
    return _BLANK_LINES.sub("\n", text).strip()


def normalize_text(text: str) -> str:
    """Canonical matching view: NFKC, invisible/control characters and accents removed,
    case-folded, confusables mapped to Latin, runs of spaces collapsed (line breaks kept, so
    line-start role markers such as "system:" can still be recognised)."""
    return _collapse_whitespace(_canonical(text))


def _undo_leet(token: str) -> str:
    if not any(char.isalpha() for char in token) or not any(c in _LEET_CHARS for c in token):
        return token
    if _NUMBER_WITH_UNIT.fullmatch(token.rstrip("!?.,;:")):  # "7pm", "24h", "3rd", "5g"
        return token
    # Keep the punctuation that ends a sentence ("ignore!") out of the translation.
    core = token.rstrip("!?.,;:")
    return core.translate(_LEET) + token[len(core) :]


def _join_spaced_letters(text: str) -> str:
    return _SPACED_LETTERS.sub(lambda match: re.sub(r"[ .\-_*]", "", match.group(0)), text)


def deobfuscate(text: str) -> str:
    """Aggressive matching view: the canonical view plus spaced-out letters joined
    ("i g n o r e" -> "ignore") and leetspeak undone inside words that mix letters with
    digits or symbols ("1gn0r3" -> "ignore")."""
    canonical = _canonical(text)
    # Two or more spaces (or a line break) separate spelled-out words: "i g n o r e  a l l".
    parts = re.split(r"[^\S\n]{2,}|\n", canonical)
    joined = " ".join(_join_spaced_letters(part) for part in parts)
    return _collapse_whitespace(_TOKEN.sub(lambda match: _undo_leet(match.group(0)), joined))
