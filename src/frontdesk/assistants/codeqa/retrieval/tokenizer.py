"""BM25 terms for code: identifiers kept whole and split into their words.

The core's keyword tokenizer reads `get_user` as one word and never splits `HTTPClient`, so a
question about "the user getter" or "the HTTP client" could not meet either by keyword. Here
each identifier gives itself, lower-cased (an exact name match), and its parts split at
underscores, case changes and digits, stemmed like English ("tokenization" meets "tokenize").
Documents and questions go through this one function."""

from __future__ import annotations

import re
from functools import lru_cache

import Stemmer
from bm25s.stopwords import STOPWORDS_EN

__all__ = ["code_terms", "identifier_parts"]

_TOKEN = re.compile(r"[A-Za-z_][A-Za-z0-9_]*|\d+")
_PART = re.compile(r"[A-Z]+(?=[A-Z][a-z])|[A-Z]?[a-z]+|[A-Z]+|\d+")
# Words every file or question says: they would only add noise to every score.
_STOP = frozenset(STOPWORDS_EN) | {
    "self", "cls", "this", "def", "the", "where", "how", "what", "which", "who", "why", "when",
    "does", "do", "did", "is", "are",
}  # fmt: skip
_STEMMER = Stemmer.Stemmer("english")


def identifier_parts(identifier: str) -> list[str]:
    """`HTTPClient` -> ["http", "client"]; `get_user_v2` -> ["get", "user", "v", "2"]."""
    return [part.lower() for part in _PART.findall(identifier)]


def code_terms(text: str) -> list[str]:
    terms: list[str] = []
    for token in _TOKEN.findall(text):
        terms.extend(_terms_of(token))
    return terms


@lru_cache(maxsize=65536)
def _terms_of(token: str) -> tuple[str, ...]:
    parts = [p for p in identifier_parts(token) if len(p) > 1 and p not in _STOP]
    stems = _STEMMER.stemWords(parts)
    whole = token.lower().strip("_")
    if len(parts) == 1 and whole == parts[0]:
        return tuple(stems)  # a plain word: its stem says it
    if len(whole) > 1 and whole not in _STOP:
        return (whole, *stems)
    return tuple(stems)
