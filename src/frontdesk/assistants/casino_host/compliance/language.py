"""Which language the gate answers in: the language of the pattern that matched, else cue
words in the message, else the guest's profile language, else English.

The pattern comes first because it is the strongest evidence ("I have a gambling problem" is
English whatever the profile says); the profile decides only when the message gives no sign
("ok", "911").
"""

from __future__ import annotations

import re
from collections.abc import Iterable

SUPPORTED = ("en", "es")
DEFAULT = "en"

# The seed's Spanish indicators (L3690) plus common function words; English counterparts so
# an English message without a language-specific pattern is recognised as well.
_SPANISH_WORDS = (
    "hola gracias por favor como donde cuando reserva reservar mesa juego ayuda tengo quiero "
    "necesito puedo puede esta estoy usted mi mis el los las que para con una hay del pero muy "
    "tiene tienen llame llamen habitacion cuanto cuantos esposo esposa hijo hija dinero noche "
    "manana hoy senor senora nos le se soy su sus es tarjeta numero contrasena alguien"
)
_ENGLISH_WORDS = (
    "the my is i you what can to and for of it we are how where when do please this have our "
    "me in at on with your i'm im he she someone there need want"
)
SPANISH_CUES = frozenset(_SPANISH_WORDS.split())
ENGLISH_CUES = frozenset(_ENGLISH_WORDS.split())
_WORD = re.compile(r"[a-z']+")


def cue_language(folded: str) -> str | None:
    """ "es", "en" or None (too little to tell) for a normalised message; the seed's rule for
    Spanish (two cues, or one in a message under five words) weighed against English cues."""
    words = _WORD.findall(folded)
    spanish = sum(word in SPANISH_CUES for word in words)
    english = sum(word in ENGLISH_CUES for word in words)
    if spanish > english and (spanish >= 2 or len(words) < 5):
        return "es"
    if english and english >= spanish:
        return "en"
    return None


def language_hint(language: str | None) -> str | None:
    """The profile language as "en"/"es" ("es-MX" -> "es"), None when unknown or unsupported."""
    if not language:
        return None
    code = language.strip().lower()[:2]
    return code if code in SUPPORTED else None


def choose_language(
    winning_language: str | None,
    matched_languages: Iterable[str | None],
    folded: str,
    hint: str | None,
) -> str:
    if winning_language:
        return winning_language
    languages = {language for language in matched_languages if language}
    if len(languages) == 1:
        return languages.pop()
    return cue_language(folded) or hint or DEFAULT
