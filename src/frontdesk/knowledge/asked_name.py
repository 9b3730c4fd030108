"""The place a question names while asking something of it: "cheesecake factory hrs?",
"starbucks open yet", "is the shake shack any good", "can i book olive garden for 8", "how late
does MJ's sushi bar serve", "where's bobby's burgers at", "lucky's steakhouse can i get a
table", "my buddy said it's called sunset steakhouse", "and cinnabon?".

"Is there a ...?" questions name the thing they ask after (absence.asked_thing). Guests more
often ask for a field of a place by its name, and a small model shown the nearest items then
gives a look-alike's hours or price. The name found here is judged by `absence.is_absent` with
the words of the guide's own names (`name_words`): absent when no single item holds it whole.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from frontdesk.knowledge.absence import asking_clause, clauses, content_words

__all__ = ["asked_name"]

# Where a name's words stop: "winter lodge bar by the entrance", "olive garden for 8 tonite".
_NAME_END = (
    r"(?:\s+(?:for|where|that|which|who|with|near|by|in|at|on|to|here|nearby|around|anywhere|"
    r"from|like|we|i|my|so|because|tonight|tonite|today|tomorrow|tmrw|now|yet|pls|please)\b.*)?$"
)
_SHAPES = (
    re.compile(
        r"^(?:the )?(?P<t>.+?)\s+(?:what times?|when|how late|how much|where|can i|can we|is it|"
        r"is that|are they|do they|does it)\b"
    ),
    re.compile(
        r"^(?:is |are )?(?:the |a |an )?(?P<t>.+?)\s+(?:still\s+|even\s+)?(?:open|opened|closed|"
        r"hrs|hours|menu|prices?|rez|reservations?|dress code)\b"
    ),
    re.compile(
        r"^how (?:late|early|long) (?:is|does|do|are) (?:the )?(?P<t>.+?)\s+(?:open|serve|serving|"
        r"stay|run|close)\b"
    ),
    re.compile(r"^what time (?:open|opens|close|closes) (?:the )?(?P<t>.+?)" + _NAME_END),
    re.compile(
        r"^(?:can|could|may) (?:i|we|u|you) (?:book|reserve|rent|hire|get (?:a table|into|in))"
        r"(?: a table)?(?: at| in)? (?:the |a |an )?(?P<t>.+?)" + _NAME_END
    ),
    re.compile(
        r"^how much (?:is|are|does|do|for)(?: the| a| an)? (?P<t>.+?)(?:\s+(?:cost|costs|run))?"
        + _NAME_END
    ),
    re.compile(
        r"^what(?:'s| is| are|re)? (?:the )?(?:hours|price|prices|cost|menu|dress code|"
        r"phone number|number) (?:for|of|at) (?:the )?(?P<t>.+?)" + _NAME_END
    ),
    re.compile(r"^tell me (?:about|more about) (?:the )?(?P<t>.+?)" + _NAME_END),
    re.compile(
        r"^i (?:want|wanna|would like|d like)(?: to)? (?:book|reserve)(?: reserve)?(?: a table)?"
        r"(?: in| at)? (?:the )?(?P<t>.+?)" + _NAME_END
    ),
    re.compile(
        r"^(?:is|are) (?:the )?(?P<t>.+?)\s+(?:any good|good|worth it|worth|expensive|cheap|"
        r"busy|crowded|kid friendly|family friendly)\b"
    ),
    re.compile(r"^where(?:'s| is|s| are)(?: the)? (?P<t>.+?)(?:\s+(?:at|located))?" + _NAME_END),
    re.compile(r"\b(?:it's|its|it is|they're|theyre) called (?:the )?(?P<t>.+?)" + _NAME_END),
)

# A clause that asks something of the place the clause before named.
_ASKED_OF_IT = re.compile(
    r"^(?:where is it|where's it|wheres it|where is that|where are they|what time|when|how late|"
    r"how much|how early|is it open|are they open|whats the price|what are the hours|hours)\b"
)


def _word_set(words: str) -> frozenset[str]:
    return frozenset(words.split())


# Words a name never starts with: a question's frame ("im 19 can i book"), not a place.
_NOT_A_NAME = _word_set(
    """i im we you u my our your me it its this that there here what whats when where how why
    who which is are do does can could would will tonight today tomorrow please pls hi
    hello hey so also just any some somewhere something anywhere anything someplace place
    one ones yall y'all ya guys yo hola oye"""
)
# Verbs that make a clause more than a name ("add my friend to the reservation").
_VERBS = _word_set(
    """want wanna need have has had get got go going know tell give like love open close
    book reserve be was were am being bring take make see find looking look try eat drink
    play said says think add change cancel move switch upgrade charge charges pay cost costs
    killing hurts"""
)
# What every building has, whether or not the guide lists it: never taken for a missing place.
_EVERYWHERE = _word_set(
    """restroom bathroom toilet washroom elevator lift stair stairs exit entrance door lobby
    hallway atm room"""
)


def asked_name(question: str, ignore: Iterable[str] = ()) -> str | None:
    """The place the question's first asking clause names, or None. A clause that is only a
    name counts after "and" or "what about" ("and cinnabon?"): "bbq brisket" alone is a
    search, not a place."""
    text, moving_on = asking_clause(question)
    for pattern in _SHAPES:
        if (match := pattern.search(text)) and (name := _name(match.group("t"), ignore)):
            return name
    if moving_on and _bare(text):
        return _name(text, ignore)
    # "hookah lounge?? where is it and how late", "mini golf near the hotel? how much a
    # round": the name alone, then what is asked of it.
    said = clauses(question)
    if len(said) > 1 and said[0] == text and _ASKED_OF_IT.match(said[1]):
        name = _name(text, ignore)
        return name if name and _bare(name) else None
    return None


def _name(phrase: str, ignore: Iterable[str]) -> str | None:
    """`phrase` up to where the name stops, when it can be a name: a few words, not a
    question's frame, not a thing every building has."""
    name = re.sub(r"^(?:the|a|an|that|this|of)\s+", "", phrase.strip())
    name = re.sub(_NAME_END, "", name, count=1).strip()
    # "a 50 min massage": the amount is not the name.
    name = re.sub(r"^(?:\d+\s*(?:min|mins|minute|minutes|hr|hrs|hour|hours|oz|pc|piece)?\s+)+",
                  "", name)  # fmt: skip
    name = re.sub(r"^(?:the|a|an|of)\s+", "", name)
    words = name.split()
    if words and words[-1] in ("and", "or", "but", "n"):  # "drive and my back ...": a clause
        return None
    # A question's frame or a verb anywhere is not part of a name: "yall charge", "a normal
    # one", "3 hr drive and my back is killing me".
    if not words or len(words) > 5 or set(words) & (_NOT_A_NAME | _VERBS):
        return None
    wanted = content_words(name, ignore)
    if not wanted or wanted <= _EVERYWHERE:
        return None
    return name


def _bare(clause: str) -> bool:
    """Whether a clause is only a noun phrase (no verb, no question word)."""
    words = clause.split()
    return 0 < len(words) <= 4 and not set(words) & (_NOT_A_NAME | _VERBS)
