"""The passages of retrieved sections that a question is about, and little else.

Reading its context costs the embedded model more than writing: four manual sections are about
1,900 prompt tokens, 7 to 15 s on two cores before the first word, for an answer of twenty
words. And a 0.5B model reads long context poorly: shown the whole LED chapter, it answers
"PON blinking red" with the line for "PON blinking green".

So the model is shown the parts of the sections the question is about. A section is cut at its
headings into parts; each part is scored by the question's words it holds (rarer words among
the parts count more), its heading's words counting half; the best parts are kept up to a
character budget, and shown in the order the manual has them, under their headings, so a
procedure reads as the manual wrote it. A part longer than its share keeps its best lines, and
a table keeps its header row beside the rows kept.

Words match by their first five letters, so "blinking" meets "blink" and "faktury" meets
"faktura": a crude stem that serves English and Polish alike.
"""

from __future__ import annotations

import math
import re
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from frontdesk.knowledge.chunking import split_sentences

_HEADING = re.compile(r"^#{1,6}\s")
_WORD = re.compile(r"[^\W\d_]{3,}|\d+(?:[.,]\d+)?")
_TABLE_ROW = re.compile(r"^\s*\|")
_TABLE_RULE = re.compile(r"^\s*\|[\s:|-]+\|\s*$")
STEM_LETTERS = 5
# Question words that say nothing about the subject (English and Polish).
_STOP = frozenset({
    "the", "and", "for", "with", "your", "you", "what", "which", "when", "where", "how", "does",
    "can", "will", "are", "this", "that", "from", "have", "has", "was", "not", "why", "who",
    "there", "their", "its", "into", "about", "should", "would", "could", "need", "get", "mean",
    "jak", "czy", "gdzie", "kiedy", "jaki", "jaka", "jakie", "dlaczego", "się", "nie", "mam",
    "moje", "mój", "moja", "mojego", "jest", "oraz", "albo", "dla", "przy",
})  # fmt: skip
# A part's own words weigh 1, its heading's words this much: the heading says what the part is
# about ("PON LED"), its lines say which state ("blinking red").
HEADING_WEIGHT = 0.5
# A part's score is multiplied by this for each place its section stands below the first: the
# retrieval's order breaks near-ties.
RANK_DECAY = 0.9


@dataclass(frozen=True)
class Part:
    hit: int
    position: int
    heading: str
    lines: tuple[str, ...]

    @property
    def text(self) -> str:
        return "\n".join(self.lines)


def terms(text: str) -> set[str]:
    """The text's words, case-folded, common question words left out, cut to their stems."""
    return {
        _stem(word) for word in (w.casefold() for w in _WORD.findall(text)) if word not in _STOP
    }


def _stem(word: str) -> str:
    if len(word) > 3 and word.endswith("s") and not word.endswith("ss"):
        word = word[:-1]  # "LEDs" is "LED"
    return word[:STEM_LETTERS]


def split_parts(content: str, hit: int) -> list[Part]:
    """`content` cut at its headings: each part is a heading and the lines under it."""
    parts: list[Part] = []
    heading, lines = "", []
    for line in content.splitlines():
        if _HEADING.match(line):
            if any(item.strip() for item in lines):
                parts.append(Part(hit, len(parts), heading, tuple(lines)))
            heading, lines = line.strip(), []
        else:
            lines.append(line)
    if any(item.strip() for item in lines):
        parts.append(Part(hit, len(parts), heading, tuple(lines)))
    return parts


def _score(question: set[str], part: Part, idf: dict[str, float]) -> float:
    own = question & terms(part.text)
    heading = (question & terms(part.heading)) - own
    return sum(idf[t] for t in own) + HEADING_WEIGHT * sum(idf[t] for t in heading)


def _best_lines(question: set[str], part: Part, budget: int, idf: dict[str, float]) -> Part:
    """`part` cut to its lines that hold the question's words, best first, up to `budget`
    characters, in their own order; a table's header row stays with its rows."""
    lines = [line for line in part.lines if line.strip()]
    scored = sorted(
        range(len(lines)),
        key=lambda i: -sum(idf.get(t, 0.0) for t in question & terms(lines[i])),
    )
    kept: set[int] = set()
    used = len(part.heading)
    for i in scored:
        if question and not question & terms(lines[i]) and kept:
            break
        extra = {i}
        if _TABLE_ROW.match(lines[i]):
            extra |= _table_header(lines, i)
        size = sum(len(lines[j]) + 1 for j in extra - kept)
        if kept and used + size > budget:
            continue
        kept |= extra
        used += size
    return Part(part.hit, part.position, part.heading, tuple(lines[i] for i in sorted(kept)))


def _table_header(lines: list[str], row: int) -> set[int]:
    """The header row and rule of the table that `row` belongs to."""
    start = row
    while start > 0 and _TABLE_ROW.match(lines[start - 1]):
        start -= 1
    header = {start}
    if start + 1 < len(lines) and _TABLE_RULE.match(lines[start + 1]):
        header.add(start + 1)
    return header


def focused_passages(
    question: str, hits: Sequence[dict[str, Any]], max_chars: int
) -> list[tuple[int, str]]:
    """(index of the hit, its text cut to what `question` is about) for the hits that keep
    something, in the retrieval's order; at most about `max_chars` characters in all.

    The first hit always keeps its best part. A question none of whose words the manual uses
    (asked in another language than it is written in) gets the hits in the retrieval's order,
    cut to the budget: the retrieval found them by meaning, the words cannot choose among them."""
    parts = [part for i, hit in enumerate(hits) for part in split_parts(hit["content"], i)]
    if not parts:
        return []
    asked = terms(question)
    documents = Counter(t for part in parts for t in terms(part.heading + "\n" + part.text))
    idf = {t: math.log(1 + len(parts) / documents[t]) for t in asked if documents[t]}
    asked &= idf.keys()
    ranked = sorted(
        parts,
        key=lambda p: (-_score(asked, p, idf) * RANK_DECAY**p.hit, p.hit, p.position),
    )
    chosen: list[Part] = []
    used = 0
    for part in ranked:
        if chosen and asked and _score(asked, part, idf) == 0:
            break
        room = max_chars - used
        if room <= len(part.heading) + 40:
            break
        size = len(part.heading) + len(part.text) + 2
        if size > room:
            part = _best_lines(asked, part, room, idf)
            size = len(part.heading) + len(part.text) + 2
            if chosen and size > room:
                continue
        chosen.append(part)
        used += size
    passages: list[tuple[int, str]] = []
    for hit in sorted({part.hit for part in chosen}):
        kept = sorted((p for p in chosen if p.hit == hit), key=lambda p: p.position)
        text = "\n\n".join(
            "\n".join(line for line in (p.heading, p.text.strip()) if line) for p in kept
        )
        passages.append((hit, text))
    return passages


_MARKUP = re.compile(r"^\s*(?:[-*]|\d+[.)])\s+|\*\*|`")


def best_sentences(question: str, texts: Sequence[str], count: int = 2) -> list[str]:
    """The `count` sentences of `texts` that hold most of `question`'s words (rarer words
    counting more, their heading's words half), in the order the texts have them; markup and
    headings left out. None when no sentence holds a word of the question."""
    found: list[tuple[str, str]] = []  # (sentence, its heading)
    for text in texts:
        heading = ""
        for line in text.splitlines():
            if _HEADING.match(line):
                heading = line
            elif line.strip() and not _TABLE_RULE.match(line):
                found += [(_MARKUP.sub("", s).strip(), heading) for s in split_sentences(line)]
    asked = terms(question)
    documents = Counter(t for sentence, _ in found for t in terms(sentence))
    idf = {t: math.log(1 + len(found) / documents[t]) for t in asked if documents[t]}

    def score(sentence: str, heading: str) -> float:
        own = asked & terms(sentence)
        above = (asked & terms(heading)) - own
        if not own:
            return 0.0
        return sum(idf[t] for t in own) + HEADING_WEIGHT * sum(idf.get(t, 1.0) for t in above)

    scores = [score(sentence, heading) for sentence, heading in found]
    ranked = sorted((i for i, value in enumerate(scores) if value), key=lambda i: -scores[i])
    return [found[i][0] for i in sorted(ranked[:count])]
