"""Replies worked out in code from one event's fields: its show times on the asked day, its
ticket prices, its age rule and where it plays.

Asked "what time is the Holiday Pops show saturday?", the model read the next five showings of
every event and gave another one's time. When a guest names an event and asks one of these,
the reply is the event's own field, in the guest's language; the rest goes to the agents.
"""

from __future__ import annotations

import re
from datetime import date, timedelta

from frontdesk.assistants.casino_host.content.documents import day_text, usd
from frontdesk.assistants.casino_host.content.hours import clock_text
from frontdesk.assistants.casino_host.content.models import Event
from frontdesk.assistants.casino_host.conversation.context import CasinoHostContext

# How far ahead "when is it on?" looks, and how many show times a reply lists.
AHEAD_DAYS = 14
SHOWN_TIMES = 3
# Day names as the reply says them, by weekday (0 = Monday).
DAYS = {
    "en": ("Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday"),
    "es": ("lunes", "martes", "miércoles", "jueves", "viernes", "sábado", "domingo"),
}
PHRASES = {
    "en": {
        "times": "{name}: {times}.",
        "none_on": "{name} has no show on {day}.",
        "next": " Next: {times}.",
        "none": "{name} has no show in the next two weeks.",
        "running": "{name} is on through {until}.",
        "price": "{name}: {price}.",
        "age": "{name}: {value}{note}.",
        "where": "{name} plays at {place}.",
    },
    "es": {
        "times": "{name}: {times}.",
        "none_on": "{name} no tiene función el {day}.",
        "next": " Próxima: {times}.",
        "none": "{name} no tiene funciones en las próximas dos semanas.",
        "running": "{name} sigue hasta el {until}.",
        "price": "{name}: entradas de {price}.",
        "age": "{name}: {value}{note}.",
        "where": "{name} se presenta en {place}.",
    },
}


_NOT_ADMITTED = re.compile(r"children under (\d+) (?:are )?not admitted", re.IGNORECASE)


def age_note(note: str, spanish: bool) -> str:
    """An event's age note, in Spanish where its common shape is known; else as written: a
    note in English beats a reply without the age ("¿hay edad mínima pa ver O?")."""
    if spanish and (match := _NOT_ADMITTED.search(note)):
        return f"no se admiten menores de {match.group(1)} años"
    return note


def event_text(
    ctx: CasinoHostContext, event: Event, field: str, language: str, day: date | None
) -> str | None:
    """The asked field of `event` as the reply, or None when the event does not state it."""
    spanish = language == "es"
    words = PHRASES["es" if spanish else "en"]
    if field == "hours":
        return _times(ctx, event, words, spanish, day)
    if field == "price" and event.price_from_usd is not None:
        low, high = event.price_from_usd, event.price_to_usd
        span = f"{usd(low)}-{usd(high)}" if high is not None and high != low else usd(low)
        price = event.price_note if event.price_note and not spanish else span
        return words["price"].format(name=event.name, price=price)
    if field == "age" and event.age_restriction is not None:
        note = f" ({age_note(event.age_note, spanish)})" if event.age_note else ""
        return words["age"].format(name=event.name, value=event.age_restriction, note=note)
    if field == "location":
        venue = ctx.catalog.venue(event.venue_id) if event.venue_id else None
        place = venue.name if venue is not None else event.location
        return words["where"].format(name=event.name, place=place) if place else None
    return None


def _times(
    ctx: CasinoHostContext, event: Event, words: dict[str, str], spanish: bool, day: date | None
) -> str:
    today = ctx.catalog.local(ctx.now).date()
    if event.runs_from and event.runs_until and not (event.performances or event.recurrence):
        return words["running"].format(name=event.name, until=day_text(event.runs_until))
    start = day or today
    upcoming = [
        s.starts_at
        for s in ctx.catalog.events_between(start, today + timedelta(days=AHEAD_DAYS))
        if s.event.id == event.id and s.starts_at >= ctx.now
    ]
    on_day = [moment for moment in upcoming if day is None or moment.date() == day]
    if on_day:
        return words["times"].format(name=event.name, times=_listed(on_day, spanish))
    if day is None:
        return words["none"].format(name=event.name)
    text = words["none_on"].format(
        name=event.name, day=DAYS["es" if spanish else "en"][day.weekday()]
    )
    return text + (words["next"].format(times=_listed(upcoming, spanish)) if upcoming else "")


def _listed(moments: list, spanish: bool) -> str:
    """ "December 5, 2026 7:00 PM, December 6, 2026 2:00 PM": the first few, by start."""
    shown = moments[:SHOWN_TIMES]
    joiner = " y " if spanish else " and "
    texts = [f"{day_text(m.date())} {clock_text(m.time())}" for m in shown]
    return ", ".join(texts[:-1]) + joiner + texts[-1] if len(texts) > 1 else texts[0]
