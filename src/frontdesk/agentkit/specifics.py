"""The specifics of a text, normalised so that two spellings of one fact compare equal.

Times ("11 PM", "11:00 p.m." -> "11:00pm"), prices ("$1,200.00" -> "1200"), phone numbers
(digits only), dates ("Dec 31" -> "12-31"), other numbers of two digits or more, and counted
quantities ("10,000 seats" -> ("10000", "seat")). The grounding check and its evidence finder
both read answers and context through these.
"""

from __future__ import annotations

import re

from frontdesk.knowledge.dates import MONTHS

_TIME = re.compile(r"\b(1[0-2]|0?[1-9])(?:[:.]([0-5]\d))?\s*([ap])\.?\s?m\b\.?", re.IGNORECASE)
_NAMED_TIME = re.compile(r"\b(noon|midnight)\b", re.IGNORECASE)
_PRICE = re.compile(r"\$\s?(\d{1,3}(?:,\d{3})+|\d+)(?:\.(\d{2}))?")
_PHONE = re.compile(r"(?<!\d)(?:\+?1[-.\s]?)?\(?(\d{3})\)?[-.\s]?(\d{3})[-.\s]?(\d{4})(?!\d)")
_MONTH_DATE = re.compile(
    r"\b(" + "|".join(m[:3] for m in MONTHS) + r")[a-z]*\.?\s+(\d{1,2})(?:st|nd|rd|th)?\b",
    re.IGNORECASE,
)
_ISO_DATE = re.compile(r"\b(\d{4})-(\d{2})-(\d{2})\b")
# Any other number of two digits or more: seats, floors, square feet, tier credits, years.
_QUANTITY = re.compile(r"(?<![\w.,])(\d{1,3}(?:,\d{3})+|\d{2,})(?:\.\d+)?(?![\w,]*\d)")


def times(text: str) -> set[str]:
    found = {f"{int(h)}:{m or '00'}{ap.lower()}m" for h, m, ap in _TIME.findall(text)}
    for word in _NAMED_TIME.findall(text):
        found.add("12:00pm" if word.lower() == "noon" else "12:00am")
    return found


def without_times(text: str) -> str:
    """`text` with its times of day ("6:41 AM", "noon") taken out, the rest as it was."""
    return _NAMED_TIME.sub(" ", _TIME.sub(" ", text))


def prices(text: str) -> set[str]:
    return {
        f"{int(whole.replace(',', ''))}" + (f".{cents}" if cents and cents != "00" else "")
        for whole, cents in _PRICE.findall(text)
    }


def phones(text: str) -> set[str]:
    return {"".join(groups) for groups in _PHONE.findall(text)}


def dates(text: str) -> set[str]:
    found = set()
    for month, day in _MONTH_DATE.findall(text):
        if 1 <= int(day) <= 31:
            found.add(f"{_month_number(month):02d}-{int(day):02d}")
    for _, month, day in _ISO_DATE.findall(text):
        found.add(f"{int(month):02d}-{int(day):02d}")
    return found


def quantities(text: str) -> set[str]:
    """Numbers that are not part of a time, price, phone number or date ("34 floors")."""
    for pattern in (_TIME, _PRICE, _PHONE, _MONTH_DATE, _ISO_DATE):
        text = pattern.sub(" ", text)
    return {match.replace(",", "") for match in _QUANTITY.findall(text)}


# A number and the word it counts: "10,000 seats", "34-story", "42 tables".
_COUNTED = re.compile(r"(?<![\w.,$:])(\d{1,3}(?:,\d{3})+|\d+)[\s-]+([a-z]{3,})\b", re.IGNORECASE)


# Words that follow a number without being what it counts ("opened in 2002 and ...").
_NOT_UNITS = frozenset({"and", "the", "for", "per", "with", "from", "are", "was", "but", "each"})


def singular(word: str) -> str:
    if word.endswith("ies") and len(word) > 4:
        return word[:-3] + "y"
    return word.removesuffix("s")


def counted(text: str) -> set[tuple[str, str]]:
    """(number, unit) pairs, commas dropped and the unit singular: {("10000", "seat")}."""
    pairs = ((number, word.casefold()) for number, word in _COUNTED.findall(text))
    return {(n.replace(",", ""), singular(w)) for n, w in pairs if w not in _NOT_UNITS}


def numbers(text: str) -> set[str]:
    """Every number in `text`, commas dropped: what a quantity may be checked against."""
    return {match.replace(",", "") for match in re.findall(r"\d{1,3}(?:,\d{3})+|\d+", text)}


def _month_number(name: str) -> int:
    prefix = name[:3].lower()
    return next(i for i, m in enumerate(MONTHS, start=1) if m.startswith(prefix))


CHECKS = (
    ("time", times),
    ("price", prices),
    ("phone number", phones),
    ("date", dates),
)


def details(text: str) -> dict[str, set[str]]:
    """The specifics of `text` by kind, as the grounding check names them."""
    found = {kind: extract(text) for kind, extract in CHECKS}
    found["number"] = quantities(text)
    return found
