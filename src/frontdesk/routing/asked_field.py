"""Which field of an item a question asks for: its hours, price, phone, capacity, location, dress
code, reservations or age rule, in English or Spanish.

A guide's items hold these as fields, so the answer to "is the steakhouse open on Monday?" or
"¿cuánto cuesta el bufé?" is worked out from the item in code; a small model shown the item
still gives the neighbouring day's hours or another venue's price. The first field that matches
wins, most specific first: "what number do I call to check in" asks about check-in; and the
first sentence that asks one wins over the rest: "gym hrs? wanna lift before checkout" asks
the gym's hours.
"""

from __future__ import annotations

import re

from frontdesk.guardrails import normalize_text

# (field, pattern over the question in lower case without accents). English and Spanish.
_FIELDS: tuple[tuple[str, re.Pattern[str]], ...] = (
    ("check_out", re.compile(r"\bcheck[\s-]?out\b|\bcheckout\b|\bsalida del hotel\b")),
    ("check_in", re.compile(r"\bcheck[\s-]?in\b|\bcheckin\b|\bentrada al hotel\b")),
    (
        "phone",
        re.compile(
            r"\bphone\b|\b(?:what|which) number\b|\bnumber (?:for|of|to)\b|\bcall\b|\bcontact\b"
            r"|(?:^|\s)#(?=\s+(?:for|to|of)\b)|\bnumber (?:del?|para)\b"
            r"|\btelefono\b|\bnumero\b|\bllamar\b"
        ),
    ),
    (
        "capacity",
        re.compile(
            r"\bcapacity\b|\bhow many (?:people|guests|seats|fans)\b|\bseats?\b|\bhow big\b"
            r"|\bhold\b|\bcapacidad\b|\bcuantas personas\b|\basientos\b"
        ),
    ),
    (
        "price",
        re.compile(
            r"\bhow much\b|\bprice|\bcost|\bexpensive\b|\bcheap|\bpricey\b|\bafford"
            r"|\bcuanto (?:cuesta|sale|vale|cobran)|\bprecio|\bcaro\b|\bbarat"
        ),
    ),
    (
        "hours",
        re.compile(
            r"\bopen|\bclos(?:e|es|ed|ing)\b|\bhours?\b|\bhrs\b|\bwhat time\b|\bwhen\b|\blate\b"
            r"|\babre|\babiert|\bcierra|\bcerrad|\bhorario|\bque hora|\bcuando\b|\bhasta que hora"
        ),
    ),
    # Asked after the fields above, so that a question the guide answered before by one of them
    # is answered by it still.
    (
        "dress_code",
        re.compile(
            r"\bdress(?:\s+code)?\b|\bwear\b|\bjeans\b|\bshorts\b|\bsneakers\b|\bflip[\s-]?flops\b"
            r"|\battire\b|\bcodigo de vestimenta\b|\bvestimenta\b|\bvestir\b|\bropa\b|\bponerme\b"
        ),
    ),
    (
        "reservations",
        re.compile(
            r"\breserv|\bbook(?:ing)?\b|\bwalk[\s-]?ins?\b|\bwithout a table\b"
            # "how long is the wait", "a waitlist"; not "no wait, I meant the steakhouse"
            r"|(?<!^)(?<!\bno )\bwait(?:list)?\b(?!\s*,)"
        ),
    ),
    (
        "location",
        re.compile(
            r"\bwhere\b|\bwheres\b|\blocated\b|\blocation\b|\bwhich (?:casino|tower|floor)\b"
            r"|\bhow do i (?:get|find)\b|\bdonde\b|\bubica|\bcomo llego\b"
        ),
    ),
    (
        "age",
        re.compile(
            r"\bkids?\b|\bchild|\bminors?\b|\bunder\s?\d\d\b|\b\d\d\+|\bage\b|\bhow old\b"
            r"|\bninos?\b|\bhijos?\b|\bmenores?\b|\bedad\b"
            # "can my 4 year old come?", "mi hijo de 6 años"
            r"|\b\d{1,2}[\s-]*(?:years?|yrs?)[\s-]*old\b|\b\d{1,2}\s+anos\b"
        ),
    ),
)


def asked_field(question: str) -> str | None:
    """The field `question` asks for, or None when it asks none of them."""
    text = normalize_text(question).replace("\u2019", "'")
    for sentence in re.split(r"[?!;]+|\.(?:\s|$)", text):
        if field := next((name for name, pattern in _FIELDS if pattern.search(sentence)), None):
            return field
    return None
