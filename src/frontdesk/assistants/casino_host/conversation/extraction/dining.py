"""Dining fields: dietary restrictions, cuisines, budget and whether a kids menu is needed.

Dietary restrictions are the party's: the kitchen must cater for the guest and companions
alike, so "he's gluten free" lands in `preferences.dining.dietary_restrictions` (contextual,
being about someone else) and on that companion's entry.
"""

from __future__ import annotations

import re

from .attribution import preference_hit, vocabulary_hits
from .companions import Companion
from .fields import (
    BUDGET,
    CONTEXTUAL,
    CUISINE,
    DIETARY,
    HINTED,
    IMPLIED,
    KIDS_MENU,
    SELF_REPORTED,
    STATED,
)
from .text import Hit, Message, is_negated, terms

_ALLERGY = r"(?:allerg\w*|alergi\w*|alergic\w*)"
_NUTS = r"(?:(?:tree )?nuts?|peanuts?|almonds?|walnuts?|cashews?|pecans?|frutos secos|nueces|cacahuates?|cacahuetes?|mani)"
_SHELLFISH = r"(?:shellfish|shrimp|crab|lobster|seafood|mariscos|camarones|langosta)"


DIETARY_TERMS = terms(
    (
        rf"{_NUTS} {_ALLERGY}|{_ALLERGY} (?:to|a|al) (?:the |los |las |la |el )?{_NUTS}",
        "nut_allergy",
    ),
    (r"nut[- ]free|no (?:tree )?nuts|sin (?:frutos secos|nueces|mani)", "nut_allergy"),
    (
        rf"{_SHELLFISH} {_ALLERGY}|{_ALLERGY} (?:to|a|al) (?:the |los |las )?{_SHELLFISH}",
        "shellfish_allergy",
    ),
    (r"no shellfish|sin mariscos", "shellfish_allergy"),
    (
        (
            r"(?:gluten|wheat)[- ]?(?:free|intoleran\w*)|celiac[oa]?s?|coeliac|sin gluten|"
            r"no gluten|libre de gluten|intoleran\w* al gluten"
        ),
        "gluten_free",
    ),
    (
        (
            r"dairy[- ]?free|lactose[- ](?:intoleran\w*|free)|no dairy|sin lactosa|"
            r"intoleran\w* a la lactosa|deslactosad\w*"
        ),
        "dairy_free",
    ),
    (r"vegan[oa]?s?", "vegan"),
    (r"vegetarian[oa]?s?", "vegetarian"),
    (r"pescatarian|pescetarian[oa]?s?", "pescatarian"),
    (r"kosher", "kosher"),
    (r"halal", "halal"),
    (r"diabetic[oa]?s?", "diabetic"),
    (
        (
            r"(?:don'?t|do not|doesn'?t|does not|no) eat pork|no pork|no (?:come|comemos|como) cerdo|"
            r"sin cerdo"
        ),
        "no_pork",
    ),
)
_PHRASED_AS_NEGATION = frozenset({"nut_allergy", "shellfish_allergy", "gluten_free", "dairy_free"})
_NO_PORK = "no_pork"
_NO_RESTRICTIONS = re.compile(
    r"\bno (?:dietary |food )?(?:restrictions|allergies)\b|\bno food allergies\b|"
    r"\b(?:don'?t|do not|doesn'?t) have (?:any )?(?:food |dietary )?(?:allergies|restrictions)\b|"
    r"\b(?:we|i) (?:eat|will eat) (?:anything|everything)\b|\bsin (?:alergias|restricciones)\b|"
    r"\bno (?:tengo|tenemos|tiene|tienen) (?:ninguna |ningun )?(?:alergias?|restricci\w+)\b|"
    r"\b(?:comemos|como) de todo\b"
)

CUISINE_TERMS = terms(
    (r"steak ?house|steaks?|chophouse|asador|parrilla", "steak"),
    (r"sushi", "sushi"),
    (r"seafood|mariscos|oysters?|ostras", "seafood"),
    (r"pizza|pizzeria", "pizza"),
    (r"bbq|barbecue|barbacoa", "bbq"),
    (r"burgers?|hamburguesas?", "burgers"),
    (r"buffet|bufet|bufe", "buffet"),
    (r"tacos|taqueria", "mexican"),
    (r"ramen|hibachi|teppanyaki", "japanese"),
    (r"tapas|paella", "spanish"),
    (r"dim sum", "chinese"),
)
# Nationality words are cuisines only next to food words: "I'm Mexican" is not a cuisine.
_NATIONAL_CUISINES = {
    "italian": "italian",
    "italiana": "italian",
    "italiano": "italian",
    "mexican": "mexican",
    "mexicana": "mexican",
    "mexicano": "mexican",
    "chinese": "chinese",
    "china": "chinese",
    "japanese": "japanese",
    "japonesa": "japanese",
    "thai": "thai",
    "tailandesa": "thai",
    "indian": "indian",
    "india": "indian",
    "french": "french",
    "francesa": "french",
    "korean": "korean",
    "coreana": "korean",
    "greek": "greek",
    "griega": "greek",
    "vietnamese": "vietnamese",
    "cuban": "cuban",
    "cubana": "cuban",
    "mediterranean": "mediterranean",
    "mediterranea": "mediterranean",
    "asian": "asian",
    "asiatica": "asian",
    "peruvian": "peruvian",
    "peruana": "peruvian",
}
_NATIONAL = "|".join(sorted(_NATIONAL_CUISINES, key=len, reverse=True))
_NATIONAL_WITH_FOOD = re.compile(
    rf"\b(?P<word>{_NATIONAL}) (?:food|restaurants?|places?|spots?|cuisine|dinner|lunch|joints?)\b"
    rf"|\b(?:comida|restaurantes?|cocina|lugar|cena) (?P<word_es>{_NATIONAL})\b"
    rf"|\b(?P<word_bare>{_NATIONAL})\b(?=[^.!?]{{0,40}}\b(?:eat|dinner|lunch|food|restaurant|"
    r"place|craving|cenar|comer|restaurante)\b)"
)

_BUDGET_TERMS = terms(
    (
        (
            r"nothing (?:too )?fancy|not too fancy|nada (?:muy )?elegante|mid[- ]?range|"
            r"mid[- ]?priced|moderate(?:ly priced)?|casual dining|precio medio"
        ),
        "moderate",
    ),
    (
        (
            r"cheap|cheaper|inexpensive|affordable|budget[- ]friendly|on a budget|"
            r"nothing (?:too )?(?:expensive|pricey)|not too (?:expensive|pricey)|reasonabl[ey] priced|"
            r"economic[oa]s?|barat[oa]s?|no (?:muy|tan) car[oa]"
        ),
        "budget",
    ),
    (
        (
            r"upscale|high[- ]end|fine dining|fancy|splurge|money is no (?:object|issue)|"
            r"price is no (?:object|issue)|somewhere nice|something nice|nice (?:dinner|restaurant|place)|"
            r"elegante|de lujo|lujos[oa]|alta cocina|algo fino|exclusiv[oa]"
        ),
        "upscale",
    ),
)
_PER_PERSON_AMOUNT = re.compile(
    r"(?:under|less than|below|around|about|max|up to|no more than|menos de|hasta|alrededor de)?"
    r"\s*\$\s?(?P<amount>\d{1,4})(?: dollars| dolares| bucks)?\s*"
    r"(?:per person|a person|each|pp|a head|por persona|por cabeza)\b"
)
_BUDGET_VERBS = re.compile(r"\b(?:looking for|want|prefer|need|quiero|queremos|buscamos|busco)\b")

_KIDS_MENU = re.compile(
    r"\bkid'?s'? menu|\bkids? menu|\bchildren'?s'? menu|\bmenu (?:infantil|para ninos|de ninos)"
)
_NO_KIDS = re.compile(
    r"\bno (?:kids|children|ninos)\b|\bwithout (?:the )?(?:kids|children)\b|\bsin (?:los )?ninos\b"
    r"|\b(?:adults only|just adults|only adults|solo adultos|solamente adultos)\b"
)
_KIDS_MENU_MAX_AGE = 11


def find_dietary(message: Message, companions: list[Companion]) -> list[Hit]:
    hits = vocabulary_hits(
        message,
        DIETARY,
        DIETARY_TERMS,
        companions,
        about_people=True,
        negation_is_meaning=_PHRASED_AS_NEGATION | {_NO_PORK},
    )
    if hits:
        return hits
    match = _NO_RESTRICTIONS.search(message.folded)
    if match:
        return [Hit(DIETARY, [], STATED, SELF_REPORTED, match.start(), match.end())]
    return []


def find_cuisines(message: Message) -> list[Hit]:
    folded = message.folded
    allergy_spans = [m.span() for m in re.finditer(rf"{_ALLERGY}\W+(?:\w+\W+){{0,3}}", folded)]
    hits = vocabulary_hits(message, CUISINE, CUISINE_TERMS, [], about_people=False)
    hits = [h for h in hits if not any(s <= h.start <= e for s, e in allergy_spans)]
    for match in _NATIONAL_WITH_FOOD.finditer(folded):
        word = match["word"] or match["word_es"] or match["word_bare"]
        group = "word" if match["word"] else "word_es" if match["word_es"] else "word_bare"
        start = match.start(group)
        if is_negated(folded, start):
            continue
        value = _NATIONAL_CUISINES[word]
        hits.append(preference_hit(message, CUISINE, value, start, start + len(word)))
    return hits


def find_budget(message: Message) -> list[Hit]:
    """A price level; amounts count only per person ("$60 per person"), as totals are ambiguous."""
    folded = message.folded
    hits = []
    taken: list[tuple[int, int]] = []
    for pattern, value in _BUDGET_TERMS:
        for match in pattern.finditer(folded):
            if any(match.start() < e and s < match.end() for s, e in taken):
                continue
            taken.append(match.span())
            if value != "moderate" and is_negated(folded, match.start()):
                continue
            stated = _BUDGET_VERBS.search(folded[: match.start()])
            confidence, source = (STATED, SELF_REPORTED) if stated else (IMPLIED, CONTEXTUAL)
            hits.append(Hit(BUDGET, value, confidence, source, match.start(), match.end()))
    for match in _PER_PERSON_AMOUNT.finditer(folded):
        amount = int(match["amount"])
        value = "budget" if amount <= 30 else "moderate" if amount <= 75 else "upscale"
        hits.append(Hit(BUDGET, value, STATED, SELF_REPORTED, match.start(), match.end()))
    return hits[:1]


def find_kids_menu(message: Message, companions: list[Companion]) -> list[Hit]:
    folded = message.folded
    menu = _KIDS_MENU.search(folded)
    if menu:
        if is_negated(folded, menu.start(), window=6):
            return [Hit(KIDS_MENU, False, STATED, SELF_REPORTED, *menu.span())]
        return [Hit(KIDS_MENU, True, STATED, SELF_REPORTED, *menu.span())]
    no_kids = _NO_KIDS.search(folded)
    if no_kids:
        return [Hit(KIDS_MENU, False, STATED, SELF_REPORTED, *no_kids.span())]
    young = [
        c
        for c in companions
        if c.relationship in ("child", "grandchild")
        and (c.age is not None and c.age <= _KIDS_MENU_MAX_AGE or (c.age is None and c.young))
    ]
    if young:
        return [Hit(KIDS_MENU, True, HINTED, CONTEXTUAL, young[0].start, young[0].end)]
    return []
