"""Weekly opening hours: parsed from compact YAML, asked per date, written back as text.

A venue's hours are per weekday, each day a list of periods ("17:00-22:00", or two, "11:00-15:00
brunch" and "17:00-22:00"). A period whose close is not after its open runs past midnight
("16:00-02:00" closes at 2 AM the next day); "24h" is open round the clock. In YAML a key may
name one day ("sun"), a range ("mon-thu", "sun-thu" wraps past the week's end) or "daily", and a
day may appear under more than one key (breakfast daily, dinner "sun-thu"): their periods add up.
Every day must be given, "closed" included, so a misspelt key cannot silently close a venue.

Dates and times are local to the casino: `day_hours` turns one date's periods into aware
datetimes in the casino's time zone, which is what a reply's facts are computed from.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import date, datetime, time, timedelta
from itertools import pairwise
from typing import Any
from zoneinfo import ZoneInfo

from pydantic import BaseModel, ConfigDict, model_validator

DAYS = ("mon", "tue", "wed", "thu", "fri", "sat", "sun")
DAY_NAMES = ("Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun")
_RANGE = re.compile(
    r"^(?P<open>\d{1,2}:\d{2})\s*-\s*(?P<close>\d{1,2}:\d{2})(?:\s+(?P<label>\S.*))?$"
)
_ROUND_THE_CLOCK = {"24h", "24 hours", "open 24 hours"}


def parse_clock(text: str) -> time:
    """ "HH:MM" (24-hour clock; "24:00" is the midnight that ends a day) as a `time`."""
    hours, minutes = (int(part) for part in text.split(":"))
    if hours == 24 and minutes == 0:
        return time(0, 0)
    if not (0 <= hours <= 23 and 0 <= minutes <= 59):
        raise ValueError(f"'{text}' is not a time of day (HH:MM, 00:00-24:00)")
    return time(hours, minutes)


class TimeRange(BaseModel):
    """One opening period of a day: `closes` at or before `opens` means past midnight."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    opens: time
    closes: time
    label: str | None = None  # "brunch", "dinner": what the period is, when a day has several

    @model_validator(mode="before")
    @classmethod
    def _from_text(cls, value: Any) -> Any:
        if not isinstance(value, str):
            return value
        text = value.strip()
        if text.lower() in _ROUND_THE_CLOCK:
            return {"opens": time(0, 0), "closes": time(0, 0)}
        match = _RANGE.match(text)
        if match is None:
            raise ValueError(f"'{value}' is not an opening period like '17:00-22:00' or '24h'")
        return {
            "opens": parse_clock(match["open"]),
            "closes": parse_clock(match["close"]),
            "label": match["label"],
        }

    @property
    def round_the_clock(self) -> bool:
        return self.opens == self.closes == time(0, 0)

    @property
    def past_midnight(self) -> bool:
        return self.closes <= self.opens

    def on(self, day: date, tz: ZoneInfo) -> OpenPeriod:
        opens = datetime.combine(day, self.opens, tzinfo=tz)
        close_day = day + timedelta(days=1) if self.past_midnight else day
        return OpenPeriod(opens, datetime.combine(close_day, self.closes, tzinfo=tz), self.label)

    def text(self) -> str:
        if self.round_the_clock:
            return "open 24 hours"
        span = f"{clock_text(self.opens)}-{clock_text(self.closes)}"
        return f"{span} ({self.label})" if self.label else span


def day_keys(key: str) -> list[str]:
    """The days a YAML key names: "daily", "fri", "mon-thu", "sun-thu" (wrapping)."""
    key = key.strip().lower()
    if key == "daily":
        return list(DAYS)
    first, sep, last = key.partition("-")
    if first not in DAYS or (sep and last not in DAYS):
        raise ValueError(f"'{key}' is not a day, a day range like 'mon-thu', or 'daily'")
    if not sep:
        return [first]
    start, end = DAYS.index(first), DAYS.index(last)
    length = (end - start) % 7 + 1
    return [DAYS[(start + i) % 7] for i in range(length)]


def _periods(value: Any, key: str) -> list[Any]:
    if value is None or (isinstance(value, str) and value.strip().lower() == "closed"):
        return []
    if isinstance(value, (str, dict)):
        return [value]
    if isinstance(value, list):
        return list(value)
    raise ValueError(f"'{key}': give 'closed', a period like '17:00-22:00', or a list of them")


class WeeklyHours(BaseModel):
    """Opening periods per weekday; an empty day is closed."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    mon: tuple[TimeRange, ...]
    tue: tuple[TimeRange, ...]
    wed: tuple[TimeRange, ...]
    thu: tuple[TimeRange, ...]
    fri: tuple[TimeRange, ...]
    sat: tuple[TimeRange, ...]
    sun: tuple[TimeRange, ...]

    @model_validator(mode="before")
    @classmethod
    def _from_day_keys(cls, value: Any) -> Any:
        if isinstance(value, str) and value.strip().lower() in _ROUND_THE_CLOCK:
            value = {"daily": "24h"}
        if not isinstance(value, dict):
            # ValueError, not TypeError: pydantic turns only the former into a field error.
            message = "hours must map days ('mon', 'fri-sat', 'daily') to periods"
            raise ValueError(message)  # noqa: TRY004
        days: dict[str, list[Any]] = {}
        closed: set[str] = set()
        for key, periods in value.items():
            listed = _periods(periods, str(key))
            for day in day_keys(str(key)):
                days.setdefault(day, []).extend(listed)
                if not listed:
                    closed.add(day)
        if missing := [day for day in DAYS if day not in days]:
            raise ValueError(f"no hours for {', '.join(missing)} (write 'closed' for a closed day)")
        if contradicted := sorted((d for d in closed if days[d]), key=DAYS.index):
            raise ValueError(f"{', '.join(contradicted)} given as closed and as open")
        return days

    @model_validator(mode="after")
    def _no_overlap(self) -> WeeklyHours:
        for day in DAYS:
            ranges = self.for_day(day)
            if len(ranges) > 1 and any(r.round_the_clock for r in ranges):
                raise ValueError(f"{day}: '24h' cannot be combined with other periods")
            # A day's periods, as minutes from that day's midnight, must not overlap.
            spans = sorted(_minutes(r) for r in ranges)
            for (_, end), (start, _) in pairwise(spans):
                if start < end:
                    raise ValueError(f"{day}: opening periods overlap")
        return self

    def for_day(self, day: str) -> tuple[TimeRange, ...]:
        return getattr(self, day)

    def on(self, day: date) -> tuple[TimeRange, ...]:
        return self.for_day(DAYS[day.weekday()])

    @property
    def round_the_clock(self) -> bool:
        return all(len(self.for_day(d)) == 1 and self.for_day(d)[0].round_the_clock for d in DAYS)

    def text(self) -> str:
        """ "Mon-Thu 5:00 PM-10:00 PM; Fri-Sat 5:00 PM-11:00 PM; closed Sun", as guests read it."""
        if self.round_the_clock:
            return "Open 24 hours"
        runs = _runs([self.for_day(d) for d in DAYS])
        opened = [(days, ranges) for days, ranges in runs if ranges]
        closed = [days for days, ranges in runs if not ranges]
        parts = [f"{days} " + " and ".join(r.text() for r in ranges) for days, ranges in opened]
        if closed:
            parts.append("closed " + ", ".join(closed))
        return "; ".join(parts)


def _minutes(period: TimeRange) -> tuple[int, int]:
    start = period.opens.hour * 60 + period.opens.minute
    end = period.closes.hour * 60 + period.closes.minute
    return start, end + 24 * 60 if period.past_midnight else end


def _runs(week: list[tuple[TimeRange, ...]]) -> list[tuple[str, tuple[TimeRange, ...]]]:
    """Consecutive days with the same periods, named "Mon-Thu"; "Daily" when all are one. The
    week is read Monday first, but a run that ends on Sunday joins one that starts on Monday,
    so Sunday to Thursday reads "Sun-Thu" as casinos write it."""
    if all(day == week[0] for day in week):
        return [("Daily", week[0])]
    runs: list[list[int]] = []
    for index, periods in enumerate(week):
        if runs and week[runs[-1][-1]] == periods:
            runs[-1].append(index)
        else:
            runs.append([index])
    if len(runs) > 1 and week[runs[0][0]] == week[runs[-1][-1]]:
        runs = [runs[-1] + runs[0], *runs[1:-1]]
    named = []
    for run in runs:
        first, last = DAY_NAMES[run[0]], DAY_NAMES[run[-1]]
        named.append((first if len(run) == 1 else f"{first}-{last}", week[run[0]]))
    return named


def clock_text(moment: time) -> str:
    """ "5:00 PM", "12:00 AM" for midnight: how the casinos write times."""
    hour = moment.hour % 12 or 12
    return f"{hour}:{moment.minute:02d} {'AM' if moment.hour < 12 else 'PM'}"


@dataclass(frozen=True)
class OpenPeriod:
    """One opening period on a date, as aware datetimes in the casino's time zone."""

    opens: datetime
    closes: datetime
    label: str | None = None

    def contains(self, moment: datetime) -> bool:
        return self.opens <= moment < self.closes


@dataclass(frozen=True)
class DayHours:
    """A venue's hours on one local date: its periods (none when closed) and any note."""

    day: date
    periods: tuple[OpenPeriod, ...]
    note: str | None = None

    @property
    def closed(self) -> bool:
        return not self.periods

    @property
    def round_the_clock(self) -> bool:
        return len(self.periods) == 1 and self.periods[0].closes - self.periods[0].opens >= (
            timedelta(hours=24)
        )


def day_hours(
    hours: WeeklyHours,
    day: date,
    tz: ZoneInfo,
    *,
    open_months: tuple[int, ...] | None = None,
    note: str | None = None,
) -> DayHours:
    """`hours` on local date `day`; closed outside `open_months` (a seasonal venue)."""
    if open_months and day.month not in open_months:
        return DayHours(day, (), note)
    return DayHours(day, tuple(period.on(day, tz) for period in hours.on(day)), note)


def require_aware(moment: datetime, what: str = "time") -> datetime:
    """`moment` itself; a naive datetime raises, since which casino's clock it is read on
    decides the answer."""
    if not isinstance(moment, datetime):
        raise TypeError(f"{what} must be a datetime, got {type(moment).__name__}")
    if moment.tzinfo is None or moment.utcoffset() is None:
        raise ValueError(f"{what} must be timezone-aware, got naive {moment.isoformat()}")
    return moment
