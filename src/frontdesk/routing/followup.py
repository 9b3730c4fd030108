"""Does a message lean on the one before it? ("and on sundays?", "what time does it close?")

Any assistant with conversations needs this to route and search a follow-up together with the
previous question; it is a cheap, deterministic guess, not a model call.
"""

from __future__ import annotations

import re

from frontdesk.guardrails import normalize_text
from frontdesk.routing.question_form import QUESTION_WORDS

# A message this short rarely stands alone.
FOLLOW_UP_WORDS = 6
# Words that point back at something said before. Not "that" or "there": they mostly open a
# clause ("a script that sorts") or a question ("is there a pool").
REFERRING_WORDS = frozenset({"it", "its", "they", "them", "their", "those"})


def refers_back(text: str) -> bool:
    """Whether a message points at something said before ("is it open?", "how much are they")."""
    return not REFERRING_WORDS.isdisjoint(re.findall(r"[a-z']+", text.casefold()))


# "no wait, I meant the steakhouse", "actually the other one", "perdón, quise decir el spa": the
# message takes back what the answer before was about (not its question's field).
_CORRECTION = re.compile(
    r"^(?:no(?!\W+(?:problem|worries|thanks?|gracias)\b)|nope|nah|wait|sorry|oops|actually|perdon)\b"
    r"|\bi\s+meant?\b|\bnot\s+the\b|\bquise\s+decir\b|\bme\s+refer[ií]a?\b",
)


def corrects_previous(text: str) -> bool:
    """Whether a message takes back the thing the answer before was about."""
    return _CORRECTION.search(normalize_text(text).replace("’", "'").strip(" ¿¡")) is not None


def is_follow_up(text: str) -> bool:
    """Whether a message likely leans on the previous one: very short, or referring back."""
    words = re.findall(r"[a-z']+", text.casefold())
    return len(words) <= FOLLOW_UP_WORDS or not REFERRING_WORDS.isdisjoint(words)


# Openers that continue the previous question rather than start a new one ("and in 2024?",
# "what about cancelled ones", "only the open ones", "sort them by date").
FOLLOW_UP_OPENERS = (
    "and", "what about", "how about", "only", "just", "but", "also", "now", "then", "same",
    "of those", "of these", "which of", "sort", "order", "break", "split", "group", "filter",
    "show only", "excluding", "except", "without", "instead", "per", "by",
)  # fmt: skip
# Words that point back at a result ("which of them", "the same ones") even in a message
# that names its own subject; "it", "its", "they", "their" there mostly point inside the
# message ("invoices with their customer").
RESULT_WORDS = frozenset({"them", "those", "these", "ones", "same", "above", "previous"})


def asks_its_own_question(text: str) -> bool:
    """Whether a message asks a question of its own rather than continuing the last one: it
    opens with a question word ("where can I park free?") and neither opens like a continuation
    ("and what about Sunday?") nor points back ("when does it close?"). What the previous
    question asked (its price, its hours) carries over only to a message that asks nothing."""
    lowered = " ".join(re.findall(r"[a-z0-9']+", normalize_text(text).replace("’", "'")))
    if not lowered or refers_back(lowered):
        return False
    if any(lowered == o or lowered.startswith(o + " ") for o in FOLLOW_UP_OPENERS):
        return False
    return lowered.split()[0].replace("'", "") in _QUESTION_OPENERS


# A question word, or a yes/no question's verb: "where can I...", "is the pool heated?"; in
# Spanish too ("¿hay cine?", "¿dónde está el spa?"), accents folded. Not "qué" or "cómo":
# "¿qué tal el domingo?" continues the question before.
_QUESTION_OPENERS = QUESTION_WORDS | {
    "is", "are", "do", "does", "can", "could", "will", "would", "should", "may", "has", "have",
    "hay", "tienen", "tiene", "donde", "cual", "cuales", "cuanto", "cuanta", "cuantos",
    "cuantas", "cuando", "quien", "puedo", "pueden",
}  # fmt: skip


def leans_on_previous(text: str, *, names_own_subject: bool) -> bool:
    """Whether a message is to be answered over the previous answer (a follow-up on a result).

    Stricter than `is_follow_up`: a short message that names its own subject ("how many
    customers are there?") stands alone, while one that opens like a continuation ("and how
    many are in progress?") or points back ("which of them are overdue?") leans on the last
    answer whatever its length. `names_own_subject` is the caller's to say (the analyst: the
    message names a table)."""
    lowered = " ".join(re.findall(r"[a-z0-9']+", text.casefold()))
    words = set(lowered.split())
    pointing = RESULT_WORDS if names_own_subject else RESULT_WORDS | REFERRING_WORDS
    if not pointing.isdisjoint(words):
        return True
    if any(lowered == o or lowered.startswith(o + " ") for o in FOLLOW_UP_OPENERS):
        return True
    return len(words) <= FOLLOW_UP_WORDS and not names_own_subject
