"""Replies written in code from an agent's FACTS, for its second attempt.

Asked again after its draft failed validation, the 0.5B model mostly repeats the mistake (a
time, a price, a venue from elsewhere). So the retry restates the agent's best facts itself:
the item it found first, what it is and where, and today's hours; the comp agent's offer with
how to redeem it. Grounded by construction, in the guest's language, SMS-short; the persona
envelope still shapes it.
"""

from __future__ import annotations

import re

from frontdesk.assistants.casino_host.tools import ALL_DAY, Facts

_FIRST_SENTENCE = re.compile(r"^(?:(?:Type|Answer): )?[^.]+\.")
# How the content's texts label a fact ("Type: comedy.", "Answer: Check-in is at 3 PM.").
_LABEL = re.compile(r"^(?:Type|Answer):\s*")
_WHERE = re.compile(r"Located in [^.]+\.")

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


def composed_reply(facts: Facts, language: str) -> str | None:
    """The reply the facts make, or None when they hold nothing to say."""
    words = TEMPLATES.get(language, TEMPLATES["en"])
    if offer := facts.offer:
        return words["offer"].format(
            value=offer["value"], title=offer["title"], how=offer["redemption_instruction"]
        )
    for name, text in facts.items:
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
        periods = facts.today.get(name)
        reply = words["place" if periods else "item"].format(name=name, what=what)
        if periods == ALL_DAY:
            return reply + words["all_day"]
        return reply + (words["today"].format(periods=periods) if periods else "")
    return None
