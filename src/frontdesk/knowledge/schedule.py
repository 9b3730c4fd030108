"""Opening hours for one day, read from a week's schedule ("Sun-Thu 11:30 AM-9:00 PM; ...").

Asked "is it open on Monday?", a small model has to find Monday inside "Wed-Sun ...; closed
Mon-Tue" and usually gets it wrong. Working out which segment covers a day is plain code, so
the assistant does it and hands the model the answer as one more sentence of context, built
only from the item's own text (the grounding check still holds).
"""

from __future__ import annotations

import re
from typing import Any

from frontdesk.knowledge.dates import in_english_day_words

DAY_NAMES = ["Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday"]
_ABBREVIATIONS = [name[:3].casefold() for name in DAY_NAMES]
_DAY = r"(mon|tue|wed|thu|fri|sat|sun)(?:day|sday|nesday|rsday|urday)?s?"
_SEGMENT = re.compile(
    rf"^(closed\s+)?(?:(daily)|{_DAY}(?:\s*-\s*{_DAY})?)\b\s*(.*)$", re.IGNORECASE
)
# "Hours: Sun-Thu 11:30 AM-9:00 PM; Fri-Sat 11:30 AM-10:00 PM." in a formatted item.
_HOURS_FIELD = re.compile(r"\b(?:Hours|Schedule): ([^.]+)\.")
_RELATIVE = {"today": 0, "tonight": 0, "now": 0, "tomorrow": 1}


def _day_range(start: str, end: str | None) -> list[int]:
    first = _ABBREVIATIONS.index(start[:3].casefold())
    last = _ABBREVIATIONS.index(end[:3].casefold()) if end else first
    return [(first + i) % 7 for i in range((last - first) % 7 + 1)]


def hours_by_day(schedule: str) -> dict[int, list[str]]:
    """Day index (0 = Monday) -> what the schedule says for that day, segment by segment.

    Segments that name no days ("on event days open until show time") are left out: a day
    missing from the result is a day the schedule does not state, not a day it is closed.
    """
    days: dict[int, list[str]] = {}
    for segment in schedule.split(";"):
        match = _SEGMENT.match(segment.strip())
        if not match:
            continue
        closed, daily, start, end, rest = match.groups()
        text = "closed" if closed else rest.strip()
        if not text:
            continue
        for day in range(7) if daily else _day_range(start, end):
            days.setdefault(day, []).append(text)
    return days


def asked_days(question: str, current_time: str = "") -> list[int]:
    """Days a question asks about: named weekdays, or today/tonight/tomorrow relative to
    `current_time` (which starts with the weekday, "Monday, November 23, 2026, ...")."""
    words = re.findall(r"[a-z]+", in_english_day_words(question.casefold()))
    days = [
        i
        for i, name in enumerate(DAY_NAMES)
        if any(w in (name.casefold(), name.casefold() + "s") for w in words)
    ]
    today = next((i for i, name in enumerate(DAY_NAMES) if current_time.startswith(name)), None)
    if today is not None:
        days += [(today + offset) % 7 for word, offset in _RELATIVE.items() if word in words]
    return sorted(set(days))


def day_hours_note(name: str, content: str, days: list[int]) -> str | None:
    """One sentence with `name`'s hours on `days`, from the hours in `content`; None if the
    content has no schedule that states any of those days."""
    field = _HOURS_FIELD.search(content)
    if not field or not days:
        return None
    by_day = hours_by_day(field.group(1))
    sentences = []
    for day in (d for d in days if d in by_day):
        hours = [h for h in by_day[day] if h != "closed"]
        if hours:
            sentences.append(f"On {DAY_NAMES[day]}, {name} is open {' and '.join(hours)}.")
        else:
            sentences.append(f"On {DAY_NAMES[day]}, {name} is closed.")
    return " ".join(sentences) or None


def with_day_hours(
    results: list[dict[str, Any]], question: str, current_time: str = ""
) -> list[dict[str, Any]]:
    """Retrieval results with each item's hours on the asked days put first in its content
    (new dicts; the results are not changed). Unchanged when the question asks about no day."""
    days = asked_days(question, current_time)
    if not days:
        return results
    annotated = []
    for doc in results:
        note = day_hours_note(doc["metadata"].get("item_name", "It"), doc["content"], days)
        annotated.append({**doc, "content": f"{note}\n{doc['content']}"} if note else doc)
    return annotated


_DAY_NOTE = re.compile(rf"On ({'|'.join(DAY_NAMES)}), (.+?) is (closed|open [^\n]*?)\.(?=\s|$)")
_SAYS_CLOSED = re.compile(
    r"\b(closed|not open|isn'?t open|doesn'?t open|does not open|no,)", re.IGNORECASE
)
_SAYS_OPEN = re.compile(r"^\s*yes\b|\bopens?\b", re.IGNORECASE)


def day_hours_conflicts(answer: str, context: list[str]) -> list[str]:
    """The day-hours notes (from `with_day_hours`) that `answer` contradicts.

    "Yes, it is open on Monday" beside "On Monday, Beauty & Essex is closed." is the mistake a
    small model makes most with schedules; both sides are plain text, so it is caught in code.
    An answer that names other days too is left alone: which clause is about which day is not
    something a pattern can tell.
    """
    named = set(asked_days(answer))
    says_closed = bool(_SAYS_CLOSED.search(answer))
    says_open = bool(_SAYS_OPEN.search(_SAYS_CLOSED.sub(" ", answer)))
    conflicts = []
    for text in context:
        for match in _DAY_NOTE.finditer(text):
            if not named <= {DAY_NAMES.index(match.group(1))}:
                continue
            closed = match.group(3) == "closed"
            if (closed and says_open and not says_closed) or (
                not closed and says_closed and not says_open
            ):
                conflicts.append(match.group(0))
    return conflicts


_CLOCK = re.compile(
    r"\b(\d{1,2})(?::(\d{2}))?\s*([ap])\.?\s?m\b\.?|\b(noon|midnight)\b", re.IGNORECASE
)


def _clock_times(text: str) -> set[str]:
    """The times of day in `text`, as 24-hour "HH:MM" ("12:00 AM" and "midnight" are 00:00)."""
    found = set()
    for hour, minute, half, word in _CLOCK.findall(text):
        if word:
            found.add("12:00" if word.casefold() == "noon" else "00:00")
            continue
        value = int(hour) % 12 + (12 if half.casefold() == "p" else 0)
        found.add(f"{value:02d}:{minute or '00'}")
    return found


def wrong_day_hours(sentence: str, items: list[tuple[str, str]]) -> str | None:
    """The right hours for a sentence that gives one day's hours from another day.

    "The pub is open 11:30 AM to 12:00 AM on Saturday" beside "Sun-Thu 11:30 AM-12:00 AM;
    Fri-Sat 11:30 AM-2:00 AM": the times are the schedule's, but another day's. The sentence
    names one weekday and only times the schedule of an item (`items`: name, formatted
    content) gives somewhere, not on that day: the item's own sentence for that day replaces
    it. None when the sentence is right, or not a statement of one day's hours."""
    days = asked_days(sentence)
    said = _clock_times(sentence)
    if len(days) != 1 or not said:
        return None
    named = [(n, c) for n, c in items if n and n.casefold() in sentence.casefold()]
    for name, content in named or items:
        field = _HOURS_FIELD.search(content)
        by_day = hours_by_day(field.group(1)) if field else {}
        if days[0] not in by_day:
            continue
        on_day = _clock_times(" ".join(by_day[days[0]]))
        if said <= _clock_times(field.group(1)) and not said <= on_day:
            return day_hours_note(name, content, days)
    return None
