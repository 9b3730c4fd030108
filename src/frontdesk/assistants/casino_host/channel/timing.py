"""How long the host "types" before an SMS goes out (WP1 item 33, C12, T12).

The seed's profiles (seed §9.21): a base and a spread per kind of message, plus half a
second per 160 characters (at most one second), clamped to 1-3 s (seeds README: more than 3 s
loses the guest, L64). The second SMS of a reply waits the `multi_segment` profile after the
first. The kind is decided by rules, never the model (seed §9.21).
"""

from __future__ import annotations

import random
from typing import Literal

MessageType = Literal[
    "acknowledgment", "question", "offer", "sensitive", "multi_segment", "apology", "greeting",
    "lookup", "default",
]  # fmt: skip

TIMING_PROFILES: dict[str, tuple[float, float]] = {
    "acknowledgment": (1.5, 0.5),
    "question": (3.0, 1.0),
    "offer": (5.0, 1.5),
    "sensitive": (4.0, 0.5),
    "multi_segment": (2.0, 0.5),
    "apology": (3.5, 1.0),
    "greeting": (2.5, 0.5),
    "lookup": (4.5, 1.0),
    "default": (3.0, 1.0),
}
MIN_DELAY_S = 1.0
MAX_DELAY_S = 3.0

_OFFER_WORDS = ("complimentary", "offer", "qualify", "perk", "discount")
_APOLOGY_WORDS = ("sorry", "apologize", "my mistake")
_LOOKUP_WORDS = ("let me check", "looking into", "one moment")


def message_type(
    text: str, *, first_of_session: bool, sensitive: bool, sms_parts: int = 1
) -> MessageType:
    """The timing profile of a reply, by the seed's rules in their order."""
    lower = text.lower()
    if first_of_session:
        return "greeting"
    if sensitive:
        return "sensitive"
    if sms_parts > 1 or len(text) > 160:
        return "multi_segment"
    if any(word in lower for word in _APOLOGY_WORDS):
        return "apology"
    if any(word in lower for word in _OFFER_WORDS):
        return "offer"
    if any(word in lower for word in _LOOKUP_WORDS):
        return "lookup"
    if len(text) < 30:
        return "acknowledgment"
    return "question"


def human_delay(text: str, kind: str = "default", rng: random.Random | None = None) -> float:
    """Seconds to wait before sending `text`, within [1, 3]."""
    base, spread = TIMING_PROFILES.get(kind, TIMING_PROFILES["default"])
    length = min(len(text) / 160, 2.0) * 0.5
    jitter = (rng or random).uniform(-spread, spread)
    return max(MIN_DELAY_S, min(base + length + jitter, MAX_DELAY_S))


def delays_for(parts: list[str], kind: str, rng: random.Random | None = None) -> list[float]:
    """The wait before each SMS of a reply: the reply's own profile for the first, the
    `multi_segment` pause between the first and the second."""
    return [
        human_delay(part, kind if index == 0 else "multi_segment", rng)
        for index, part in enumerate(parts)
    ]
