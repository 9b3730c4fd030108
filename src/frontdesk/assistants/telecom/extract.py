"""Billing arguments read straight from the customer's words: invoice, case and customer ids,
amounts, and whether a refund reason is stated.

Ids and amounts have a form a pattern finds exactly ("INV-20251001", "R10001", "100 PLN",
"45 zł", "Amount: 100"); the model is asked only for what has no such form (which reason). The
latest message that holds one wins, so a correction ("sorry, INV-20251002") replaces the
earlier value.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

_INVOICE = re.compile(r"\binv[-\s]?(\d{4,10})\b", re.IGNORECASE)
_NUMBER = r"(\d{1,7}(?:[.,]\d{1,2})?)"
_CURRENCY = r"(?:pln|zł|zl|złotych|zlotych|złote|zlote|zloty)"
_AMOUNTS = [
    re.compile(rf"{_NUMBER}\s*{_CURRENCY}\b", re.IGNORECASE),
    re.compile(rf"\b{_CURRENCY}\s*{_NUMBER}", re.IGNORECASE),
    re.compile(
        rf"\b(?:amount|kwota|kwotę|kwote)\s*(?:of|is|to|wynosi|:)?\s*{_NUMBER}", re.IGNORECASE
    ),
]
_USER_ID = re.compile(r"\b(u\d{3,})\b", re.IGNORECASE)
_CASE_ID = re.compile(r"\b(r\d{5,9})\b", re.IGNORECASE)
# Words that give a refund's reason, English and Polish (stems; matched in lower case): an
# overcharge, a service that did not work, the 14-day withdrawal, or a reason in so many words.
_REASON = re.compile(
    r"overcharg|too much|wrong (?:charge|amount|bill)|extra charge|twice|double|"
    r"by mistake|mistaken|never ordered|outage|not work|didn'?t work|did not work|no signal|"
    r"no service|was down|cooling|withdraw|changed my mind|goodwill|reason|because|"
    r"za dużo|za duzo|nadpłat|nadplat|naliczon|błędn|bledn|podwójn|podwojn|awari|"
    r"nie działa|nie dziala|nie było|nie bylo|brak zasięgu|brak zasiegu|odstąp|odstap|"
    r"odstęp|odstep|rezygn|powód|powod|bo |ponieważ|poniewaz"
)


def invoice_id(texts: Sequence[str]) -> str | None:
    for text in reversed(texts):
        found = _INVOICE.findall(text)
        if found:
            return f"INV-{found[-1]}"
    return None


def amount_pln(texts: Sequence[str]) -> float | None:
    """The last amount with a currency (or named as the amount) in the latest message with one.

    Customers give context first and the amount they want last ("billed 145 PLN, my plan is
    45 PLN, refund the 100 PLN"). Percentages and counts without a currency are not amounts.
    """
    for text in reversed(texts):
        hits = [(m.start(), m.group(1)) for pattern in _AMOUNTS for m in pattern.finditer(text)]
        if hits:
            return float(max(hits)[1].replace(",", "."))
    return None


def user_id(texts: Sequence[str]) -> str | None:
    for text in reversed(texts):
        found = _USER_ID.findall(text)
        if found:
            return found[-1].lower()
    return None


def case_id(texts: Sequence[str]) -> str | None:
    for text in reversed(texts):
        found = _CASE_ID.findall(text)
        if found:
            return found[-1].upper()
    return None


def states_reason(text: str) -> bool:
    """Whether the message gives a reason for a refund (which one is the model's to read)."""
    return _REASON.search(text.casefold()) is not None


# The reasons the agent offers, by the names it offers them under (prompts.FIELD_NAMES): a
# customer who answers with one is read exactly; any other wording is the model's to read.
_NAMED_REASONS = {
    "overcharge": re.compile(r"\bovercharg\w*|\bnadpłat\w*|\bnadplat\w*", re.IGNORECASE),
    "service_outage": re.compile(r"\bservice outage\b|\boutage\b|\bawari\w*", re.IGNORECASE),
    "within_cooling_off": re.compile(
        r"\bcooling[- ]off\b|\bodstąpieni\w*|\bodstapieni\w*", re.IGNORECASE
    ),
}


# "not an outage", "to nie awaria": a reason named to rule it out.
_NEGATED = re.compile(r"(?:\bnot|\bnie|n't)\s+(?:\w+\s+)?$", re.IGNORECASE)


def _names(pattern: re.Pattern[str], text: str) -> bool:
    return any(not _NEGATED.search(text[: m.start()]) for m in pattern.finditer(text))


def named_reason(texts: Sequence[str]) -> str | None:
    """The refund reason the latest message that names one names, when it names only one."""
    for text in reversed(texts):
        named = {reason for reason, pattern in _NAMED_REASONS.items() if _names(pattern, text)}
        if named:
            return named.pop() if len(named) == 1 else None
    return None
