"""Which venue or event of the casino a guest's message names.

"Picasso", "tuscany", "the holiday pops": a guest calls a place or a show by its name in full,
by its first two words, or by one word of it that no other name of the casino has and that is
no everyday word of a resort (the glossary's English). A message with a name-like word the
casino has nowhere ("the motown revue" at Bellagio) names nothing of it, whatever else it
shares with a name.
"""

from __future__ import annotations

import functools
import re
from collections import Counter
from collections.abc import Callable

from frontdesk.assistants.casino_host.content import CasinoContent, Catalog, Venue
from frontdesk.assistants.casino_host.content.documents import knowledge_items
from frontdesk.assistants.casino_host.content.models import Event
from frontdesk.assistants.casino_host.conversation.context import CasinoHostContext
from frontdesk.knowledge.absence import STOP_WORDS, guide_words, known, name_vocabulary
from frontdesk.knowledge.focus import names_item


def named_venue(ctx: CasinoHostContext, question: str) -> Venue | None:
    """The venue of this casino `question` names ("picasso", "tuscany"; not "dining")."""
    names = {v.id: v.name for v in ctx.catalog.venues()}
    found = _named(ctx, question, names, _own_words)
    return ctx.catalog.venue(found) if found else None


def named_event(ctx: CasinoHostContext, question: str) -> Event | None:
    """The event of this casino `question` names ("the holiday pops", "ver O", "the O show")."""
    if (lettered := _lettered_event(ctx.catalog, question)) is not None:
        return lettered
    names = {e.id: e.name for e in ctx.catalog.events()}
    found = _named(ctx, question, names, _event_words)
    return ctx.catalog.event(found) if found else None


def _lettered_event(catalog: Catalog, question: str) -> Event | None:
    """An event whose name is one letter ("O by Cirque du Soleil"): named by that capital on
    its own ("hay edad minima pa entrar a ver O?") or by the letter before "show" or "tix"
    ("how much r tix for the o show"). Not "A" or "I", which are words."""
    for event in catalog.events():
        head = event.name.split()[0]
        if len(head) != 1 or not head.isupper() or head in "AI":
            continue
        letter = re.escape(head)
        if re.search(rf"(?<![\w'’]){letter}(?![\w'’])", question) or re.search(
            rf"(?<![\w'’]){letter.lower()}\s+(?:show|tix|tickets?)\b", question
        ):
            return event
    return None


def _named(
    ctx: CasinoHostContext,
    question: str,
    names: dict[str, str],
    own_words: Callable[[Catalog, frozenset[str]], dict[str, frozenset[str]]],
) -> str | None:
    """The id of the item `question` names: in full (the longest name first), by its first two
    words, or by one of `own_words`."""
    for exact in (True, False):
        named = [i for i, name in names.items() if names_item(question, name, exact=exact)]
        if named:
            return max(named, key=lambda i: len(names[i]))
    glossary = ctx.services.glossary
    if glossary is None or names_something_else(ctx.catalog, question, glossary.target_words):
        return None
    asked = set(guide_words(question))
    words = own_words(ctx.catalog, glossary.target_words)
    return next((i for i, own in words.items() if asked & own), None)


def names_elsewhere(ctx: CasinoHostContext, question: str) -> bool:
    """Whether `question` names a venue or event of another casino the host serves, by a word
    of its name that nothing of this casino has ("is picasso open tonight?" at Mohegan Sun): it
    is about no venue of the turn before either. Not any unknown word: "how much for a normal
    one, nothing fancy" is about the massage asked before."""
    content = getattr(ctx.services, "content", None)
    if content is None:
        return False
    elsewhere = _names_elsewhere(content, ctx.catalog)
    return any(w in elsewhere for w in guide_words(question))


@functools.lru_cache(maxsize=16)
def _names_elsewhere(content: CasinoContent, catalog: Catalog) -> frozenset[str]:
    here = _catalog_words(catalog)
    words = {
        w
        for other in (content.catalog(cid) for cid in content.casino_ids)
        if other.casino_id != catalog.casino_id
        for item in (*other.venues(), *other.events())
        for w in guide_words(item.name)
    }
    return frozenset(w for w in words if len(w) >= 5 and w not in STOP_WORDS and w not in here)


def names_something_else(catalog: Catalog, question: str, everyday: frozenset[str]) -> bool:
    """Whether the question has a name-like word (five letters or more, no everyday word) that
    nothing of the casino has: "the motown revue" is not Bellagio's Mayfair Supper Club Revue."""
    known_words = _catalog_words(catalog)
    return any(
        len(w) >= 5 and w not in everyday and w not in STOP_WORDS and not known(w, known_words)
        for w in guide_words(question)
    )


@functools.lru_cache(maxsize=16)
def item_vocabularies(catalog: Catalog) -> tuple[frozenset[str], ...]:
    """Every item's words (its name and fields), read once per loaded catalog."""
    return tuple(
        name_vocabulary(i.name, " ".join(map(str, i.fields.values())))
        for i in knowledge_items(catalog)
    )


def _catalog_words(catalog: Catalog) -> frozenset[str]:
    return frozenset().union(*item_vocabularies(catalog))


@functools.lru_cache(maxsize=16)
def _own_words(catalog: Catalog, everyday: frozenset[str]) -> dict[str, frozenset[str]]:
    """Each venue's name words that no other venue's name has and that are not `everyday`
    words (the glossary's English): the word a guest may call it by."""
    named = {v.id: set(guide_words(v.name)) - STOP_WORDS for v in catalog.venues()}
    counts = Counter(w for words in named.values() for w in words)
    return {
        venue_id: frozenset(
            w
            for w in words
            if counts[w] == 1
            and len(w) >= 5
            and w not in everyday
            and w.rstrip("s") not in everyday
        )
        for venue_id, words in named.items()
    }


@functools.lru_cache(maxsize=16)
def _event_words(catalog: Catalog, everyday: frozenset[str]) -> dict[str, frozenset[str]]:
    """Each event's name words that no other event or venue has and that are not everyday."""
    names = [*(e.name for e in catalog.events()), *(v.name for v in catalog.venues())]
    counts = Counter(w for name in names for w in set(guide_words(name)))
    return {
        event.id: frozenset(
            w
            for w in set(guide_words(event.name)) - STOP_WORDS
            if counts[w] == 1
            and len(w) >= 5
            and w not in everyday
            and w.rstrip("s") not in everyday
        )
        for event in catalog.events()
    }
