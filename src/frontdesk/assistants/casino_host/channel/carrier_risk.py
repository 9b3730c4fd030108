"""How likely carriers are to filter an SMS as spam (WP1 item 46, T13), scored before sending.

The seed's weights (seed §3.7): a URL 0.30, each ALL-CAPS word of two letters or more 0.10,
each "!" 0.05, a dollar amount 0.20, urgency words 0.15, the same text as one of the guest's
last five outbound messages 0.40; capped at 1.0. Above 0.6 the text is reworded (the link goes,
shouting is lowered, exclamations become full stops; words are never cut out of a sentence)
and scored again; still above, it is not sent.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

BLOCK_ABOVE = 0.6
RECENT_OUTBOUND = 5

URL = re.compile(r"\bhttps?://\S+|\bwww\.\S+|\b[a-z0-9-]+\.(?:com|co|net|org|io|ly|us)(?:/\S*)?\b",
                 re.IGNORECASE)  # fmt: skip
CAPS_WORD = re.compile(r"\b[A-Z]{2,}\b")
DOLLARS = re.compile(r"\$\d+")
URGENCY = re.compile(r"\b(?:limited time|act now|expires|hurry|last chance)\b", re.IGNORECASE)
# Upper-case words that are names, not shouting.
ALLOWED_CAPS = frozenset({"AI", "STOP", "START", "HELP", "SMS", "VIP", "ID", "PM", "AM", "BBQ"})

WEIGHTS = {
    "url": 0.30,
    "caps_word": 0.10,
    "exclamation": 0.05,
    "dollar_amount": 0.20,
    "urgency": 0.15,
    "repeat": 0.40,
}


@dataclass(frozen=True)
class CarrierRisk:
    score: float
    reasons: tuple[str, ...]

    @property
    def blocked(self) -> bool:
        return self.score > BLOCK_ABOVE


def carrier_risk(text: str, recent_outbound: Sequence[str] = ()) -> CarrierRisk:
    reasons: list[str] = []
    score = 0.0

    def add(reason: str, times: int = 1) -> None:
        nonlocal score
        if times:
            score += WEIGHTS[reason] * times
            reasons.append(reason if times == 1 else f"{reason} x{times}")

    add("url", int(bool(URL.search(text))))
    add("caps_word", sum(1 for w in CAPS_WORD.findall(text) if w not in ALLOWED_CAPS))
    add("exclamation", text.count("!"))
    add("dollar_amount", int(bool(DOLLARS.search(text))))
    add("urgency", int(bool(URGENCY.search(text))))
    add("repeat", int(text.strip() in {t.strip() for t in recent_outbound[-RECENT_OUTBOUND:]}))
    return CarrierRisk(round(min(score, 1.0), 2), tuple(reasons))


def reworded(text: str) -> str:
    """`text` without what carriers filter on that can go without changing what it says: the
    link (with its "at"/"visit"), shouting, exclamations."""
    text = re.sub(rf"(?:\s+(?:at|on|via|visit|see|here:?))?\s*(?:{URL.pattern})", "", text,
                  flags=re.IGNORECASE)  # fmt: skip
    text = CAPS_WORD.sub(
        lambda m: m.group() if m.group() in ALLOWED_CAPS else m.group().capitalize(), text
    )
    text = re.sub(r"!+", ".", text)
    text = re.sub(r"\s*[:;,\-]\s*(?=[.]|$)", "", text)  # punctuation left before a removed link
    text = re.sub(r"\s+([.,])", r"\1", re.sub(r"\s{2,}", " ", text)).strip(" .")
    return f"{text}." if text else text


@dataclass(frozen=True)
class CarrierCheck:
    text: str  # what may be sent (the reworded text when it was reworded)
    risk: CarrierRisk  # of `text`
    reworded: bool

    @property
    def sendable(self) -> bool:
        return not self.risk.blocked


def check_for_carriers(text: str, recent_outbound: Sequence[str] = ()) -> CarrierCheck:
    """Score `text`; reword it once when it scores above 0.6; block when it still does."""
    risk = carrier_risk(text, recent_outbound)
    if not risk.blocked:
        return CarrierCheck(text, risk, False)
    plain = reworded(text)
    return CarrierCheck(plain, carrier_risk(plain, recent_outbound), True)
