"""Keyword evidence for the casino host's router (core `routing.keywords.KeywordCounts`).

MiniLM reads Spanish and the casinos' own names poorly ("what does Noir get you", "¿dónde
podemos cenar mariscos?"), so each domain gets a few stems in both languages, plus the words of
its venues' and events' names from the casinos' content: a guest who names "Tuscany" is asking
about dining. Features beside the embedding, not rules.
"""

from __future__ import annotations

import re

from frontdesk.assistants.casino_host.content import CasinoContent
from frontdesk.routing.keywords import KeywordCounts

STEMS: dict[str, tuple[str, ...]] = {
    "dining": (
        "restaurant",
        "dinner",
        "lunch",
        "breakfast",
        "brunch",
        "eat",
        "food",
        "steak",
        "sushi",
        "buffet",
        "menu",
        "drink",
        "cocktail",
        "pizza",
        "seafood",
        "lobster",
        "italian",
        "vegan",
        "vegetarian",
        "gluten",
        "allerg",
        "dessert",
        "wine",
        "cena",
        "cenar",
        "comer",
        "comida",
        "restaurante",
        "desayun",
        "almuerz",
        "marisco",
        "bebida",
        "postre",
        "vino",
    ),
    "entertainment": (
        "show",
        "concert",
        "ticket",
        "comedy",
        "comedian",
        "spa",
        "massage",
        "facial",
        "club",
        "nightlife",
        "event",
        "music",
        "band",
        "arena",
        "pool",
        "golf",
        "shop",
        "dance",
        "espect",
        "concierto",
        "boleto",
        "masaje",
        "entrada",
        "música",
        "musica",
        "piscina",
        "tienda",
        "evento",
    ),
    "comp": (
        "offer",
        "comp",
        "promo",
        "deal",
        "reward",
        "point",
        "discount",
        "bonus",
        "upgrade",
        "freeplay",
        "oferta",
        "promoci",
        "descuento",
        "punto",
        "regalo",
        "gratis",
        "recompens",
    ),
    "host": (
        "room",
        "hotel",
        "check-in",
        "checkout",
        "park",
        "valet",
        "shuttle",
        "direction",
        "wifi",
        "pet",
        "smok",
        "slot",
        "table",
        "poker",
        "blackjack",
        "craps",
        "roulette",
        "habitaci",
        "estacionamiento",
        "llegar",
        "mascota",
        "fumar",
        "tragamoneda",
    ),
}
DOMAINS = tuple(STEMS)
# Words of a venue's name too common to say which domain it is ("the", "bar", "grill"...).
_COMMON_WORDS = """
    the and at of by bar grill room lounge house club cafe center centre sun casino hotel tower
    sky earth mohegan bellagio las vegas new
"""
_COMMON = frozenset(_COMMON_WORDS.split())
_WORD = re.compile(r"[a-záéíóúñ']{4,}")
_CATEGORY_DOMAIN = {"dining": "dining", "entertainment": "entertainment", "spa": "entertainment"}


def name_stems(content: CasinoContent) -> dict[str, set[str]]:
    """Per domain, the distinctive words of the casinos' venue and event names."""
    found: dict[str, set[str]] = {domain: set() for domain in DOMAINS}
    for casino_id in content.casino_ids:
        catalog = content.catalog(casino_id)
        names = [(v.category, v.name) for v in catalog.venues()]
        names += [("entertainment", e.name) for e in catalog.events()]
        for category, name in names:
            domain = _CATEGORY_DOMAIN.get(category)
            if domain is None:
                continue
            words = _WORD.findall(name.casefold())
            found[domain] |= {word for word in words if word not in _COMMON}
    # A word in two domains' names says neither.
    shared = found["dining"] & found["entertainment"]
    return {domain: words - shared for domain, words in found.items()}


def router_keywords(content: CasinoContent) -> KeywordCounts:
    names = name_stems(content)
    return KeywordCounts([(*STEMS[domain], *sorted(names[domain])) for domain in DOMAINS])
