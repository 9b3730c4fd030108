"""Text helpers shared by the field finders: folding, number words, clauses and negation.

Every finder matches on `Message.folded` (lower case, accents stripped, same length as the
original), so a match's span also indexes the original text for evidence and capitalisation.
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass
from datetime import datetime

_APOSTROPHES = str.maketrans({"\u2019": "'", "\u2018": "'", "\u02bc": "'", "`": "'"})


def fold(text: str) -> str:
    """Casefold and strip accents character by character, keeping the length unchanged."""
    out = []
    for char in text.translate(_APOSTROPHES):
        base = unicodedata.normalize("NFD", char)[0].lower()
        out.append(base if len(base) == 1 else char)
    return "".join(out)


EN_NUMBERS = {
    "one": 1,
    "two": 2,
    "three": 3,
    "four": 4,
    "five": 5,
    "six": 6,
    "seven": 7,
    "eight": 8,
    "nine": 9,
    "ten": 10,
    "eleven": 11,
    "twelve": 12,
    "thirteen": 13,
    "fourteen": 14,
    "fifteen": 15,
    "sixteen": 16,
    "seventeen": 17,
    "eighteen": 18,
    "nineteen": 19,
    "twenty": 20,
    "a dozen": 12,
}
ES_NUMBERS = {
    "uno": 1,
    "una": 1,
    "dos": 2,
    "tres": 3,
    "cuatro": 4,
    "cinco": 5,
    "seis": 6,
    "siete": 7,
    "ocho": 8,
    "nueve": 9,
    "diez": 10,
    "once": 11,
    "doce": 12,
    "trece": 13,
    "catorce": 14,
    "quince": 15,
    "dieciseis": 16,
    "diecisiete": 17,
    "dieciocho": 18,
    "diecinueve": 19,
    "veinte": 20,
}
_NUMBER_WORDS = {**EN_NUMBERS, **ES_NUMBERS}
# "once" is Spanish 11 but English "once"; it is only read as a number where a noun follows.
NUMBER = r"(?:\d{1,3}|" + "|".join(sorted(_NUMBER_WORDS, key=len, reverse=True)) + r")"


def parse_number(token: str) -> int | None:
    token = token.strip()
    if token.isdigit():
        return int(token)
    return _NUMBER_WORDS.get(token)


# A clause ends at sentence punctuation, a comma or a contrastive conjunction; negation and
# tense never reach across one.
_CLAUSE_BREAK = re.compile(r"[.!?;,\n()]|\b(?:but|pero|aunque|although|though|sino)\b")


def clause_span(folded: str, pos: int) -> tuple[int, int]:
    start = 0
    for match in _CLAUSE_BREAK.finditer(folded, 0, pos):
        start = match.end()
    following = _CLAUSE_BREAK.search(folded, pos)
    end = following.start() if following else len(folded)
    return start, end


_NEGATORS = re.compile(
    r"\b(?:not|no|never|without|none|nor|sin|nunca|ni|tampoco|nada|dont|doesnt|isnt|arent|"
    r"wont|wasnt|werent|cant|cannot)\b|n't\b"
)


def is_negated(folded: str, start: int, window: int = 4) -> bool:
    """Whether a negator sits within `window` words before `start`, inside the same clause."""
    clause_start, _ = clause_span(folded, start)
    words = folded[clause_start:start].split()[-window:]
    return bool(_NEGATORS.search(" ".join(words)))


_PAST_MARKERS = re.compile(
    r"\b(?:was|were|went|came|visited|stayed|had|loved|enjoyed|liked|ate|played|saw|did|"
    r"last|ago|yesterday|fuimos|fui|estuvimos|estuve|vinimos|vine|visitamos|cenamos|comimos|"
    r"jugamos|fue|ayer|anoche)\b"
)
_FUTURE_MARKERS = re.compile(
    r"\b(?:will|'ll|going|gonna|coming|planning|plan|want|wanna|next|book|booking|"
    r"vamos|iremos|vendremos|queremos|pensamos|llegamos|llegaremos|proximo|proxima)\b|'ll\b"
)


def in_past_clause(folded: str, pos: int) -> bool:
    start, end = clause_span(folded, pos)
    clause = folded[start:end]
    return bool(_PAST_MARKERS.search(clause)) and not _FUTURE_MARKERS.search(clause)


@dataclass(frozen=True, slots=True)
class Message:
    """One guest message prepared for the finders."""

    text: str  # NFC-normalised original
    folded: str  # fold(text): same length
    now: datetime  # aware, in the guest's time zone
    language: str  # "en" or "es": decides D/M vs M/D numeric dates

    def evidence(self, start: int, end: int) -> str:
        return self.text[start:end].strip()

    def is_capitalised(self, start: int) -> bool:
        return start < len(self.text) and self.text[start].isupper()


@dataclass(slots=True)
class Hit:
    """A candidate value for one path, before merging."""

    path: str
    value: object
    confidence: float
    source: str
    start: int
    end: int


def terms(*pairs: tuple[str, str]) -> list[tuple[re.Pattern[str], str]]:
    """A vocabulary: (whole-word pattern on folded text, canonical value), most specific first."""
    return [(re.compile(rf"\b(?:{pattern})\b"), value) for pattern, value in pairs]


def overlaps(a: tuple[int, int], spans: list[tuple[int, int]]) -> bool:
    return any(a[0] < end and start < a[1] for start, end in spans)
