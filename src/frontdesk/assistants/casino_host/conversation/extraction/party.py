"""Party size: stated counts ("party of 6", "somos cinco", "2 adults and 3 kids") first, then
the guest plus the companions they are coming with ("me and my wife" = 2).

Numbers that are times, prices, room numbers, durations or ages never count: every pattern
needs a people word or a party phrase next to the number.
"""

from __future__ import annotations

import re

from .companions import Companion
from .fields import CONTEXTUAL, IMPLIED, PARTY_SIZE, SELF_REPORTED, STATED, STATED_EXPLICITLY
from .text import NUMBER, Hit, Message, parse_number

_NOT_PEOPLE = (
    r"(?!\s*(?::\d|am\b|pm\b|a\.m|p\.m|o'?clock|hrs?\b|hours?\b|minutes?\b|mins?\b|nights?\b|"
    r"days?\b|dias\b|noches\b|horas\b|years?\b|yrs?\b|anos\b|%|th\b|st\b|nd\b|rd\b|dollars\b|"
    r"bucks\b|pesos\b|usd\b|\$|de la\b|-?year|ish\b|tonight\b))"
)
_PARTY_PHRASE = re.compile(
    r"\b(?:party|group|family|table|reservation|reservations|booking|dinner|lunch|brunch|breakfast|"
    r"seating|seats|tickets?|reserve|book|room|rez|res)\s+(?:of|for)\s+"
    r"(?:like |about |around |maybe |approximately |approx )?(?P<n>"
    + NUMBER
    + r")\b"
    + _NOT_PEOPLE
    + r"|\b(?:mesa|reserva|reservacion|cena|comida|grupo|familia|boletos|entradas|lugar)\s+(?:para|de)\s+"
    r"(?P<n_es>" + NUMBER + r")\b" + _NOT_PEOPLE
)
_PEOPLE_NOUN = (
    r"(?:people|ppl|persons|guests|pax|folks|of us|adults|adultos|personas|invitados|de nosotros|in (?:our|my|the) "
    r"(?:party|group)|en total|total)"
)
_COUNT_PEOPLE = re.compile(r"\b(?P<n>" + NUMBER + r")\s+" + _PEOPLE_NOUN + r"\b")
_WE_ARE = re.compile(
    r"\b(?:we(?:'re| are|re| will be|'ll be)|somos|seremos|vamos a ser|estaremos)\s+"
    r"(?:a (?:party|group) of\s+|un grupo de\s+|about\s+|around\s+|unos\s+|como\s+)?"
    r"(?P<n>"
    + NUMBER
    + r")\b"
    + _NOT_PEOPLE
    + r"(?!\s+(?:couples?|parejas?|familia|family|group|grupo|minutes|blocks)\b)"
)
_THERE_ARE = re.compile(
    r"\bthere(?:'ll be| will be| are|'re| is|'s) (?P<n>"
    + NUMBER
    + r")\b(?=\s*(?:of us|people|guests|adults|in (?:our|my|the) (?:party|group)|[.,!?]|$))"
)
_COUPLES = re.compile(
    r"\b(?P<n>" + NUMBER + r")\s+(?:couples|parejas)\b"
    r"|\b(?:we(?:'re| are)|somos) (?:a|una) (?P<one>couple|pareja)\b"
)
_SOLO = re.compile(
    r"\b(?:just|only|solo|solamente|nomas)\s+(?:me|myself|yo|for me|para mi)\b"
    r"(?!\s*(?:and|&|\+|y|with|con|plus)\b)|\bby myself\b|\bjust for me\b|"
    r"\bi'?m (?:coming |going |traveling |travelling )?(?:alone|solo)\b|\b(?:voy|ir|iré|ire) sol[oa]\b"
)
_GROUP_WORD = (
    r"(?P<noun>adults?|grown ?ups|kids|children|child|teens|teenagers|boys|girls|babies|"
    r"toddlers|adultos|ninos|ninas|personas|people|guests|bebes|hijos|hijas|mayores|menores)"
)
_GROUP_PART = re.compile(r"(?P<n>" + NUMBER + r")\s+" + _GROUP_WORD + r"\b")
_GROUP_JOIN = re.compile(r"\s*(?:,|and|&|\+|plus|y|e|with|con)\s*(?:,|and|y)?\s*")
_ADULT_NOUNS = frozenset(
    {"adult", "adults", "grown ups", "grownups", "adultos", "personas", "people", "guests",
     "mayores"}
)  # fmt: skip
_WITH_COMPANIONS = re.compile(
    r"\b(?:me and|and me|and i|and myself|just me and|with (?:my|our|a|an|the|\d+|"
    + NUMBER
    + r")|bringing|y yo|yo y|con (?:mi|mis|un|una|los|las|nuestr\w+|\d+|"
    + NUMBER
    + r"))\b|\bme \+|\bmi \w+ y yo\b"
)
_WE = re.compile(r"\b(?:we|we're|we'll|we are|us|our)\b")
_MAX_PARTY = 60


def find_party_size(message: Message, companions: list[Companion]) -> list[Hit]:
    folded = message.folded
    chained = _group_sum(folded)
    if chained:
        return [chained]
    stated = _first_stated(folded)
    if stated:
        return [stated]
    solo = _SOLO.search(folded)
    if solo:
        return [Hit(PARTY_SIZE, 1, STATED, SELF_REPORTED, *solo.span())]
    framing = _WITH_COMPANIONS.search(folded)
    if framing and framing.group(0).startswith("bringing") and _WE.search(folded):
        framing = None  # "we're bringing our 2 kids": how many "we" are is unknown
    if framing and companions and not any(c.group for c in companions):
        size = 1 + len(companions)
        start = min(framing.start(), companions[0].start)
        end = max(framing.end(), companions[-1].end)
        return [Hit(PARTY_SIZE, size, IMPLIED, CONTEXTUAL, start, end)]
    return []


def _first_stated(folded: str) -> Hit | None:
    found: list[Hit] = []
    for pattern, confidence in (
        (_PARTY_PHRASE, STATED_EXPLICITLY),
        (_COUNT_PEOPLE, STATED_EXPLICITLY),
        (_THERE_ARE, STATED),
        (_WE_ARE, STATED),
        (_COUPLES, STATED),
    ):
        for match in pattern.finditer(folded):
            groups = match.groupdict()
            number = groups.get("n") or groups.get("n_es") or ""
            size = 1 if groups.get("one") else parse_number(number)
            if size is None or not 0 < size <= _MAX_PARTY:
                continue
            if (
                pattern is _WE_ARE
                and size >= 18
                and not re.match(r"\s*" + _PEOPLE_NOUN, folded[match.end() :])
            ):
                continue  # "we're 21" is an age
            if pattern is _COUPLES:
                size *= 2
            found.append(Hit(PARTY_SIZE, size, confidence, SELF_REPORTED, *match.span()))
    return min(found, key=lambda hit: hit.start, default=None)


def _group_sum(folded: str) -> Hit | None:
    """ "2 adults and 3 kids" -> 5: a chain of counted groups with at least one adult part."""
    for first in _GROUP_PART.finditer(folded):
        parts = [first]
        position = first.end()
        while True:
            join = _GROUP_JOIN.match(folded, position)
            if not join:
                break
            following = _GROUP_PART.match(folded, join.end())
            if not following:
                break
            parts.append(following)
            position = following.end()
        if len(parts) < 2 or not any(part["noun"] in _ADULT_NOUNS for part in parts):
            continue
        sizes = [parse_number(part["n"]) for part in parts]
        if None in sizes:
            continue
        total = sum(size for size in sizes if size is not None)
        if 0 < total <= _MAX_PARTY:
            return Hit(PARTY_SIZE, total, STATED_EXPLICITLY, SELF_REPORTED, first.start(), position)
    return None
