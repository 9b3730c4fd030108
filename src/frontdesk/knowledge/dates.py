"""The days a question asks about ("this weekend", "tonight", "on December 12", "next Friday"),
worked out from the turn's date.

A small model cannot do calendar arithmetic; picking the dated entries that fall in a range is
plain code once the range is known. Every rule is relative to `today`, which the caller takes
from its clock (a setting in tests), never from the system clock here.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import date, timedelta

WEEKDAYS = ["monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday"]
# Words that say when, not what ("poker tournaments tomorrow" asks for poker tournaments).
_RELATIVE_DAY_WORDS = """today tonight tonite tomorrow tmrw tomorow weekend week morning
    afternoon evening night now later soon"""
WHEN_WORDS = frozenset([*WEEKDAYS, *_RELATIVE_DAY_WORDS.split()])
MONTHS = [
    "january",
    "february",
    "march",
    "april",
    "may",
    "june",
    "july",
    "august",
    "september",
    "october",
    "november",
    "december",
]
_MONTH = r"(jan|feb|mar|apr|may|jun|jul|aug|sep|sept|oct|nov|dec)[a-z]*\.?"
_MONTH_DAY = re.compile(rf"\b{_MONTH}\s+(\d{{1,2}})(?:st|nd|rd|th)?\b")
_DAY_MONTH = re.compile(rf"\b(\d{{1,2}})(?:st|nd|rd|th)?\s+(?:of\s+)?{_MONTH}(?!\w)")
_IN_MONTH = re.compile(rf"\b(?:in|during|for|this|next)\s+{_MONTH}(?!\s*\d)")
_WEEKDAY = re.compile(
    r"\b(this|next|on|coming)?\s*(mon|tues?|wed(?:nes)?|thu(?:rs)?|fri|sat(?:ur)?|sun)(?:day)?s?\b"
)
# The guests of a resort ask in Spanish too ("¿abre el lunes?", "y mañana?"). Their day words
# are read as the English ones, so one set of rules works the dates out. "Mañana" after "la"
# is the morning ("por la mañana"), not tomorrow; "pasado mañana" is the day after.
_SPANISH_DAYS = (
    (r"pasado\s+ma[nñ]ana", "in two days"),
    (r"esta\s+noche", "tonight"),
    (r"(?:este|el)\s+fin(?:de)?\s*(?:de\s+)?semana", "this weekend"),
    (r"(?:la\s+)?pr[oó]xima\s+semana|la\s+semana\s+que\s+viene", "next week"),
    (r"esta\s+semana", "this week"),
    (r"hoy", "today"),
    (r"(?<!la\s)ma[nñ]ana", "tomorrow"),
    (r"lunes", "monday"),
    (r"martes", "tuesday"),
    (r"mi[eé]rcoles", "wednesday"),
    (r"jueves", "thursday"),
    (r"viernes", "friday"),
    (r"s[aá]bados?", "saturday"),
    (r"domingos?", "sunday"),
    (r"(?:el\s+)?pr[oó]ximo", "next"),
    # and as texts spell them
    (r"tmrw?|tmrr?ow|2morrow|tomorow|tommorow|tommorrow", "tomorrow"),
    (r"tonite|2nite|2night", "tonight"),
    (r"tdy|2day", "today"),
)
_SPANISH_DAY = [
    (re.compile(rf"(?<!\w){spanish}(?!\w)"), english) for spanish, english in _SPANISH_DAYS
]


def _names_a_day(match: re.Match[str]) -> bool:
    """Whether a weekday match names a day: a bare "sun" is one only with "on", "this",
    "next" or a part of the day ("sun brunch"), since a casino is called Mohegan Sun and "the
    sun" is out."""
    bare = match.group(0).strip() == "sun"
    return not bare or bool(_PART_OF_DAY.match(match.string, match.end()))


_PART_OF_DAY = re.compile(r"\s+(?:night|morning|afternoon|evening|brunch|lunch|dinner)\b")


def in_english_day_words(text: str) -> str:
    """`text` (lower case) with its Spanish day words, and the ones texts shorten ("tmrw"),
    in plain English: "abre el lunes?" -> "abre el monday?"."""
    for pattern, english in _SPANISH_DAY:
        text = pattern.sub(english, text)
    return text


@dataclass(frozen=True)
class DateRange:
    start: date
    end: date  # inclusive
    label: str  # how the question put it: "this weekend", "on Saturday, December 12"

    def __contains__(self, day: date) -> bool:
        return self.start <= day <= self.end

    def describe(self) -> str:
        if self.start == self.end:
            return (
                self.label
                if self.label.startswith("on ")
                else f"{self.label} ({long_date(self.start)})"
            )
        return f"{self.label} ({long_date(self.start)} to {long_date(self.end)})"


def long_date(day: date) -> str:
    return f"{WEEKDAYS[day.weekday()].capitalize()}, {MONTHS[day.month - 1].capitalize()} {day.day}"


def _month(name: str) -> int:
    return next(i for i, m in enumerate(MONTHS, start=1) if m.startswith(name[:3]))


def _next_date(today: date, month: int, day: int) -> date | None:
    """`month`/`day` this year, or next year once this year's has passed."""
    for year in (today.year, today.year + 1):
        try:
            candidate = date(year, month, day)
        except ValueError:
            return None
        if candidate >= today:
            return candidate
    return None


def asked_range(question: str, today: date) -> DateRange | None:
    """The dates `question` asks about, relative to `today`; None when it names none."""
    text = in_english_day_words(question.casefold().replace("\u2019", "'"))
    if re.search(r"\bin two days\b", text):
        day = today + timedelta(days=2)
        return DateRange(day, day, f"on {long_date(day)}")
    if re.search(r"\b(tonight|today|this evening)\b", text):
        return DateRange(today, today, "tonight" if "tonight" in text else "today")
    if re.search(r"\btomorrow\b", text):
        day = today + timedelta(days=1)
        return DateRange(day, day, "tomorrow")
    if match := re.search(r"\b(this|next|the|coming)?\s*weekend\b", text):
        # Friday evening counts as the weekend at a resort; "this weekend" on a Sunday is today.
        saturday = today + timedelta(days=(5 - today.weekday()) % 7)
        if today.weekday() == 6:
            saturday = today - timedelta(days=1)
        if match.group(1) == "next":
            saturday += timedelta(days=7)
        start = max(today, saturday - timedelta(days=1))
        return DateRange(start, saturday + timedelta(days=1), f"{match.group(1) or 'this'} weekend")
    if match := re.search(r"\b(this|next)\s+week\b", text):
        monday = today - timedelta(days=today.weekday())
        if match.group(1) == "next":
            monday += timedelta(days=7)
        return DateRange(max(today, monday), monday + timedelta(days=6), f"{match.group(1)} week")
    for pattern, order in ((_MONTH_DAY, (0, 1)), (_DAY_MONTH, (1, 0))):
        if match := pattern.search(text):
            month, day = match.group(order[0] + 1), match.group(order[1] + 1)
            found = _next_date(today, _month(month), int(day))
            if found:
                return DateRange(found, found, f"on {long_date(found)}")
    if match := _IN_MONTH.search(text):
        month = _month(match.group(1))
        if today.month == month:
            start = today
        else:
            start = date(today.year + (month < today.month), month, 1)
        following = date(start.year + start.month // 12, start.month % 12 + 1, 1)
        return DateRange(
            start, following - timedelta(days=1), f"in {MONTHS[month - 1].capitalize()}"
        )
    if match := next(filter(_names_a_day, _WEEKDAY.finditer(text)), None):
        qualifier, name = match.group(1), match.group(2)
        weekday = next(i for i, w in enumerate(WEEKDAYS) if w.startswith(name[:3]))
        ahead = (weekday - today.weekday()) % 7
        if qualifier == "next" and ahead == 0:
            ahead = 7
        day = today + timedelta(days=ahead)
        return DateRange(day, day, f"on {long_date(day)}")
    return None
