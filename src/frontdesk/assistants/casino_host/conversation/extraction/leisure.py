"""Occasion, entertainment interests, accessibility needs, gaming and spa preferences."""

from __future__ import annotations

import re

from .attribution import subject_before, vocabulary_hits
from .companions import Companion
from .fields import (
    ACCESSIBILITY,
    CONTEXTUAL,
    GAMES,
    GAMING_LEVEL,
    HINTED,
    IMPLIED,
    INTERESTS,
    OCCASION,
    SELF_REPORTED,
    SPA_TREATMENTS,
    STATED,
)
from .text import Hit, Message, in_past_clause, is_negated, terms

# Most specific first: an earlier pattern's span shadows a later overlapping one.
OCCASION_TERMS = terms(
    (
        r"bachelorette(?: party| weekend)?|hen (?:party|do|weekend)|despedida de soltera",
        "bachelorette",
    ),
    (r"bachelor(?: party| weekend)?|stag (?:party|do|weekend)|despedida de soltero", "bachelor"),
    (
        r"(?:wedding )?anniversary|anniv|aniversario|anos de casados|years (?:of marriage|married)",
        "anniversary",
    ),
    (r"honeymoon|luna de miel", "honeymoon"),
    (r"wedding|boda|casamiento|getting married|nos casamos|se casa", "wedding"),
    (r"birthday|bday|b-day|b'day|cumpleanos|cumple", "birthday"),
    (r"graduation|graduating|graduacion|grad party", "graduation"),
    (r"retirement|retiring|jubilacion|se jubila", "retirement"),
    (
        r"engagement|getting engaged|propose|proposing|proposal|pedida de mano|pedir (?:la )?mano",
        "engagement",
    ),
    (
        (
            r"business trip|work trip|conference|convention|for work|company (?:event|party|outing)|"
            r"corporate (?:event|outing|trip)|team building|viaje de negocios|por trabajo|conferencia|"
            r"convencion"
        ),
        "business",
    ),
    (r"(?:family|class|high school|college) reunion|reunion familiar", "reunion"),
    (
        (
            r"date night|romantic (?:dinner|getaway|weekend|night)|cena romantica|noche romantica|"
            r"escapada romantica"
        ),
        "date_night",
    ),
    (
        r"(?:girls|guys|boys)'? (?:trip|weekend|night out)|viaje de (?:chicas|amigas|amigos)",
        "friends_trip",
    ),
    (
        (
            r"celebrat\w*|celebrar|celebrando|celebracion|celebramos|festejar|festejando|festejo|"
            r"special occasion|ocasion especial"
        ),
        "celebration",
    ),
)
_OCCASION_CUE = re.compile(
    r"(?:\b(?:our|my|his|her|their|for (?:a|an|my|our|his|her|the)|celebrating|it'?s|nuestro|"
    r"nuestra|mi|su|por (?:el|la|mi|nuestro|nuestra|su)|para (?:el|la|mi|nuestro|nuestra|su)|"
    r"de (?:mi|nuestro|nuestra|su)|celebrar|celebramos|celebrando|el|la)\s+(?:\w+\s+)?|'s\s+"
    r"(?:\w+\s+)?)$"
)

INTEREST_TERMS = terms(
    (
        (
            r"comedy(?: shows?| club)?|comedians?|stand[- ]?up(?: shows?)?|comedia|comediantes?|"
            r"show de comedia"
        ),
        "comedy",
    ),
    (
        (
            r"concerts?|conciertos?|live music(?: shows?)?|musica en vivo|live bands?|"
            r"jazz(?: shows?)?|gigs?"
        ),
        "concerts",
    ),
    (r"boxing(?: match(?:es)?| shows?)?|boxeo|ufc|mma|fight night|the fight|la pelea", "boxing"),
    (r"golf(?:ing)?", "golf"),
    (r"shopping|shops|outlets?|boutiques?|de compras|tiendas|go shop", "shopping"),
    (
        (
            r"night ?clubs?|clubbing|nightlife|dancing|dance floor|dj|bar hopping|discotecas?|antros?|"
            r"bailar|vida nocturna|(?:the|a) club|lounges?"
        ),
        "nightlife",
    ),
    (
        (
            r"spa|massages?|masajes?|facials?|faciales|sauna|manicures?|pedicures?|mani[- ]?pedis?|"
            r"manicura|pedicura"
        ),
        "spa",
    ),
    (
        (
            r"shows|espectaculos?|theater|theatre|teatro|musicals?|broadway|cirque|magic show|"
            r"(?:a|the|any|this|that|tonight'?s|el|un|del|al) show(?! me| us)"
        ),
        "shows",
    ),
    (r"pool(?:side)?|piscina|alberca", "pool"),
    (r"sportsbook|sports bar|sports betting|watch the game|partido|futbol|nfl|nba", "sports"),
)
ACCESSIBILITY_TERMS = terms(
    (r"wheel ?chairs?|silla de ruedas", "wheelchair"),
    (
        (
            r"walker|cane|mobility scooter|mobility|can'?t walk (?:far|long|much)|andadera|andador|"
            r"baston|movilidad reducida|no puede caminar mucho"
        ),
        "mobility",
    ),
    (
        r"deaf|hard of hearing|hearing (?:impaired|aids?|loss)|sord[oa]s?|problemas de audicion",
        "hearing",
    ),
    (r"blind|visually impaired|low vision|cieg[oa]s?|discapacidad visual", "vision"),
    (r"service (?:dog|animal)|guide dog|perro (?:de servicio|guia)", "service_animal"),
    (
        (
            r"accessible (?:seating|seats|room)|ada (?:room|seating|accessible)|"
            r"handicap(?:ped)? (?:accessible|seating|room|parking)|habitacion accesible"
        ),
        "accessible_seating",
    ),
)
GAMING_LEVEL_TERMS = terms(
    (
        (
            r"(?:first time|never) (?:play\w*|gambl\w*|at a casino|in a casino|been to a casino|"
            r"at the tables)|beginner|newbie|new to (?:gambling|gaming|casinos?|poker|blackjack|craps|"
            r"slots|roulette|baccarat|table games)|(?:don'?t|do not) know how to play|"
            r"learn(?:ing)? (?:how )?to play|primera vez (?:jugando|que juego|en un casino|en el casino)|"
            r"principiante|nunca he jugado|no se jugar|aprender a jugar"
        ),
        "beginner",
    ),
    (
        (
            r"high[- ]?roller|high[- ]limit|big (?:player|bettor|gambler)|whale|vip (?:player|gamer)|"
            r"(?:bet|play) (?:big|high)|alto limite|apuesto fuerte|apostador fuerte|jugador vip"
        ),
        "high_roller",
    ),
    (
        (
            r"(?:play|gamble|come|here)\b[^.!?]{0,25}\bevery (?:week|weekend)|regular (?:player|here)|"
            r"i'?m a regular|soy (?:cliente |jugador )?(?:regular|frecuente)|"
            r"frequent (?:player|visitor)|(?:play|gamble) (?:a lot|often|all the time)|"
            r"(?:juego|jugamos|venimos) (?:cada|todas las) semanas?|jugador frecuente"
        ),
        "regular",
    ),
    (
        (
            r"casual (?:player|gambler|gamer)|just for fun|for fun|(?:play|gamble) (?:a little|a bit)|"
            r"penny slots|low (?:stakes|limits?)|por diversion"
        ),
        "casual",
    ),
)
_GAMING_CONTEXT = re.compile(
    r"\b(?:gambl\w*|play\w*|casinos?|high[- ]?roller|whale|bettor|slots?|tables?|poker|blackjack|craps|roulette|baccarat|"
    r"jugar|jugando|juego|apost\w*|tragamonedas|mesas|ruleta)\b"
)
GAME_TERMS = terms(
    (r"slots?|slot machines?|tragamonedas|tragaperras|maquinitas|pokies", "slots"),
    (r"black ?jack", "blackjack"),
    (r"video poker|poker|hold'?em|holdem", "poker"),
    (r"roulette|ruleta", "roulette"),
    (r"craps|(?:los|a los|mesa de) dados", "craps"),
    (r"baccarat|bacara|bacarat|punto banco", "baccarat"),
)
SPA_TERMS = terms(
    (r"couples?'? massages?|masajes? (?:para|en|de) parejas?", "couples_massage"),
    (r"hot stone(?: massages?)?|(?:masajes? (?:con|de) )?piedras calientes", "hot_stone_massage"),
    (r"deep tissue(?: massages?)?|masajes? de tejido profundo", "deep_tissue_massage"),
    (r"massages?|masajes?", "massage"),
    (r"facials?|faciales", "facial"),
    (r"manicures?|mani[- ]?pedis?|manicura", "manicure"),
    (r"pedicures?|pedicura", "pedicure"),
    (r"body wraps?|envoltura corporal", "body_wrap"),
    (r"sauna|steam room|bano de vapor", "sauna"),
    (r"aromatherapy|aromaterapia", "aromatherapy"),
)


def find_occasion(message: Message) -> list[Hit]:
    folded = message.folded
    hits: list[Hit] = []
    taken: list[tuple[int, int]] = []
    for pattern, value in OCCASION_TERMS:
        for match in pattern.finditer(folded):
            start, end = match.span()
            if any(start < t_end and t_start < end for t_start, t_end in taken):
                continue
            taken.append((start, end))
            if is_negated(folded, start) or in_past_clause(folded, start):
                continue
            cued = _OCCASION_CUE.search(folded[max(0, start - 30) : start])
            confidence, source = (STATED, SELF_REPORTED) if cued else (HINTED, CONTEXTUAL)
            hits.append(Hit(OCCASION, value, confidence, source, start, end))
    specific = [hit for hit in hits if hit.value != "celebration"]
    chosen = min(specific or hits, key=lambda hit: hit.start, default=None)
    return [chosen] if chosen else []


def find_interests(message: Message, companions: list[Companion]) -> list[Hit]:
    hits = vocabulary_hits(message, INTERESTS, INTEREST_TERMS, companions, about_people=False)
    return _drop_companion_subjects(message, hits, companions)


def find_accessibility(message: Message, companions: list[Companion]) -> list[Hit]:
    return vocabulary_hits(
        message,
        ACCESSIBILITY,
        ACCESSIBILITY_TERMS,
        companions,
        about_people=True,
        negation_is_meaning=frozenset({"mobility"}),
    )


def find_gaming_level(message: Message, companions: list[Companion]) -> list[Hit]:
    if not _GAMING_CONTEXT.search(message.folded):
        return []
    for pattern, value in GAMING_LEVEL_TERMS:
        for match in pattern.finditer(message.folded):
            start, end = match.span()
            if value != "beginner" and is_negated(message.folded, start):
                continue
            subject = subject_before(message, start, companions)
            if isinstance(subject, Companion):
                continue  # the profile holds the guest's own level
            confidence, source = (STATED, SELF_REPORTED) if subject else (IMPLIED, CONTEXTUAL)
            return [Hit(GAMING_LEVEL, value, confidence, source, start, end)]
    return []


def find_games(message: Message, companions: list[Companion]) -> list[Hit]:
    hits = vocabulary_hits(message, GAMES, GAME_TERMS, companions, about_people=False)
    return _drop_companion_subjects(message, hits, companions)


def find_spa_treatments(message: Message) -> list[Hit]:
    return vocabulary_hits(message, SPA_TREATMENTS, SPA_TERMS, [], about_people=False)


def _drop_companion_subjects(
    message: Message, hits: list[Hit], companions: list[Companion]
) -> list[Hit]:
    """ "My husband plays poker" is not the guest's preference; "we love poker" is."""
    return [
        hit
        for hit in hits
        if not isinstance(subject_before(message, hit.start, companions), Companion)
    ]
