"""Facts an item states in its own words rather than in a field of its own: how many storeys a
tower has, how many rooms, how big a place is, whether a venue charges admission, when it
opened.

The guide says "a 34-story glass tower that opened in April 2002 and holds about 1,200 rooms"
in a description, and "Free admission for most shows" in a feature list. Shown that entry, the
0.5B model still answered "how many floors is the Sky Tower?" with the size of a room. When a
question asks one of these and the item it is about has a sentence that states it, the answer
is that sentence, quoted as the guide writes it and cited to the item.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from frontdesk.assistants.concierge.phrases import phrases
from frontdesk.knowledge.loader import KnowledgeItem


@dataclass(frozen=True)
class DescribedField:
    name: str
    asked: re.Pattern[str]  # the guest's question asks for it (matched in lower case)
    stated: re.Pattern[str]  # a sentence of the item states it


def _pattern(text: str) -> re.Pattern[str]:
    return re.compile(text, re.IGNORECASE)


# Most specific first: "how many rooms" is not a question about size.
DESCRIBED_FIELDS: tuple[DescribedField, ...] = (
    DescribedField(
        "storeys",
        _pattern(r"\bhow many (?:floors|stories|storeys|levels)\b|\bhow (?:tall|high)\b"),
        _pattern(r"\b\d+[- ](?:story|storey|floor|level)\b|\b\d+ (?:stories|storeys|floors)\b"),
    ),
    DescribedField(
        "rooms",
        _pattern(r"\bhow many (?:hotel |guest )?(?:rooms|suites|keys)\b"),
        _pattern(r"\b\d[\d,]*[- ](?:\w+\s+)?(?:rooms?|suites?)\b"),
    ),
    DescribedField(
        "size",
        _pattern(r"\bhow (?:big|large)\b|\bsize\b|\bsquare (?:feet|foot)\b|\bsq\.? ?ft\b"),
        _pattern(
            r"\b\d[\d,]*[- ]square[- ]f(?:oo|ee)t\b|\b\d[\d,]* sq\.? ?ft\b|\b\d[\d,]* acres?\b"
        ),
    ),
    DescribedField(
        "admission",
        # What it costs, not where something is free ("where can I park free?").
        _pattern(
            r"^(?!where|which|what time)(?:.*\b(?:how much|cost|price|charge|fee|pay|cover)\b|"
            r".*\b(?:is|are) (?:it|they|the \w+|\w+) free\b)"
        ),
        _pattern(r"\bfree\b|\bcomplimentary\b|\bno (?:cover|charge|fee)\b|\$\d"),
    ),
    DescribedField(
        "opened",
        _pattern(r"\bwhen (?:was|did)\b.*\b(?:open|buil)\w*|\bhow old\b|\bwhat year\b"),
        _pattern(r"\bopened\b[^.]*\b(?:19|20)\d\d\b|\b(?:built|completed) in\b"),
    ),
)
# The words that ask for one of these fields: said in a follow-up, they name no subject.
FIELD_WORDS = frozenset(
    [
        "room",
        "suite",
        "floor",
        "story",
        "storey",
        "level",
        "size",
        "big",
        "large",
        "tall",
        "high",
        "square",
        "feet",
        "foot",
        "free",
        "admission",
        "cover",
        "charge",
        "fee",
        "old",
        "year",
        "new",
        "newer",
        "older",
        "built",
    ]
)
_SENTENCE_END = re.compile(r"(?<=[.!?])\s+(?=[A-Z0-9])")


def sentences_of(item: KnowledgeItem) -> list[str]:
    """The item's description sentence by sentence, then its features."""
    description = str(item.fields.get("description") or "")
    sentences = [s.strip() for s in _SENTENCE_END.split(description) if s.strip()]
    features = item.fields.get("features") or []
    return sentences + [str(f).strip() for f in features if str(f).strip()]


def stated_sentence(item: KnowledgeItem, stated: re.Pattern[str]) -> str | None:
    return next((s for s in sentences_of(item) if stated.search(s)), None)


def described_answer(
    question: str, subjects: Sequence[KnowledgeItem], language: str = "en"
) -> tuple[str, str] | None:
    """(the answer, the item it quotes) when `question` asks a described field and one of the
    first two `subjects` states it; None otherwise."""
    folded = question.casefold()
    say = phrases(language)
    for described in DESCRIBED_FIELDS:
        if not described.asked.search(folded):
            continue
        for item in subjects[:2]:
            sentence = stated_sentence(item, described.stated)
            if sentence is None:
                continue
            if item.name.casefold() not in sentence.casefold():
                sentence = f"{item.name}: {sentence}"
            sentence = sentence if sentence.endswith((".", "!", "?")) else f"{sentence}."
            return say.from_guide + sentence, item.name
    return None


_NEWER = re.compile(r"\bnew(?:er|est)\b|\bmore recent\b|\blatest\b")
_OLDER = re.compile(r"\bold(?:er|est)\b")
_OPENED_YEAR = re.compile(r"\bopened\b[^.]*?\b((?:19|20)\d\d)\b")


def opened_comparison(
    question: str, subjects: Sequence[KnowledgeItem], language: str = "en"
) -> tuple[str, tuple[str, ...]] | None:
    """Which of the items named is newer or older, by the year each one's entry says it
    opened; None unless two or more state one and the question asks which is newer or older."""
    folded = question.casefold()
    newer = bool(_NEWER.search(folded))
    if not newer and not _OLDER.search(folded):
        return None
    dated = []
    for item in subjects:
        sentence = stated_sentence(item, _OPENED_YEAR)
        if sentence and (year := _OPENED_YEAR.search(sentence)):
            dated.append((int(year.group(1)), item, sentence))
    if len(dated) < 2:
        return None
    dated.sort(key=lambda entry: entry[0], reverse=newer)
    (_, first, said), (_, second, other) = dated[0], dated[1]
    say = phrases(language)
    lead = (say.newer if newer else say.older).format(name=first.name)
    return f"{lead} {say.from_guide}{said} {other}", (first.name, second.name)
