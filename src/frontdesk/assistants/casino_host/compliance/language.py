"""Which language the gate answers in: the language of the pattern that matched, else cue
words in the message, else the guest's profile language, else English.

The pattern comes first because it is the strongest evidence ("I have a gambling problem" is
English whatever the profile says); the profile decides only when the message gives no sign
("ok", "911").
"""

from __future__ import annotations

from collections.abc import Iterable

from frontdesk.agentkit.language import cue_language, word_counts

__all__ = ["SUPPORTED", "choose_language", "cue_language", "language_hint", "word_counts"]

SUPPORTED = ("en", "es")
DEFAULT = "en"


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
