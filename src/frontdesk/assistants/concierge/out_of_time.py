"""The concierge's answer when a turn runs out of time: composed from the guide, never a dump.

What the turn had worked out in code (the facts node's answer) is the answer, as it would have
been with time to spare. Otherwise the guide's own sentences that best match the question,
each quoted with the item it comes from, so the citations tie every line to its source. The
lead says only what is true: the answer was not finished in time; not that many guests are
asking (one guest on a loaded machine sees the same).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from frontdesk.agentkit.evidence import content_words
from frontdesk.agentkit.streaming import human_texts
from frontdesk.knowledge.chunking import split_sentences
from frontdesk.knowledge.loader import KnowledgeItem

# At most this many of the guide's sentences, each at most this long.
EVIDENCE_SENTENCES = 3
MAX_SENTENCE_CHARS = 300
# Fields read as sentences of their own: "Elemis Spa hours: Daily 8:00 AM-8:00 PM."
# The guide is English: its sentences stay English whatever the answer's language.
_FIELD_SENTENCES = {
    "hours": "{name} hours: {value}.",
    "price_range": "{name} prices: {value}.",
    "rate_range": "{name} rates: {value}.",
    "location": "{name} is in {value}.",
    "phone": "{name} phone: {value}.",
    "dress_code": "{name} dress code: {value}.",
    "schedule": "{name} schedule: {value}.",
}
_LEAD = {
    "en": "I could not finish a full answer in time, but this is what the resort guide says:",
    "es": (
        "No pude terminar una respuesta completa a tiempo, pero esto es lo que dice la guía "
        "del resort (en inglés):"
    ),
}
_NOTHING = {
    "en": "I could not finish an answer in time. Please ask again in a moment, or {contact}.",
    "es": (
        "No pude terminar una respuesta a tiempo. Vuelva a preguntar en un momento, o {contact}."
    ),
}
_ELSE = {"en": "For anything else, {contact}.", "es": "Para cualquier otra cosa, {contact}."}
_CALL = {"en": "call {name} at {phone}", "es": "llame a {name} al {phone}"}
_VISIT = {"en": "visit {website}", "es": "visite {website}"}
_OR = {"en": " or ", "es": " o "}
_ASK_DESK = {"en": "ask the front desk", "es": "pregunte en recepción"}


def _contact(property: dict[str, Any], language: str) -> str:
    ways = []
    if property.get("phone"):
        ways.append(
            _CALL[language].format(name=property.get("name", "the resort"), phone=property["phone"])
        )
    if property.get("website"):
        ways.append(_VISIT[language].format(website=property["website"]))
    return _OR[language].join(ways) or _ASK_DESK[language]


def item_sentences(item: KnowledgeItem) -> list[str]:
    """The guide's sentences about an item: its fields as sentences, then its own text."""
    found = [
        template.format(name=item.name, value=item.fields[field])
        for field, template in _FIELD_SENTENCES.items()
        if isinstance(item.fields.get(field), str) and item.fields[field].strip()
    ]
    prose = str(item.fields.get("answer") or item.fields.get("description") or "")
    found += [s.strip() for s in split_sentences(prose) if s.strip()]
    return [s for s in found if len(s) <= MAX_SENTENCE_CHARS]


def best_evidence(
    question: str, items: Sequence[KnowledgeItem], limit: int = EVIDENCE_SENTENCES
) -> list[tuple[str, str]]:
    """(sentence, item name) of the guide's sentences sharing most words with the question,
    at most one per item before a second of any, in the order the items were retrieved."""
    wanted = content_words(question)
    scored: list[tuple[int, int, int, str, str]] = []
    for rank, item in enumerate(items):
        for order, sentence in enumerate(item_sentences(item)):
            shared = len(wanted & (content_words(sentence) | content_words(item.name)))
            if shared:
                scored.append((shared, -rank, -order, sentence, item.name))
    scored.sort(reverse=True)
    chosen: list[tuple[str, str]] = []
    used: set[str] = set()
    for pass_ in (0, 1):
        for *_, sentence, name in scored:
            if len(chosen) == limit:
                return chosen
            if (sentence, name) in chosen or (pass_ == 0 and name in used):
                continue
            chosen.append((sentence, name))
            used.add(name)
    return chosen


def out_of_time_answer(
    state: dict[str, Any],
    *,
    property: dict[str, Any],
    items: Sequence[KnowledgeItem] = (),
    reading: Callable[[str], str] | None = None,
) -> str:
    """A turn out of time, answered without the model (see the module's docstring).
    `reading(text)` puts a question in the guide's words (a Spanish one through the glossary)."""
    if state.get("fact_answer"):
        return str(state["fact_answer"])
    language = state.get("language") if state.get("language") in _LEAD else "en"
    contact = _contact(property, language)
    questions = human_texts(state.get("messages") or [])
    question = questions[-1] if questions else ""
    if reading is not None:
        question = reading(question)
    by_name = {item.name: item for item in items}
    retrieved = [
        by_name[name]
        for name in dict.fromkeys(
            doc["metadata"].get("item_name") for doc in state.get("retrieved_context") or []
        )
        if name in by_name
    ]
    evidence = best_evidence(question, retrieved)
    if not evidence:
        return _NOTHING[language].format(contact=contact)
    lines = [f"- {sentence} ({name})" for sentence, name in evidence]
    return "\n".join([_LEAD[language], *lines, _ELSE[language].format(contact=contact)])
