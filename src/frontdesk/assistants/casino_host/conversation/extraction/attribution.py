"""Who a statement is about, and how firmly it was stated; shared by the preference finders."""

from __future__ import annotations

import re
from collections.abc import Iterable

from .companions import RELATIONSHIP_NOUNS, RELATIONSHIP_PATTERN, Companion
from .fields import (
    ABOUT_COMPANION,
    CONTEXTUAL,
    DIETARY,
    HINTED,
    IMPLIED,
    SELF_REPORTED,
    STATED,
)
from .text import Hit, Message, clause_span, is_negated

# Subjects, closest one before a term wins. Conjunctions do not break the search, so in
# "im vegan and my wife is allergic to shellfish" shellfish belongs to the wife.
_SUBJECT = re.compile(
    r"\b(?P<self>i'?m|i am|im|i|me|myself|soy|yo|estoy|we'?re|we are|we|somos|tengo|tenemos|"
    r"nosotros|nosotras)\b"
    rf"|\b(?:my|mi|our|nuestr[oa])\s+(?P<noun>{RELATIONSHIP_PATTERN})\b"
    r"|\b(?P<pronoun>he|she|el|ella)(?:'s)?\b"
)
_WITH_SELF_BEFORE = re.compile(r"\b(?:me|i|yo)\s+(?:and|y|&)\s+$")
_WITH_SELF_AFTER = re.compile(r"(?:\s+\w+)?\s+(?:and|y|&)\s+(?:i|me|yo|myself)\b")
_QUESTION = re.compile(r"\?|\b(?:any|anything|do you|does|is there|are there|tienen|hay)\b")
# Verbs that make a liking a statement rather than a question.
_PREFERENCE_VERBS = re.compile(
    r"\b(?:love|loves|like|likes|prefer|prefers|favorite|favourite|fan of|fans of|craving|crave|"
    r"in the mood for|into|enjoy|enjoys|loved|want|wanna|want to|would like|'d like|"
    r"looking forward|here for|mostly|play|plays|playing|gusta|gustan|encanta|encantan|"
    r"preferimos|prefiero|antojo|queremos|quiero|juego|jugamos|vamos a)\b"
)

Subject = Companion | str | None  # a companion, "self", or unknown


def subject_before(message: Message, pos: int, companions: list[Companion]) -> Subject:
    start, _ = clause_span(message.folded, pos)
    last = None
    for match in _SUBJECT.finditer(message.folded, start, pos):
        if match["pronoun"] == "el" and message.text[match.start()] not in "éÉ":
            continue  # "el" is the article; only "él" is "he"
        last = match
    if last is None:
        return None
    if last["self"]:
        return "self"
    if last["noun"]:
        if _WITH_SELF_BEFORE.search(message.folded, 0, last.start()) or _WITH_SELF_AFTER.match(
            message.folded, last.end()
        ):
            return "self"  # "me and my buddy ...", "my wife and I ...": the guest is included
        return _companion_by_noun(last["noun"], last.start(), companions)
    gender = "m" if last["pronoun"] in ("he", "el") else "f"
    return _companion_by_gender(gender, pos, companions)


def _companion_by_noun(noun: str, pos: int, companions: list[Companion]) -> Companion | None:
    for companion in companions:
        if companion.start <= pos < companion.end:
            return companion
    relationship = RELATIONSHIP_NOUNS[noun][0]
    same = [c for c in companions if c.relationship == relationship]
    return same[0] if same else None


def _companion_by_gender(gender: str, pos: int, companions: list[Companion]) -> Companion | None:
    candidates = [c for c in companions if c.start < pos and not c.group and c.gender == gender]
    return candidates[-1] if candidates else None


def attribute(
    message: Message, path: str, value: object, span: tuple[int, int], subject: Subject
) -> Hit:
    """A hit whose confidence depends on who it is about: self, a companion, or the party."""
    if subject == "self":
        return Hit(path, value, STATED, SELF_REPORTED, *span)
    if isinstance(subject, Companion):
        return Hit(path, value, ABOUT_COMPANION, CONTEXTUAL, *span)
    return preference_hit(message, path, value, *span)


def preference_hit(message: Message, path: str, value: object, start: int, end: int) -> Hit:
    """A stated liking ("we love sushi") is self reported; a question ("any sushi?") a hint."""
    clause_start, _ = clause_span(message.folded, start)
    before = message.folded[clause_start:start]
    if _PREFERENCE_VERBS.search(before):
        return Hit(path, value, STATED, SELF_REPORTED, start, end)
    sentence_end = re.search(r"[.!?\n]|$", message.folded[start:]).end() + start
    if _QUESTION.search(message.folded[clause_start:sentence_end]):
        return Hit(path, value, HINTED, CONTEXTUAL, start, end)
    return Hit(path, value, IMPLIED, CONTEXTUAL, start, end)


_ELLIPSIS_BUT = re.compile(
    r"^[^.!?]{0,20}?\b(?:but|pero)\s+"
    rf"(?:(?:my|mi)\s+(?P<noun>{RELATIONSHIP_PATTERN})|(?P<pronoun>he|she|ella))"
    r"\s+(?:is|does|si|es)\b"
)


def elliptical_companion(message: Message, end: int, companions: list[Companion]) -> Subject:
    """ "Not vegetarian, but my daughter is": the negated term holds for that companion."""
    match = _ELLIPSIS_BUT.match(message.folded[end:])
    if not match:
        return None
    if match["noun"]:
        return _companion_by_noun(match["noun"], end + match.start("noun"), companions)
    gender = "m" if match["pronoun"] == "he" else "f"
    return _companion_by_gender(gender, len(message.folded), companions)


def vocabulary_hits(
    message: Message,
    path: str,
    vocabulary: Iterable[tuple[re.Pattern[str], str]],
    companions: list[Companion],
    *,
    about_people: bool,
    negation_is_meaning: frozenset[str] = frozenset(),
) -> list[Hit]:
    """Hits for every vocabulary term that is not negated; specific terms shadow general ones.

    `about_people`: the term describes a person (a diet, a need), so attribute it to a subject;
    otherwise it is a liking and the verb decides. Values in `negation_is_meaning` are phrased
    as negations ("no shellfish", "sin gluten") and skip the negation test.
    """
    hits: list[Hit] = []
    taken: list[tuple[int, int]] = []
    for pattern, value in vocabulary:
        for match in pattern.finditer(message.folded):
            span = match.span()
            if any(span[0] < t_end and t_start < span[1] for t_start, t_end in taken):
                continue
            taken.append(span)
            subject: Subject = None
            if value not in negation_is_meaning and is_negated(message.folded, span[0]):
                if not about_people:
                    continue
                subject = elliptical_companion(message, span[1], companions)
                if not isinstance(subject, Companion):
                    continue
                hit = Hit(path, value, ABOUT_COMPANION, CONTEXTUAL, *span)
            elif about_people:
                subject = subject_before(message, span[0], companions)
                hit = attribute(message, path, value, span, subject)
            else:
                hit = preference_hit(message, path, value, *span)
            if isinstance(subject, Companion) and path == DIETARY:
                subject.dietary_restrictions.append(value)
            hits.append(hit)
    return hits
