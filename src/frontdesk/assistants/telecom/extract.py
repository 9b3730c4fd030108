"""Billing arguments read straight from the customer's words: invoice ids and amounts.

Both have a form a pattern finds exactly ("INV-20251001", "100 PLN", "45 zł", "Amount: 100");
the model is asked only for what has no such form (the reason). The latest message that holds
one wins, so a correction ("sorry, INV-20251002") replaces the earlier value.
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
    re.compile(rf"\b(?:amount|kwota|kwotę|kwote)\s*(?:of|is|to|wynosi|:)?\s*{_NUMBER}", re.IGNORECASE),
]
_USER_ID = re.compile(r"\b(u\d{3,})\b", re.IGNORECASE)


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
