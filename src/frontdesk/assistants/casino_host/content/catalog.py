"""One casino's content with the lookups a host's tools compute facts from.

Everything a reply states about hours, dates and offers comes from here, computed in the
casino's own time zone: `hours_on` and `is_open` (periods past midnight included),
`events_between`, `active_promotions` and the offer-verification matchers. Lookups see active
items only (seed WP3 item 15); `all_*` keep the inactive ones for checks and tooling.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import date, datetime, time, timedelta
from decimal import Decimal

from frontdesk.assistants.casino_host.content.hours import (
    DAYS,
    DayHours,
    day_hours,
    day_keys,
    require_aware,
)
from frontdesk.assistants.casino_host.content.models import (
    CATEGORIES,
    VENUE_CATEGORIES,
    Casino,
    ContentItem,
    Event,
    Faq,
    InfoItem,
    Promotion,
    Regulation,
    Venue,
    item_category,
)
from frontdesk.assistants.casino_host.content.offers import match_promotions


class UnknownItemError(KeyError):
    """No active item with that id in this casino."""

    def __str__(self) -> str:  # KeyError quotes its argument; this is a sentence
        return str(self.args[0])


@dataclass(frozen=True)
class Showing:
    """One occurrence of an event: a showtime (`ends_at` None) or an exhibition's run."""

    event: Event
    starts_at: datetime  # aware, casino time zone
    ends_at: datetime | None = None

    def overlaps(self, start: datetime, end: datetime) -> bool:
        if self.ends_at is None:
            return start <= self.starts_at < end
        return self.starts_at < end and start < self.ends_at


class Catalog:
    def __init__(
        self,
        casino: Casino,
        *,
        venues: Sequence[Venue] = (),
        events: Sequence[Event] = (),
        promotions: Sequence[Promotion] = (),
        regulations: Sequence[Regulation] = (),
        faqs: Sequence[Faq] = (),
        info: Sequence[InfoItem] = (),
        fingerprint: str = "",
    ):
        self.casino = casino
        self.all_venues = tuple(venues)
        self.all_events = tuple(events)
        self.all_promotions = tuple(promotions)
        self.all_regulations = tuple(regulations)
        self.all_faqs = tuple(faqs)
        self.all_info = tuple(info)
        # sha256 of the files it was loaded from: what "the content changed" means to search.
        self.fingerprint = fingerprint
        self._venues = {v.id: v for v in self.all_venues if v.active}
        self._events = {e.id: e for e in self.all_events if e.active}
        self._promotions = {p.id: p for p in self.all_promotions if p.active}

    def __repr__(self) -> str:
        return f"Catalog({self.casino.id!r}, {len(self.items())} items)"

    @property
    def casino_id(self) -> str:
        return self.casino.id

    # -- items ---------------------------------------------------------------------------

    def all_items(self, *, include_inactive: bool = False) -> list[ContentItem]:
        items: Iterable[ContentItem] = (
            *self.all_venues, *self.all_events, *self.all_promotions, *self.all_regulations,
            *self.all_faqs, *self.all_info,
        )  # fmt: skip
        return [item for item in items if include_inactive or item.active]

    def items(self, category: str | None = None) -> list[ContentItem]:
        """Active items, of one category when given."""
        _check_category(category)
        return [i for i in self.all_items() if category is None or item_category(i) == category]

    def counts(self) -> dict[str, int]:
        """Active items per category."""
        return {category: len(self.items(category)) for category in CATEGORIES}

    def _lookup(self, table: dict, item_id: str, what: str):
        try:
            return table[item_id]
        except KeyError:
            raise UnknownItemError(
                f"no active {what} '{item_id}' at {self.casino.name} ({self.casino_id})"
            ) from None

    def venue(self, venue_id: str) -> Venue:
        return self._lookup(self._venues, venue_id, "venue")

    def venues(self, category: str | None = None) -> list[Venue]:
        if category is not None and category not in VENUE_CATEGORIES:
            raise ValueError(
                f"'{category}' is not a venue category ({', '.join(VENUE_CATEGORIES)})"
            )
        return [v for v in self._venues.values() if category is None or v.category == category]

    def event(self, event_id: str) -> Event:
        return self._lookup(self._events, event_id, "event")

    def events(self) -> list[Event]:
        return list(self._events.values())

    def promotion(self, promotion_id: str) -> Promotion:
        return self._lookup(self._promotions, promotion_id, "promotion")

    def promotions(self) -> list[Promotion]:
        """Every active-flagged promotion, whatever its dates (see `active_promotions`)."""
        return list(self._promotions.values())

    def regulations(self, kind: str | None = None) -> list[Regulation]:
        return [r for r in self.all_regulations if r.active and kind in (None, r.kind)]

    def faqs(self) -> list[Faq]:
        return [f for f in self.all_faqs if f.active]

    def info(self, category: str | None = None) -> list[InfoItem]:
        _check_category(category)
        return [i for i in self.all_info if i.active and category in (None, i.category)]

    # -- time: everything is read on the casino's clock -------------------------------------

    def local(self, moment: datetime) -> datetime:
        """An aware `moment` on the casino's clock (a naive one raises)."""
        return require_aware(moment).astimezone(self.casino.tz)

    def hours_on(self, venue_id: str, day: date) -> DayHours | None:
        """The venue's opening periods on local date `day` (`closed` when it has none), each
        with aware open/close datetimes, a close past midnight falling on the next date.
        None when the venue keeps no regular weekly hours (see its `hours_note`)."""
        venue = self.venue(venue_id)
        if venue.hours is None:
            return None
        if isinstance(day, datetime):  # a datetime is a date too: take its local date
            day = self.local(day).date()
        return day_hours(
            venue.hours, day, self.casino.tz, open_months=venue.open_months, note=venue.hours_note
        )

    def is_open(self, venue_id: str, at: datetime) -> bool | None:
        """Whether the venue is open at aware moment `at`; None without regular hours. The
        previous day is checked too: Friday's 4 PM-2 AM still holds at 1 AM on Saturday."""
        moment = self.local(at)
        today = self.hours_on(venue_id, moment.date())
        if today is None:
            return None
        yesterday = self.hours_on(venue_id, moment.date() - timedelta(days=1))
        periods = (*today.periods, *(yesterday.periods if yesterday else ()))
        return any(period.contains(moment) for period in periods)

    def in_business_hours(self, at: datetime) -> bool:
        """Whether a human host answers now (the escalation reply promises a time by this)."""
        moment = self.local(at)
        periods = [
            period
            for day in (moment.date() - timedelta(days=1), moment.date())
            for period in day_hours(self.casino.business_hours, day, self.casino.tz).periods
        ]
        return any(period.contains(moment) for period in periods)

    def events_between(self, start: datetime | date, end: datetime | date) -> list[Showing]:
        """Showtimes in [start, end) and exhibitions running at some point of it, by start.

        A date means the local midnight that starts it, so (Dec 1, Dec 2) is all of Dec 1."""
        window_start, window_end = self._moment(start), self._moment(end)
        if window_end < window_start:
            raise ValueError("end is before start")
        showings = [
            showing
            for event in self._events.values()
            for showing in self._showings(event, window_start.date(), window_end.date())
            if showing.overlaps(window_start, window_end)
        ]
        return sorted(showings, key=lambda s: (s.starts_at, s.event.name))

    def _moment(self, value: datetime | date) -> datetime:
        if isinstance(value, datetime):
            return self.local(value)
        return datetime.combine(value, time(0, 0), tzinfo=self.casino.tz)

    def _showings(self, event: Event, first: date, last: date) -> list[Showing]:
        tz = self.casino.tz
        showings = [Showing(event, moment.replace(tzinfo=tz)) for moment in event.performances]
        if event.runs_from and event.runs_until:
            showings.append(
                Showing(
                    event,
                    datetime.combine(event.runs_from, time(0, 0), tzinfo=tz),
                    datetime.combine(event.runs_until + timedelta(days=1), time(0, 0), tzinfo=tz),
                )
            )
        if rule := event.recurrence:
            days = {key for part in rule.days.split(",") for key in day_keys(part)}
            day = max(first, rule.starts)
            while day <= min(last, rule.ends):
                if DAYS[day.weekday()] in days and day not in rule.dark_dates:
                    for text in rule.times:
                        clock = datetime.strptime(text, "%H:%M").time()
                        showings.append(Showing(event, datetime.combine(day, clock, tzinfo=tz)))
                day += timedelta(days=1)
        return showings

    # -- offers -----------------------------------------------------------------------------

    def active_promotions(self, now: datetime) -> list[Promotion]:
        """Promotions valid at `now`: valid_from <= local date <= valid_until (WP2 item 23)."""
        today = self.local(now).date()
        return [p for p in self._promotions.values() if p.is_active_on(today)]

    def promotions_matching(self, claim: str | float | Decimal, now: datetime) -> list[Promotion]:
        """Active promotions an offer in a reply refers to, by its text (title, promo code,
        dollar amount with its kind) or by its value (within $0.01)."""
        return match_promotions(self.active_promotions(now), claim)

    def promotion_matching(self, claim: str | float | Decimal, now: datetime) -> Promotion | None:
        """The best active promotion for `claim` (see `promotions_matching`), or None."""
        matches = self.promotions_matching(claim, now)
        return matches[0] if matches else None


def _check_category(category: str | None) -> None:
    if category is not None and category not in CATEGORIES:
        raise ValueError(f"'{category}' is not a content category ({', '.join(CATEGORIES)})")
