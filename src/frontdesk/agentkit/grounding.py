"""Deterministic grounding check: the facts in an answer must come from its context.

A small model's most harmful mistakes are confident specifics: a wrong closing time, a made-up
price or phone number, a restaurant that is not there. Those are easy to find with patterns, so
every time, date, price, phone number, other number of two digits or more and known venue
name in the answer is looked up in the retrieved context (plus facts the system itself
supplied, such as the current date and the helplines). Formats are normalised first: "11 PM", "11:00 p.m." and "11:00PM" are one time.
No LLM is involved, so the check is fast and cannot be talked out of its verdict.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Iterable
from dataclasses import dataclass

from frontdesk.knowledge.chunking import sentences_led_by, split_sentences

_TIME = re.compile(
    r"\b(1[0-2]|0?[1-9])(?:[:.]([0-5]\d))?\s*([ap])\.?\s?m\b\.?", re.IGNORECASE
)
_NAMED_TIME = re.compile(r"\b(noon|midnight)\b", re.IGNORECASE)
_PRICE = re.compile(r"\$\s?(\d{1,3}(?:,\d{3})+|\d+)(?:\.(\d{2}))?")
_PHONE = re.compile(r"(?<!\d)(?:\+?1[-.\s]?)?\(?(\d{3})\)?[-.\s]?(\d{3})[-.\s]?(\d{4})(?!\d)")
_MONTHS = [
    "january", "february", "march", "april", "may", "june",
    "july", "august", "september", "october", "november", "december",
]
_MONTH_DATE = re.compile(
    r"\b(" + "|".join(m[:3] for m in _MONTHS) + r")[a-z]*\.?\s+(\d{1,2})(?:st|nd|rd|th)?\b",
    re.IGNORECASE,
)
_ISO_DATE = re.compile(r"\b(\d{4})-(\d{2})-(\d{2})\b")
# Any other number of two digits or more: seats, floors, square feet, tier credits, years.
_QUANTITY = re.compile(r"(?<![\w.,])(\d{1,3}(?:,\d{3})+|\d{2,})(?:\.\d+)?(?![\w,]*\d)")


def _times(text: str) -> set[str]:
    found = {
        f"{int(h)}:{m or '00'}{ap.lower()}m" for h, m, ap in _TIME.findall(text)
    }
    for word in _NAMED_TIME.findall(text):
        found.add("12:00pm" if word.lower() == "noon" else "12:00am")
    return found


def _prices(text: str) -> set[str]:
    return {
        f"{int(whole.replace(',', ''))}" + (f".{cents}" if cents and cents != "00" else "")
        for whole, cents in _PRICE.findall(text)
    }


def _phones(text: str) -> set[str]:
    return {"".join(groups) for groups in _PHONE.findall(text)}


def _dates(text: str) -> set[str]:
    found = set()
    for month, day in _MONTH_DATE.findall(text):
        if 1 <= int(day) <= 31:
            found.add(f"{_month_number(month):02d}-{int(day):02d}")
    for _, month, day in _ISO_DATE.findall(text):
        found.add(f"{int(month):02d}-{int(day):02d}")
    return found


def _quantities(text: str) -> set[str]:
    """Numbers that are not part of a time, price, phone number or date ("34 floors")."""
    for pattern in (_TIME, _PRICE, _PHONE, _MONTH_DATE, _ISO_DATE):
        text = pattern.sub(" ", text)
    return {match.replace(",", "") for match in _QUANTITY.findall(text)}


# A number and the word it counts: "10,000 seats", "34-story", "42 tables".
_COUNTED = re.compile(r"(?<![\w.,$:])(\d{1,3}(?:,\d{3})+|\d+)[\s-]+([a-z]{3,})\b", re.IGNORECASE)


# Words that follow a number without being what it counts ("opened in 2002 and ...").
_NOT_UNITS = frozenset({"and", "the", "for", "per", "with", "from", "are", "was", "but", "each"})


def _singular(word: str) -> str:
    if word.endswith("ies") and len(word) > 4:
        return word[:-3] + "y"
    return word.removesuffix("s")


def _counted(text: str) -> set[tuple[str, str]]:
    """(number, unit) pairs, commas dropped and the unit singular: {("10000", "seat")}."""
    pairs = ((number, word.casefold()) for number, word in _COUNTED.findall(text))
    return {(n.replace(",", ""), _singular(w)) for n, w in pairs if w not in _NOT_UNITS}


def _numbers(text: str) -> set[str]:
    """Every number in `text`, commas dropped: what a quantity may be checked against."""
    return {match.replace(",", "") for match in re.findall(r"\d{1,3}(?:,\d{3})+|\d+", text)}


def _month_number(name: str) -> int:
    prefix = name[:3].lower()
    return next(i for i, m in enumerate(_MONTHS, start=1) if m.startswith(prefix))


_CHECKS = (
    ("time", _times),
    ("price", _prices),
    ("phone number", _phones),
    ("date", _dates),
)
_WORD = re.compile(r"[a-z]{3,}")
_COMMON = frozenset({
    "the", "and", "for", "are", "you", "your", "with", "that", "this", "from", "has", "have",
    "was", "were", "its", "our", "can", "will", "not", "they", "them", "their", "there", "here",
    "what", "when", "where", "which", "who", "how", "does", "open",
})
MAX_EVIDENCE = 2
MAX_HEADING = 80


@dataclass(frozen=True)
class GroundingReport:
    unsupported: list[str]
    # Context sentences that most likely hold the right value of an unsupported detail: told
    # only "44 floors is wrong", a small model writes 44 again; shown "a 34-story tower", not.
    evidence: tuple[str, ...] = ()

    @property
    def grounded(self) -> bool:
        return not self.unsupported

    def feedback(self) -> str:
        if self.grounded:
            return ""
        text = (
            "These details are not in the provided context; remove them or use the exact "
            "values from the context: " + "; ".join(self.unsupported) + "."
        )
        if self.evidence:
            text += " The CONTEXT says: " + " ".join(f'"{s}"' for s in self.evidence)
        return text


def check_grounding(
    answer: str,
    context: Iterable[str],
    *,
    venue_names: Iterable[str] = (),
    trusted_facts: Iterable[str] = (),
) -> GroundingReport:
    """Every specific in `answer` must appear in `context` or `trusted_facts`.

    `venue_names` are the names the knowledge base knows (restaurants, shows, rooms...): one
    mentioned in the answer must be in the context too, or the answer is about a place that the
    retrieval did not return and the model is recalling it, not reading it.
    """
    support = "\n".join([*context, *trusted_facts])
    support_folded = support.casefold()
    unsupported: list[str] = []
    for kind, extract in _CHECKS:
        allowed = extract(support)
        for value in sorted(extract(answer) - allowed):
            unsupported.append(f"{kind} {value}")
    for value in sorted(_quantities(answer) - _numbers(support), key=int):
        unsupported.append(f"number {value}")
    # "20 seats" where the context counts seats only as "10,000 seats": the 20 exists elsewhere
    # in the context (a price, a size), but not as a number of seats.
    counted = _counted(support)
    counted_units = {unit for _, unit in counted}
    for value, unit in sorted(_counted(answer) - counted):
        if unit in counted_units and f"number {value}" not in unsupported:
            unsupported.append(f"number {value} ({unit})")
    evidence = ()
    if unsupported:
        # "number 20 (seat)" is looked up as "number 20".
        evidence = _evidence(answer, list(context), {u.split(" (")[0] for u in unsupported})
    by_folded = {name.casefold(): name for name in venue_names}
    # Longest name first, and the alternation consumes what it matches, so the sub-names of
    # a reported venue ("Sky Tower" inside "Sky Tower Suite") are not reported again.
    pattern = _venue_pattern(tuple(sorted(by_folded, key=len, reverse=True)))
    mentioned = dict.fromkeys(match.group(0) for match in pattern.finditer(answer.casefold()))
    unsupported += [
        f"venue '{by_folded[folded]}'" for folded in mentioned if folded not in support_folded
    ]
    return GroundingReport(unsupported=unsupported, evidence=evidence)


def _details(text: str) -> dict[str, set[str]]:
    """The specifics of `text` by kind, as `check_grounding` names them."""
    found = {kind: extract(text) for kind, extract in _CHECKS}
    found["number"] = _quantities(text)
    return found


def _content_words(text: str) -> set[str]:
    return {w for w in _WORD.findall(text.casefold()) if w not in _COMMON}


def _context_sentences(doc: str) -> list[str]:
    """A context document's sentences, each led by its heading (the item name before the
    first colon, as the knowledge formatters write it)."""
    heading, colon, _ = doc.partition(":")
    if not colon or len(heading) > MAX_HEADING or "\n" in heading:
        return split_sentences(doc)
    return sentences_led_by(doc, heading)


def _evidence(answer: str, context: list[str], unsupported: set[str]) -> tuple[str, ...]:
    """For each answer sentence with an unsupported time, price, phone, date or number, the
    context sentence that shares most of its words and states a value of the same kind, or,
    when no sentence does ("held each January" for a made-up "January 23"), that shares most
    of its words (at least two)."""
    # Each candidate's words and specifics, worked out once for every answer sentence.
    candidates = [
        (sentence, _content_words(sentence), _details(sentence))
        for doc in context for sentence in _context_sentences(doc)
    ]
    found: list[str] = []
    for sentence in split_sentences(answer):
        kinds = {
            kind for kind, values in _details(sentence).items()
            if any(f"{kind} {value}" in unsupported for value in values)
        }
        words = _content_words(sentence)
        if not kinds or not words:
            continue
        same_kind: list[tuple[int, str]] = []
        other_kind: list[tuple[int, str]] = []
        for candidate, candidate_words, details in candidates:
            overlap = len(words & candidate_words)
            has_kind = any(details[kind] for kind in kinds)
            if overlap >= (1 if has_kind else 2):
                (same_kind if has_kind else other_kind).append((overlap, candidate))
        if best_pairs := same_kind or other_kind:
            best = max(best_pairs, key=lambda pair: pair[0])[1]
            if best not in found:
                found.append(best)
    return tuple(found[:MAX_EVIDENCE])


@functools.lru_cache(maxsize=8)
def _venue_pattern(folded_names: tuple[str, ...]) -> re.Pattern[str]:
    """One regex over every venue name (compiled once per name list, not per answer)."""
    if not folded_names:
        return re.compile(r"(?!x)x")  # matches nothing
    return re.compile(r"(?<!\w)(?:" + "|".join(re.escape(n) for n in folded_names) + r")(?!\w)")


# A bare number of four digits or more ("10000"), not inside a longer number, time or phone.
_BARE_NUMBER = re.compile(r"(?<![\w.,:-])(\d{4,})(?![\w,:-]*\d)")


def conform_numbers(answer: str, context: Iterable[str]) -> str:
    """`answer` with each bare number written as the context writes it ("10000" -> "10,000").

    The grounding check already accepts both forms; this is for the guest, who should read
    the figure as the resort publishes it. Numbers the context does not group are left alone.
    """
    support = "\n".join(context)

    def grouped(match: re.Match[str]) -> str:
        text = f"{int(match.group(1)):,}"
        return text if text in support else match.group(0)

    return _BARE_NUMBER.sub(grouped, answer)
