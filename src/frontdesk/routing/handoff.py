"""Does a message ask to be handed to a person? (English and Polish.)

`asks_for_person` is pure: the same text always gives the same answer, with no model and no
state. It recognises a request (talk/speak to, connect/transfer me to, I want/need, or a bare
"agent please") aimed at a person (human, agent, representative, konsultant, człowiek...), and
not its negation ("I don't want to talk to a human"). Mentioning a person is not asking for
one: "the agent on the phone said..." or "can a person have two SIM cards?" are not requests.

Polish is matched without diacritics, so "połącz mnie z człowiekiem" and "polacz mnie z
czlowiekiem" read the same.
"""

from __future__ import annotations

import re
import unicodedata

# Who a customer may ask for. English nouns; Polish stems in any case ending.
_EN_PERSON = (
    r"(?:human(?:\s+being)?|person|people|agent|representative|rep|operator|someone|somebody"
    r"|consultant|advis[eo]r|staff(?:\s+member)?|supervisor|manager"
    r"|customer\s+(?:service|support|care)(?:\s+(?:team|agent|rep))?)"
)
# Words that may stand between the request and the person ("a real live human").
_EN_BETWEEN = (
    r"(?:(?:a|an|the|some|one|your|real|live|actual|proper|human|of|from|support|customer"
    r"|service|flesh|and|blood)\s+)*"
)
_EN_REQUESTS = (
    # talk / speak / chat to a person
    rf"\b(?:talk|speak|chat|communicate)\s+(?:to|with)\s+{_EN_BETWEEN}{_EN_PERSON}\b",
    # connect / transfer / put me through to a person; escalate to a person
    (
        rf"\b(?:connect|transfer|put|pass|forward|escalate|hand|switch|route)\s+(?:me|this|it|us"
        rf"|my\s+case)?\s*(?:over\s+|through\s+|on\s+)?(?:to|with)\s+{_EN_BETWEEN}{_EN_PERSON}\b"
    ),
    # I want / need / would like / get me a person ("someone" alone is too vague here)
    (
        rf"\b(?:want|need|like|prefer|request|get\s+me|give\s+me|find\s+me)\s+(?:a|an|some|one|to\s+"
        rf"have\s+a)\s+{_EN_BETWEEN}(?!someone|somebody){_EN_PERSON}\b"
    ),
    # is there a real person I can talk to
    rf"\b{_EN_PERSON}\s+(?:i|we)\s+(?:can|could|may)\s+(?:talk|speak|chat)\b",
    # escalate this
    r"\bescalate\s+(?:this|it|my\s+(?:case|issue|problem|complaint))\b",
)
_EN_BARE = rf"{_EN_BETWEEN}{_EN_PERSON}"

_PL_PERSON = (
    r"(?:konsultant\w*|czlowiek\w*|ludzmi|osob(?:a|e|y|ie)|pracownik\w*|agent\w*|doradc\w*"
    r"|operator\w*|kims|kogos|kierownik\w*|przelozon\w*|obslug[aei]\s+klienta)"
)
_PL_BETWEEN = (
    r"(?:(?:z|ze|do|na|jakims|jakas|jakiegos|prawdziw\w*|zyw\w*|realn\w*|ludzk\w*|waszym|wasza"
    r"|waszego|tym|kims|kogos|obslugi|infolinii)\s+)*"
)
_PL_REQUESTS = (
    # rozmawiać / porozmawiać / kontakt z konsultantem
    (
        rf"\b(?:rozmawiac|porozmawiac|pogadac|pomowic|mowic|gadac|rozmowe|rozmowy|kontakt\w*"
        rf"|skontaktowac\s+sie|skontaktuj(?:cie)?\s+mnie)\s+(?:sie\s+)?{_PL_BETWEEN}{_PL_PERSON}\b"
    ),
    # połącz / przełącz / przekaż mnie do konsultanta
    (
        rf"\b(?:polacz\w*|przelacz\w*|przekaz\w*|przekieruj\w*|przekierowac)\s+(?:mnie\s+|nas\s+"
        rf"|sprawe\s+|zgloszenie\s+)?{_PL_BETWEEN}{_PL_PERSON}\b"
    ),
    # chcę / poproszę / potrzebuję konsultanta
    (
        rf"\b(?:chce|chcialbym|chcialabym|chcemy|poprosze|prosze\s+o|potrzebuje|wolal\w*"
        rf"|daj(?:cie)?\s+mi|dawaj)\s+{_PL_BETWEEN}{_PL_PERSON}\b"
    ),
)
_PL_BARE = rf"{_PL_BETWEEN}{_PL_PERSON}"

# Courtesy and urgency around a bare request ("agent please", "konsultant, proszę!").
_FILLER = (
    r"(?:please|pls|plz|now|asap|right\s+now|immediately|thanks|thank\s+you|hi|hello|hey|ok"
    r"|prosze|poprosze|natychmiast|teraz|juz|dziekuje|dzieki|czesc|dzien\s+dobry|witam|hej)"
)
_REQUEST = re.compile("|".join((*_EN_REQUESTS, *_PL_REQUESTS)))
_BARE = re.compile(rf"(?:{_FILLER}\s+)*(?:{_EN_BARE}|{_PL_BARE})(?:\s+{_FILLER})*")
# A negation just before the request turns it around ("I don't want to talk to a human").
_NEGATION = re.compile(
    r"\b(?:not|dont|don't|do\s+not|never|no\s+need\s+to|without|nie|bez|nigdy)\s+(?:\w+\s+){0,2}$"
)
# Letters that NFKD does not split into a base letter and an accent.
_PLAIN = str.maketrans({"ł": "l", "Ł": "L", "’": "'"})


def normalize(text: str) -> str:
    """Lower case, no diacritics, words separated by single spaces, punctuation dropped
    (apostrophes kept, for "don't")."""
    decomposed = unicodedata.normalize("NFKD", text.translate(_PLAIN))
    plain = "".join(c for c in decomposed if not unicodedata.combining(c)).lower()
    return " ".join(re.sub(r"[^\w']+", " ", plain).split())


def asks_for_person(text: str) -> bool:
    """True when the message asks to talk to a person instead of the assistant."""
    plain = normalize(text)
    if not plain:
        return False
    if _BARE.fullmatch(plain):
        return True
    for match in _REQUEST.finditer(plain):
        if not _NEGATION.search(plain[: match.start()]):
            return True
    return False
