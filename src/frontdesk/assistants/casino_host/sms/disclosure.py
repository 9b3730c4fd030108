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


# The first SMS a guest ever gets from the host says how to stop them (WP1, CTIA): in the
# guest's language, unless the text already names the keyword.
OPT_OUT_LINES = {"en": "Reply STOP to opt out.", "es": "Envie PARAR para cancelar."}
_NAMES_OPT_OUT = re.compile(r"\b(?:STOP|PARAR|CANCELAR)\b")


def with_opt_out_line(text: str, language: str = "en") -> str:
    if not text.strip() or _NAMES_OPT_OUT.search(text):
        return text
    text = text.rstrip()
    end = "" if text[-1] in ".!?" else "."
    return f"{text}{end} {OPT_OUT_LINES.get(language, OPT_OUT_LINES['en'])}"
