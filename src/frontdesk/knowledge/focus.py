"""Put the items a question names first, and leave little else beside them.

A 0.5B model reads its context poorly: asked "what days is Comix Roadhouse open?" with five
items, it happily answers from the casino's "open 24/7" item. When the question names an item
the retrieval returned, that item is what the guest asked about, so it leads the context and
only a little of the rest stays (a question can still need a neighbour, "is it near the arena?").
"""

from __future__ import annotations

import functools
import re
from collections.abc import Sequence
from typing import Any

from frontdesk.guardrails import normalize_text

# Words that do not identify an item on their own ("the", "a", "at", "of", "&" -> "and").
_FILLER = {"the", "a", "an", "at", "of", "and", "by", "in", "on", "s"}
# How many leading name words must appear: "Hash House A Go Go" is "hash house" to a guest.
_LEADING_WORDS = 2


@functools.lru_cache(maxsize=2048)
def _words(text: str) -> tuple[str, ...]:
    # The guardrail's canonical view: case-folded, accents and look-alike letters undone.
    # Cached: every turn compares the question with the same few hundred item names.
    folded = normalize_text(text).replace("&", " and ").replace("'", "").replace("\u2019", "")
    return tuple(w for w in re.split(r"[^a-z0-9]+", folded) if w and w not in _FILLER)


def _contains(words: tuple[str, ...], phrase: tuple[str, ...]) -> bool:
    n = len(phrase)
    return bool(phrase) and any(words[i : i + n] == phrase for i in range(len(words) - n + 1))


def names_item(question: str, item_name: str, *, exact: bool = False) -> bool:
    """Whether `question` names the item: all its significant words in order (`exact`), or
    its first two ("hash house" for "Hash House A Go Go")."""
    name = _words(item_name)
    return _contains(_words(question), name if exact else name[:_LEADING_WORDS])


def focus_on_named(
    question: str, results: Sequence[dict[str, Any]], *, keep_others: int = 1
) -> list[dict[str, Any]]:
    """`results` with the items the question names first and at most `keep_others` others.

    Items named in full win over items named by their first words ("where is the Sky Tower"
    names the Sky Tower, not the Sky Tower Deluxe King Room). Unchanged when none is named.
    """

    def named_by(exact: bool) -> list[dict[str, Any]]:
        return [
            r
            for r in results
            if names_item(question, r["metadata"].get("item_name", ""), exact=exact)
        ]

    named = named_by(True) or named_by(False)
    if not named:
        return list(results)
    others = [r for r in results if r not in named][:keep_others]
    return [*named, *others]
