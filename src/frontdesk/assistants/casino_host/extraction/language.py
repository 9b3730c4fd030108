"""Language of a message (word lists) and explicit requests to switch language (item 44)."""

from __future__ import annotations

import re

from .fields import LANGUAGE, SELF_REPORTED, STATED_EXPLICITLY
from .text import Hit, fold

# Function words and SMS staples that are common in one language and rare in the other.
# Words shared by both ("me", "no", "a", "son", "hotel", "casino") are left out on purpose.
_SPANISH_WORDS = frozenset(
    """
    hola gracias favor por como donde cuando cuanto cuantos cuantas que quiero queremos
    quisiera tienen tiene tengo tenemos hay para con somos seremos vamos voy estoy estamos
    esta este estas mi mis tu su sus nuestro nuestra nuestros nuestras el la los las un una
    unos unas de del y o es pero tambien muy bien buenas buenos dias noches tardes manana
    hoy sabado domingo viernes lunes martes miercoles jueves senor senora ninos ninas hijos
    hijas esposa esposo marido habitacion necesito podemos puedo puede hablar espanol ingles
    soy llamo nombre llegamos llegar ir cena cenar comer comida mesa reserva reservar juego
    jugar ayuda quieren algo gusta encanta prefiero mejor aqui alli ahora despues antes
    gente personas ella ellos usted ustedes claro vale sabes saber quien porque pues
    entonces tambien alguna ningun
    """.split()  # noqa: SIM905 - a word list reads better as text
)
_ENGLISH_WORDS = frozenset(
    """
    the and is are was were we i you my our your to for of in at with what when where how
    can could do does did have has had will would should please thanks thank hi hello hey
    this that it be there table dinner tomorrow tonight im i'm we're it's i'll we'll just
    from get want need book any some about would like love going coming be been they them he
    she his her him us if or but not yes yeah okay which who why here today weekend room
    show night morning evening afternoon kids wife husband party people time see
    """.split()  # noqa: SIM905 - a word list reads better as text
)
_WORD = re.compile(r"[a-z']+")
_SPANISH_PUNCTUATION = re.compile(r"[¿¡ñÑ]")


def detect_language(text: str) -> str | None:
    """'en' or 'es' by counting marker words; None when there is no signal or it is a tie.

    The graph applies the "two consecutive messages in the other language" rule on top.
    """
    folded = fold(text)
    words = _WORD.findall(folded)
    spanish = sum(word in _SPANISH_WORDS for word in words)
    spanish += len(_SPANISH_PUNCTUATION.findall(text))
    english = sum(word in _ENGLISH_WORDS for word in words)
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
