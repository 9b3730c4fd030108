"""Patterns and word lists the persona style rules share (apply_style and violations)."""

from __future__ import annotations

import re
import unicodedata

# Upper-case words that stay upper-case. Acronyms a guest reads as such, the time of day, and
# the keywords a guest is told to text back: carriers and the CTIA expect "Reply STOP", and the
# seed's own first messages say "Reply YES" and "Text MENU" (seed §9.2, §9.15). The WP1
# keyword sets (items 11, 12, 19) are all here. A casino adds its own (brand names) per call.
DEFAULT_KEEP_CAPS = frozenset(
    {
        "VIP", "SMS", "ID", "ATM", "BBQ", "AM", "PM", "AI", "IA", "OK", "TV", "USA", "RSVP",
        "DJ", "PIN", "MENU",
        "STOP", "STOPALL", "UNSUBSCRIBE", "CANCEL", "END", "QUIT", "OPTOUT", "REVOKE",
        "PARAR", "DETENER", "CANCELAR", "ALTO", "PARA", "BASTA", "SALIR",
        "START", "UNSTOP", "SUBSCRIBE", "YES", "SI", "SÍ", "INICIAR", "COMENZAR",
        "HELP", "INFO", "AYUDA", "INFORMACION", "INFORMACIÓN", "PRIVACY", "DELETE",
    }
)  # fmt: skip

LINE_BREAK = re.compile(r"\r\n|[\r\n\x0b\x0c\u2028\u2029]")
# A list marker at the start of a line: "- ", "• ", "* ", "1. ", "2) ".
LIST_MARKER = re.compile(r"^\s*(?:[-•·*]|\d{1,2}[.)])\s+")
ELLIPSIS = re.compile(r"(?:\.{2,}|…)(?:\s*(?:\.{2,}|…))*")

# Links with a scheme or "www.", and bare domains on common top-level domains (carriers filter
# those too). An e-mail address is not a link: a domain right after "@" is left alone.
URL = re.compile(
    r"(?i)\b(?:https?://|www\.)[^\s<>]+"
    r"|(?<![@\w.-])(?:[a-z0-9](?:[a-z0-9-]*[a-z0-9])?\.)+"
    r"(?:com|net|org|info|biz|io|co|us|ly|gl|app|casino|bet|link|site|online|mx)"
    r"(?![\w-])(?:/[^\s<>]*)?"
)
URL_TRAILING_PUNCTUATION = ".,!?;:)]'\""
# What a sentence reads like once its link is gone: "Book here." "See the menu at." "Visite:".
DANGLING_AFTER_LINK = re.compile(
    r"(?i)(?:\b(?:at|on|visit|see|via|here|to|from|check out|en|visite|aqu[ií])|:)\s*[.!?]?$"
    r"|\b(?:check|visit|click|tap|go to|head to|details|learn more|more info|book online"
    r"|visite|consulte|haga clic|más información|mas informacion)\b"
)

# Emoji: flags (two regional indicators), keycaps, and pictographs with their modifiers,
# variation selectors and zero-width-joiner sequences, each counted as one emoji.
_EMOJI_BASE = "\U0001f000-\U0001faff\u2600-\u27bf\u2b05-\u2b55\u2300-\u23ff\u3030\u303d\u3297\u3299"
_EMOJI_TAIL = "\ufe0f\ufe0e\U0001f3fb-\U0001f3ff\u20e3\U000e0020-\U000e007f"
EMOJI = re.compile(
    r"[\U0001f1e6-\U0001f1ff]{2}"
    r"|[0-9#*]\ufe0f?\u20e3"
    rf"|[{_EMOJI_BASE}][{_EMOJI_TAIL}]*(?:\u200d[{_EMOJI_BASE}][{_EMOJI_TAIL}]*)*"
)

# A word: letters, with inner apostrophes or hyphens ("I'M", "NON-STOP"), not glued to digits
# ("8PM" is a time, not a shouted word).
WORD = re.compile(r"(?<![\w'’-])[^\W\d_]+(?:['’-][^\W\d_]+)*(?![\w'’-])")

# Numbers as digits (seed §9.15: "4 guests at 7pm" not "four guests at seven"). Only where a
# number word surely counts something: before a counted noun or a time of day, or right after
# "at" / "a las" at the end of a clause. Not "one of", not "no one", not "Seven" (the persona's
# name), not Spanish "un/una" ("una mesa" means "a table").
EN_NUMBERS = {
    "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7, "eight": 8,
    "nine": 9, "ten": 10, "eleven": 11, "twelve": 12,
}  # fmt: skip
ES_NUMBERS = {
    "dos": 2, "tres": 3, "cuatro": 4, "cinco": 5, "seis": 6, "siete": 7, "ocho": 8,
    "nueve": 9, "diez": 10, "once": 11, "doce": 12,
}  # fmt: skip
_EN_COUNTED = (
    r"guests?|people|persons?|adults?|kids?|children|child|nights?|days?|hours?|minutes?"
    r"|tickets?|seats?|rooms?|tables?|courses?|shows?|drinks?|friends?|players?|weeks?"
    r"|months?|beds?|bedrooms?|bottles?|games?|rounds?|spots?|suites?|times"
)
_ES_COUNTED = (
    r"personas?|invitad[oa]s?|hu[eé]spedes|noches?|d[ií]as?|horas?|minutos?|boletos?"
    r"|entradas?|asientos?|mesas?|habitaci[oó]n(?:es)?|adult[oa]s?|niñ[oa]s?|amig[oa]s?"
    r"|semanas?|meses|camas?|botellas?|juegos?|veces"
)
_TIME_OF_DAY = r"am|pm|a\.m\.|p\.m\.|o['’]clock|en punto|de la (?:mañana|tarde|noche)"
_EN_WORDS = "|".join(EN_NUMBERS)
_ES_WORDS = "|".join(ES_NUMBERS)
NUMBER_WORD = re.compile(
    rf"(?i)(?<![\w'’-])(?:({_EN_WORDS})(?=\s+(?:{_EN_COUNTED}|{_TIME_OF_DAY})(?![\w]))"
    rf"|({_ES_WORDS})(?=\s+(?:{_ES_COUNTED}|{_TIME_OF_DAY})(?![\w]))"
    rf"|(?<=\bat )(?!(?-i:Seven)\b)({_EN_WORDS})(?=\s*(?:[.,!?;]|$))"
    rf"|(?<=\ba las )({_ES_WORDS})(?=\s*(?:[.,!?;]|$)))"
)

# Greetings that may stand before the guest's name and still count as "at the start".
GREETING = (
    r"hi|hey|hello|hola|welcome|bienvenid[oa]|buenas|buenos dias|buenas (?:tardes|noches)"
    r"|good (?:morning|afternoon|evening)|thanks|thank you|gracias|dear|querid[oa]|estimad[oa]"
)
LEADING_GREETING = re.compile(r"(?i)^([¡]?(?:hi|hey|hello|hola|welcome|bienvenid[oa]))(?=[,!.]|$)")
NAME_PREFIX = re.compile(rf"(?i)^[\s\"'¡¿]*(?:(?:{GREETING})[\s,!.]*)?$")


def fold_accents(text: str) -> str:
    """Each character without its accent, case kept; same length as `text` (for span maps)."""
    return "".join(unicodedata.normalize("NFD", char)[0] for char in text)


def name_pattern(name: str) -> re.Pattern[str]:
    """The guest's name as written in a reply: accents ignored, first letter capital (so the
    name "Will" is not found in "I will"), the rest in any case, not a possessive."""
    folded = fold_accents(name.strip())
    head, rest = folded[0].upper(), folded[1:]
    body = re.escape(head) + (f"(?i:{re.escape(rest)})" if rest else "")
    return re.compile(rf"(?<![\w'’-]){body}(?![\w'’-])")


def is_sentence_start(text: str, position: int) -> bool:
    """True when only opening marks stand between `position` and the previous sentence end."""
    before = text[:position].rstrip(" \"'(¿¡")
    return not before or before[-1] in ".!?"


def question_count(sentence: str) -> int:
    """Questions in one sentence: "¿...?" is one."""
    return max(sentence.count("?"), sentence.count("¿"))


def exclamation_count(sentence: str) -> int:
    """Exclamations in one sentence: "¡...!" is one."""
    return max(sentence.count("!"), sentence.count("¡"))


def tidy(text: str) -> str:
    """Whitespace and punctuation left over by removals: one space, none before , . ! ? ; :
    none after ¿ ¡ (, no ",." or "( )", nothing dangling at either end. An ellipsis is left
    for apply_style to report and replace."""
    text = re.sub(r"\s+", " ", text)
    text = re.sub(r"\.(?: \.)+", ".", text)  # ". ." left by a removal, not an ellipsis
    text = re.sub(r" (?=[,.!?;:])", "", text)
    text = re.sub(r"\.[,;:!?]+", ".", text)  # a mark orphaned after a sentence end
    text = re.sub(r"(?<=[¿¡(]) ", "", text)
    text = re.sub(r",(?=[,.!?;:])", "", text)
    text = re.sub(r"\(\)", "", text)
    text = re.sub(r"^[\s,;:.\-]+", "", text)
    text = re.sub(r"[\s,;:\-]+$", "", text)
    return text.strip()
