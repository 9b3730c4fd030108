"""Offer verification (item 23, seed §7.19): every offer a reply makes must be one of
the casino's active promotions (valid_from <= today <= valid_until), matched by its text or
its value within $0.01 (content/offers.py).

A claim is a sentence that offers something, found by the seed's seven patterns. An unverified
claim with a dollar amount is a fabricated offer: the reply goes back to its agent once with
feedback. One without an amount ("a complimentary upgrade") is sent, and flagged for audit.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from datetime import datetime

from frontdesk.assistants.casino_host.content import Catalog

OFFER_PATTERNS: tuple[re.Pattern[str], ...] = tuple(
    re.compile(pattern, re.IGNORECASE)
    for pattern in (
        r"\$\s?\d[\d,]*(?:\.\d{1,2})?",
        r"\bfree\s+(?:play|slot play|slots?|credit|meal|dinner|drinks?|stay|night|room)\b",
        r"\bcomp(?:limentary|ed)?\s+\w+",
        r"\b\d{1,3}\s?%\s*(?:off|discount|bonus)\b",
        r"\b(?:bogo|buy one,? get one)\b",
        r"\bpromo(?:tion(?:al)?)?\s+code\b",
        r"\b(?:match\s*play|bonus\s+play|deposit\s+match|free\s+bet|bonus\s+bet)\b",
    )
)
_DOLLARS = OFFER_PATTERNS[0]
_SENTENCE = re.compile(r"[^.!?]+[.!?]?")


@dataclass(frozen=True)
class OfferCheck:
    verified: list[str] = field(default_factory=list)  # claims that match an active promotion
    fabricated: list[str] = field(default_factory=list)  # unverified, with a dollar amount
    flagged: list[str] = field(default_factory=list)  # unverified, without one (sent, audited)

    @property
    def passed(self) -> bool:
        return not self.fabricated

    def feedback(self) -> str:
        return (
            "Remove fabricated offers: these are not current offers of the casino: "
            + "; ".join(self.fabricated)
            + ". Offer only what FACTS list as OFFER, or nothing."
        )


def offer_claims(text: str) -> list[str]:
    """The sentences of `text` that offer something, in order."""
    return [
        sentence.strip()
        for sentence in _SENTENCE.findall(text)
        if any(pattern.search(sentence) for pattern in OFFER_PATTERNS)
    ]


def verify_offers(text: str, catalog: Catalog, now: datetime) -> OfferCheck:
    check = OfferCheck()
    for claim in offer_claims(text):
        if catalog.promotions_matching(claim, now):
            check.verified.append(claim)
        elif _DOLLARS.search(claim):
            check.fabricated.append(claim)
        else:
            check.flagged.append(claim)
    return check
