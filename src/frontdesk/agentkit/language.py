"""Which language a customer writes in, among those an assistant serves, for the replies it
composes from templates and the language it tells the model to answer in.

Polish: Polish letters, or two Polish words; a Polish word is a common one ("nie", "jak") or
one with a spelling English words almost never have ("cz", "sz", "rz": "czerwono", "szybko"),
so "Dioda PON miga na czerwono", written without Polish letters, is Polish. Mixed messages
("moja sieć słaba, router restart?") are Polish, since a customer who writes any Polish reads
it.

Spanish: "¿", "¡" or "ñ", or Spanish cue words outweighing English ones (the word lists below,
read on accent-free, case-folded text). Anything else is the assistant's first language.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Sequence

# Not "ó": Spanish writes it too ("¿dónde?").
_POLISH_LETTERS = re.compile(r"[ąćęłńśźż]", re.IGNORECASE)
_POLISH_SPELLING = re.compile(r"cz|sz|rz")
_POLISH_WORDS = frozenset(
    """
    nie jest mam moja moje mój się czy jak ile dlaczego proszę chcę działa faktura fakturę
    fakturze zwrot zwrotu kwota kwotę powód planu sieć sieci dzień dobry cześć witam dziękuję
    za na od jaki jaka jakie gdzie kiedy
    """.split()  # noqa: SIM905 - a word list reads better as text
)
_SPANISH_MARKS = re.compile(r"[¿¡ñÑ]")

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
    alguien hora horas horario abre abren cierra cierran cuesta cuestan precio precios
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


def fold(text: str) -> str:
    """Case-folded, accents stripped ("¿Qué hora?" -> "¿que hora?"); "ñ" becomes "n"."""
    decomposed = unicodedata.normalize("NFKD", text.casefold())
    return "".join(c for c in decomposed if not unicodedata.combining(c))


# The złoty's sign is written in English too ("refund 20 zł"): it is no sign of Polish.
_CURRENCY_SIGN = re.compile(r"(?<![^\W\d])zł(?!\w)", re.IGNORECASE)


def is_polish(text: str) -> bool:
    text = _CURRENCY_SIGN.sub(" ", text)
    if _POLISH_LETTERS.search(text):
        return True
    words = re.findall(r"[a-ząćęłńóśźż]+", text.lower())
    return sum(1 for w in words if w in _POLISH_WORDS or _POLISH_SPELLING.search(w)) >= 2


def is_spanish(text: str) -> bool:
    """Spanish marks, or the cue words say Spanish (`cue_language`)."""
    return bool(_SPANISH_MARKS.search(text)) or cue_language(fold(text)) == "es"


def detect_language(
    text: str, among: Sequence[str] = ("en", "pl"), *, otherwise: str | None = None
) -> str:
    """The language of `text` among `among` (codes "en", "es", "pl"). A text that gives no sign
    of its language ("ok", "9 pm?") is in `otherwise` (the conversation's language so far),
    else in the first of `among`."""
    if "pl" in among and is_polish(text):
        return "pl"
    if "es" in among and is_spanish(text):
        return "es"
    if otherwise in among and cue_language(fold(text)) != "en":
        return otherwise
    return among[0]


# English cue words that are Polish words too ("to faktura", "i tyle", "do kiedy", "we
# wrześniu"): no sign of English beside Polish.
_ALSO_POLISH = frozenset({"to", "i", "on", "we", "do"})


def _sign_of(text: str, among: Sequence[str]) -> str | None:
    """The language `text` gives a sign of, among `among`; None when it gives none."""
    if "pl" in among and is_polish(text):
        return "pl"
    if "es" in among and is_spanish(text):
        return "es"
    if "en" not in among:
        return None
    if "pl" in among:
        words = _WORD.findall(fold(text))
        return "en" if any(w in ENGLISH_WORDS and w not in _ALSO_POLISH for w in words) else None
    return "en" if cue_language(fold(text)) == "en" else None


def conversation_language(texts: Sequence[str], among: Sequence[str] = ("en", "pl")) -> str:
    """The language to answer the latest of a customer's `texts` in (oldest first): its own,
    or, when it gives no sign of one ("awaria", "the September one" does; "INV-20251001",
    "ok", "20" do not), the language of the customer's latest message that does."""
    for text in reversed(texts):
        if (sign := _sign_of(text, among)) is not None:
            return sign
    return among[0]


# What an assistant that answers in English only says to a question in a language it does not
# serve, in that language: the question is not guessed at in English.
ENGLISH_ONLY = {
    "es": "Solo puedo responder en inglés. Por favor, escriba su pregunta en inglés.",
    "pl": "Odpowiadam tylko po angielsku. Proszę zadać pytanie po angielsku.",
}


def unserved_language(text: str, served: Sequence[str] = ("en",)) -> str | None:
    """The language of `text` when it is one the project reads ("es", "pl") and the assistant
    does not serve, else None. A message with any Polish or Spanish sign counts as written in
    it ("Ile zleceń jest open right now?"): its writer reads that language."""
    language = detect_language(text, ("en", "pl", "es"))
    if language == "pl" and not _POLISH_LETTERS.search(text):
        # Spelling alone is no sign here: "the czech rzeszow sites" names places.
        words = re.findall(r"[a-z]+", text.lower())
        language = "pl" if any(w in _POLISH_WORDS for w in words) else "en"
    return language if language != "en" and language not in served else None
