"""The AI disclosure (issue 19, WP1 item 14, D25): the first SMS of every session says that an
AI is texting, unless the text already says so (the first greeting does).

    with_ai_disclosure("Welcome back, Maria. The spa opens at 9.", "en")
    -> "Seven (AI host): Welcome back, Maria. The spa opens at 9."

The tag is short and GSM-7 (no accents), so it costs a first message, which is one SMS, as
little of its answer as possible.
"""

from __future__ import annotations

import re

AI_TAGS = {"en": "Seven (AI host): ", "es": "Seven (anfitrion IA): "}
# Already disclosed: "AI" or "IA" as a word, or "artificial intelligence/inteligencia artificial".
_DISCLOSED = re.compile(r"\b(?:AI|IA)\b|\bartificial\b", re.IGNORECASE)


def discloses_ai(text: str) -> bool:
    return bool(_DISCLOSED.search(text))


def with_ai_disclosure(text: str, language: str = "en") -> str:
    if not text.strip() or discloses_ai(text):
        return text
    return AI_TAGS.get(language, AI_TAGS["en"]) + text
