"""List questions answered from a guide's items: "what restaurants do you have? with prices",
"which restaurants have a kids' menu", "any italian places". The concierge and the casino host
both answer them here.

Asked for a list, the 0.5B model names one or two items of the five it was shown and stops.
The guide knows every item of a category, so the list is made in code: the category the
question names, narrowed by the words of the question that items of that category have
("italian", "kids menu", "breakfast"), each line with the field asked for (prices, hours, a
phone) or, by default, what it is and where.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass

from frontdesk.knowledge.loader import KnowledgeItem

# The words that name a category in the plural, as a guest asking for a list writes them
# ("what time does the restaurant open" asks about one), by the guide's category names.
CATEGORY_WORDS: Mapping[str, tuple[str, ...]] = {
    "restaurants": ("restaurants", "places to eat", "dining options", "eateries"),
    "entertainment": ("shows", "venues", "entertainment", "nightlife", "clubs"),
    "hotel": ("rooms", "room types", "suites", "hotel rooms"),
    "amenities": ("amenities", "services"),
    "gaming": ("casinos", "gaming areas", "games"),
    "promotions": ("promotions", "offers", "deals", "packages"),
}
# A question asks for a list: "what/which/any/all ... restaurants", "list ...", "give me ...".
_LIST_ASKED = re.compile(
    r"\b(?:what|which|any|all|list|name|recommend|options|choices|give me|show me|"
    r"are there|do you have)\b"
)
# The field each line gives when the question asks for it.
_LINE_FIELDS = (
    (
        "price",
        re.compile(r"\bprices?\b|\brates?\b|\bhow much\b|\bcost|\bcheap|\bexpensive|\bbudget"),
    ),
    ("hours", re.compile(r"\bhours\b|\bopen\b|\bwhat time\b|\blate\b")),
    ("phone", re.compile(r"\bphone|\bnumbers?\b|\bcall\b")),
)
# Words of a list question that do not narrow it (and what texts add: "pls", "w", "lol").
_NOT_FILTERS = frozenset(
    """
    what which any all list name names recommend options choices give show me are there do
    does you have has got the a an of at in on for with and or some your here there is
    restaurant restaurants place places eat eating dining eatery eateries food price prices
    how much cost costs cheap expensive hours open time late phone number numbers call good
    best nice please can i we get find where serve serves menu menus offer offers venue
    venues shows show room rooms suite suites game games casino casinos service services
    amenity amenities promotion promotions deal deals package packages resort property
    rate rates type types kind kinds option choice
    pls plz thx thanks tho lol w u r ur ya yall guys hey hi hello ok okay
    """.split()  # noqa: SIM905 - a word list reads better as text
)
MAX_LINES = 12


@dataclass(frozen=True)
class ListAnswer:
    text: str
    items: tuple[str, ...]  # the names shown, in the guide's order
    category: str = ""
    filters: tuple[str, ...] = ()  # the question's words that narrowed the category
    total: int = 0  # how many items the narrowed category has, shown or not


def asked_category(
    question: str, category_words: Mapping[str, tuple[str, ...]] = CATEGORY_WORDS
) -> str | None:
    text = question.casefold()
    if not _LIST_ASKED.search(text):
        return None
    for category, words in category_words.items():
        if any(re.search(rf"\b{re.escape(w)}\b", text) for w in words):
            return category
    return None


def _line(item: KnowledgeItem, field: str | None, describe: bool) -> str:
    fields = item.fields
    if field == "price":
        value = fields.get("price_range") or fields.get("rate_range")
    elif field == "hours":
        value = fields.get("hours") or fields.get("schedule")
    elif field == "phone":
        value = fields.get("phone")
    elif not describe:
        value = None
    else:
        kind = fields.get("cuisine") or fields.get("type")
        where = fields.get("location") or fields.get("tower")
        value = "; ".join(str(v) for v in (kind, where) if v)
    return f"- {item.name}: {value}" if value else f"- {item.name}"


def list_answer(
    question: str,
    items: Sequence[KnowledgeItem],
    *,
    words_of: Callable[[str], set[str]],
    has_word: Callable[[str, KnowledgeItem], bool],
    heading: Callable[[str, list[str]], str],
    more: str,
    category_words: Mapping[str, tuple[str, ...]] = CATEGORY_WORDS,
    max_lines: int = MAX_LINES,
    describe: bool = True,
) -> ListAnswer | None:
    """The items of the category the question asks a list of, narrowed by its other words;
    None when it asks no list, or its narrowing words match no item (the model answers).
    `words_of(text)`: the content words of a text; `has_word(word, item)`: whether the item
    has the word (typos and plurals forgiven); `heading(category, filters)`: the list's first
    line; `more`: "(and {count} more)" in the answer's language; `category_words`: the words
    naming each of the guide's categories; `describe`: a line without an asked field says what
    the item is and where (else the name alone: the guide's words may not be the answer's
    language)."""
    category = asked_category(question, category_words)
    if category is None:
        return None
    members = [i for i in items if i.category == category]
    filters = sorted(w for w in words_of(question) if w not in _NOT_FILTERS)
    if filters:
        members = [i for i in members if all(has_word(w, i) for w in filters)]
    if not members:
        return None
    text = question.casefold()
    field = next((name for name, pattern in _LINE_FIELDS if pattern.search(text)), None)
    shown = members[:max_lines]
    lines = [heading(category, filters)]
    lines += [_line(item, field, describe) for item in shown]
    if len(members) > len(shown):
        lines.append(more.format(count=len(members) - len(shown)))
    names = tuple(item.name for item in shown)
    return ListAnswer("\n".join(lines), names, category, tuple(filters), len(members))
