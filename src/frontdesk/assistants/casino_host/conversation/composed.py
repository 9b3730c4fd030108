"""Replies written in code from an agent's FACTS, for its second attempt.

Asked again after its draft failed validation, the 0.5B model mostly repeats the mistake (a
time, a price, a venue from elsewhere). So the retry restates the agent's best facts itself:
the first item found that is about what the guest asked (a word of the question in its name
or text: "spa" gets the spa, not the box office the search put first), else the first item
found, what it is and where, and today's hours unless the guest asked about another day; the
comp agent's offer with how to redeem it. A question of the casino's FAQ is restated only when
it is about the guest's question (its bare answer, "Yes.", means nothing otherwise). Grounded
by construction, in the guest's language, SMS-short; the persona envelope still shapes it.
"""

from __future__ import annotations

import re

from frontdesk.assistants.casino_host.conversation.tools import ALL_DAY, Facts

_FIRST_SENTENCE = re.compile(r"^(?:(?:Type|Answer): )?[^.]+\.")
# How the content's texts label a fact ("Type: comedy.", "Answer: Check-in is at 3 PM.").
_LABEL = re.compile(r"^(?:Type|Answer):\s*")
_WHERE = re.compile(r"Located in [^.]+\.")
_WORD = re.compile(r"[^\W\d_]{3,}")
# Words of a question that do not say what it is about.
_NOT_TOPIC_WORDS = """
    what when where which who how time times open opens close closes closed hours today tonight
    tomorrow now later this that there here the and for are does did can could would
    will you your our any have has get got want need like book please thanks thank hello
    weekend week day night morning evening afternoon good best some with from about
    que cual cuando donde como hora horas abre abierto cierra hoy esta noche manana mañana
    para por una uno los las del con hay tiene quiero puedo favor gracias hola buenas"""
_NOT_TOPIC = frozenset(_NOT_TOPIC_WORDS.split())
_OTHER_DAY = re.compile(
    r"\b(?:tomorrow|ma[nñ]ana|monday|tuesday|wednesday|thursday|friday|saturday|sunday|lunes|"
    r"martes|mi[eé]rcoles|jueves|viernes|s[aá]bado|domingo)\b",
    re.IGNORECASE,
)


def _topic(question: str) -> set[str]:
    return {w for w in _WORD.findall(question.lower()) if w not in _NOT_TOPIC}


def _about(topic: set[str], name: str, text: str, *, faq: bool) -> bool:
    """Whether the item is about the question: one of its words begins with a topic word
    ("steak" finds the Steakhouse), or a topic word with one of its words (a plural). A
    question of the FAQ (`faq`) is about it by its own question's words only."""
    words = set(
        _WORD.findall(name.lower() if faq and name.endswith("?") else f"{name} {text}".lower())
    )
    return any(w.startswith(t) or t.startswith(w) for t in topic for w in words if len(w) >= 3)


TEMPLATES = {
    "en": {
        "place": "Try {name}: {what}",
        "today": " Today it's open {periods}.",
        "all_day": " It's open 24 hours today.",
        "offer": "We'd love to welcome you with {value}. To redeem: {how}",
        "item": "{name}: {what}",
    },
    "es": {
        "place": "Le recomiendo {name}.",
        "today": " Hoy abre {periods}.",
        "all_day": " Hoy abre las 24 horas.",
        "offer": "Nos encantaría recibirle con {value} ({title}). Para usarlo: {how}",
        "item": "Le recomiendo {name}.",
    },
}


def composed_reply(facts: Facts, language: str, question: str = "") -> str | None:
    """The reply the facts make to `question`, or None when they hold nothing to say."""
    words = TEMPLATES.get(language, TEMPLATES["en"])
    topic = _topic(question)
    another_day = bool(_OTHER_DAY.search(question))
    if offer := facts.offer:
        return words["offer"].format(
            value=offer["value"], title=offer["title"], how=offer["redemption_instruction"]
        )
    on_topic = [(n, t) for n, t in facts.items if topic and _about(topic, n, t, faq=True)]
    rest = [(n, t) for n, t in facts.items
            if (n, t) not in on_topic and not (topic and n.endswith("?"))]  # fmt: skip
    for name, text in on_topic + rest:
        about = text.removeprefix(f"{name}: ")
        first = _FIRST_SENTENCE.match(about)
        if first is None:
            continue
        what = _LABEL.sub("", first.group(0)).strip()
        if name.endswith("?"):  # a question and its answer (the casino's FAQ): the answer
            return what
        what = what[:1].upper() + what[1:]
        if language == "en" and (where := _WHERE.search(about)):
            what += f" {where.group(0)}"
        periods = None if another_day else facts.today.get(name)
        reply = words["place" if periods else "item"].format(name=name, what=what)
        if periods == ALL_DAY:
            return reply + words["all_day"]
        return reply + (words["today"].format(periods=periods) if periods else "")
    return None
