"""Streamed answer text released sentence by sentence, each only once it may be shown.

A small model states a wrong closing time as readily as a right one, and the check that catches
it runs on words the guest has already read if tokens go straight to the screen. So the
streamer holds the model's words until a sentence is complete, asks the assistant's
`ReleaseCheck` whether the answer so far (every sentence shown, plus this one) may be shown,
and releases it if so. The first sentence that may not be shown stops the release: the rest of
the answer waits for the turn's own verdict (its validator, a retry, a fallback), and the client
is told that the answer is being checked.

A sentence without specifics (no time, date, price, phone number, count or name the
grounding check reads) says nothing that can be wrong in that way and is released at once
unless the assistant's check says otherwise; the default check holds every sentence with a
specific until the turn has finished.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable
from typing import Any

from frontdesk.agentkit.grounding import check_grounding
from frontdesk.agentkit.specifics import counted, details

# (what the turn's nodes have written so far, the answer text up to and including the new
# sentence) -> may that text be shown now?
ReleaseCheck = Callable[[dict[str, Any], str], bool]

# A sentence ends at ".", "!", "?" or ":" followed by white space and then something that can
# start a sentence, or at a line break (list items, paragraphs). Waiting for the next
# sentence's first character keeps "5.30", "a.m. on" and "e.g. the" whole.
_BOUNDARY = re.compile(r"(?<=[.!?:])[\"')\]*_]*\s+(?=[\"'(\[*_]*[A-Z0-9$])|\n+")

_LIST_MARK = re.compile(r"\s*(?:\d{1,2}[.)]|[-*•])\s*")


def has_specifics(text: str) -> bool:
    """A time, price, phone number, date, number of two digits or more, or a counted quantity
    ("3 GHz", "2 adults")."""
    return any(details(text).values()) or bool(counted(text))


def hold_specifics(state: dict[str, Any], text: str) -> bool:
    """The default check: a sentence with a specific waits for the turn's end."""
    return not has_specifics(text)


def retrieved_texts(state: dict[str, Any]) -> list[str]:
    """The text of what the turn retrieved (`retrieved_context`, the assistants' common key)."""
    return [doc["content"] for doc in state.get("retrieved_context") or []]


def grounded_release(
    context_of: Callable[[dict[str, Any]], list[str]] = retrieved_texts,
    *,
    venue_names: Iterable[str] = (),
    trusted_facts_of: Callable[[dict[str, Any]], list[str]] = lambda state: [],
    clock_key: str = "current_time",
) -> ReleaseCheck:
    """A check that releases text whose specifics the turn's context supports (the core's
    grounding check over the whole answer so far, so a value stated for the wrong item fails
    as it does in the assistant's validator). Without context nothing specific is released."""
    names = list(venue_names)

    def check(state: dict[str, Any], text: str) -> bool:
        context, supplied = context_of(state), trusted_facts_of(state)
        if not context and not supplied:
            return not has_specifics(text) and not _names_any(text, names)
        # The turn's clock supports its date, never a time of day (check_grounding).
        clock = str(state.get(clock_key) or "")
        report = check_grounding(
            text, context, venue_names=names, trusted_facts=supplied, clock=clock
        )
        return report.grounded

    return check


def _names_any(text: str, names: list[str]) -> bool:
    folded = text.casefold()
    return any(name.casefold() in folded for name in names if name)


def sentences(text: str) -> list[str]:
    """`text` cut where the streamer releases it: each piece keeps its trailing space or line
    break, so the pieces join back to `text`."""
    pieces, start = [], 0
    for match in _BOUNDARY.finditer(text):
        piece = text[start : match.end()]
        # "1. Check the LED": a list item's number belongs to its sentence.
        if pieces and _LIST_MARK.fullmatch(pieces[-1]):
            pieces[-1] += piece
        else:
            pieces.append(piece)
        start = match.end()
    if text[start:]:
        if pieces and _LIST_MARK.fullmatch(pieces[-1]):
            pieces[-1] += text[start:]
        else:
            pieces.append(text[start:])
    return pieces


def supported_sentences(text: str, supported: Callable[[str], bool]) -> str:
    """The sentences of `text` that may stand, in order: each is kept when the text kept so
    far with it is `supported`, and dropped otherwise, as the streamer would have held it. A
    line left introducing what was dropped ("check the following:") goes too. The sentences
    the streamer showed are the first kept, so a checked answer begins with what the user
    has read."""
    kept = ""
    for sentence in sentences(text):
        if sentence.strip() and supported(kept + sentence):
            kept += sentence
    kept = kept.rstrip()
    while kept.endswith(":"):
        cut = max(kept.rfind("\n"), *(kept.rfind(m) for m in (". ", "! ", "? ")))
        kept = kept[: cut + 1].rstrip() if cut >= 0 else ""
    return kept


class SentenceRelease:
    """One answer's text as it streams: what has been shown, and what waits."""

    def __init__(self, check: ReleaseCheck):
        self._check = check
        self.shown = ""
        self.pending = ""
        self.holding = False

    def reset(self) -> None:
        """The node writing the answer runs again: start over."""
        self.shown, self.pending, self.holding = "", "", False

    def feed(self, text: str, state: dict[str, Any]) -> str:
        """Take the next streamed words; return the text that may be shown now."""
        self.pending += text
        if self.holding:
            return ""
        released = []
        while not self.holding and (match := _BOUNDARY.search(self.pending)):
            sentence = self.pending[: match.end()]
            if not self._allows(sentence, state):
                break
            released.append(sentence)
            self.pending = self.pending[match.end() :]
        return "".join(released)

    def finish(self, state: dict[str, Any]) -> str:
        """The node finished writing: release its last sentence if it may be shown."""
        if self.holding or not self.pending:
            return ""
        rest = self.pending
        if not self._allows(rest, state):
            return ""
        self.pending = ""
        return rest

    def _allows(self, sentence: str, state: dict[str, Any]) -> bool:
        if not sentence.strip() or self._check(state, self.shown + sentence):
            self.shown += sentence
            return True
        self.holding = True
        return False
