"""Planned visit dates: relative and absolute EN/ES forms resolved against `now` (local).

A small resolver rather than `dateparser`: dateparser needs pytz, misses "next weekend",
"el sábado" and "el 14 de marzo", and resolves "on the 14th" into the past.
"""

from __future__ import annotations

import re
from datetime import date, timedelta

from .fields import CONTEXTUAL, HINTED, IMPLIED, SELF_REPORTED, STATED, VISIT_DATE
from .text import NUMBER, Hit, Message, in_past_clause, overlaps, parse_number

# A date mentioned up to this many days before today is a past date, not a date next year.
_RECENT_PAST_DAYS = 60

_MONTHS = {
    "january": 1, "jan": 1, "enero": 1,
    "february": 2, "feb": 2, "febrero": 2,
    "march": 3, "mar": 3, "marzo": 3,
    "april": 4, "apr": 4, "abril": 4,
    "may": 5, "mayo": 5,
    "june": 6, "jun": 6, "junio": 6,
    "july": 7, "jul": 7, "julio": 7,
    "august": 8, "aug": 8, "agosto": 8,
    "september": 9, "sept": 9, "sep": 9, "septiembre": 9, "setiembre": 9,
    "october": 10, "oct": 10, "octubre": 10,
    "november": 11, "nov": 11, "noviembre": 11,
    "december": 12, "dec": 12, "diciembre": 12,
}  # fmt: skip
_MONTH = r"(?P<month>" + "|".join(sorted(_MONTHS, key=len, reverse=True)) + r")\.?"
_WEEKDAYS = {
    "monday": 0, "lunes": 0,
    "tuesday": 1, "tues": 1, "martes": 1,
    "wednesday": 2, "miercoles": 2,
    "thursday": 3, "thurs": 3, "jueves": 3,
    "friday": 4, "viernes": 4,
    "saturday": 5, "sabado": 5,
    "sunday": 6, "domingo": 6,
}  # fmt: skip
_WEEKDAY = r"(?P<weekday>" + "|".join(sorted(_WEEKDAYS, key=len, reverse=True)) + r")"
_DAY = r"(?P<day>[0-3]?\d)(?:st|nd|rd|th|º|o)?"
_YEAR = r"(?P<year>20\d\d)"

_ISO = re.compile(r"\b(?P<year>20\d\d)-(?P<m>\d\d)-(?P<d>\d\d)\b")
_NUMERIC = re.compile(
    r"(?<![\d/$.])(?P<a>\d{1,2})/(?P<b>\d{1,2})(?:/(?P<y>\d{2}|\d{4}))?(?![\d/%])"
)
_MONTH_DAY = re.compile(rf"\b{_MONTH} {_DAY}\b(?:,? {_YEAR})?(?!:|\d| ?(?:am|pm)\b)")
_DAY_MONTH = re.compile(rf"\b{_DAY} (?:of |de )?{_MONTH}\b(?:,? (?:de |del )?{_YEAR})?")
_DAY_ONLY = re.compile(
    r"\b(?:(?:on )?the (?P<day>[0-3]?\d)(?:st|nd|rd|th)|el (?:dia )?(?P<day_es>[0-3]?\d))\b"
    r"(?!:|\d| ?(?:am|pm|de la|hs|horas|floor|row|level|time|round|hole|person|guest|"
    r"anniversary|birthday|aniversario|cumpleanos|por ciento|%)\b)"
)
_RELATIVE_DAY = re.compile(
    r"\b(?P<word>day after tomorrow|pasado manana|today|tonight|this (?:evening|afternoon)|"
    r"tomorrow|tmrw|tmr|tomorow|hoy|esta noche|esta tarde|manana|yesterday|ayer|anoche)\b"
)
_RELATIVE_OFFSETS = {
    "day after tomorrow": 2, "pasado manana": 2,
    "tomorrow": 1, "tmrw": 1, "tmr": 1, "tomorow": 1, "manana": 1,
    "yesterday": -1, "ayer": -1, "anoche": -1,
}  # fmt: skip
_MORNING = re.compile(r"\b(?:la|las|por la|en la|de la|esta|cada) $")
_IN_PERIOD = re.compile(
    rf"\b(?:in|en|dentro de) (?P<n>{NUMBER}|a|an|un|una) (?P<unit>days?|weeks?|dias|semanas?)\b"
)
_WEEKEND = re.compile(
    r"\b(?P<which>this|next|the|este|el proximo|el|last|past) (?P<noun>weekend|fin de semana)"
    r"(?P<after> que viene| pasado| proximo)?\b"
)
_WEEKDAY_PHRASE = re.compile(
    rf"\b(?P<which>this|next|coming|last|past|on|este|el proximo|el|proximo|this coming)? ?"
    rf"{_WEEKDAY}(?P<after> que viene| pasado| proximo| next week| de la semana que viene)?\b"
)
_HOLIDAYS = {
    r"christmas eve|nochebuena": (12, 24),
    r"christmas|xmas|navidad": (12, 25),
    r"new year'?s eve|nye|nochevieja|fin de ano": (12, 31),
    r"new year'?s(?: day)?|ano nuevo": (1, 1),
    r"valentine'?s(?: day)?|san valentin": (2, 14),
    r"halloween": (10, 31),
}
_THANKSGIVING = re.compile(r"\b(?:thanksgiving|dia de accion de gracias)\b")

_VISIT_CUE = re.compile(
    r"\b(?:coming|come|visit|visiting|be there|be in|be up|arrive|arriving|stay|staying|"
    r"check ?in|checking in|trip|headed|heading|drive|driving|fly|flying|book|booking|booked|"
    r"bring|bringing|dinner|lunch|brunch|cenar|cena|comer|almorzar|"
    r"reservation|reserve|table|we'll|we will|i'll|planning|plan to|going|see you|get there|"
    r"vamos|iremos|ir|llegamos|llegaremos|llego|estaremos|visitar|venimos|vendremos|voy|"
    r"reservar|reservacion|reserva|mesa|viaje|quedarnos|hospedarnos|planeamos|pensamos)\b"
)


def _upcoming(today: date, weekday: int) -> date:
    return today + timedelta(days=(weekday - today.weekday()) % 7)


def _weekday_date(today: date, weekday: int, which: str, after: str) -> tuple[date | None, bool]:
    """(date, ambiguous). "next Saturday" said early in a week means next week's Saturday."""
    if which in ("last", "past") or after == " pasado":
        return None, False
    upcoming = _upcoming(today, weekday)
    if which == "next" or after == " next week" or after == " de la semana que viene":
        # The upcoming day is still "this <day>" if it falls before the coming Sunday.
        days_to_sunday = 6 - today.weekday()
        in_this_week = (upcoming - today).days <= days_to_sunday and upcoming != today
        return (
            upcoming + timedelta(days=7) if in_this_week or upcoming == today else upcoming
        ), True
    return upcoming, False


def _weekend_date(today: date, which: str, after: str) -> tuple[date | None, bool]:
    if which in ("last", "past") or after == " pasado":
        return None, False
    saturday = today - timedelta(days=1) if today.weekday() == 6 else _upcoming(today, 5)
    this_weekend = today if today.weekday() in (5, 6) else saturday
    if which == "next":
        return saturday + timedelta(days=7), True
    if which == "el proximo" or after in (" que viene", " proximo"):
        # Spanish "el próximo fin de semana" usually means the coming one.
        return (saturday + timedelta(days=7) if today.weekday() in (5, 6) else saturday), False
    return this_weekend, False


def _month_day(today: date, month: int, day: int, year: int | None) -> date | None:
    """A month/day without a year rolls into next year unless it was only just passed."""
    try:
        candidate = date(year or today.year, month, day)
    except ValueError:
        return None
    if year is not None or candidate >= today:
        return candidate
    if (today - candidate).days <= _RECENT_PAST_DAYS:
        return candidate  # a recent past date: reported as past below
    try:
        return date(today.year + 1, month, day)
    except ValueError:
        return None


def _day_of_month(today: date, day: int) -> date | None:
    """ "the 14th" is this month's 14th if not yet passed, else next month's."""
    year, month = today.year, today.month
    for _ in range(2):
        try:
            candidate = date(year, month, day)
        except ValueError:
            candidate = None
        if candidate is not None and candidate >= today:
            return candidate
        year, month = (year + 1, 1) if month == 12 else (year, month + 1)
    return None


def _thanksgiving(year: int) -> date:
    first = date(year, 11, 1)
    return first + timedelta(days=(3 - first.weekday()) % 7 + 21)


def find_visit_date(message: Message) -> list[Hit]:
    """The first future date in the message; past dates and past-tense clauses give nothing."""
    folded, today = message.folded, message.now.date()
    candidates: list[tuple[int, int, date | None, bool]] = []  # start, end, date, ambiguous
    taken: list[tuple[int, int]] = []

    def add(start: int, end: int, value: date | None, ambiguous: bool = False) -> None:
        if overlaps((start, end), taken):
            return
        taken.append((start, end))
        candidates.append((start, end, value, ambiguous))

    for match in _ISO.finditer(folded):
        add(match.start(), match.end(), _safe_date(*map(int, match.group("year", "m", "d"))))
    for match in _NUMERIC.finditer(folded):
        first, second = int(match["a"]), int(match["b"])
        if (first, second) == (24, 7):
            continue  # "open 24/7"
        month, day = (second, first) if message.language == "es" else (first, second)
        year = _full_year(match["y"])
        add(match.start(), match.end(), _month_day(today, month, day, year))
    for pattern in (_MONTH_DAY, _DAY_MONTH):
        for match in pattern.finditer(folded):
            # "May 5" is a date but "I may 2" is not; "mar" is also Spanish for "sea".
            ambiguous_month = match["month"] in ("may", "mar") and not match.group(0)[0].isdigit()
            if ambiguous_month and not message.is_capitalised(match.start()):
                continue
            month = _MONTHS[match["month"]]
            year = int(match["year"]) if match["year"] else None
            add(match.start(), match.end(), _month_day(today, month, int(match["day"]), year))
    for pattern, (month, day) in _HOLIDAYS.items():
        for match in re.finditer(rf"\b(?:{pattern})\b", folded):
            add(match.start(), match.end(), _month_day(today, month, day, None))
    for match in _THANKSGIVING.finditer(folded):
        holiday = _thanksgiving(today.year)
        if holiday < today - timedelta(days=_RECENT_PAST_DAYS):
            holiday = _thanksgiving(today.year + 1)
        add(match.start(), match.end(), holiday)
    for match in _DAY_ONLY.finditer(folded):
        day = int(match["day"] or match["day_es"])
        add(match.start(), match.end(), _day_of_month(today, day) if 1 <= day <= 31 else None)
    for match in _RELATIVE_DAY.finditer(folded):
        word = match["word"]
        if word == "manana" and _MORNING.search(folded[max(0, match.start() - 8) : match.start()]):
            continue  # "por la mañana" is "in the morning"
        add(match.start(), match.end(), today + timedelta(days=_RELATIVE_OFFSETS.get(word, 0)))
    for match in _IN_PERIOD.finditer(folded):
        count = 1 if match["n"] in ("a", "an", "un", "una") else parse_number(match["n"])
        if count is None:
            continue
        weeks = match["unit"].startswith(("week", "semana"))
        add(match.start(), match.end(), today + timedelta(days=count * (7 if weeks else 1)))
    for match in _WEEKEND.finditer(folded):
        value, ambiguous = _weekend_date(today, match["which"] or "", match["after"] or "")
        add(match.start(), match.end(), value, ambiguous)
    absolute_starts = [start for start, *_ in candidates]
    for match in _WEEKDAY_PHRASE.finditer(folded):
        if any(0 <= start - match.end() <= 5 for start in absolute_starts):
            continue  # "el viernes 4 de diciembre": the date itself says which Friday
        weekday = _WEEKDAYS[match["weekday"]]
        value, ambiguous = _weekday_date(
            today, weekday, (match["which"] or "").strip(), match["after"] or ""
        )
        add(match.start(), match.end(), value, ambiguous)

    for start, end, value, ambiguous in sorted(candidates, key=lambda c: c[0]):
        if value is None or value < today or in_past_clause(folded, start):
            continue
        if _VISIT_CUE.search(folded):
            confidence, source = (IMPLIED, CONTEXTUAL) if ambiguous else (STATED, SELF_REPORTED)
        else:
            confidence, source = (HINTED, CONTEXTUAL)
        return [Hit(VISIT_DATE, value.isoformat(), confidence, source, start, end)]
    return []


def _safe_date(year: int, month: int, day: int) -> date | None:
    try:
        return date(year, month, day)
    except ValueError:
        return None


def _full_year(token: str | None) -> int | None:
    if not token:
        return None
    return int(token) + 2000 if len(token) == 2 else int(token)
