"""The reply to a list question ("what restaurants do you have? w/ prices", "¿qué
restaurantes tienen?"), made in code from every item of the category (knowledge/lists.py).

Asked for a list, the 0.5B model names one or two of the three venues its search found. The
catalog knows them all. A Spanish question is read through the glossary's English rendering.
An SMS reply is at most two messages, so the list is one sentence: five names, each with its
price tier or phone when the guest asked for it, and how many more there are.
"""

from __future__ import annotations

import functools
import re
from dataclasses import dataclass

from frontdesk.assistants.casino_host.content import Catalog
from frontdesk.assistants.casino_host.content.documents import knowledge_items
from frontdesk.assistants.casino_host.conversation.context import CasinoHostContext
from frontdesk.knowledge.absence import content_words, guide_words, known, vocabulary
from frontdesk.knowledge.dates import asked_range
from frontdesk.knowledge.lists import ListAnswer, list_answer
from frontdesk.knowledge.loader import KnowledgeItem
from frontdesk.routing.asked_field import asked_field

SMS_NAMES = 5
# "Shows" are not listed here: what plays when is the schedule's (the entertainment agent's
# tools), and a spa's treatments are inside its one venue.
CATEGORY_WORDS = {
    "dining": (
        "restaurants", "places to eat", "dining options", "eateries", "food options", "bars",
        "cafes", "lounges",
    ),
    "entertainment": ("entertainment", "nightlife", "entertainment venues"),
    "hotel": ("rooms", "room types", "suites", "hotel rooms"),
    "amenities": ("amenities", "services", "shops", "stores"),
    "gaming": ("table games", "gaming areas"),
}  # fmt: skip
PHRASES = {
    "en": {
        "heading": "{category} at {casino}{filters}: ",
        "filters": " ({words})",
        "and": " and ",
        "more": ", and {count} more. Ask me about any of them!",
        "dining": "Restaurants",
        "entertainment": "Shows and entertainment",
        "spa": "Spa treatments",
        "hotel": "Rooms",
        "amenities": "Amenities",
        "gaming": "Gaming",
    },
    "es": {
        "heading": "{category} en {casino}{filters}: ",
        "filters": " ({words})",
        "and": " y ",
        "more": ", y {count} más. ¡Pregúnteme por cualquiera!",
        "dining": "Restaurantes",
        "entertainment": "Shows y entretenimiento",
        "spa": "Tratamientos de spa",
        "hotel": "Habitaciones",
        "amenities": "Servicios",
        "gaming": "Juegos",
    },
}


@functools.lru_cache(maxsize=16)
def _guide(catalog: Catalog) -> tuple[tuple[KnowledgeItem, ...], dict[str, frozenset[str]]]:
    """The catalog's items as the core reads them, and each one's words, once per catalog."""
    items = tuple(knowledge_items(catalog))
    # What narrows a list is what an item is, not every word of its description: each
    # restaurant's text mentions "a bar", and "any bars?" asks for the bars.
    words = {
        item.name: vocabulary(
            " ".join(str(item.fields.get(f) or "") for f in _WHAT_IT_IS) + f" {item.name}"
        )
        for item in items
    }
    return items, words


_WHAT_IT_IS = ("type", "cuisine", "features", "games", "children", "age_policy")


@dataclass(frozen=True)
class ListReply:
    text: str
    names: tuple[str, ...]  # the venues it names


def list_reply(ctx: CasinoHostContext, question: str, language: str) -> ListReply | None:
    """The list the question asks for, or None when it asks none (or its words narrow the
    category to nothing: the agents answer)."""
    spanish = language == "es"
    text = question
    if spanish:
        glossary = ctx.services.glossary
        text = (glossary.translate(question) if glossary is not None else None) or ""
    # A list on some date ("what shows are on saturday") is the schedule's: the agents read it.
    if not text or asked_range(text, ctx.catalog.local(ctx.now).date()) is not None:
        return None
    casino = ctx.catalog.casino
    own_name = guide_words(casino.name)
    items, words = _guide(ctx.catalog)
    say = PHRASES["es" if spanish else "en"]
    found = list_answer(
        text,
        items,
        words_of=lambda t: content_words(t, own_name),
        has_word=lambda word, item: known(word, words[item.name]),
        heading=lambda category, filters: "",  # the reply is composed below, as one sentence
        more="",
        category_words=CATEGORY_WORDS,
        max_lines=SMS_NAMES,
        describe=False,
    )
    if found is None:
        found = _recommended(ctx, text, own_name, words)
    if found is None:
        return None
    more = found.total - len(found.items)
    field = "price" if _CHEAP.search(text) else asked_field(text)
    named = [_named(ctx.catalog, name, field) for name in found.items]
    listed = ", ".join(named[:-1]) + say["and"] + named[-1] if len(named) > 1 else named[0]
    filters = ", ".join(found.filters)
    shown = say["filters"].format(words=filters) if filters and not spanish else ""
    reply = say["heading"].format(category=say[found.category], casino=casino.name, filters=shown)
    reply += listed + (say["more"].format(count=more) if more else ".")
    return ListReply(reply, found.items)


def _named(catalog: Catalog, name: str, field: str | None) -> str:
    """A venue's name, with its price tier or phone when the guest asked for it."""
    venue = next((v for v in catalog.venues() if v.name == name), None)
    if venue is None:
        return name
    value = {"price": venue.price_range, "phone": venue.phone}.get(field or "")
    return f"{name} ({value})" if value else name


# "where can i get cheap eats?", "any place for a cocktail", "dónde puedo comer barato", "do you
# have seafood?", "¿tienen mariscos?" (read in English): a recommendation among the places to
# eat and drink. Asked in Spanish for seafood, the model had named a Mexican grill.
_RECOMMEND = re.compile(
    r"\bwhere (?:can|could|should|do|would) (?:i|we|u|you|ya) (?:get|grab|eat|find|go|have|do)\b"
    r"|\b(?:any|some|a) (?:good )?(?:place|spot|restaurant)s?\b|\banywhere\b"
    r"|\b(?:do|does) (?:you|u|ya|yall|y'all|they|the casino)(?: guys)? (?:have|serve|got)\b"
    r"|\b(?:you|u|ya) (?:guys )?(?:have|got) any\b|\b(?:is|are) there\b"
)
_FOOD_OR_DRINK = re.compile(
    r"\b(?:eat|eats|food|dinner|lunch|breakfast|brunch|bite|meal|snack|drinks?|cocktails?|"
    r"coffee|beer|wine|pizza|burgers?|sushi|steak|seafood|tacos?|noodles?)\b"
)
_CHEAP = re.compile(r"\bcheap|\bbudget\b|\binexpensive\b|\baffordable\b|\bbarat")


def _recommended(
    ctx: CasinoHostContext, text: str, own_name: list[str], words: dict[str, frozenset[str]]
) -> ListAnswer | None:
    """The places to eat and drink a recommendation question asks for: narrowed by its words
    that some of them have ("cocktail", "sushi"; a guest's other words, "tight budget this
    trip", narrow nothing), the cheapest first when the guest counts the cost."""
    folded = text.casefold()
    if not (_RECOMMEND.search(folded) and _FOOD_OR_DRINK.search(folded)):
        return None
    dining = [v for v in ctx.catalog.venues() if v.category == "dining"]
    asked = content_words(text, own_name) - _NOT_NARROWING
    narrowing = {w for w in asked if any(known(w, words[v.name]) for v in dining)}
    if any(_FOOD_OR_DRINK.fullmatch(w) for w in asked - narrowing):
        return None  # "any place for sushi?" where none has sushi: not every restaurant
    members = [v for v in dining if all(known(w, words[v.name]) for w in narrowing)]
    if _CHEAP.search(folded):
        members.sort(key=lambda v: len((v.price_range or "$$$$$").split("-")[0]))
    if not members:
        return None
    shown = tuple(v.name for v in members[:SMS_NAMES])
    return ListAnswer("", shown, "dining", tuple(sorted(narrowing)), len(members))


# Words of a recommendation that say it is one, not what is wanted.
_NOT_NARROWING = frozenset(
    [
        "eat",
        "eats",
        "food",
        "place",
        "spot",
        "grab",
        "get",
        "find",
        "nice",
        "good",
        "best",
        "cheap",
        "budget",
        "meal",
        "bite",
    ]
)
