"""The reply to a question about something the casino does not have ("is there a bowling
alley?", "¿tienen bolera?"), worked out in code.

Shown the nearest items, the 0.5B model answers such a question with a look-alike's hours or
price. Whether any of the casino's items holds every word of the asked thing is decided in
the core (knowledge/absence.py); when none does, the host says so, in the guest's language,
and offers to help with something else. A Spanish thing is judged by its English rendering,
and only when the glossary knows every one of its words: a word it does not know ("alberca")
may well be something the casino has. Nor is a thing absent that the embedder finds close to
one of the casino's venues by name and kind: "gym" is the Fitness Center, whose words never say
gym (cosine 0.59, where a bowling alley, a water park or a Cheesecake Factory came closest to a
venue at 0.41-0.50, both casinos, 24 things tried on 2026-11-29). When the casino knows some of
the thing's words and not the others, the words it does not know must be near a venue too: a
"movie theater" is close to the O Theatre only through "theater" ("movie" alone: 0.35), where the
"swimming" of a swimming pool is near the Indoor Pool on its own (0.46) and "mall" near The Shops
(0.49); 30 things tried at both casinos on 2026-11-29 ("hay cine?" had been told of a cinema in
the O Theatre).
"""

from __future__ import annotations

import functools

import numpy as np
from langchain_core.embeddings import Embeddings

from frontdesk.assistants.casino_host.content import Catalog
from frontdesk.assistants.casino_host.conversation.context import CasinoHostContext
from frontdesk.assistants.casino_host.conversation.extraction import detect_language
from frontdesk.assistants.casino_host.conversation.naming import item_vocabularies
from frontdesk.knowledge.absence import (
    asked_thing,
    content_words,
    guide_words,
    is_absent,
    known,
    name_words,
    names_of,
    vocabulary,
)
from frontdesk.knowledge.asked_name import asked_name
from frontdesk.knowledge.dates import WHEN_WORDS

# A thing this close to a venue's "name (kind)" is taken for that venue under another word.
CLOSE_TO_A_VENUE = 0.55
# ... and, when the casino knows some of its words, its unknown words at least this close.
UNKNOWN_WORDS_CLOSE = 0.40
PHRASES = {
    "en": "Sorry, {casino} doesn't have {thing}. Happy to help with dining, shows or the spa!",
    "es": "Lo siento, {casino} no tiene {thing}. ¿Le ayudo con restaurantes, shows o el spa?",
}


@functools.lru_cache(maxsize=16)
def _venue_vectors(catalog: Catalog, embeddings: Embeddings) -> np.ndarray:
    labels = [f"{venue.name} ({venue.kind.replace('_', ' ')})" for venue in catalog.venues()]
    return _unit(np.array(embeddings.embed_documents(labels), dtype=np.float32))


def _unit(vectors: np.ndarray) -> np.ndarray:
    norms = np.linalg.norm(vectors, axis=-1, keepdims=True)
    return vectors / np.where(norms == 0, 1, norms)


def resembles_a_venue(
    catalog: Catalog, embeddings: Embeddings, thing: str, unknown: tuple[str, ...] = ()
) -> bool:
    """Whether `thing` is, to the embedder, one of the casino's venues by another word.
    `unknown`: those of its words the casino's items never use, when it uses some of the
    others: they must carry the likeness on their own as well."""
    venues = _venue_vectors(catalog, embeddings)
    if not len(venues):
        return False
    if _closest(venues, embeddings, thing) < CLOSE_TO_A_VENUE:
        return False
    return not unknown or _closest(venues, embeddings, " ".join(unknown)) >= UNKNOWN_WORDS_CLOSE


def _closest(venues: np.ndarray, embeddings: Embeddings, text: str) -> float:
    asked = _unit(np.array(embeddings.embed_query(text), dtype=np.float32))
    return float((venues @ asked).max())


def absent_reply(ctx: CasinoHostContext, question: str, language: str) -> str | None:
    """ "{Casino} doesn't have a bowling alley", or None when the question asks for no thing or
    the casino may have it."""
    casino = ctx.catalog.casino
    own_name = guide_words(casino.name)
    thing = asked_thing(question, own_name)
    by_name = thing is None
    if by_name:  # "cheesecake factory hrs?", "can i book olive garden for 8"
        thing = asked_name(question, own_name)
    if thing is None:
        return None
    english = thing
    # Judged in the words the guest wrote: an English question in a Spanish conversation
    # ("is there a bowling alley?") is read as English; the reply keeps the conversation's.
    if detect_language(question) == "es":
        glossary = ctx.services.glossary
        if glossary is None or glossary.unknown_words(thing):
            return None
        english = glossary.translate(thing) or thing
    place = vocabulary(f"{casino.name} {casino.address}")
    vocabularies = (*item_vocabularies(ctx.catalog), place)
    titles = tuple(v.name for v in ctx.catalog.venues())
    words = name_words(titles) if by_name else None
    if not is_absent(english, vocabularies, own_name, name_words=words, names=names_of(titles)):
        return None
    if resembles_a_venue(ctx.catalog, ctx.services.search.embeddings, english,
                         _unknown_beside_known(english, frozenset().union(*vocabularies))):  # fmt: skip
        return None
    phrase = PHRASES["es" if language == "es" else "en"]
    return phrase.format(casino=casino.name, thing=_with_article(thing, language))


def _unknown_beside_known(thing: str, words: frozenset[str]) -> tuple[str, ...]:
    """The words of `thing` the casino never uses, when it uses some of the others ("movie" of
    "movie theater"); none when it knows all or none of them. Words of when are not the thing."""
    wanted = sorted(content_words(thing) - WHEN_WORDS)
    unknown = tuple(w for w in wanted if not known(w, words))
    return unknown if len(unknown) < len(wanted) else ()


def _with_article(thing: str, language: str) -> str:
    words = thing.split()
    if words and words[0] in ("a", "an", "any", "the", "un", "una", "el", "la"):
        return thing
    if language == "es" or (thing.endswith("s") and not thing.endswith("ss")):
        return thing  # "no tiene bolera", "doesn't have water slides"
    return f"{'an' if thing[:1] in 'aeiou' else 'a'} {thing}"
