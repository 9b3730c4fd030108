"""Which language a customer writes in, for the replies an agent composes from templates.

Only what the assistants answer in: Polish or English. Polish letters or two Polish words
decide Polish; anything else is English. A Polish word is a common one ("nie", "jak") or one
with a spelling English words almost never have ("cz", "sz", "rz": "czerwono", "szybko"),
so "Dioda PON miga na czerwono", written without Polish letters, is Polish. Mixed messages ("moja sieć słaba, router
restart?") are Polish, since a customer who writes any Polish reads it.
"""

from __future__ import annotations

import re

_POLISH_LETTERS = re.compile(r"[ąćęłńóśźż]", re.IGNORECASE)
_POLISH_SPELLING = re.compile(r"cz|sz|rz")
_POLISH_WORDS = frozenset(
    [
        "nie",
        "jest",
        "mam",
        "moja",
        "moje",
        "mój",
        "się",
        "czy",
        "jak",
        "ile",
        "dlaczego",
        "proszę",
        "chcę",
        "działa",
        "faktura",
        "fakturę",
        "fakturze",
        "zwrot",
        "zwrotu",
        "kwota",
        "kwotę",
        "powód",
        "planu",
        "sieć",
        "sieci",
        "dzień",
        "dobry",
        "cześć",
        "witam",
        "dziękuję",
        "za",
        "na",
        "od",
        "jaki",
        "jaka",
        "jakie",
        "gdzie",
        "kiedy",
    ]
)


def detect_language(text: str) -> str:
    """'pl' or 'en'."""
    if _POLISH_LETTERS.search(text):
        return "pl"
    words = re.findall(r"[a-ząćęłńóśźż]+", text.lower())
    hits = sum(1 for w in words if w in _POLISH_WORDS or _POLISH_SPELLING.search(w))
    return "pl" if hits >= 2 else "en"
