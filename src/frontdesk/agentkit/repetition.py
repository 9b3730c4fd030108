"""A small model that loops: the same sentences written again and again until its token limit.

Seen with the embedded 0.5B model on a question its context did not answer: one paragraph five
times, the last copy cut off mid-sentence. A reader gets nothing from the copies, so an answer
keeps each sentence once, and a stream stops showing text once a sentence comes back.
Fenced code blocks are left whole: repeated lines in code are code."""

from __future__ import annotations

import re

__all__ = ["repeats", "without_repeats"]

_FENCE = re.compile(r"```.*?(?:```|$)", re.DOTALL)
_SENTENCE_END = re.compile(r"(?<=[.!?])\s+")
_PARAGRAPH = re.compile(r"\n\s*\n")
# Short sentences ("Yes.", "See below.") may fairly come back; only longer ones count.
MIN_CHARS = 12


def _key(sentence: str) -> str:
    return re.sub(r"[\W_]+", " ", sentence.lower()).strip()


def _sentences(paragraph: str) -> list[str]:
    return [s for s in _SENTENCE_END.split(paragraph.strip()) if s.strip()]


def repeats(text: str) -> bool:
    """Whether a sentence of `text` (outside code blocks) is one it already said."""
    seen: set[str] = set()
    for paragraph in _PARAGRAPH.split(_FENCE.sub(" ", text)):
        for sentence in _sentences(paragraph):
            key = _key(sentence)
            if len(key) >= MIN_CHARS and key in seen:
                return True
            seen.add(key)
    return False


def without_repeats(text: str) -> str:
    """`text` with each sentence kept once (the first time), paragraphs left empty removed,
    and a cut-off last sentence dropped when it only starts one already said."""
    seen: set[str] = set()
    pieces = _FENCE.split(text)
    fences = _FENCE.findall(text)
    out: list[str] = []
    for index, piece in enumerate(pieces):
        kept_paragraphs = []
        for paragraph in _PARAGRAPH.split(piece):
            kept = []
            for sentence in _sentences(paragraph):
                key = _key(sentence)
                if len(key) >= MIN_CHARS and (
                    key in seen or any(old.startswith(key) for old in seen)
                ):
                    continue
                seen.add(key)
                kept.append(sentence)
            if kept:
                kept_paragraphs.append(" ".join(kept))
        out.append("\n\n".join(kept_paragraphs))
        if index < len(fences):
            out.append(fences[index])
    return "\n\n".join(part.strip("\n") for part in out if part.strip()).strip()
