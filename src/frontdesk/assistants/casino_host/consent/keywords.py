"""The SMS compliance keywords (WP1 items 10-20; seeds README "Keywords").

A keyword is the whole message, after normalisation (trim, case-fold, accents and punctuation
stripped, spaces collapsed): "STOP", " stop ", "Stop." and "Párar" are keywords, "stop by the
buffet later?" is not. Natural-language opt-outs ("please stop texting me", "no más mensajes")
are opt-outs too, found anywhere in the message; "I can't stop gambling" is not one (it goes to
the responsible-gaming reply).

YES/SÍ are affirmations: they opt a guest in only where a consent question is open (a first
outbound awaiting its double opt-in, or a guest who opted out), never in the middle of a
conversation, where "yes" answers the host. The caller decides (`Keyword.YES`).
"""

from __future__ import annotations

import re
import unicodedata
from enum import StrEnum


class Keyword(StrEnum):
    STOP = "stop"
    START = "start"
    HELP = "help"
    PRIVACY = "privacy"
    DELETE = "delete"
    YES = "yes"


# Item 11, the union of the seed's four lists (C5), plus part 1's "baja" and "stop all".
STOP_WORDS = frozenset(
    {
        "stop", "stopall", "stop all", "unsubscribe", "cancel", "end", "quit", "optout",
        "opt out", "revoke", "parar", "detener", "cancelar", "alto", "para", "basta", "salir",
        "baja",
    }
)  # fmt: skip
START_WORDS = frozenset({"start", "unstop", "subscribe", "iniciar", "comenzar"})
HELP_WORDS = frozenset({"help", "info", "ayuda", "informacion"})
PRIVACY_WORDS = frozenset({"privacy", "privacidad"})
DELETE_WORDS = frozenset({"delete", "borrar", "eliminar"})
# Item 20 (seed §9.10.3); the seeds README also counts yes/si as START words.
YES_WORDS = frozenset({"yes", "y", "yeah", "yep", "sure", "ok", "okay", "si"})

_WORDS: tuple[tuple[frozenset[str], Keyword], ...] = (
    (STOP_WORDS, Keyword.STOP),
    (START_WORDS, Keyword.START),
    (HELP_WORDS, Keyword.HELP),
    (PRIVACY_WORDS, Keyword.PRIVACY),
    (DELETE_WORDS, Keyword.DELETE),
    (YES_WORDS, Keyword.YES),
)
ALL_WORDS = frozenset().union(*(words for words, _ in _WORDS))
# The Spanish ones among them (a bare Spanish keyword is answered in Spanish).
SPANISH_WORDS = frozenset(
    {
        "parar", "detener", "cancelar", "alto", "para", "basta", "salir", "baja", "iniciar",
        "comenzar", "ayuda", "informacion", "privacidad", "borrar", "eliminar", "si",
    }
)  # fmt: skip

# Item 13 (seed §3.21) on accent-stripped text, with part 1's phrases ("stop texting me" in an
# angry message, the seed's integration case #2).
NATURAL_OPT_OUT = re.compile(
    r"\bplease\s+stop\s+texting\b|\bstop\s+(?:texting|messaging|sending|contacting)\b"
    r"|\b(?:don'?t|do\s+not|never)\s+text\s+me\b|\bremove\s+me\b|\bno\s+more\s+(?:messages|texts)\b"
    r"|\bopt\s+me\s+out\b|\bunsubscribe\s+me\b"
    r"|\bdej(?:e|en|ar)\s+de\s+(?:enviar|escribir|mandar)|\bno\s+mas\s+mensajes\b"
    r"|\bno\s+me\s+(?:escriban|escribas|manden)\b",
    re.IGNORECASE,
)

_PUNCTUATION = re.compile(r"[^\w\s']|_")
_SPACES = re.compile(r"\s+")


def strip_accents(text: str) -> str:
    decomposed = unicodedata.normalize("NFKD", text)
    return "".join(c for c in decomposed if not unicodedata.combining(c))


def normalise(text: str) -> str:
    """Trimmed, case-folded, accents and punctuation stripped, spaces collapsed."""
    folded = strip_accents(text).casefold()
    return _SPACES.sub(" ", _PUNCTUATION.sub(" ", folded)).strip().replace("'", "")


def keyword_of(text: str) -> Keyword | None:
    """The keyword this whole message is, or STOP for a natural-language opt-out; else None."""
    normal = normalise(text)
    for words, keyword in _WORDS:
        if normal in words:
            return keyword
    if NATURAL_OPT_OUT.search(strip_accents(text)):
        return Keyword.STOP
    return None


def is_natural_opt_out(text: str) -> bool:
    """An opt-out in words rather than the bare keyword (it gets the seed's own reply)."""
    return normalise(text) not in STOP_WORDS and keyword_of(text) is Keyword.STOP


LIMIT_EXEMPT = frozenset({Keyword.STOP, Keyword.HELP, Keyword.START})


def opts_out(text: str) -> bool:
    return keyword_of(text) is Keyword.STOP or is_natural_opt_out(text)


def exempt_from_limits(text: str) -> bool:
    """STOP, HELP and START are answered however many messages came before (T14)."""
    return keyword_of(text) in LIMIT_EXEMPT or is_natural_opt_out(text)


# A message that asks for express written consent: it tells the guest to answer YES (SÍ).
# A YES counts as consent only in answer to one (T19): "your table is ready" asked nothing.
_ASKS_FOR_YES = re.compile(
    r"\b(?:reply|text|respond|send)\s+(?:with\s+)?[\"']?yes\b"
    r"|\b(?:responda|conteste|envie|envíe|escriba)\s+(?:con\s+)?[\"']?s[ií]\b",
    re.IGNORECASE,
)


def asks_for_consent(text: str) -> bool:
    return bool(_ASKS_FOR_YES.search(text))
