"""Replies written in code from an agent's FACTS, for its second attempt.

Asked again after its draft failed validation, the 0.5B model mostly repeats the mistake (a
time, a price, a venue from elsewhere). So the retry restates the agent's best facts itself:
the item it found first, what it is and where, and today's hours; the comp agent's offer with
how to redeem it. Grounded by construction, in the guest's language, SMS-short; the persona
envelope still shapes it.
"""

from __future__ import annotations

import re

from frontdesk.assistants.casino_host.tools import Facts

_TODAY = re.compile(r"^(?P<name>.+?): today \([^)]*\) (?P<periods>[^;]+);")
_OFFER = re.compile(r"^OFFER: (?P<value>.+?) \((?P<title>[^)]+)\)\. To redeem: (?P<how>.+)$")
_FIRST_SENTENCE = re.compile(r"^(?P<name>[^:]+): (?P<what>(?:Type|Answer): [^.]+\.|[^.]+\.)")
_WHERE = re.compile(r"Located in [^.]+\.")
# How the content's texts label a fact ("Type: comedy.", "Answer: Check-in is at 3 PM.").
_LABEL = re.compile(r"^(?:Type|Answer):\s*")

TEMPLATES = {
    "en": {
        "place": "Try {name}: {what}",
        "today": " Today it's open {periods}.",
        "offer": "We'd love to welcome you with {value}. To redeem: {how}",
        "item": "{name}: {what}",
    },
    "es": {
        "place": "Le recomiendo {name}.",
        "today": " Hoy abre {periods}.",
        "offer": "Nos encantaría recibirle con {value} ({title}). Para usarlo: {how}",
        "item": "Le recomiendo {name}.",
    },
}


def composed_reply(facts: Facts, language: str) -> str | None:
    """The reply the facts make, or None when they hold nothing to say."""
    words = TEMPLATES.get(language, TEMPLATES["en"])
    for line in facts.lines:
        if offer := _OFFER.match(line):
            return words["offer"].format(**offer.groupdict())
    today = {m["name"]: m["periods"].strip() for m in map(_TODAY.match, facts.lines) if m}
    for line in facts.lines:
        first = _FIRST_SENTENCE.match(line)
        if first is None or first["name"].startswith("OFFER") or _TODAY.match(line):
            continue
        name, what = first["name"].strip(), _LABEL.sub("", first["what"]).strip()
        if name.endswith("?"):  # a question and its answer (the casino's FAQ): the answer
            return _LABEL.sub("", line.split(": ", 1)[1]).split(". ")[0].rstrip(".") + "."
        what = what[:1].upper() + what[1:]
        if language == "en" and (where := _WHERE.search(line)):
            what += f" {where.group(0)}"
        text = words["place" if name in today else "item"].format(name=name, what=what)
        if name in today:
            text += words["today"].format(periods=today[name])
        return text
    return None
