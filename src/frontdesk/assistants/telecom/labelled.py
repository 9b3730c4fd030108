"""A question about one indicator's state in the manual ("My PON LED is blinking red. What does it
mean?"), answered with that item's own sentence, without the model.

The manuals describe LEDs and similar states as labelled list items under a heading:
"### PON LED" then "- **Blinking red**: the box receives light but ...". Shown the section,
the 0.5B model gave the line before it (blinking green: "registering") for blinking red. When
every word of one item's label is in the question, and the question names its heading's subject
("PON") or the label names it ("PON miga na czerwono"), that item answers; two items that fit
equally well (a red LED of unnamed kind) leave the answer to the model.
"""

from __future__ import annotations

import re

from frontdesk.guardrails import normalize_text

_HEADING = re.compile(r"^#{1,6}\s+(.+?)\s*$")
_ITEM = re.compile(r"^\s*[-*]\s+\*\*(.+?)\*\*\s*:?\s*(.+)$")
# Heading words that name no subject of their own.
_GENERIC = frozenset(
    "led leds light lights and the of a an dioda diody lampka lampki sprawdz i oraz".split()  # noqa: SIM905
)
# An indicator's state: only such labels are answered here ("Wi-Fi 2.4 GHz: ..." in a question
# comparing bands is the model's).
_STATE = frozenset(
    """blinking flashing steady solid off on red green orange amber white blue miga migajaca
    swieci czerwono zielono pomaranczowo nie""".split()  # noqa: SIM905
)
# A label this long names its subject itself ("PON miga na czerwono").
SELF_NAMED_LABEL_WORDS = 3


def _words(text: str) -> set[str]:
    return set(re.findall(r"[a-z0-9]+", normalize_text(text)))


def labelled_answer(question: str, context: list[str]) -> str | None:
    """The item of the manual that `question` asks about, as "<label> (<heading>): <text>", or
    None when no single item fits."""
    asked = _words(question)
    fits: list[tuple[int, str]] = []
    for text in context:
        heading = ""
        for line in text.splitlines():
            if match := _HEADING.match(line):
                heading = match.group(1).strip()
                continue
            if not (match := _ITEM.match(line)):
                continue
            label, said = match.group(1).strip(), match.group(2).strip()
            label_words = _words(label)
            if not label_words & _STATE or not label_words <= asked:
                continue
            subject = _words(heading) - _GENERIC - label_words
            if len(label_words) < SELF_NAMED_LABEL_WORDS and not subject & asked:
                continue
            place = f" ({heading})" if heading else ""
            fits.append((len(label_words), f"{label}{place}: {said}"))
    if not fits:
        return None
    best = max(score for score, _ in fits)
    answers = list(dict.fromkeys(answer for score, answer in fits if score == best))
    return answers[0] if len(answers) == 1 else None
