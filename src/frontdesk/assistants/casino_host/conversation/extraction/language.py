"""Language of a message (word lists) and explicit requests to switch language (item 44)."""

from __future__ import annotations

import re

from frontdesk.assistants.casino_host.compliance.language import word_counts

from .fields import LANGUAGE, SELF_REPORTED, STATED_EXPLICITLY
from .text import Hit, fold

_SPANISH_PUNCTUATION = re.compile(r"[¿¡ñÑ]")


def detect_language(text: str) -> str | None:
    """'en' or 'es' by counting marker words; None when there is no signal or it is a tie.

    The graph applies the "two consecutive messages in the other language" rule on top.
    """
    spanish, english, _ = word_counts(fold(text))
    spanish += len(_SPANISH_PUNCTUATION.findall(text))
    if spanish == english:
        return None
    return "es" if spanish > english else "en"


_VERB_EN = (
    r"(?:speak|talk|text|write|chat|reply|respond|answer|continue|communicate|message|switch|"
    r"converse|go on)"
)
_VERB_ES = (
    r"(?:hablar|hablemos|hablamos|hable|habla|hablame|escribir|escribame|escribeme|escriban|"
    r"escribanme|escribir|responder|responda|respondan|contestar|conteste|seguir|sigamos|"
    r"continuar|continuemos|comunicarnos|comunicarme|cambiar|cambiemos|mensajes)"
)


def _requests(lang_en: str, lang_es: str) -> list[re.Pattern[str]]:
    """Patterns for an explicit request to use one language, in EN and ES phrasing."""
    return [
        re.compile(rf"\b{_VERB_EN}\b[^.?!]{{0,25}}\b(?:in|to) {lang_en}\b"),
        re.compile(rf"\b{_VERB_EN} {lang_en}\b"),
        re.compile(rf"\b(?:in )?{lang_en},? (?:please|pls|plz)\b"),
        re.compile(rf"\bprefer(?:red)? (?:to (?:use|speak|text) )?(?:in )?{lang_en}\b"),
        re.compile(rf"\b{_VERB_ES}\b[^.?!]{{0,30}}\ben {lang_es}\b"),
        re.compile(rf"\ben {lang_es},? (?:por favor|porfa|porfavor|mejor|si se puede)\b"),
        re.compile(rf"\bprefiero (?:el |en |que [^.?!]{{0,25}}en )?{lang_es}\b"),
        re.compile(rf"\b(?:mejor|preferiblemente) en {lang_es}\b"),
    ]


_REQUESTS = {
    "es": _requests("spanish", "espanol"),
    "en": _requests("english", "ingles"),
}
# "I don't speak English" / "no hablo inglés" ask for the other language.
_CANNOT = {
    "es": re.compile(
        r"\b(?:i )?(?:don't|dont|do not|can't|cant|no) (?:speak|read|understand) "
        r"(?:much |good |very good )?english\b|\bno (?:hablo|entiendo|leo) (?:mucho |bien )?ingles\b"
    ),
    "en": re.compile(
        r"\b(?:i )?(?:don't|dont|do not|can't|cant) (?:speak|read|understand) "
        r"(?:much |good |very good )?spanish\b|\bno (?:hablo|entiendo|leo) (?:mucho |bien )?espanol\b"
    ),
}
# "I don't want Spanish" refuses; "do you speak Spanish?" asks about ability, not for a switch.
_NEGATED_REQUEST = re.compile(
    r"\b(?:don't|dont|do not|no|not|never|nunca)\s+(?:\w+\s+){0,2}$"
    r"|\b(?:do|does) (?:you|anyone|someone|somebody)(?: guys)?\s+$|\banyone\s+$"
)


def find_language_request(folded: str) -> list[Hit]:
    """The last explicit language request in the message, if any."""
    found: list[Hit] = []
    for language in ("es", "en"):
        for pattern in _REQUESTS[language]:
            for match in pattern.finditer(folded):
                if _NEGATED_REQUEST.search(folded[max(0, match.start() - 20) : match.start()]):
                    continue
                found.append(
                    Hit(
                        LANGUAGE,
                        language,
                        STATED_EXPLICITLY,
                        SELF_REPORTED,
                        match.start(),
                        match.end(),
                    )
                )
        for match in _CANNOT[language].finditer(folded):
            found.append(
                Hit(
                    LANGUAGE, language, STATED_EXPLICITLY, SELF_REPORTED, match.start(), match.end()
                )
            )
    if not found:
        return []
    # A message that names both ("Hablamos en inglés mejor, my Spanish is bad") means the
    # request; the last request wins if there really are two.
    return [max(found, key=lambda hit: hit.start)]
