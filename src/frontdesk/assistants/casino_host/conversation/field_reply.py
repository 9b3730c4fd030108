"""Replies worked out in code from one venue's fields: its hours on the asked day, its price,
where it is, its dress code, reservations, phone, capacity and age rule.

Shown a venue's facts, the 0.5B model answered "is the steakhouse open Monday?" with today's
hours, and said yes to a restaurant closed on Mondays. When a guest asks one of these fields of
one venue (named, found by the search for the question's own words, or the one the guest asked
about just before: "and on sunday?"), the reply is the field itself, in the guest's language,
with no model call. Anything else goes to the model as before.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import date

from frontdesk.assistants.casino_host.content import SearchHit, Venue
from frontdesk.assistants.casino_host.content.documents import usd
from frontdesk.assistants.casino_host.content.hours import clock_text
from frontdesk.assistants.casino_host.conversation.context import CasinoHostContext
from frontdesk.assistants.casino_host.conversation.event_reply import DAYS, event_text
from frontdesk.assistants.casino_host.conversation.naming import (
    named_event,
    named_venue,
    names_elsewhere,
)
from frontdesk.knowledge.absence import content_words, guide_words, known, vocabulary
from frontdesk.knowledge.dates import asked_range
from frontdesk.routing.asked_field import asked_field
from frontdesk.routing.followup import (
    asks_its_own_question,
    corrects_previous,
    is_follow_up,
    refers_back,
)

# The content's own values, as a Spanish-speaking guest reads them.
SPANISH_VALUES = {
    "Casual": "informal",
    "Smart casual": "elegante informal",
    "Business casual": "semiformal",
    "Formal": "formal",
    "Walk-in only": "sin reserva, por orden de llegada",
    "Accepted": "se aceptan",
    "Recommended": "recomendadas",
    "Required": "obligatorias",
    "All ages": "todas las edades",
}
PHRASES = {
    "en": {
        "closed": "{name} is closed on {day}.",
        "open": "{name} is open {periods} on {day}.",
        "all_day": "{name} is open 24 hours on {day}.",
        "week": "{name} hours: {week}.",
        "price": "{name}: {price}.",
        "where": "{name} is in {location}.",
        "where_at": "{name} is {location}.",
        "dress": "Dress code at {name}: {value}{note}.",
        "reservations": "Reservations at {name}: {value}{note}.",
        "phone": "You can reach {name} at {phone}.",
        "capacity": "{name} holds {value:,} guests.",
        "age": "{name}: {value}{note}.",
        "kids_yes": "Kids are welcome at {name}",
        "kids_no": "{name} is not open to kids",
    },
    "es": {
        "closed": "{name} está cerrado el {day}.",
        "open": "{name} abre el {day} de {periods}.",
        "all_day": "{name} abre las 24 horas el {day}.",
        "week": "Horario de {name}: {week}.",
        "price": "En {name} los precios van de {price}.",
        "where": "{name} está en {location}.",
        "where_at": "{name}: {location}.",
        "dress": "Código de vestimenta en {name}: {value}.",
        "reservations": "Reservas en {name}: {value}.",
        "phone": "El teléfono de {name} es {phone}.",
        "capacity": "{name} tiene capacidad para {value:,} personas.",
        "age": "{name}: {value}.",
        "kids_yes": "Los niños son bienvenidos en {name}",
        "kids_no": "{name} no admite niños",
    },
}


@dataclass(frozen=True)
class FieldReply:
    text: str
    venue: str  # the venue's name: what the reply is about
    fact: str  # the venue's line the reply restates, for the grounding check


@dataclass(frozen=True)
class Before:
    """The turn before this one: what the guest asked, and what the host answered."""

    question: str
    answer: str = ""


def asked_venue(ctx: CasinoHostContext, question: str, hits: Sequence[SearchHit]) -> Venue | None:
    """The venue `question` asks about: one it names, else the best hit that is a venue
    whose name, kind or cuisine has a word of the question (not its description: "a bar
    that looks out over the casino" makes no steakhouse a bar; nor "one", "much" or "open")."""
    if (named := named_venue(ctx, question)) is not None:
        return named
    wanted = _wanted_words(ctx, question)
    for hit in hits:
        venue = hit.item
        if isinstance(venue, Venue) and _labelled(venue, wanted):
            return venue
    return None


def venues_of_kind(ctx: CasinoHostContext, question: str) -> list[Venue]:
    """This casino's venues whose name, kind or cuisine has a word of `question`: "is the buffet
    open on monday?" asks about the casino's buffet, whatever the turn before was about."""
    wanted = _wanted_words(ctx, question)
    return [venue for venue in ctx.catalog.venues() if _labelled(venue, wanted)]


def _wanted_words(ctx: CasinoHostContext, question: str) -> set[str]:
    own_name = guide_words(ctx.catalog.casino.name)
    words = content_words(ctx.in_content_words(question), own_name) - _FIELD_WORDS
    return {w for w in words if len(w) >= 3}  # "ver O" names no "O Theatre"


def _labelled(venue: Venue, wanted: set[str]) -> bool:
    if not wanted:
        return False
    label = vocabulary(f"{venue.name} {venue.kind.replace('_', ' ')} {venue.cuisine or ''}")
    return any(known(word, label) for word in wanted)


# Words that ask for a field, not for a venue ("how late", "dress code").
_FIELD_WORDS = frozenset(
    """late early dress code wear reservation reserve book booking kid kids child children age
    cost price expensive cheap located location today tonight tomorrow""".split()  # noqa: SIM905
)


def field_reply(
    ctx: CasinoHostContext,
    question: str,
    language: str,
    hits: Sequence[SearchHit],
    before: Before | None = None,
) -> FieldReply | None:
    """The reply the asked field of the asked venue makes, or None when the question asks no
    field, no venue is clearly asked about, or the venue does not state that field."""
    previous = before.question if before is not None else None
    leans_back = before is not None and is_follow_up(question)
    field = asked_field(question)
    if field is None and leans_back and not asks_its_own_question(question) and before:
        # The field asked before, or the one the answer before gave ("... is open 5:00 PM-9:30
        # PM on Sunday" answered "and tomorrow?", and "and tmrw?" follows it).
        field = asked_field(before.question) or asked_field(before.answer)
    named = named_venue(ctx, question)
    event = named_event(ctx, question)
    today = ctx.catalog.local(ctx.now).date()
    if field is None and (named or event) and asked_range(question, today) is not None:
        field = "hours"  # "can we do dinner at picasso tonight?" asks whether it is open
    if field is None:
        return None
    asked = asked_range(question, today)
    if asked is None and leans_back and field == "hours":
        asked = asked_range(previous or "", today)
    day = asked.start if asked is not None and asked.start == asked.end else None
    if event is None and named is None and leans_back and before is not None:
        event = named_event(ctx, before.question) or named_event(ctx, before.answer)
    if event is not None and (text := event_text(ctx, event, field, language, day)):
        return FieldReply(text, event.name, text)  # built from the event's own fields
    # Where a venue is, only for one the guest named: "where can we grab a cocktail" asks for
    # a recommendation. A message that leans on the turn before ("y hasta q hora sirven?") is
    # about the venue asked or answered about then, before any the search found.
    searched = field != "location"
    # "no wait, I meant the steakhouse": the field before, about another venue.
    takes_back = corrects_previous(question)
    venue = named
    # A message that names a kind of place the casino has ("is the buffet open on monday?",
    # "and the buffet?") is about that place, not the venue before, unless it points back
    # ("is it a buffet?"); naming a kind several venues have, about none of them.
    of_kind = [] if venue is not None or refers_back(question) else venues_of_kind(ctx, question)
    if venue is None and searched and (not leans_back or takes_back):
        venue = asked_venue(ctx, question, hits)
    if venue is None and searched and len(of_kind) == 1:
        venue = of_kind[0]
    # "is picasso open tonight?" at a casino without a Picasso is not about the venue before.
    # Where, of the venue before, only when the message leans on it ("where is it?"): "quiero
    # mariscos esta noche, ¿dónde me recomiendas?" asks for a place, not the last one's.
    carries = searched or leans_back
    if (
        venue is None
        and before
        and carries
        and not takes_back
        and not of_kind
        and not names_elsewhere(ctx, question)
    ):
        venue = named_venue(ctx, before.question) or named_venue(ctx, before.answer)
    if venue is None and searched and leans_back:
        venue = asked_venue(ctx, question, hits)
    if venue is None:
        return None
    words = PHRASES["es" if language == "es" else "en"]
    if field == "hours" and day is None and asks_about_now(question):
        day = today
    text = _FIELD_TEXT.get(field, _nothing)(ctx, venue, words, language == "es", day)
    if text is None:
        return None
    return FieldReply(text, venue.name, venue_fact(venue))


def asks_about_now(question: str) -> bool:
    """An hours question about no particular day ("is the spa open?") is about today."""
    return asked_field(question) == "hours" and not any(
        w in question.casefold() for w in ("hours", "horario", "schedule")
    )


def hours_text(
    ctx: CasinoHostContext, venue: Venue, words: dict[str, str], spanish: bool, day: date | None
) -> str | None:
    if venue.hours is None:
        return None
    if day is None:
        return words["week"].format(name=venue.name, week=venue.hours.text())
    hours = ctx.catalog.hours_on(venue.id, day)
    if hours is None:
        return None
    day_name = DAYS["es" if spanish else "en"][day.weekday()]
    if hours.closed:
        return words["closed"].format(name=venue.name, day=day_name)
    if hours.round_the_clock:
        return words["all_day"].format(name=venue.name, day=day_name)
    periods = " y " if spanish else " and "
    text = periods.join(
        f"{clock_text(p.opens.time())}-{clock_text(p.closes.time())}" for p in hours.periods
    )
    return words["open"].format(name=venue.name, periods=text, day=day_name)


def price_text(
    _: CasinoHostContext, venue: Venue, words: dict[str, str], spanish: bool, __: date | None
) -> str | None:
    low, high = venue.price_from_usd, venue.price_to_usd
    if low is None or high is None:
        return None
    span = f"{usd(low)} {'a' if spanish else 'to'} {usd(high)}"
    if not spanish and venue.price_note:
        span = venue.price_note
    return words["price"].format(name=venue.name, price=span)


def _value_with_note(
    venue: Venue,
    value: str | None,
    note: str | None,
    key: str,
    words: dict[str, str],
    spanish: bool,
) -> str | None:
    if value is None:
        return None
    shown = SPANISH_VALUES.get(value, value) if spanish else value
    extra = f" ({note})" if note and not spanish else ""
    return words[key].format(name=venue.name, value=shown, note=extra)


def dress_text(
    _: CasinoHostContext, venue: Venue, words: dict[str, str], spanish: bool, __: date | None
) -> str | None:
    return _value_with_note(venue, venue.dress_code, venue.dress_code_note, "dress", words, spanish)


def reservations_text(
    _: CasinoHostContext, venue: Venue, words: dict[str, str], spanish: bool, __: date | None
) -> str | None:
    value, note = venue.reservations, venue.reservations_note
    return _value_with_note(venue, value, note, "reservations", words, spanish)


def where_text(
    _: CasinoHostContext, venue: Venue, words: dict[str, str], __: bool, ___: date | None
) -> str | None:
    if not venue.location:
        return None
    # "Casino of the Sky" is a place to be in; "Next to the Conservatory" says where already.
    key = "where_at" if _POSITION.match(venue.location) else "where"
    return words[key].format(name=venue.name, location=venue.location)


_POSITION = re.compile(
    r"^(?:next|near|across|off|behind|inside|outside|on|at|in|by|beside|between|above|below|"
    r"under|opposite|adjacent|along|overlooking|facing|just)\b",
    re.IGNORECASE,
)


def phone_text(
    _: CasinoHostContext, venue: Venue, words: dict[str, str], __: bool, ___: date | None
) -> str | None:
    return words["phone"].format(name=venue.name, phone=venue.phone) if venue.phone else None


def capacity_text(
    _: CasinoHostContext, venue: Venue, words: dict[str, str], __: bool, ___: date | None
) -> str | None:
    if venue.capacity is None:
        return None
    return words["capacity"].format(name=venue.name, value=venue.capacity)


def age_text(
    _: CasinoHostContext, venue: Venue, words: dict[str, str], spanish: bool, __: date | None
) -> str | None:
    if venue.age_restriction is not None:
        return _value_with_note(venue, venue.age_restriction, venue.age_note, "age", words, spanish)
    if venue.kids_allowed is None:
        return None
    key = "kids_yes" if venue.kids_allowed else "kids_no"
    return words[key].format(name=venue.name) + "."


def _nothing(*_: object) -> None:
    return None


_FIELD_TEXT: dict[
    str, Callable[[CasinoHostContext, Venue, dict[str, str], bool, date | None], str | None]
] = {
    "hours": hours_text,
    "price": price_text,
    "dress_code": dress_text,
    "reservations": reservations_text,
    "location": where_text,
    "phone": phone_text,
    "capacity": capacity_text,
    "age": age_text,
}


def venue_fact(venue: Venue) -> str:
    """The venue's fields as one line the grounding check reads: every time, price, phone and
    place the reply may state."""
    parts = [f"{venue.name}:"]
    if venue.location:
        parts.append(f"Located in {venue.location}.")
    if venue.hours is not None:
        parts.append(f"Hours: {venue.hours.text()}.")
    if venue.price_note or venue.price_from_usd is not None:
        low, high = venue.price_from_usd, venue.price_to_usd
        prices = f"{usd(low)} to {usd(high)}" if low is not None and high is not None else ""
        parts.append(f"Prices: {venue.price_note or ''} {prices}.")
    if venue.phone:
        parts.append(f"Phone: {venue.phone}.")
    if venue.capacity:
        parts.append(f"Capacity: {venue.capacity:,}.")
    return " ".join(parts)
