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


# English or Spanish from a message's words, for the gate's reply language and the profile
# extractor's language signal (one pair of lists): function words and SMS staples common in
# one language and rare in the other (the seed's Spanish indicators, seed §3.13, among them);
# words both use ("me", "no", "a", "son", "hotel", "casino") are left out on purpose. Matched
# against accent-free, case-folded text.
SPANISH_WORDS = frozenset(
    """
    hola gracias favor por como donde cuando cuanto cuantos cuantas que quiero queremos
    quisiera tienen tiene tengo tenemos hay para con somos seremos vamos voy estoy estamos
    esta este estas mi mis tu su sus nuestro nuestra nuestros nuestras el la los las un una
    unos unas de del y o es pero tambien muy bien buenas buenos dias noches tardes manana
    hoy sabado domingo viernes lunes martes miercoles jueves senor senora ninos ninas hijos
    hijas hijo hija esposa esposo marido habitacion necesito podemos puedo puede hablar espanol
    ingles soy llamo nombre llegamos llegar ir cena cenar comer comida mesa reserva reservar
    juego jugar ayuda quieren algo gusta encanta prefiero mejor aqui alli ahora despues antes
    gente personas ella ellos usted ustedes claro vale sabes saber quien porque pues
    entonces alguna ningun llame llamen dinero noche nos le se tarjeta numero contrasena
    alguien
    """.split()  # noqa: SIM905 - a word list reads better as text
)
ENGLISH_WORDS = frozenset(
    """
    the and is are was were we i you my our your to for of in at on with what when where how
    can could do does did have has had will would should please thanks thank hi hello hey
    this that it be there table dinner tomorrow tonight im i'm we're it's i'll we'll just
    from get want need book any some about like love going coming been they them he
    she his her him us if or but not yes yeah okay which who why here today weekend room
    show night morning evening afternoon kids wife husband party people time see me someone
    """.split()  # noqa: SIM905 - a word list reads better as text
)
_WORD = re.compile(r"[a-z']+")


def word_counts(folded: str) -> tuple[int, int, int]:
    """(Spanish words, English words, all words) of an accent-free, case-folded text."""
    words = _WORD.findall(folded)
    spanish = sum(word in SPANISH_WORDS for word in words)
    english = sum(word in ENGLISH_WORDS for word in words)
    return spanish, english, len(words)


def cue_language(folded: str) -> str | None:
    """ "es", "en" or None (too little to tell) for a normalised message; the seed's rule for
    Spanish (two cues, or one in a message under five words) weighed against English cues."""
    spanish, english, words = word_counts(folded)
    if spanish > english and (spanish >= 2 or words < 5):
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
