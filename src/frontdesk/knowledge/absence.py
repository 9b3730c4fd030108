"""Does the guide have the thing a guest asks about? ("is there a bowling alley?", "do you
have a Cheesecake Factory?")

A small model shown the nearest items answers such a question with a look-alike's hours or
price. Whether any item's words hold every word of the asked thing is plain code: when none
does, the assistant says the place lacks it instead of asking the model.
"""

from __future__ import annotations

import difflib
import functools
import itertools
import re
from collections.abc import Iterable, Sequence

from frontdesk.guardrails import normalize_text
from frontdesk.knowledge.dates import WHEN_WORDS as _WHEN

_WORD = re.compile(r"[a-z0-9]+")
# Words that do not tell one item from another.
STOP_WORDS = frozenset(
    {
        "the",
        "a",
        "an",
        "and",
        "or",
        "of",
        "at",
        "in",
        "on",
        "to",
        "for",
        "is",
        "are",
        "there",
        "do",
        "does",
        "you",
        "your",
        "have",
        "has",
        "any",
        "i",
        "we",
        "my",
        "me",
        "it",
        "its",
        "what",
        "whats",
        "when",
        "where",
        "how",
        "much",
        "many",
        "time",
        "open",
        "opens",
        "close",
        "closes",
        "resort",
        "here",
        "guys",
        "got",
        "some",
        "this",
        "that",
        "s",
        "with",
        "can",
        "get",
        "about",
        "tell",
        "please",
        "hours",
        "hour",
        "price",
        "cost",
        "costs",
        "number",
        "phone",
        "call",
        "which",
        "one",
        "ones",
        "more",
        "less",
        "than",
        "then",
        "be",
        "will",
    }
)
# What follows "is there a ..." and names the thing asked about, up to where the question goes
# on about something else ("is there a buffet for breakfast").
_THING = re.compile(
    r"^(?:is there|are there|any|have you got|do (?:you|u|ya|y'all) (?:guys |all )?(?:have|got|"
    r"run|offer|rent|sell)|does (?:\w+ ){1,2}have)\s+"
    r"(?:a |an |any |some |the )?(.+?)(?:\s+(?:for|where|that|with|near|in|at|on|to|here|"
    r"nearby|open|available|around|anywhere|from|like)\b.*)?$"
)
# A reply to the answer before, not a question: "sweet.", "cool and ...", "nah ...".
_ACKNOWLEDGING = re.compile(
    r"^(?:(?:y|and|oye|so|ok|okay|sweet|cool|nice|great|thanks|thank you|awesome|perfect|nah|"
    r"no|yes|yeah|yep|lol|hmm|well|also|alright|got it)\b\s*)+"
)
# What a name is asked about, after it: "riverview buffet dinner", "nobu lunch".
_MEALS = frozenset(["breakfast", "brunch", "lunch", "dinner", "supper", "menu", "table"])
_MOVING_ON = re.compile(
    r"^(?:(?:ok|okay|sweet|cool|nice|great|so|well|also|nah|yeah|yes|lol|hmm|alright)\s+)*"
    r"(?:and|y|what about|how about|que tal)\s+\S"
)
_POSSESSIVE_THING = re.compile(
    r"^(?:what are |what's |whats |what is |when (?:is|does|do) |what time (?:is|does|do) |"
    r"how much (?:is|does|do|are) |where is |where's )(?:the )?(.+?)(?:'s)?\s+"
    r"(?:hours|open|opens|close|closes|cost|costs|price|prices|located)\b"
)


# The same in Spanish: "hay bolera?", "tienen un buffet chino?", "¿hay algún spa para niños?".
_SPANISH_THING = re.compile(
    r"^(?:hay|tienen|tienes|tiene|cuentan con|existe)\s+(?:un |una |unos |unas |algun |alguna |"
    r"algunos |algunas |el |la |los |las )?(.+?)(?:\s+(?:para|donde|que|con|cerca|en|aqui|aca|"
    r"abiert[oa]s?|por)\b.*)?$"
)


_GREETING = frozenset(
    [
        "hi",
        "hello",
        "hey",
        "hiya",
        "yo",
        "hola",
        "buenas",
        "buenos",
        "dias",
        "tardes",
        "noches",
        "good",
        "morning",
        "evening",
        "afternoon",
        "there",
        "guys",
        "all",
        "ok",
        "okay",
        "oye",
    ]
)


def guide_words(text: str) -> list[str]:
    """`text`'s words, case-folded, with a plural's "s" dropped ("bars" -> "bar")."""
    folded = text.casefold().replace("\u2019", "'").replace("'s ", " ").replace("'", "")
    return [
        w[:-1] if len(w) > 3 and w.endswith("s") and not w.endswith("ss") else w
        for w in _WORD.findall(folded)
    ]


def content_words(text: str, ignore: Iterable[str] = ()) -> set[str]:
    """The words of `text` that tell one item from another (not "the", "open", "hours", nor
    the `ignore` words: the place's own name)."""
    return {w for w in guide_words(text) if w not in STOP_WORDS} - set(ignore)


def vocabulary(text: str) -> frozenset[str]:
    """Every word an item's text holds, with hyphenated words joined too ("Wi-Fi" is "wifi"
    to a guest, and "wi" and "fi" to the tokenizer)."""
    joined = re.sub(r"(?<=\w)-(?=\w)", "", text)
    return frozenset(guide_words(text)) | frozenset(guide_words(joined))


def known(word: str, words: frozenset[str]) -> bool:
    """Whether `word` is one of `words`, as a guest would mean it."""
    if word in words:
        return True
    # "chargers" and "charging", "buffett" (a typo) and "buffet": one word to a guest.
    if len(word) >= 5 and any(v.startswith(word[:5]) for v in words if len(v) >= 5):
        return True
    return len(word) >= 5 and bool(difflib.get_close_matches(word, words, n=1, cutoff=0.85))


def clauses(question: str) -> list[str]:
    """The question's clauses, folded to lower-case words, without markup ("<b>is there a
    bowling alley?</b>": markup is not part of the question)."""
    plain = re.sub(r"<[^<>]{0,200}>", " ", question)
    folded = normalize_text(plain).replace("\u2019", "'")
    split = [" ".join(re.findall(r"[a-z0-9']+", c)) for c in re.split(r"[?!.,;]", folded)]
    return [c for c in split if c]


def asking_clause(question: str) -> tuple[str, bool]:
    """The first clause that asks something (not a greeting, not "sweet." or "ok"), without
    the words that acknowledge the answer before; and whether it moves on to a new thing
    ("and cinnabon?", "what about the nushell one")."""
    # "hola, tienen alberca?": the question is the first clause that is not a greeting.
    asking = [c for c in clauses(question) if not set(c.split()) <= _GREETING]
    asking = [c for c in asking if _ACKNOWLEDGING.sub("", c).strip()]
    if not asking:
        return "", False
    moving_on = _MOVING_ON.match(asking[0]) is not None
    text = _ACKNOWLEDGING.sub("", asking[0]).strip()
    # "yo is beauty and essex open tonight": the greeting is not part of the question.
    text = re.sub(r"^(?:(?:yo|hey|hi|hello|hola|oye|buenas)\s+)+", "", text)
    return re.sub(r"^(?:what|how) about\s+", "", text), moving_on


# A way of getting somewhere, asked with where it goes: "a shuttle to the airport", "a bus
# from boston". The route is the thing: the guide's "shuttle carts" in a garage are no
# airport shuttle.
_TRANSPORT = frozenset({
    "shuttle", "shuttles", "bus", "buses", "coach", "ride", "rides", "transfer", "transfers",
    "transportation", "transport", "limo", "limousine", "van", "cab", "taxi", "taxis",
    "train", "ferry", "trolley",
})  # fmt: skip
_ROUTE_TAIL = re.compile(r"\s+(to|from)\s+(the\s+)?([a-z0-9']+(?:\s+[a-z0-9']+)?)")


def _with_route(thing: str, text: str) -> str:
    """ "shuttle" asked as "is there a shuttle to the airport": "shuttle to the airport"."""
    words = thing.split()
    if not words or words[-1] not in _TRANSPORT:
        return thing
    at = text.find(thing)
    route = _ROUTE_TAIL.match(text, at + len(thing)) if at >= 0 else None
    if route is None:
        return thing
    where = [w for w in route[3].split() if w not in STOP_WORDS and w not in _WHEN]
    return f"{thing} {route[1]} {route[2] or ''}{' '.join(where)}" if where else thing


def asked_thing(question: str, ignore: Iterable[str] = ()) -> str | None:
    """The thing a question asks whether the place has ("is there a bowling alley", "the
    foxwoods buffet's hours", "a shuttle to the airport"), or None. Only the first clause
    counts ("... anywhere? craving oysters")."""
    text, _ = asking_clause(question)
    for pattern in (_THING, _POSSESSIVE_THING, _SPANISH_THING):
        if match := pattern.match(text):
            thing = match.group(1).strip()
            if content_words(thing, ignore):
                return _with_route(thing, text) if pattern is _THING else thing
    return None


def is_absent(
    thing: str,
    vocabularies: Sequence[frozenset[str]],
    ignore: Iterable[str] = (),
    *,
    name_words: frozenset[str] | None = None,
    names: Sequence[frozenset[str]] = (),
) -> bool:
    """Whether a guide whose items have these `vocabularies` lacks `thing`: some word of it
    appears nowhere in the guide, and no single item has all of them. "A kids club or
    babysitting" is absent only if both are. A thing asked about by name, given the words
    of the guide's own names (`name_words`: "diner", "buffet", "bobby's", "golf"), is judged
    whole when it uses one of them: "sunrise diner", "riverview buffet", "bobby's tacos" or
    "mini golf" is absent when no single item has all its words, though each is somewhere: it
    names another place, not a description pieced together from several items. A thing that
    holds one of the guide's `names` whole ("fitness center gym", the glossary's rendering of
    "gimnasio") is that item."""
    everything = frozenset().union(*vocabularies)
    for alternative in re.split(r"\s+or\s+", thing):
        content = content_words(alternative, ignore)
        # "bus from boston": where it comes from is asked, not the word "from".
        words = [w for w in guide_words(alternative) if w in content and w != "from"]
        if name_words is not None:  # "riverview buffet dinner": the name, then the meal
            words = [w for w in words if w not in _WHEN]
            while len(words) > 1 and words[-1] in _MEALS:
                words.pop()
        wanted = sorted(set(words))
        if not wanted:
            return False
        # A way of getting somewhere with where it goes ("shuttle to airport", "airport
        # shuttle") is one item's, like a name: not pieced together from several, and not the
        # place it goes to (the guide's "Airports and Getting Here").
        route = len(wanted) > 1 and not _TRANSPORT.isdisjoint(wanted)
        if not route and any(
            name and all(known(w, frozenset(wanted)) for w in name) for name in names
        ):
            return False
        whole = route or (name_words is not None and any(known(w, name_words) for w in wanted))
        if not whole and all(known(w, everything) for w in wanted):
            return False
        if any(all(known(w, v) for w in wanted) for v in vocabularies):
            return False
    return True


def _own_name_words(name: str) -> list[str]:
    """A name's words up to where it says where it is ("The Lansdowne Irish Pub & Music
    House": lansdowne, irish, pub)."""
    return guide_words(re.split(r"\s+(?:&|at|in|and|by)\s+|\s+-\s+|,", name.casefold())[0])


@functools.lru_cache(maxsize=16)
def names_of(names: tuple[str, ...]) -> tuple[frozenset[str], ...]:
    """Each of the guide's names as its set of words, up to where it says where it is."""
    return tuple(frozenset(_own_name_words(n)) - STOP_WORDS for n in names)


@functools.lru_cache(maxsize=16)
def name_words(names: tuple[str, ...]) -> frozenset[str]:
    """The words of the guide's names, up to where a name says where it is ("The Lansdowne
    Irish Pub & Music House": lansdowne, irish, pub), with two of a name's words as one
    ("Steak House": steakhouse). Worked out once per guide: every question asked by name reads
    them."""
    words: set[str] = set()
    for name in names:
        own = _own_name_words(name)
        words.update(own)
        words.update(a + b for a, b in itertools.pairwise(own))
    return frozenset(words - STOP_WORDS)


def name_vocabulary(name: str, text: str = "") -> frozenset[str]:
    """An item's words (`vocabulary` of its name and `text`), with the forms guests give its
    name: two of its words as one ("Steak House": steakhouse) and its initials ("Michael
    Jordan's Steak House": mj)."""
    words = guide_words(name)
    joined = {a + b for a, b in itertools.pairwise(words)}
    initials = {words[0][0] + words[1][0]} if len(words) > 1 else set()
    return vocabulary(f"{name} {text}") | joined | initials
