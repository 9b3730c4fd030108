"""What a guest message says about the conversation, by rule: substantive or not (item 36's
active→rapport trigger), a sentiment estimate (WhisperPlan.sentiment_estimate) and the rapport
score over the last 3 guest messages (rapport→discovery). A small EN/ES lexicon: these steer
pacing, they never gate compliance."""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Sequence
from typing import Literal

Sentiment = Literal["positive", "neutral", "cautious", "negative"]

# "not just 'ok', 'yes', 'sure'" (seed §9.5.1): replies that carry no content of their own.
MINIMAL_WORDS = frozenset((
    "ok", "okay", "k", "kk", "yes", "yeah", "yep", "yup", "ya", "sure", "fine", "cool", "nice",
    "great", "thanks", "thank", "you", "thx", "ty", "lol", "haha", "hah", "hi", "hey", "hello",
    "no", "nope", "nah", "maybe", "hmm", "mm", "alright", "got", "it", "si", "claro", "vale",
    "bueno", "gracias", "hola", "listo", "perfecto", "bien",
))  # fmt: skip
NEGATIVE_TERMS = (
    "angry", "annoyed", "annoying", "terrible", "awful", "horrible", "worst", "hate", "rude",
    "unacceptable", "disappointed", "disappointing", "ridiculous", "complaint", "complain",
    "upset", "frustrated", "frustrating", "useless", "scam", "spam", "leave me alone",
    "waste of time", "not happy", "enojado", "molesto", "pesimo", "queja", "decepcionado",
    "inaceptable", "basura", "fatal",
)  # fmt: skip
POSITIVE_TERMS = (
    "love", "great", "awesome", "amazing", "perfect", "excited", "wonderful", "fantastic",
    "thanks", "thank you", "cant wait", "can't wait", "sounds good", "yes please", "excellent",
    "appreciate", "fun", "beautiful", "gracias", "genial", "encanta", "perfecto", "excelente",
    "maravilloso", "increible", "me gusta",
)  # fmt: skip
CAUTIOUS_TERMS = (
    "who is this", "who's this", "how did you get my number", "what is this", "is this a bot",
    "maybe", "not sure", "idk", "i guess", "we'll see", "well see", "depends", "why do you ask",
    "why do you need", "just looking", "quien es", "tal vez", "quizas", "no se", "por que",
)  # fmt: skip
NEGATORS = frozenset({"not", "no", "never", "dont", "don't", "isnt", "isn't", "nada", "nunca"})

MESSAGE_RAPPORT = {"positive": 1.0, "cautious": 0.3, "negative": 0.0}
NEUTRAL_SUBSTANTIVE_RAPPORT = 0.7
NEUTRAL_MINIMAL_RAPPORT = 0.4
RAPPORT_WINDOW = 3


def normalise(text: str) -> str:
    """Casefold, strip accents and punctuation (apostrophes kept), collapse spaces."""
    decomposed = unicodedata.normalize("NFKD", text.casefold())
    plain = "".join(ch for ch in decomposed if not unicodedata.combining(ch))
    return " ".join(re.sub(r"[^\w\s']", " ", plain).split())


def _has(text: str, term: str) -> bool:
    return re.search(rf"(?<![\w']){re.escape(term)}(?![\w'])", text) is not None


def is_substantive(text: str) -> bool:
    words = normalise(text).split()
    return bool(words) and not all(word in MINIMAL_WORDS for word in words)


def estimate_sentiment(text: str) -> Sentiment:
    plain = normalise(text)
    if not plain:
        return "cautious"
    if any(_has(plain, term) for term in NEGATIVE_TERMS):
        return "negative"
    if any(_has(plain, term) for term in CAUTIOUS_TERMS):
        return "cautious"
    words = plain.split()
    for index, word in enumerate(words):
        for term in POSITIVE_TERMS:
            if " " in term or word != term:
                continue
            if index and words[index - 1] in NEGATORS:
                return "cautious"  # "not great" is guarded, not warm
            return "positive"
    if any(" " in term and _has(plain, term) for term in POSITIVE_TERMS):
        return "positive"
    if not is_substantive(text):
        return "cautious"  # brief replies read as guarded (seed §9.4)
    return "neutral"


def message_rapport(text: str) -> float:
    sentiment = estimate_sentiment(text)
    if sentiment != "neutral":
        return MESSAGE_RAPPORT[sentiment]
    return NEUTRAL_SUBSTANTIVE_RAPPORT if is_substantive(text) else NEUTRAL_MINIMAL_RAPPORT


def rapport_score(guest_texts: Sequence[str]) -> float:
    """Mean rapport of the last 3 guest messages; missing messages count 0, because rapport
    takes three messages to show (seed §9.5.1)."""
    recent = list(guest_texts)[-RAPPORT_WINDOW:]
    return round(sum(message_rapport(text) for text in recent) / RAPPORT_WINDOW, 4)
