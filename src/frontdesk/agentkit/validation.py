"""The validate -> retry -> fallback loop shared by assistants that check their own answers.

At most one retry: a first failure returns RETRY (and feedback for the second attempt), a second
failure returns FAIL, which the graph routes to its fallback. When the validator itself breaks,
the first attempt passes (a flaky validator must not block every answer) but a retry fails
closed (an answer that already failed once is not waved through).
"""

from __future__ import annotations

import re
from typing import Any, Literal

from frontdesk.routing.question_form import asks_for_information

PASS: Literal["PASS"] = "PASS"
RETRY: Literal["RETRY"] = "RETRY"
FAIL: Literal["FAIL"] = "FAIL"
MAX_RETRIES = 1


def validation_outcome(passed: bool, retry_count: int, reason: str = "") -> dict[str, Any]:
    """State updates for a validator verdict."""
    if passed:
        return {"validation_result": PASS, "retry_feedback": None}
    if retry_count < MAX_RETRIES:
        return {
            "validation_result": RETRY,
            "retry_count": retry_count + 1,
            "retry_feedback": reason,
        }
    return {"validation_result": FAIL, "retry_feedback": reason}


def validator_error_outcome(retry_count: int, error: str) -> dict[str, Any]:
    """State updates when the validator could not give a verdict."""
    if retry_count == 0:
        return {"validation_result": PASS, "retry_feedback": None}
    return {"validation_result": FAIL, "retry_feedback": f"validator unavailable on retry: {error}"}


_ARTICLES = frozenset({"the", "a", "an"})


def restates_question(answer: str, question: str) -> bool:
    """Whether `answer` only repeats `question` back: every word of it is the question's,
    and it carries most of them. One new word may be the answer itself ("the Network LED is
    green when ..."), so none is allowed. A small model does this with a question in a
    language it reads poorly ("Dioda PON miga na czerwono, co robić?" answered with itself);
    it states no specific, so the grounding check alone waves it through."""
    said = re.findall(r"\w+", answer.casefold())
    asked = re.findall(r"\w+", question.casefold())
    if not said or not asked:
        return False
    # To a question of what, which, where...: "The channels on 2.4 GHz do not overlap." says
    # "which channels on 2.4 GHz do not overlap?" back; an article is no answer. (To a yes/no
    # question, "The pool is heated." is one.)
    filler = _ARTICLES if asks_for_information(question) else frozenset()
    new_words = [w for w in said if w not in set(asked) and w not in filler]
    shared = set(said) & set(asked)
    return not new_words and len(shared) >= 0.6 * len(set(asked))


_SENTENCE_END = re.compile(r"(?<=[.!?])\s+")
# A leading sentence made only of the question's words, at least this many of them, is the
# question said back ("We're 2 on Saturday. Where can we eat?" before the answer).
RESTATED_MIN_WORDS = 3


def without_restated_question(answer: str, question: str) -> str:
    """`answer` without its leading sentences that only say the question back. A small model
    often opens that way; where the reply is cut to one SMS, the cut kept the echo and lost
    the answer. Unchanged when nothing else would be left (validation judges that)."""
    asked = set(re.findall(r"\w+", question.casefold()))
    sentences = _SENTENCE_END.split(answer.strip())
    kept = list(sentences)
    while kept:
        words = re.findall(r"\w+", kept[0].casefold())
        if len(words) < RESTATED_MIN_WORDS or not set(words) <= asked:
            break
        kept.pop(0)
    return " ".join(kept) if kept else answer


# A clause in which the writer speaks of themselves: "I'm a regular", "my husband is celiac",
# "tengo 19 años". Said by the assistant, it is the user's words taken as its own.
_FIRST_PERSON = re.compile(
    r"^(i|i'm|im|i've|i'll|i'd|me|my|we|we're|were|we've|our|us"
    r"|soy|estoy|tengo|mi|mis|somos|estamos|tenemos|nuestro|nuestra|yo|nosotros)\b",
    re.IGNORECASE,
)
_CLAUSE_END = re.compile(r"(?<=[.!?;,])\s+|\s+(?:and|but|y|pero)\s+", re.IGNORECASE)
# How much of a first-person sentence must be the user's own words to be theirs said back.
SAID_BACK_SHARE = 0.75
SAID_BACK_MIN_WORDS = 3


def _first_person_words(message: str) -> set[str]:
    words: set[str] = set()
    for clause in _CLAUSE_END.split(message.strip()):
        clause = clause.strip().lstrip("¿¡").replace("\u2019", "'")
        if _FIRST_PERSON.match(clause):
            words |= set(re.findall(r"\w+", clause.casefold()))
    return words


def without_users_own_words(answer: str, message: str) -> str:
    """`answer` without the sentences that say the user's words about themselves as the
    assistant's own: asked "Are there poker tournaments tomorrow? I'm a regular in the poker
    room", a small model wrote "Yes, there are poker tournaments tomorrow. I'm a regular in the
    Bellagio Poker Room." A sentence goes when it speaks in the first person and at least
    three quarters of its words are the user's first-person words. Unchanged when nothing
    else would be left (validation judges that)."""
    theirs = _first_person_words(message)
    if not theirs:
        return answer
    kept = []
    for sentence in _SENTENCE_END.split(answer.strip()):
        words = re.findall(r"\w+", sentence.casefold())
        mine = sum(word in theirs for word in words)
        said_back = (
            _FIRST_PERSON.match(sentence.strip().lstrip("¿¡").replace("\u2019", "'"))
            and mine >= SAID_BACK_MIN_WORDS
            and mine >= SAID_BACK_SHARE * len(words)
        )
        if not said_back:
            kept.append(sentence)
    return " ".join(kept) if kept else answer
