"""The words telecom routes by: question openers, and technical and billing word stems.

Pure word lists and the route hint they give; the router, the fallback agent and the refund cue
read them (nodes.py, refund_intent.py).
"""

from __future__ import annotations

from frontdesk.routing.keywords import KeywordCounts
from frontdesk.routing.question_form import QUESTION_WORDS

# Words that open a question, English and Polish (with and without Polish letters): a short
# message opening with one asks something new ("jaki jest status mojego zgłoszenia?") unless it
# carries a value asked for; a question is not a request ("can I get 10 PLN back?" aside).
QUESTION_OPENERS = QUESTION_WORDS | {
    "is", "are", "do", "does", "did", "will", "would", "can", "could", "may", "should", "has",
    "have", "co", "jaki", "jaka", "jakie", "jakiego", "kiedy", "gdzie", "czy", "dlaczego",
    "czemu", "ile", "jak", "który", "która", "które", "ktory", "ktora", "ktore",
}  # fmt: skip

# Stems of technical and billing words, English and Polish: the fallback agent's route hints
# (seed: _infer_route_hint) and extra evidence for the router's classifier (routing/keywords).
TECH_STEMS = [
    "sieć",
    "sieci",
    "siec",
    "połącz",
    "polacz",
    "internet",
    "wifi",
    "wi-fi",
    "router",
    "modem",
    "światłowod",
    "swiatlowod",
    "zasięg",
    "zasieg",
    "mms",
    "sms",
    "apn",
    "most",
    "bridge",
    "ont",
    "pon",
    "los",
    "diod",
    "prędko",
    "predko",
    "ping",
    "5g",
    "lte",
    "dsl",
    "ftth",
    "sygnał",
    "sygnal",
    "kabel",
    "restart",
    "zrywa",
    "wolny",
    "wolno",
    "signal",
    "slow",
    "speed",
    "connect",
    "drop",
    "network",
    "led",
    "cable",
    "latency",
    "outage",
    "dns",
    "lag",
    "fibre",
    "fiber",
    # Phone service features ("Jak ustawić pocztę głosową?" had gone to billing's refund cases).
    "voicemail",
    "poczt",
    "głosow",
    "glosow",
    "forwarding",
    "przekierow",
]
BILLING_STEMS = [
    "faktur",
    "rachun",
    "płat",
    "plat",
    "opłat",
    "oplat",
    "zwrot",
    "kwot",
    "cena",
    "cen",
    "koszt",
    "abonament",
    "plan",
    "zł",
    "pln",
    "refund",
    "invoice",
    "bill",
    "charg",
    "pay",
    "price",
    "cost",
    "subscription",
    "money",
    "fee",
    "overcharg",
    "obciąż",
    "obciaz",
    "nadpłat",
    "reklamac",
    "umow",
    "contract",
]
ROUTE_KEYWORDS = KeywordCounts([TECH_STEMS, BILLING_STEMS])


def route_hint(text: str) -> str | None:
    """'technical' or 'billing', whichever has more keywords in the message (advisory only)."""
    technical, billing = ROUTE_KEYWORDS.counts(text)
    if technical > billing:
        return "technical"
    if billing > technical:
        return "billing"
    return None
