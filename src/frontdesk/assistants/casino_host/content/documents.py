"""A casino's items as the core's knowledge items: one searchable text per item.

The text is written from the structured fields (hours from `WeeklyHours`, prices from their
numbers and note), with the field names the core's formatters order and phrase
(`frontdesk.knowledge.formatters`), so what search shows a model says what the data says.
"""

from __future__ import annotations

from datetime import date, datetime
from typing import Any

from frontdesk.assistants.casino_host.content.catalog import Catalog
from frontdesk.assistants.casino_host.content.hours import clock_text
from frontdesk.assistants.casino_host.content.models import (
    ContentItem,
    Event,
    Faq,
    InfoItem,
    Promotion,
    Regulation,
    Venue,
    item_category,
    item_name,
)
from frontdesk.knowledge.loader import KnowledgeItem

MONTHS = (
    "January", "February", "March", "April", "May", "June", "July", "August", "September",
    "October", "November", "December",
)  # fmt: skip
PROMOTION_KINDS = {
    "dining_credit": "dining credit",
    "freeplay": "free slot play",
    "hotel": "hotel offer",
    "vip": "VIP offer",
    "spa": "spa offer",
    "entertainment": "entertainment offer",
    "package": "package",
}


def day_text(day: date) -> str:
    return f"{MONTHS[day.month - 1]} {day.day}, {day.year}"


def moment_text(moment: datetime) -> str:
    return f"{day_text(moment.date())} {clock_text(moment.time())}"


def usd(value: float) -> str:
    return f"${value:,.0f}" if float(value).is_integer() else f"${value:,.2f}"


def _joined(*parts: str | None, sep: str = "; ") -> str | None:
    kept = [part for part in parts if part]
    return sep.join(kept) if kept else None


def _months_text(months: tuple[int, ...]) -> str:
    ordered = sorted(months)
    if ordered == list(range(ordered[0], ordered[-1] + 1)):
        return f"{MONTHS[ordered[0] - 1]}-{MONTHS[ordered[-1] - 1]}"
    return ", ".join(MONTHS[m - 1] for m in ordered)


def _price_text(range_: str | None, note: str | None) -> str | None:
    if range_ and note:
        return f"{range_} ({note})"
    return range_ or note


def venue_fields(venue: Venue) -> dict[str, Any]:
    hours = venue.hours.text() if venue.hours else None
    if venue.open_months:
        hours = f"{hours} (open {_months_text(venue.open_months)})"
    price = _price_text(venue.price_range, venue.price_note)
    age = _joined(venue.age_restriction, venue.age_note)
    kids = {True: "Children welcome", False: "Adults only; no children"}.get(venue.kids_allowed)
    treatments = [
        f"{t.name} ({t.duration_minutes} minutes, {usd(t.price_usd)}"
        + (", for couples)" if t.couples else ")")
        for t in venue.treatments
    ]
    fields = {
        "type": venue.kind.replace("_", " "),
        "cuisine": venue.cuisine,
        "location": venue.location,
        "hours": _joined(hours, venue.hours_note),
        "price_range" if venue.category == "dining" else "prices": price,
        "rate_range": price if venue.category == "hotel" else None,
        "dress_code": _joined(venue.dress_code, venue.dress_code_note),
        "reservations": _joined(venue.reservations, venue.reservations_note),
        "capacity": venue.capacity,
        "size_sqft": venue.size_sqft,
        "beds": venue.beds,
        "max_occupancy": venue.max_occupancy,
        "age_policy": age,
        "children": kids,
        "games": list(venue.games),
        "treatments": treatments,
        "phone": venue.phone,
        "features": list(venue.features),
        "description": venue.description,
    }
    if venue.category == "hotel":
        fields.pop("prices", None)
    return fields


def event_fields(event: Event, catalog: Catalog) -> dict[str, Any]:
    where = event.location
    if event.venue_id is not None:
        venue = next((v for v in catalog.all_venues if v.id == event.venue_id), None)
        where = _joined(venue.name if venue else None, event.location, sep=", ")
    schedule = []
    if rule := event.recurrence:
        times = " and ".join(clock_text(datetime.strptime(t, "%H:%M").time()) for t in rule.times)
        days = rule.days.replace(",", ", ").title()
        schedule.append(f"{days} at {times}, {day_text(rule.starts)} through {day_text(rule.ends)}")
    if event.runs_from and event.runs_until:
        span = day_text(event.runs_from)
        if event.runs_until != event.runs_from:
            span += f" through {day_text(event.runs_until)}"
        schedule.append(span)
    schedule.extend(moment_text(moment) for moment in event.performances)
    # The note is how the price reads to guests ("Free", "tickets $45-$125"); the numbers are
    # written out only when there is no note.
    price = event.price_note
    if price is None and event.price_from_usd is not None:
        price = f"from {usd(event.price_from_usd)}"
        if event.price_to_usd is not None:
            price = f"{usd(event.price_from_usd)}-{usd(event.price_to_usd)}"
    return {
        "type": event.kind,
        "location": where,
        "schedule": "; ".join(schedule),
        "tickets": _joined(price, event.tickets),
        "age_policy": _joined(event.age_restriction, event.age_note),
        "phone": event.phone,
        "description": event.description,
    }


def promotion_fields(promotion: Promotion) -> dict[str, Any]:
    kind = PROMOTION_KINDS[promotion.kind]
    benefits = [f"{usd(promotion.value_usd)} {kind}"] + [
        f"{usd(part.value_usd)} {PROMOTION_KINDS[part.kind]}" for part in promotion.parts
    ]
    return {
        "type": kind,
        "benefits": benefits,
        "requirements": _joined(promotion.eligibility, *promotion.conditions),
        "how_to_join": promotion.redemption_instruction,
        "valid": f"{day_text(promotion.valid_from)} through {day_text(promotion.valid_until)}",
        "promo_code": promotion.promo_code,
        "description": promotion.description,
    }


def regulation_fields(rule: Regulation) -> dict[str, Any]:
    return {
        "description": rule.description,
        "state": rule.state,
        "applies_to": rule.applies_to,
        "minimum_age": rule.min_age,
        "penalty": rule.penalty,
        "source": rule.source,
    }


def item_fields(item: ContentItem, catalog: Catalog) -> dict[str, Any]:
    """The fields the core's formatter writes out for `item`, empty ones left out."""
    if isinstance(item, Venue):
        fields = venue_fields(item)
    elif isinstance(item, Event):
        fields = event_fields(item, catalog)
    elif isinstance(item, Promotion):
        fields = promotion_fields(item)
    elif isinstance(item, Regulation):
        fields = regulation_fields(item)
    elif isinstance(item, Faq):  # its name is the question; the answer follows it
        fields = {"answer": item.answer, "topic": item.topic}
    elif isinstance(item, InfoItem):
        fields = {
            "type": item.kind,
            "description": item.description,
            "details": list(item.details),
            "phone": item.phone,
        }
    else:  # pragma: no cover - the union is closed
        raise TypeError(f"not a content item: {type(item).__name__}")
    return {key: value for key, value in fields.items() if value not in (None, "", [])}


def knowledge_items(catalog: Catalog) -> list[KnowledgeItem]:
    """Every active item of the casino, for the core's chunking and index."""
    updated = catalog.casino.content_updated.isoformat()
    return [
        KnowledgeItem(
            category=item_category(item),
            name=item_name(item),
            fields={"id": item.id, **item_fields(item, catalog)},
            property_id=catalog.casino_id,
            last_updated=updated,
            source=f"casinos/{catalog.casino_id}",
        )
        for item in catalog.all_items()
    ]
