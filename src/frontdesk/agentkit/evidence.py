"""Which context sentence an answer sentence restates, and what that sentence says.

Three uses, all for a small model that copies well but attributes badly:
- `misattributed`: a value the context states, but for something else. Asked for the price of a
  50-minute massage, the model writes "$50" (the context's valet price) next to the very words
  of the spa's sentence that says "$165". A value is suspect when the context sentence that
  best matches the answer sentence states a different value of the same kind, and every
  sentence that does state the value matches the answer sentence worse.
- `evidence`: for a rejected value, the sentence that holds the right one, quoted in the retry
  feedback (told only "44 floors is wrong", the model writes 44 again; shown "a 34-story
  tower", it does not).
- `missed_subject`: an answer that never mentions the venue the question asks about.

A context sentence is led by its item's name (the text before the first colon, as the
knowledge formatters write it), and matching counts shared content words, ties going to the
sentence whose name adds fewer words the answer does not use ("the arena" is the Arena, not
the Arena Suites).
"""

from __future__ import annotations

import functools
import re
from collections.abc import Iterable
from dataclasses import dataclass

import Stemmer

from frontdesk.agentkit.specifics import details, singular
from frontdesk.knowledge.chunking import sentences_led_by, split_sentences

_WORD = re.compile(r"[a-z]{3,}")
_COMMON = frozenset(
    {
        "the",
        "and",
        "for",
        "are",
        "you",
        "your",
        "with",
        "that",
        "this",
        "from",
        "has",
        "have",
        "was",
        "were",
        "its",
        "our",
        "can",
        "will",
        "not",
        "they",
        "them",
        "their",
        "there",
        "here",
        "what",
        "when",
        "where",
        "which",
        "who",
        "how",
        "does",
        "open",
    }
)
MAX_EVIDENCE = 2
MAX_HEADING = 80
# A misattribution needs a clear owner: the best sentence shares at least this many words.
MIN_ATTRIBUTION_OVERLAP = 2
# Clauses are judged apart: "the arena holds 10,000, and each suite 20" describes two items.
_CLAUSE_END = re.compile(r"[,;]\s+")


def content_words(text: str) -> set[str]:
    """Lower-case words of three letters or more, singular, common words left out."""
    return {singular(w) for w in _WORD.findall(text.casefold()) if w not in _COMMON}


@dataclass(frozen=True)
class ContextSentence:
    text: str
    words: frozenset[str]
    # The item name that leads the sentence ("" without one), and its words.
    item: str
    heading: frozenset[str]
    details: dict[str, set[str]]

    def match(self, words: set[str]) -> tuple[int, int]:
        """How well an answer sentence with `words` matches: shared words, then fewer heading
        words the answer does not use."""
        return len(words & self.words), -len(self.heading - words)


def context_sentences(context: Iterable[str]) -> list[ContextSentence]:
    """Every sentence of every context document, led by its document's heading."""
    return [sentence for doc in context for sentence in _doc_sentences(doc)]


# A knowledge base's items come back turn after turn; splitting and scanning one costs about
# half a millisecond, so each document's sentences are worked out once.
@functools.lru_cache(maxsize=1024)
def _doc_sentences(doc: str) -> tuple[ContextSentence, ...]:
    heading, colon, _ = doc.partition(":")
    if not colon or len(heading) > MAX_HEADING or "\n" in heading:
        heading, sentences = "", split_sentences(doc)
    else:
        sentences = sentences_led_by(doc, heading)
    heading_words = frozenset(content_words(heading))
    return tuple(
        ContextSentence(s, frozenset(content_words(s)), heading, heading_words, details(s))
        for s in sentences
    )


def misattributed(answer: str, sentences: list[ContextSentence]) -> list[tuple[str, str]]:
    """(`"kind value"`, the sentence the answer restates) for each value of the answer that the
    context states only for other items than the one that sentence is about."""
    found: list[tuple[str, str]] = []
    # A later clause is about its sentence's subject: "Michael Jordan's Steak House hours:
    # Mon-Thu 5:00 PM-10:00 PM; Sun 11:00 AM-3:00 PM (brunch) and 5:00 PM-10:00 PM" has the
    # steakhouse's Sunday, not the buffet's whose sentence shares "sun" with the clause alone.
    clauses = [
        (clause, head)
        for s in split_sentences(answer)
        for head in _CLAUSE_END.split(s)[:1]
        for clause in _CLAUSE_END.split(s)
    ]
    for clause, head in clauses:
        words = content_words(clause) | content_words(head)
        for kind, values in details(clause).items():
            stating = [c for c in sentences if c.details[kind]]
            if not stating:
                continue
            best = max(stating, key=lambda c: c.match(words))
            best_match = best.match(words)
            if best_match[0] < MIN_ATTRIBUTION_OVERLAP:
                continue
            for value in sorted(values - best.details[kind]):
                owners = [c for c in stating if value in c.details[kind]]
                if not owners or any(c.item == best.item for c in owners):
                    continue  # unsupported (reported as such), or the same item's value
                if max(c.match(words) for c in owners) < best_match:
                    found.append((f"{kind} {value}", best.text))
    return found


def evidence(
    answer: str, sentences: list[ContextSentence], unsupported: set[str]
) -> tuple[str, ...]:
    """For each answer sentence with an unsupported time, price, phone, date or number, the
    context sentence that shares most of its words and states a value of the same kind, or,
    when no sentence does ("held each January" for a made-up "January 23"), that shares most
    of its words (at least two)."""
    found: list[str] = []
    for sentence in split_sentences(answer):
        kinds = {
            kind
            for kind, values in details(sentence).items()
            if any(f"{kind} {value}" in unsupported for value in values)
        }
        words = content_words(sentence)
        if not kinds or not words:
            continue
        same_kind: list[tuple[int, str]] = []
        other_kind: list[tuple[int, str]] = []
        for candidate in sentences:
            overlap = len(words & candidate.words)
            has_kind = any(candidate.details[kind] for kind in kinds)
            if overlap >= (1 if has_kind else 2):
                (same_kind if has_kind else other_kind).append((overlap, candidate.text))
        if best_pairs := same_kind or other_kind:
            best = max(best_pairs, key=lambda pair: pair[0])[1]
            if best not in found:
                found.append(best)
    return tuple(found[:MAX_EVIDENCE])


@functools.lru_cache(maxsize=1)
def _stemmer() -> Stemmer.Stemmer:
    return Stemmer.Stemmer("english")


def _stems(text: str) -> set[str]:
    """Stemmed content words: "charge" and "charging" are one word here."""
    return set(_stemmer().stemWords(sorted(content_words(text))))


def missed_subject(
    question: str, answer: str, item: str, item_text: str, *, name_it: bool = False
) -> str | None:
    """Feedback when `question` asks about `item` (uses a word of its name) and `answer`
    never mentions it, else None. With `name_it` (the guest asked whether there is one), the
    answer must also use the part of the name the question did not ("Lansdowne" for "is there
    an irish pub"): "yes, there is one" does not tell the guest where to go.

    "pool hours?" answered with the casino's "open 24 hours" has every detail right and is
    still the wrong answer. The feedback names the item and quotes its sentences closest to
    the question, so a rewrite can take its answer from there.
    """
    asked_words = _stems(question)
    name_words = _stems(item)
    subject = asked_words & name_words
    if not subject:
        return None
    said = _stems(answer)
    if subject & said:
        unnamed = name_words - asked_words  # the part of the name the question left out
        if not name_it or not unnamed or unnamed & said:
            return None
        # No quote here: shown one, the model tends to paste it into its answer.
        return f"The guest asked whether there is one: answer with its name, {item}."
    asked = asked_words - subject

    def closeness(sentence: str) -> tuple[int, int]:
        # What the question asks ("hours"), then the subject in the sentence's own words (every
        # sentence is led by the item's name, which says nothing about the sentence).
        body = _stems(sentence.removeprefix(item))
        return len(body & asked), len(body & subject)

    sentences = [s.text for s in _doc_sentences(item_text)]
    best = sorted(sentences, key=closeness, reverse=True)[:MAX_EVIDENCE]
    quote = (" The CONTEXT says: " + " ".join(f'"{s}"' for s in best)) if best else ""
    return (
        f"The guest asked about {item}, but the answer does not mention it. Answer about "
        f"{item} from its entry in the CONTEXT.{quote}"
    )
