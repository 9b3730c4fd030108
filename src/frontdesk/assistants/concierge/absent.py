"""What the resort has and lacks, asked after by name: "is there a bowling alley?", "cheesecake
factory hrs?", "can i book olive garden for 8". A thing the knowledge lacks is answered as absent
(with the closest thing whose name shares its main word), never with a look-alike's hours or
price; a thing it has is named with where it is. The router sends a question that names a place
here whatever its classifier heard in it (a booking, a game).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any

from frontdesk.assistants.concierge.fact_answer import FactAnswer
from frontdesk.assistants.concierge.phrases import phrases
from frontdesk.knowledge.absence import (
    STOP_WORDS,
    content_words,
    guide_words,
    name_vocabulary,
    name_words,
    names_of,
)
from frontdesk.knowledge.absence import asked_thing as core_asked_thing
from frontdesk.knowledge.absence import is_absent as core_is_absent
from frontdesk.knowledge.asked_name import asked_name as core_asked_name
from frontdesk.knowledge.loader import KnowledgeItem
from frontdesk.routing.asked_field import asked_field
from frontdesk.routing.followup import is_follow_up

# The resort's own name tells no item from another.
PROPERTY_WORDS = frozenset({"mohegan", "sun"})
_STOP = STOP_WORDS | PROPERTY_WORDS
_words = guide_words


def _content(text: str) -> set[str]:
    return content_words(text, PROPERTY_WORDS)


def item_words(item: KnowledgeItem) -> frozenset[str]:
    # Read once per item and version: every existence question reads every item.
    key = (item.source, item.category, item.name, item.last_updated)
    if key not in _VOCABULARIES:
        _VOCABULARIES[key] = name_vocabulary(item.name, _flat(item.fields))
    return _VOCABULARIES[key]


_VOCABULARIES: dict[tuple[str, str, str, str], frozenset[str]] = {}


def _flat(value: Any) -> str:
    if isinstance(value, dict):
        return " ".join(_flat(v) for v in value.values())
    if isinstance(value, list):
        return " ".join(_flat(v) for v in value)
    return str(value)


def asked_thing(question: str) -> str | None:
    return core_asked_thing(question, PROPERTY_WORDS)


def asked_name(question: str) -> str | None:
    return core_asked_name(question, PROPERTY_WORDS)


def is_absent(
    thing: str,
    items: Sequence[KnowledgeItem],
    property_text: str = "",
    *,
    by_name: bool = False,
) -> bool:
    """Whether the knowledge lacks `thing` (knowledge/absence.py), the resort's own
    description counted as one more item; a thing asked about `by_name` is judged as a name
    of one of the kinds of place the items are."""
    vocabularies = [*(item_words(i) for i in items), frozenset(_words(property_text))]
    titles = tuple(i.name for i in items)
    words = name_words(titles) if by_name else None
    return core_is_absent(
        thing, vocabularies, PROPERTY_WORDS, name_words=words, names=names_of(titles)
    )


def names_a_place(question: str) -> bool:
    """Whether the question asks after a thing or a place by name ("is there a bowling
    alley", "hot tub hours", "nobu rez for 2"): a question about the resort, whatever else
    the classifier hears in it."""
    return asked_thing(question) is not None or asked_name(question) is not None


def missing_place(
    question: str, items: Sequence[KnowledgeItem], property_text: str = ""
) -> str | None:
    """The thing or place the question asks after that the knowledge lacks ("is there a
    bowling alley", "can i book olive garden for 8"), or None."""
    if thing := asked_thing(question):
        return thing if is_absent(thing, items, property_text) else None
    name = asked_name(question)
    return name if name and is_absent(name, items, property_text, by_name=True) else None


def names_a_missing_place(
    question: str, items: Sequence[KnowledgeItem], property_text: str = ""
) -> bool:
    """Whether the question names a thing or a place the knowledge lacks ("can i book olive
    garden for 8", "y la cancha de tenis? quiero jugar"): the answer is that it is not here,
    not a refusal to book or to advise on gambling."""
    return missing_place(question, items, property_text) is not None


# Fields of a place a guest asks without asking anything to be done.
_PLACE_FIELDS = frozenset({"hours", "price", "location", "phone", "dress_code", "age"})


def asks_a_field_of_a_place(question: str) -> bool:
    """ "gym hrs? wanna lift before checkout": a place named and one of its fields asked."""
    return asked_name(question) is not None and asked_field(question) in _PLACE_FIELDS


def leans_on_previous(question: str) -> bool:
    """Whether a question is read with the one before it: short, or pointing back, unless it
    names a place and asks a field of it itself ("gym hrs?" after a question about the buffet
    is about the gym; "and the spa?" still takes the question before's field)."""
    return is_follow_up(question) and not asks_a_field_of_a_place(question)


def absent_answer(
    thing: str,
    property_name: str,
    retrieved: Sequence[KnowledgeItem],
    language: str = "en",
    *,
    field: str | None = None,
) -> FactAnswer:
    """ "Mohegan Sun does not have a bowling alley", and what is close: a retrieved item whose
    name has the thing's main word ("buffet" -> Seasons Buffet), with its hours when the
    question asked how late (`field`): "hookah lounge?? where is it and how late"."""
    say = phrases(language)
    words = [w for w in _words(thing) if w not in _STOP]
    head = words[-1] if words else ""
    article = (
        ""
        if re.match(r"^(a|an|any|the)\b", thing)
        else (say.absent_article_an if thing[:1] in "aeiou" else say.absent_article_a)
    )
    text = say.absent.format(property=property_name, article=article, thing=thing)
    close = [i for i in retrieved if head and head in _words(i.name)]
    if close:
        item = close[0]
        location = item.fields.get("location")
        where = say.located_in.format(location=location) if location else ""
        text += say.closest.format(name=item.name, where=where)
        hours = item.fields.get("hours") or item.fields.get("schedule")
        if field == "hours" and isinstance(hours, str) and hours:
            label = say.hours if item.fields.get("hours") else say.schedule
            text += " " + label.format(name=item.name, value=hours)
        return FactAnswer(text, (item.name,))
    return FactAnswer(text, ())


def _head(name: str) -> str:
    """The word a name is of ("pub" in "The Lansdowne Irish Pub & Music House")."""
    words = _words(re.split(r"\s+(?:&|at|in|and|by)\s+|\s+-\s+|,", name.casefold())[0])
    return words[-1] if words else ""


def present_answer(
    thing: str, items: Sequence[KnowledgeItem], language: str = "en"
) -> FactAnswer | None:
    """ "Is there an Irish pub?": yes, and which (three at most), with where each is. Only
    items whose name or type has every word of the thing: an entry that mentions a "jungle gym"
    is not a gym. Among them, those whose name is of the thing ("Indoor Pool", not "Sky Pool
    Cafe") when there are such."""
    if re.search(r"[^s]s$", thing.strip()):  # "any bars": a list, not one place
        return None
    found: list[KnowledgeItem] = []
    for alternative in re.split(r"\s+or\s+", thing):
        wanted = _content(alternative)
        for item in items:
            called = set(_words(f"{item.name} {item.fields.get('type', '')}"))
            if wanted and item not in found and wanted <= called:
                found.append(item)
    heads = {w for alternative in re.split(r"\s+or\s+", thing) for w in _words(alternative)[-1:]}
    found = [i for i in found if _head(i.name) in heads] or found
    if not found or len(found) > 3:
        return None
    say = phrases(language)
    named = [
        i.name
        + (say.located_in.format(location=i.fields["location"]) if i.fields.get("location") else "")
        for i in found
    ]
    return FactAnswer(say.present.format(names="; ".join(named)), tuple(i.name for i in found))
