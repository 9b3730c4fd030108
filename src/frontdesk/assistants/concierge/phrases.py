"""The sentences the concierge composes from worked-out facts, in each language it answers in.

A guest who writes in Spanish reads the answer in Spanish: the facts are decided in code from
the English guide (facts.py), and only their wording changes here. Values (times, prices,
phone numbers, names) are copied as the guide writes them, in every language, so the grounding
check reads them the same way.
"""

from __future__ import annotations

from dataclasses import dataclass

LANGUAGES = ("en", "es")


@dataclass(frozen=True)
class Phrases:
    days: tuple[str, ...]
    check_in: str
    check_out: str
    at_time: str  # "{label} is at {value}"
    stated: str  # "{label}: {value}"
    other_field: str  # " ({label}: {value})"
    per_item: str  # "{text}, per {name}. For changes, call {phone}."
    phone: str
    no_phone: str
    capacity: str
    seats: str
    guests: str
    price: str
    open_on: str  # "On {day}, {name} is open {hours}."
    closed_on: str
    and_: str
    hours: str  # "{name} hours: {hours}."
    schedule: str
    confirm: str
    absent: str  # "{property} does not have {thing}."
    absent_article_a: str
    absent_article_an: str
    closest: str  # " The closest thing here is {name}{where}."
    located_in: str
    cheaper: str
    pricier: str
    both_prices: str
    larger: str
    newer: str  # "{name} is the newer of the two."
    present: str  # "Yes: {names}."
    older: str
    from_guide: str  # before an FAQ answer quoted in the guide's own language
    categories: dict[str, str]  # a category's name in a list's heading
    list_heading: str  # "{category} at {property}{filters}:"
    list_filters: str  # " ({words})"
    list_more: str  # "(and {count} more)"


PHRASES = {
    "en": Phrases(
        days=("Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday"),
        check_in="Check-in",
        check_out="Check-out",
        at_time="{label} is at {value}",
        stated="{label}: {value}",
        other_field=" ({label}: {value})",
        per_item="{text}, per {name}. For changes, call {phone}.",
        phone="You can reach {name} at {value}.",
        no_phone=(
            "{name} does not have its own phone number listed; the main line, {phone}, can "
            "connect you."
        ),
        capacity="{name} has a capacity of {value} {unit}.",
        seats="seats",
        guests="guests",
        price="{name} prices: {value}.",
        open_on="On {day}, {name} is open {hours}.",
        closed_on="On {day}, {name} is closed.",
        and_=" and ",
        hours="{name} hours: {value}.",
        schedule="{name} schedule: {value}.",
        confirm=" Hours can change, so please confirm at {phone}.",
        absent="{property} does not have {article}{thing}.",
        absent_article_a="a ",
        absent_article_an="an ",
        closest=" The closest thing here is {name}{where}.",
        located_in=" in {location}",
        cheaper="{name} is the less expensive of the two",
        pricier="{name} is the more expensive of the two",
        both_prices="{lead}. {a}: {pa}. {b}: {pb}.",
        larger="{big} is the larger: it holds {cb} people, and {small} holds {cs}.",
        newer="{name} is the newer of the two.",
        present="Yes: {names}.",
        older="{name} is the older of the two.",
        from_guide="",
        categories={
            "restaurants": "Restaurants",
            "entertainment": "Entertainment venues",
            "hotel": "Rooms",
            "amenities": "Amenities",
            "gaming": "Gaming areas",
            "promotions": "Promotions",
            "faq": "Common questions",
        },
        list_heading="{category} at {property}{filters}:",
        list_filters=" ({words})",
        list_more="(and {count} more)",
    ),
    "es": Phrases(
        days=("lunes", "martes", "miércoles", "jueves", "viernes", "sábado", "domingo"),
        check_in="El check-in",
        check_out="El check-out",
        at_time="{label} es a las {value}",
        stated="{label}: {value}",
        other_field=" ({label}: {value})",
        per_item="{text}, según {name}. Para cambios, llame al {phone}.",
        phone="Puede comunicarse con {name} al {value}.",
        no_phone=(
            "{name} no tiene un número propio en la guía; la línea principal, {phone}, puede "
            "comunicarle."
        ),
        capacity="{name} tiene capacidad para {value} {unit}.",
        seats="asientos",
        guests="personas",
        price="Precios de {name}: {value}.",
        open_on="El {day}, {name} abre {hours}.",
        closed_on="El {day}, {name} está cerrado.",
        and_=" y ",
        hours="Horario de {name}: {value}.",
        schedule="Programa de {name}: {value}.",
        confirm=" Los horarios pueden cambiar; confírmelo al {phone}.",
        absent="{property} no ofrece «{thing}», según su guía.",
        absent_article_a="",
        absent_article_an="",
        closest=" Lo más parecido aquí es {name}{where}.",
        located_in=" en {location}",
        cheaper="{name} es el más económico de los dos",
        pricier="{name} es el más caro de los dos",
        both_prices="{lead}. {a}: {pa}. {b}: {pb}.",
        larger="{big} es el más grande: caben {cb} personas, y en {small} caben {cs}.",
        newer="{name} es el más reciente de los dos.",
        present="Sí: {names}.",
        older="{name} es el más antiguo de los dos.",
        from_guide="Según la guía del resort (en inglés): ",
        categories={
            "restaurants": "Restaurantes",
            "entertainment": "Espectáculos y entretenimiento",
            "hotel": "Habitaciones",
            "amenities": "Servicios",
            "gaming": "Áreas de juego",
            "promotions": "Promociones",
            "faq": "Preguntas frecuentes",
        },
        list_heading="{category} en {property}{filters}:",
        list_filters=" ({words})",
        list_more="(y {count} más)",
    ),
}


def phrases(language: str) -> Phrases:
    """The phrases of `language`, English for a language the concierge does not answer in."""
    return PHRASES.get(language, PHRASES["en"])
