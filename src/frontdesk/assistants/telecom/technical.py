"""The technical agent's answer: generated from the context, checked, cited.

The answer is checked against its context by the core's grounding check (every number, time,
size, price... it states must be in the context, for the thing it describes). A 0.5B model
picks a neighbouring value now and then ("160 MHz" for the 80 MHz default); such an answer is
not shown, and the customer gets the context's own sentences about the question instead.

Every answer then ends with the real Sources section (`Title — Section — File (version)`),
whatever the model wrote for one.
"""

from __future__ import annotations

import re
from typing import Any

from langchain_core.messages import BaseMessage, HumanMessage, SystemMessage

from frontdesk.agentkit.grounding import check_grounding
from frontdesk.agentkit.language import is_polish
from frontdesk.agentkit.prompts import render
from frontdesk.agentkit.release import supported_sentences
from frontdesk.agentkit.streaming import human_texts
from frontdesk.agentkit.validation import restates_question
from frontdesk.agentkit.writing import write_within_time
from frontdesk.assistants.telecom import prompts
from frontdesk.assistants.telecom.route_words import TECH_STEMS
from frontdesk.knowledge.mmr import citation_of
from frontdesk.knowledge.passages import best_sentences, focused_passages
from frontdesk.routing.followup import corrects_previous, refers_back


async def grounded_answer(
    llm, system: str, turn: str, context: list[str], language: str, question: str = ""
) -> str:
    """The model's answer to `turn`, less the sentences that state what `context` does not,
    when it answers rather than repeats the customer's `question`; else the context's own
    sentences.

    One model call: a second, told what was wrong, took as long again as the first. The
    context's sentences are quoted instead: those that hold the values the answer got wrong,
    or those closest to the question."""
    # Written within the turn's running time: on a busy machine the whole sentences written
    # by then are checked and shown, not an answer out of time.
    written = await write_within_time(
        llm, [SystemMessage(content=system), HumanMessage(content=turn)]
    )
    text = written.text.strip()
    if not text:
        return text
    report = check_grounding(text, context)
    # A sentence the manual does not support is dropped; the rest stands, and begins with
    # what the customer has already read (the streamer showed only supported sentences).
    # Replacing the whole answer swapped text the customer had read for other text.
    kept = text
    if not report.grounded:
        kept = supported_sentences(text, lambda t: check_grounding(t, context).grounded)
    if kept and not restates_question(kept, question):
        if language == "pl" and not is_polish(kept):
            return render(prompts.ONLY_IN_ENGLISH, sentences=kept)
        if report.evidence and kept != text:
            quoted = render(prompts.FROM_THE_MANUAL[language], sentences=" ".join(report.evidence))
            return f"{kept}\n\n{quoted}"
        return kept
    if report.evidence:
        return render(prompts.FROM_THE_MANUAL[language], sentences=" ".join(report.evidence))
    return from_the_manual(question, context, language) or render(prompts.NOT_RELIABLE[language])


def from_the_manual(question: str, context: list[str], language: str) -> str | None:
    """The answer without the model: the context's sentences closest to `question`, quoted
    (None when no sentence shares a word with it). What a customer gets when the model's answer
    fails its check, fails, or would come too late."""
    sentences = best_sentences(question, context)
    if not sentences:
        return None
    return render(prompts.FROM_THE_MANUAL[language], sentences=" ".join(sentences))


def focused_context(
    question: str, hits: list[dict[str, Any]], max_chars: int
) -> list[tuple[dict[str, Any], str]]:
    """(hit, the part of it `question` is about) for the hits that keep something, at most
    about `max_chars` characters of manual in all (knowledge/passages.py says why)."""
    return [(hits[i], text) for i, text in focused_passages(question, hits, max_chars)]


def cite(hit: dict[str, Any]) -> str:
    c = citation_of(hit)
    version = f" ({c['version']})" if c["version"] else ""
    named = " — ".join(part for part in (c["title"], c["section"], c["file"]) if part)
    return f"{named}{version}"


def source_block(hit: dict[str, Any], text: str) -> str:
    return f"[SOURCE] {cite(hit)}\n{text}"


def sources_section(hits: list[dict[str, Any]], language: str) -> str:
    lines = list(dict.fromkeys(f"- {cite(hit)}" for hit in hits))
    return prompts.SOURCES_HEADING[language] + "\n" + "\n".join(lines)


# A "Sources:" label the model wrote, on its own line or inline ("... Sources: x"), in
# either language and number ("Źródło:", "Źródła", "Zrodla"), or a sources heading without a
# colon ("### Źródła", "**Sources**" on its own line).
_SOURCE_WORD = r"(?:sources?|źródł[oaey]|źródeł|zrod(?:l[oaey]|el))"
_SOURCES_LABEL = re.compile(
    rf"(\*\*|#+\s*)?\b{_SOURCE_WORD}\b(\*\*)?\s*:"
    rf"|^[ \t]*(?:#+[ \t]*|\*\*)?{_SOURCE_WORD}(?:\*\*)?[ \t]*$",
    re.IGNORECASE | re.MULTILINE,
)
# A context header the model copied ("[SOURCE] Title — Section — file").
_COPIED_HEADER = re.compile(r"^[ \t]*[-*]?[ \t]*\[SOURCE\].*$\n?", re.IGNORECASE | re.MULTILINE)
_PLACEHOLDER = re.compile(r"\[SOURCES?\]", re.IGNORECASE)


def with_sources(text: str, hits: list[dict[str, Any]], language: str) -> str:
    """`text` ending with the real Sources section, whatever the model wrote for one."""
    section = sources_section(hits, language)
    text = _COPIED_HEADER.sub("", text)
    if _PLACEHOLDER.search(text):
        return _PLACEHOLDER.sub(section, text, count=1).strip()
    # A section the model wrote is replaced: its titles may be made up or incomplete.
    labels = list(_SOURCES_LABEL.finditer(text))
    body = text[: labels[-1].start()] if labels else text
    if not body.strip():  # the model wrote only a "Sources:" line: keep its words, not its label
        body = _SOURCES_LABEL.sub("", text)
    return f"{body.rstrip()}\n\n{section}"


# -- the conversation a question belongs to ----------------------------------------


# How much of the conversation goes with a question: the customer's earlier messages, newest
# first, each cut to EARLIER_MESSAGE_CHARS, until EARLIER_CHARS (the retrieval query and the
# answer prompt both stay small enough for MiniLM's 256 tokens and the 0.5B model's context).
EARLIER_MESSAGES = 4
EARLIER_MESSAGE_CHARS = 240
EARLIER_CHARS = 480


def earlier_questions(messages: list[BaseMessage]) -> list[str]:
    """The customer's messages before the last one, condensed to fit, oldest first.

    Only the customer's words: a small model copies earlier replies (a billing reply, a
    previous answer) into its new one."""
    kept: list[str] = []
    used = 0
    for text in reversed(human_texts(messages)[:-1][-EARLIER_MESSAGES:]):
        text = " ".join(text.split())
        if len(text) > EARLIER_MESSAGE_CHARS:
            text = text[: EARLIER_MESSAGE_CHARS - 1].rsplit(" ", 1)[0] + "…"
        if kept and used + len(text) > EARLIER_CHARS:
            break
        kept.append(text)
        used += len(text)
    return list(reversed(kept))


def latest_question(messages: list[BaseMessage]) -> str:
    questions = human_texts(messages)
    return questions[-1] if questions else ""


# Words of a customer going on about the same problem: what they tried, that it still fails
# ("I already restarted the router", "still nothing", "nadal nie działa", "już próbowałem").
_GOES_ON = re.compile(
    r"\b(?:already|still|again|tried|didn'?t\s+help|same|"
    r"już|juz|nadal|wciąż|wciaz|dalej|znowu|ciągle|ciagle|próbował\w*|probowal\w*)\b",
    re.IGNORECASE,
)


def technical_subjects(text: str) -> set[str]:
    """The technical words of a message, by their stem ("router", "voicemail", "wifi")."""
    words = re.findall(r"[\w'-]+", text.casefold())
    return {stem for word in words for stem in TECH_STEMS if word.startswith(stem)}


def asks_about_something_new(messages: list[BaseMessage]) -> bool:
    """Whether the last message starts a new problem: it names a technical subject, none of
    which the customer's earlier messages named, and neither points back ("is it the cable?"),
    corrects ("no, the router") nor goes on about what was tried ("still slow"). An internet
    question after one about voicemail had been searched, and answered, as voicemail."""
    return _starts_new_problem(latest_question(messages), earlier_questions(messages))


def _starts_new_problem(latest: str, earlier: list[str]) -> bool:
    if not earlier or refers_back(latest) or corrects_previous(latest) or _GOES_ON.search(latest):
        return False
    own = technical_subjects(latest)
    return bool(own) and own.isdisjoint(technical_subjects(" ".join(earlier)))


def related_earlier(messages: list[BaseMessage]) -> list[str]:
    """The earlier messages the last one is read with: none when it starts a new problem."""
    earlier = earlier_questions(messages)
    return [] if _starts_new_problem(latest_question(messages), earlier) else earlier


def technical_query(messages: list[BaseMessage]) -> str:
    """What to search for: the customer's earlier messages (condensed) and the last one, so
    a long clarification ("it is the one by the window, and I already restarted it twice")
    still finds the problem it clarifies; the last one alone when it starts a new problem."""
    return " ".join([*related_earlier(messages), latest_question(messages)])
