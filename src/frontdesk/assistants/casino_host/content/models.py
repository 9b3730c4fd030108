"""The content items of one casino, validated as they load (pydantic, unknown fields refused).

Facts a reply states are computed from these fields, never from prose: hours are `WeeklyHours`,
prices are numbers in USD, offers have dates and a value. Prose (`description`, the `*_note`
fields) is what search indexes and what a reply may paraphrase.

Categories follow seed 001 (WP3 item 1, the workbook's sheets) with the concierge's hotel and
amenities added; events belong to entertainment, and the `Hours` sheet is a venue's `hours`.
"""

from __future__ import annotations

import re
from datetime import date, datetime
from typing import Annotated, Literal
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from pydantic import BaseModel, ConfigDict, Field, field_validator, model_validator

from frontdesk.assistants.casino_host.content.hours import WeeklyHours, day_keys

VENUE_CATEGORIES = ("dining", "entertainment", "spa", "hotel", "gaming", "amenities")
CATEGORIES = (*VENUE_CATEGORIES, "promotions", "regulations", "faq")
Category = Literal[
    "dining", "entertainment", "spa", "hotel", "gaming", "amenities", "promotions",
    "regulations", "faq",
]  # fmt: skip
VenueCategory = Literal["dining", "entertainment", "spa", "hotel", "gaming", "amenities"]

ItemId = Annotated[str, Field(pattern=r"^[a-z0-9]+(?:_[a-z0-9]+)*$", max_length=80)]
Name = Annotated[str, Field(min_length=1, max_length=200)]
# Seed WP3 item 4 caps descriptions at 1,000 characters; the concierge's six long items (up to
# about 1,300, kept so that chunking is exercised) need more.
Description = Annotated[str, Field(min_length=1, max_length=1500)]
Usd = Annotated[float, Field(ge=0)]
# Seed WP3 item 4's validation lists, with "Accepted" and "Not applicable" added for venues
# that take bookings without urging them, and in-room dining, which has no tables.
DressCode = Literal["Casual", "Smart casual", "Business casual", "Formal"]
Reservations = Literal["Walk-in only", "Accepted", "Recommended", "Required", "Not applicable"]
AgeRestriction = Literal["All ages", "18+", "21+"]
DINING_KINDS = ("casual", "fine_dining", "buffet", "cafe", "bar")  # WP3 item 4's subcategories
PromotionKind = Literal[
    "dining_credit", "freeplay", "hotel", "vip", "spa", "entertainment", "package"
]  # fmt: skip
RegulationKind = Literal[
    "gaming_age", "smoking", "identification", "alcohol", "responsible_gaming",
    "self_exclusion", "cannabis", "minors", "photography", "other",
]  # fmt: skip
_PRICE_RANGE = re.compile(r"^\$+(?:-\$+)?$")
_STATE = re.compile(r"^[A-Z]{2}$")
_DOLLARS = re.compile(r"\$(\d{1,3}(?:,\d{3})+|\d+(?:\.\d{1,2})?)")


def check_price_note(low: float | None, high: float | None, note: str | None) -> None:
    """The numbers and the note that shows them to guests must agree: each amount in the note
    lies within [low, high], and each bound set is one of the note's amounts."""
    amounts = [float(a.replace(",", "")) for a in _DOLLARS.findall(note or "")]
    if low is not None and high is not None and high < low:
        raise ValueError("the upper price is below the lower one")
    if not amounts:
        return
    for amount in amounts:
        if (low is not None and amount < low) or (high is not None and amount > high):
            raise ValueError(f"price note amount ${amount:g} is outside [{low}, {high}]")
    for bound in (low, high):
        if bound is not None and bound != 0 and bound not in amounts:  # $0: "Free"
            raise ValueError(f"price bound ${bound:g} is not an amount of the price note")


class Item(BaseModel):
    """What every item has: a stable id (unique within its casino) and whether it is live."""

    model_config = ConfigDict(frozen=True, extra="forbid", str_strip_whitespace=True)

    id: ItemId
    # Seed WP3 item 15: an inactive item stays in the file but leaves lookups and search.
    active: bool = True


class SpaTreatment(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid", str_strip_whitespace=True)

    name: Name
    kind: str  # massage, facial, body, nails, hair...
    duration_minutes: Literal[25, 30, 45, 50, 60, 75, 80, 90, 120]
    price_usd: Usd
    couples: bool = False


class Venue(Item):
    """A place or standing offering: a restaurant, a show room, a spa, a room type, a pool."""

    name: Name
    category: VenueCategory
    kind: str  # "steakhouse", "arena", "pool", "room"...
    description: Description
    cuisine: str | None = None
    location: str | None = None
    phone: str | None = None
    price_range: str | None = None  # "$" to "$$$$", or a span like "$-$$"
    price_from_usd: Usd | None = None
    price_to_usd: Usd | None = None
    price_note: str | None = None  # what the numbers are: "entrees", "per night"
    hours: WeeklyHours | None = None  # None: no regular weekly hours (event nights only)
    hours_note: str | None = None
    open_months: tuple[Annotated[int, Field(ge=1, le=12)], ...] | None = None  # seasonal
    dress_code: DressCode | None = None
    dress_code_note: str | None = None
    reservations: Reservations | None = None
    reservations_note: str | None = None
    kids_allowed: bool | None = None
    age_restriction: AgeRestriction | None = None
    age_note: str | None = None
    capacity: Annotated[int, Field(gt=0)] | None = None
    size_sqft: Annotated[int, Field(gt=0)] | None = None
    beds: str | None = None
    max_occupancy: Annotated[int, Field(gt=0)] | None = None
    games: tuple[str, ...] = ()
    treatments: tuple[SpaTreatment, ...] = ()
    features: tuple[str, ...] = ()

    @field_validator("price_range")
    @classmethod
    def _price_range(cls, value: str | None) -> str | None:
        if value is not None and not _PRICE_RANGE.match(value):
            raise ValueError(f"'{value}' is not a price range like '$$' or '$-$$'")
        return value

    @model_validator(mode="after")
    def _consistent(self) -> Venue:
        check_price_note(self.price_from_usd, self.price_to_usd, self.price_note)
        if self.open_months and self.hours is None:
            raise ValueError("open_months needs hours")
        if self.treatments and self.category != "spa":
            raise ValueError("only spa venues list treatments")
        if self.category == "dining" and self.kind not in DINING_KINDS:
            raise ValueError(f"dining kind '{self.kind}' is not one of {', '.join(DINING_KINDS)}")
        return self

    @property
    def price_level(self) -> int | None:
        """1-4 from the first tier of `price_range` ("$$-$$$" is 2)."""
        if not self.price_range:
            return None
        return len(self.price_range.split("-")[0])


class Recurrence(BaseModel):
    """Showtimes that repeat weekly between two dates (a resident show)."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    days: str  # "wed-sun", "daily", "fri"
    times: tuple[str, ...] = Field(min_length=1)  # "19:00", local
    starts: date
    ends: date
    dark_dates: tuple[date, ...] = ()  # no show on these dates

    @field_validator("days")
    @classmethod
    def _days(cls, value: str) -> str:
        for part in value.split(","):
            day_keys(part)  # raises on a misspelt day
        return value

    @field_validator("times")
    @classmethod
    def _times(cls, value: tuple[str, ...]) -> tuple[str, ...]:
        for text in value:
            datetime.strptime(text, "%H:%M")
        return value

    @model_validator(mode="after")
    def _ordered(self) -> Recurrence:
        if self.ends < self.starts:
            raise ValueError("ends is before starts")
        return self


class Event(Item):
    """A dated show, a series of showtimes, or an exhibition that runs between two dates."""

    name: Name
    kind: str  # concert, comedy, exhibition, tournament...
    description: Description
    venue_id: ItemId | None = None  # the venue in this casino where it happens
    location: str | None = None
    performances: tuple[datetime, ...] = ()  # local wall-clock times, no offset
    recurrence: Recurrence | None = None
    runs_from: date | None = None  # an exhibition or all-day event: first day
    runs_until: date | None = None  # and last day, inclusive
    price_from_usd: Usd | None = None
    price_to_usd: Usd | None = None
    price_note: str | None = None
    age_restriction: AgeRestriction | None = None
    age_note: str | None = None
    phone: str | None = None
    tickets: str | None = None  # where tickets are sold

    @field_validator("performances")
    @classmethod
    def _local(cls, value: tuple[datetime, ...]) -> tuple[datetime, ...]:
        if any(moment.tzinfo is not None for moment in value):
            raise ValueError("performances are local wall-clock times: leave out the offset")
        return tuple(sorted(value))

    @model_validator(mode="after")
    def _scheduled(self) -> Event:
        if (self.runs_from is None) != (self.runs_until is None):
            raise ValueError("runs_from and runs_until go together")
        if self.runs_from and self.runs_until and self.runs_until < self.runs_from:
            raise ValueError("runs_until is before runs_from")
        if not (self.performances or self.recurrence or self.runs_from):
            raise ValueError("an event needs performances, a recurrence or runs_from/runs_until")
        if not (self.venue_id or self.location):
            raise ValueError("an event needs a venue_id or a location")
        check_price_note(self.price_from_usd, self.price_to_usd, self.price_note)
        return self


class OfferPart(BaseModel):
    """One component of a package (its $50 dining credit), which a reply may quote alone."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    kind: PromotionKind
    value_usd: Usd


class Promotion(Item):
    """An offer with dates and a value: what offer verification (WP2 item 23) checks against."""

    title: Name
    aliases: tuple[str, ...] = ()  # short names a reply may use: "Stay and Play"
    kind: PromotionKind
    value_usd: Usd
    parts: tuple[OfferPart, ...] = ()
    valid_from: date
    valid_until: date  # inclusive: valid through the end of this local day
    description: Description
    conditions: tuple[str, ...] = ()
    eligibility: str | None = None
    redemption_instruction: Annotated[str, Field(min_length=1)]  # WP2 item 35: mandatory
    promo_code: str | None = None

    @model_validator(mode="after")
    def _dates(self) -> Promotion:
        if self.valid_until < self.valid_from:
            raise ValueError("valid_until is before valid_from")
        return self

    def is_active_on(self, day: date) -> bool:
        return self.active and self.valid_from <= day <= self.valid_until

    @property
    def values_usd(self) -> tuple[float, ...]:
        return (self.value_usd, *(part.value_usd for part in self.parts))


class Regulation(Item):
    name: Name
    kind: RegulationKind
    state: str
    description: Description
    applies_to: Literal["guests", "employees", "vendors", "all"] = "guests"
    min_age: Annotated[int, Field(ge=0, le=25)] | None = None
    effective_date: date | None = None
    penalty: str | None = None
    source: str | None = None  # the statute or rule it restates

    @field_validator("state")
    @classmethod
    def _state(cls, value: str) -> str:
        if not _STATE.match(value):
            raise ValueError(f"'{value}' is not a two-letter US state code")
        return value


class Faq(Item):
    question: Annotated[str, Field(min_length=1, max_length=300)]
    answer: Description
    topic: str


class InfoItem(Item):
    """A fact sheet that is not a place, an event, an offer or a rule: a hotel policy, the
    loyalty programme and its tiers, getting here, Wi-Fi."""

    name: Name
    category: Category
    kind: str
    description: Description
    phone: str | None = None
    details: tuple[str, ...] = ()


class Casino(BaseModel):
    """A casino's identity and the settings replies need (helplines, escalation hours)."""

    model_config = ConfigDict(frozen=True, extra="forbid", str_strip_whitespace=True)

    id: ItemId
    name: Name
    description: Description
    timezone: str
    state: str
    address: str
    phone: str
    # Where a guest in trouble reaches security when no alert could be raised (else `phone`).
    security_phone: str | None = None
    website: str | None = None
    privacy_url: str | None = None  # the PRIVACY keyword's reply (else the website)
    # The number guests text (E.164): an inbound SMS to it is this casino's (issue 19).
    sms_number: str | None = None
    # The 10DLC campaign registration of that number: only `approved` may send promotions.
    sms_campaign_status: Literal["approved", "pending", "missing"] = "approved"
    gaming_age_minimum: Annotated[int, Field(ge=18, le=21)]
    national_helpline: str
    state_helpline: str  # read into compliance's "You can also reach the {state_helpline}."
    helplines: tuple[str, ...] = ()
    loyalty_program: str | None = None
    business_hours: WeeklyHours  # when a human host answers an escalation
    content_updated: date  # when these files were last reviewed

    @field_validator("timezone")
    @classmethod
    def _timezone(cls, value: str) -> str:
        try:
            ZoneInfo(value)
        except (ZoneInfoNotFoundError, ValueError) as exc:
            raise ValueError(f"'{value}' is not an IANA time zone") from exc
        return value

    @field_validator("state")
    @classmethod
    def _state(cls, value: str) -> str:
        if not _STATE.match(value):
            raise ValueError(f"'{value}' is not a two-letter US state code")
        return value

    @property
    def tz(self) -> ZoneInfo:
        return ZoneInfo(self.timezone)


ContentItem = Venue | Event | Promotion | Regulation | Faq | InfoItem


def item_category(item: ContentItem) -> str:
    """The category an item is searched and listed under."""
    if isinstance(item, (Venue, InfoItem)):
        return item.category
    if isinstance(item, Event):
        return "entertainment"
    if isinstance(item, Promotion):
        return "promotions"
    if isinstance(item, Regulation):
        return "regulations"
    return "faq"


def item_name(item: ContentItem) -> str:
    if isinstance(item, Promotion):
        return item.title
    if isinstance(item, Faq):
        return item.question
    return item.name


def item_type(item: ContentItem) -> str:
    return type(item).__name__.lower()  # venue, event, promotion, regulation, faq, infoitem
