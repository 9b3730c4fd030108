"""A guest who says STOP is not texted again (TCPA; WP1 builds the consent channel, issue 19).

Part 1 recognises the opt-out in a message (a bare keyword, or "stop texting me" inside an
angry one: the seed's integration case #2), confirms it without the model and marks the
profile's consent record `suppressed`. A message that is only START (or "UNSTOP") re-subscribes.
"""

from __future__ import annotations

import re

_KEYWORD = re.compile(
    r"^\s*(?:stop|stopall|stop all|unsubscribe|cancel|end|quit|optout|opt out|baja|alto|parar)"
    r"\s*[.!]*\s*$",
    re.IGNORECASE,
)
_PHRASE = re.compile(
    r"\bstop\s+(?:texting|messaging|sending|contacting)\b|\b(?:don'?t|do not|never)\s+text\s+me\b"
    r"|\bunsubscribe\s+me\b|\bno more (?:texts|messages)\b|\bremove me from\b"
    r"|\bdej(?:e|en|ar)\s+de\s+(?:escribir|enviar|mandar)|\bno me (?:escriban|escribas|manden)\b",
    re.IGNORECASE,
)
_START = re.compile(r"^\s*(?:start|unstop|subscribe)\s*[.!]*\s*$", re.IGNORECASE)

CONFIRMATION = {
    "en": "You're unsubscribed from $casino texts and won't get more messages. Reply START to "
    "opt back in.",
    "es": "Usted ya no recibirá mensajes de $casino. Responda START para volver a suscribirse.",
}
RESUBSCRIBED = {
    "en": "You're subscribed to $casino texts again. Reply STOP anytime to opt out.",
    "es": "Usted vuelve a recibir mensajes de $casino. Responda STOP para cancelar.",
}


def is_opt_out(text: str) -> bool:
    return bool(_KEYWORD.match(text) or _PHRASE.search(text))


def is_opt_in(text: str) -> bool:
    return bool(_START.match(text))
