"""Which source each sentence of an answer comes from: claim-level citations.

A reader checks an answer one sentence at a time, so every sentence carries the documents it
draws on, and the document sentence that supports it best (the UI opens the document there).
A sentence is tied to a document when the document states every specific the sentence gives
(times, prices, phone numbers, dates, other numbers), or, for a sentence without specifics,
when it names the document's subject or shares enough of its words. A sentence nothing
supports ("Hours can change, so please call ahead") cites nothing: a citation is a promise
that the cited text says it.

Deterministic, no model: the same answer and documents give the same citations.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from frontdesk.agentkit.evidence import content_words
from frontdesk.agentkit.specifics import details
from frontdesk.knowledge.chunking import split_sentences

# A sentence without specifics is tied to a document sharing this many content words with
# one of its sentences, and this share of the sentence's own words.
MIN_SHARED_WORDS = 2
MIN_SHARED_SHARE = 0.4
# An id of lines ("pkg/a.py:7-9") and a citation of lines in a sentence ("pkg/a.py:8").
_LINE_RANGE = r"(?P<start>\d+)(?:-(?P<end>\d+))?(?![\w-])"
_LINES = re.compile(rf"(?P<path>.+):{_LINE_RANGE}")
# A list item ("- Tuscany: Daily 7:00 AM-11:00 AM") is a claim of its own.
_LIST_ITEM = re.compile(r"^\s*(?:[-*•]|\d+[.)])\s+")


@dataclass(frozen=True)
class Claim:
    text: str
    # 1-based positions of the cited documents in the turn's `documents`, in that order (a
    # reader sees "¹²", not the strongest first: "²¹").
    cites: tuple[int, ...]
    # The sentence of the document that supports the claim best ("" when none).
    quote: str = ""
    # Each cited document's own sentence that supports the claim, beside `cites`: a mark
    # opens its document at its own sentence.
    quotes: tuple[str, ...] = ()

    def public(self) -> dict[str, object]:
        return {
            "text": self.text,
            "cites": list(self.cites),
            "quote": self.quote,
            "quotes": list(self.quotes),
        }


def answer_sentences(answer: str) -> list[str]:
    """The answer's sentences, each line of a list on its own."""
    found: list[str] = []
    for line in answer.splitlines():
        if not line.strip():
            continue
        if _LIST_ITEM.match(line):
            found.append(line.strip())
        else:
            found.extend(s.strip() for s in split_sentences(line) if s.strip())
    return found


def _values(text: str) -> set[str]:
    return {f"{kind} {value}" for kind, values in details(text).items() for value in values}


@dataclass(frozen=True)
class _Document:
    number: int
    title: str
    # The id a sentence may cite it by, word for word ("pkg/client.py:7-9": code QA's).
    id: str
    values: frozenset[str]
    sentences: tuple[tuple[str, frozenset[str]], ...]

    @classmethod
    def of(cls, number: int, document: Mapping[str, object]) -> _Document:
        text = str(document.get("text") or "")
        title = str(document.get("title") or "")
        sentences = tuple(
            (s, frozenset(content_words(s))) for s in split_sentences(text) if s.strip()
        )
        ident = str(document.get("id") or "")
        return cls(number, title, ident, frozenset(_values(f"{title}. {text}")), sentences)

    def best_sentence(self, words: set[str], values: set[str]) -> tuple[int, str]:
        """(shared words, the sentence) of the sentence most like a claim: its values first."""
        best = (-1, -1, "")
        for sentence, sentence_words in self.sentences:
            stated = len(values & _values(sentence)) if values else 0
            shared = len(words & sentence_words)
            if (stated, shared) > best[:2]:
                best = (stated, shared, sentence)
        return best[1], best[2]

    def cited_in(self, claim: str) -> bool:
        """The sentence gives this document's id, as a citation does ("at pkg/a.py:7-9"), or,
        for an id of lines, cites lines inside them ("pkg/a.py:8")."""
        if len(self.id) < 3:
            return False
        if re.search(rf"(?<![\w/.]){re.escape(self.id)}(?![\w-])", claim):
            return True
        lines = _LINES.fullmatch(self.id)
        if not lines:
            return False
        path, first, last = lines["path"], int(lines["start"]), int(lines["end"])
        for cited in re.finditer(rf"(?<![\w/.]){re.escape(path)}:{_LINE_RANGE}", claim):
            start = int(cited["start"])
            if first <= start and int(cited["end"] or start) <= last:
                return True
        return False

    def names(self, claim: str) -> bool:
        title = self.title.casefold().strip()
        return len(title) >= 3 and title in claim.casefold()


def cite(answer: str, documents: Sequence[Mapping[str, object]]) -> list[Claim]:
    """Each sentence of `answer` with the documents (`{"title", "text"}`, in the order the
    turn's sources list them) that support it."""
    docs = [_Document.of(n, d) for n, d in enumerate(documents, start=1)]
    claims = []
    for sentence in answer_sentences(answer):
        values = _values(sentence)
        words = content_words(sentence)
        supporting: list[tuple[tuple[int, int, int], int, str]] = []
        for doc in docs:
            shared, quote = doc.best_sentence(words, values)
            if doc.cited_in(sentence):
                supporting.append(((2, len(values), shared), doc.number, quote))
                continue
            if values:
                if not values <= doc.values:
                    continue
            elif not (
                doc.names(sentence)
                or (shared >= MIN_SHARED_WORDS and shared >= MIN_SHARED_SHARE * max(len(words), 1))
            ):
                continue
            supporting.append(((int(doc.names(sentence)), len(values), shared), doc.number, quote))
        if values and not supporting:
            # "Tuscany is the less expensive: Tuscany $26-$54, The Farm Italy $28-$62": no
            # one document states both, together they do.
            supporting = _jointly(docs, words, values)
        # A sentence that cites its lines ("`run` in pkg/cli.py (pkg/cli.py:42)") rests on
        # them, not on every document that shares its words (the definition of what it calls).
        if any(strength[0] == 2 for strength, _, _ in supporting):
            supporting = [s for s in supporting if s[0][0] == 2]
        best = max(supporting, key=lambda s: s[0])[2] if supporting else ""
        supporting.sort(key=lambda s: s[1])
        cites = tuple(number for _, number, _ in supporting)
        quotes = tuple(quote for _, _, quote in supporting)
        claims.append(Claim(sentence, cites, best, quotes))
    return claims


def _jointly(
    docs: Sequence[_Document], words: set[str], values: set[str]
) -> list[tuple[tuple[int, int, int], int, str]]:
    """The documents that together state every value, each stating some; none when some value
    is stated nowhere."""
    stating = [doc for doc in docs if values & doc.values]
    if not stating or not values <= frozenset().union(*(doc.values for doc in stating)):
        return []
    found = []
    for doc in stating:
        shared, quote = doc.best_sentence(words, values & doc.values)
        found.append(((0, len(values & doc.values), shared), doc.number, quote))
    return found


def with_claims(sources: Mapping[str, object], answer: str) -> dict[str, object]:
    """A turn's `sources` event with its answer's claims added (none without documents)."""
    documents = sources.get("documents")
    if not isinstance(documents, list) or not documents or not answer.strip():
        return {**sources, "claims": []}
    return {**sources, "claims": [claim.public() for claim in cite(answer, documents)]}
