"""Offer verification's matching (seed WP2 item 23): which promotions an offer claim refers to.

A reply's offer ("$25 in free play", "the Stay and Play package", "promo code STAYPLAY") is
verified when it matches an active promotion by text (its title, a short name from `aliases`,
its promo code) or by value within $0.01. A bare amount
matches any promotion worth it; an amount said with a kind ("$25 dining credit") matches only
a promotion (or a package's part) of that kind, so a real $25 free-play offer does not vouch
for an invented $25 dining credit.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from decimal import Decimal

from frontdesk.assistants.casino_host.content.models import Promotion

VALUE_TOLERANCE_USD = 0.01
_AMOUNT = re.compile(
    r"\$\s?(?P<dollars>\d{1,3}(?:,\d{3})+|\d+)(?:\.(?P<cents>\d{1,2}))?"
    r"|\b(?P<plain>\d+(?:\.\d{1,2})?)\s*(?:usd|dollars?)\b",
    re.IGNORECASE,
)
# The words a claim uses for each kind of offer.
KIND_WORDS: dict[str, re.Pattern[str]] = {
    "dining_credit": re.compile(
        r"\b(dining|meal|food|restaurant|dinner|lunch|breakfast|brunch|buffet)\b"
    ),
    "freeplay": re.compile(r"\b(free ?play|slot play|free slots?|play credit)\b"),
    "hotel": re.compile(r"\b(hotel|rooms?|stay|nights?|suite)\b"),
    "vip": re.compile(r"\bvip\b"),
    "spa": re.compile(r"\b(spa|massage|facial|treatment)\b"),
    "entertainment": re.compile(r"\b(tickets?|show|concert)\b"),
    "package": re.compile(r"\bpackage\b"),
}


def normalize(text: str) -> str:
    """Lower case, punctuation to spaces, one space between words."""
    return " ".join(re.sub(r"[^\w$.]+|(?<!\d)\.|\.(?!\d)", " ", text.casefold()).split())


def amounts_in(text: str) -> list[float]:
    """The dollar amounts a text states: "$25", "$1,000.50", "25 dollars"."""
    found = []
    for match in _AMOUNT.finditer(text):
        if match["plain"] is not None:
            found.append(float(match["plain"]))
        else:
            cents = match["cents"] or "0"
            found.append(float(f"{match['dollars'].replace(',', '')}.{cents}"))
    return found


def kinds_in(text: str) -> set[str]:
    """The kinds of offer a text names ("dining credit" -> dining_credit)."""
    normalized = normalize(text)
    return {kind for kind, pattern in KIND_WORDS.items() if pattern.search(normalized)}


def same_value(a: float, b: float) -> bool:
    # Compared in cents, rounded: 25.01 - 25.00 is 0.0100000000000016 in floating point.
    return abs(round(float(a) * 100) - round(float(b) * 100)) <= round(VALUE_TOLERANCE_USD * 100)


def _contains_phrase(text: str, phrase: str) -> bool:
    return bool(phrase) and re.search(rf"(?<!\w){re.escape(phrase)}(?!\w)", text) is not None


def _names(promotion: Promotion) -> list[str]:
    """What a reply may call the offer: its title, a short name, its promo code."""
    names = [promotion.title, *promotion.aliases]
    if promotion.promo_code:
        names.append(promotion.promo_code)
    return [normalized for name in names if (normalized := normalize(name))]


def _priced(promotion: Promotion) -> list[tuple[float, str]]:
    return [(promotion.value_usd, promotion.kind)] + [
        (part.value_usd, part.kind) for part in promotion.parts
    ]


def match_promotions(
    promotions: Iterable[Promotion], claim: str | float | Decimal
) -> list[Promotion]:
    """The promotions `claim` refers to: named ones (code, title) first, then by value."""
    promotions = list(promotions)
    if isinstance(claim, bool) or not isinstance(claim, (str, float, int, Decimal)):
        raise TypeError(f"an offer claim is text or a number, got {type(claim).__name__}")
    if not isinstance(claim, str):
        return [p for p in promotions if any(same_value(v, float(claim)) for v in p.values_usd)]

    text = normalize(claim)
    named = [p for p in promotions if any(_contains_phrase(text, n) for n in _names(p))]
    amounts = amounts_in(claim)
    # A named offer's own title says nothing about the kind of an amount beside it: in "a $50
    # dining credit with Stay and Play" the "stay" belongs to the package's name.
    unnamed = text
    for promotion in named:
        for name in _names(promotion):
            unnamed = unnamed.replace(name, " ")
    kinds = kinds_in(unnamed)
    valued = [
        p
        for p in promotions
        if any(
            same_value(value, amount) and (not kinds or kind in kinds)
            for value, kind in _priced(p)
            for amount in amounts
        )
    ]
    return list(dict.fromkeys([*named, *valued]))
