"""Deterministic grounding check: the facts in an answer must come from its context.

A small model's most harmful mistakes are confident specifics: a wrong closing time, a made-up
price or phone number, a restaurant that is not there. Those are easy to find with patterns, so
every time, date, price, phone number, other number of two digits or more and known venue
name in the answer is looked up in the retrieved context (plus facts the system itself
supplied, such as the current date and the helplines). Formats are normalised first: "11 PM",
"11:00 p.m." and "11:00PM" are one time (agentkit/specifics.py). A value the context does state,
but for another item than the one the answer's sentence describes, fails too
(agentkit/evidence.py). No LLM is involved, so the check is fast and cannot be talked out of
its verdict.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Iterable
from dataclasses import dataclass, field

from frontdesk.agentkit import evidence as ev
from frontdesk.agentkit.specifics import (
    CHECKS,
    counted,
    details,
    numbers,
    quantities,
    without_times,
)


@dataclass(frozen=True)
class GroundingReport:
    unsupported: list[str]
    # Context sentences that most likely hold the right value of an unsupported detail: told
    # only "44 floors is wrong", a small model writes 44 again; shown "a 34-story tower", not.
    evidence: tuple[str, ...] = ()
    # Values the context states, but for another item than the one the answer describes.
    misattributed: list[str] = field(default_factory=list)

    @property
    def grounded(self) -> bool:
        return not self.unsupported and not self.misattributed

    def feedback(self) -> str:
        if self.grounded:
            return ""
        problems = []
        if self.unsupported:
            problems.append(
                "These details are not in the provided context; remove them or use the exact "
                "values from the context: " + "; ".join(self.unsupported) + "."
            )
        if self.misattributed:
            problems.append(
                "These details belong to something else in the context, not to what you "
                "describe: " + "; ".join(self.misattributed) + "."
            )
        text = " ".join(problems)
        if self.evidence:
            text += " The CONTEXT says: " + " ".join(f'"{s}"' for s in self.evidence)
        return text


def check_grounding(
    answer: str,
    context: Iterable[str],
    *,
    venue_names: Iterable[str] = (),
    trusted_facts: Iterable[str] = (),
    clock: str = "",
) -> GroundingReport:
    """Every specific in `answer` must appear in `context` or `trusted_facts`, and, where the
    context states it, for the item the answer's sentence describes.

    `clock` is the turn's current date and time ("Tuesday, November 24, 2026, 6:41 AM EST"):
    its date supports "today is November 24", but its time of day supports nothing. Passed as
    a trusted fact, the time let "the spa opens at 6:41 AM" (the clock, copied) pass.

    `venue_names` are the names the knowledge base knows (restaurants, shows, rooms...): one
    mentioned in the answer must be in the context too, or the answer is about a place that the
    retrieval did not return and the model is recalling it, not reading it.
    """
    context, trusted_facts = list(context), list(trusted_facts)
    if clock.strip():
        trusted_facts.append(without_times(clock))
    support = _Support.union([*context, *trusted_facts])
    unsupported: list[str] = []
    for kind, extract in CHECKS:
        for value in sorted(extract(answer) - support.values[kind]):
            unsupported.append(f"{kind} {value}")
    for value in sorted(quantities(answer) - support.numbers, key=int):
        unsupported.append(f"number {value}")
    # "20 seats" where the context counts seats only as "10,000 seats": the 20 exists elsewhere
    # in the context (a price, a size), but not as a number of seats.
    counts = support.counted
    counted_units = {unit for _, unit in counts}
    for value, unit in sorted(counted(answer) - counts):
        if unit in counted_units and f"number {value}" not in unsupported:
            unsupported.append(f"number {value} ({unit})")
    # "number 20 (seat)" is looked up as "number 20".
    rejected = {u.split(" (")[0] for u in unsupported}
    misplaced: list[tuple[str, str]] = []
    evidence: tuple[str, ...] = ()
    if any(details(answer).values()):  # an answer without specifics has nothing to attribute
        sentences = ev.context_sentences(context)
        # A trusted fact (a helpline, today's date) is never another item's.
        trusted = _trusted_values("\n".join(trusted_facts))
        misplaced = [
            (value, sentence)
            for value, sentence in ev.misattributed(answer, sentences)
            if value not in rejected and value.split(" ", 1)[1] not in trusted
        ]
        if rejected:
            evidence = ev.evidence(answer, sentences, rejected)
    evidence += tuple(s for _, s in misplaced if s not in evidence)
    by_folded = {name.casefold(): name for name in venue_names}
    # Longest name first, and the alternation consumes what it matches, so the sub-names of
    # a reported venue ("Sky Tower" inside "Sky Tower Suite") are not reported again.
    pattern = _venue_pattern(tuple(sorted(by_folded, key=len, reverse=True)))
    mentioned = dict.fromkeys(match.group(0) for match in pattern.finditer(answer.casefold()))
    unsupported += [
        f"venue '{by_folded[folded]}'"
        for folded in mentioned
        if not any(folded in text for text in support.folded)
    ]
    return GroundingReport(
        unsupported=unsupported,
        evidence=evidence[: ev.MAX_EVIDENCE],
        misattributed=list(dict.fromkeys(value for value, _ in misplaced)),
    )


@dataclass(frozen=True)
class _Support:
    """What a set of texts (the context and trusted facts) states, read once per text."""

    values: dict[str, frozenset[str]]  # by kind in CHECKS
    numbers: frozenset[str]
    counted: frozenset[tuple[str, str]]
    folded: tuple[str, ...]  # the texts case-folded, for the venue-name lookup

    @classmethod
    def union(cls, texts: list[str]) -> _Support:
        # Each document is read once, not once per answer: a turn and its retry check against
        # the same documents, and popular entries come back turn after turn.
        parts = [_support_of(text) for text in texts]
        return cls(
            values={
                kind: frozenset().union(*(p.values[kind] for p in parts)) for kind, _ in CHECKS
            },
            numbers=frozenset().union(*(p.numbers for p in parts)),
            counted=frozenset().union(*(p.counted for p in parts)),
            folded=tuple(text for p in parts for text in p.folded),
        )


@functools.lru_cache(maxsize=1024)
def _support_of(text: str) -> _Support:
    return _Support(
        values={kind: frozenset(extract(text)) for kind, extract in CHECKS},
        numbers=frozenset(numbers(text)),
        counted=frozenset(counted(text)),
        folded=(text.casefold(),),
    )


@functools.lru_cache(maxsize=64)
def _trusted_values(trusted: str) -> frozenset[str]:
    return frozenset().union(*(extract(trusted) for _, extract in CHECKS), quantities(trusted))


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
