"""The answer to a one-value result, worded in code from the question: no model call.

"How many work orders are open?" over a result of one cell, 17, is "17 work orders are open.";
"What was the total amount of payments received in October 2025?" is "The total amount of
payments received in October 2025 was 48,210.50." The model wrote the same sentences a call
later (about a third of the analyst's own questions are of these two shapes). Any other
question, a follow-up, or a result of more than one cell is left to the model.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from decimal import Decimal
from typing import Any

from frontdesk.agentkit.specifics import singular

# "How many <things> <verb> <the rest>?": the verb agrees with the count.
_HOW_MANY = re.compile(
    r"^how many (?P<things>[a-z][\w\- ]*?) (?P<verb>are|is|were|was|have|has|had) "
    r"(?P<rest>[^?]+?)\s*\??$",
    re.IGNORECASE,
)
# "What was the total ...?" / "What is the average ...?"
_WHAT_IS = re.compile(
    r"^what (?P<verb>is|was|are|were) (?P<subject>the [^?]+?)\s*\??$", re.IGNORECASE
)
# How the question asks the number to be shown, which the sentence need not repeat.
_HOW_SHOWN = re.compile(r",?\s*(?:rounded|to the nearest|in total)\b.*$", re.IGNORECASE)
_ONE = {"are": "is", "were": "was", "have": "has"}
# The counted things are a plain noun phrase: "technicians do we have that are active" or "work
# orders that were opened in May" are worded by the model.
_NOT_IN_A_NOUN_PHRASE = frozenset(
    "do does did we you they i our your their that which who whom whose there it".split()  # noqa: SIM905
)
MAX_NOUN_WORDS = 4


def worded_answer(
    question: str, columns: Sequence[str], rows: Sequence[dict[str, Any]]
) -> str | None:
    """The sentence for a one-cell result, or None when the question is not of a shape worded
    here (the model writes it)."""
    if len(rows) != 1 or len(columns) != 1:
        return None
    value = rows[0][columns[0]]
    if value is None or isinstance(value, bool) or not isinstance(value, int | float | Decimal):
        return None
    text = " ".join(_HOW_SHOWN.sub("", question.strip()).split())
    if match := _HOW_MANY.match(text):
        return _counted(value, match["things"], match["verb"].lower(), match["rest"])
    if match := _WHAT_IS.match(text):
        subject = match["subject"]
        return f"{subject[0].upper()}{subject[1:]} {match['verb'].lower()} {_number(value)}."
    return None


def _counted(value: float | Decimal, things: str, verb: str, rest: str) -> str | None:
    words = things.casefold().split()
    if len(words) > MAX_NOUN_WORDS or _NOT_IN_A_NOUN_PHRASE & set(words):
        return None
    if value != int(value) or value < 0:
        return None  # "how many" answered by a fraction: not a count
    count = int(value)
    if count == 1:
        words = things.split()
        things = " ".join([*words[:-1], singular(words[-1])])
        verb = _ONE.get(verb, verb)
    if rest.casefold() == "there":
        return f"There {verb} {count:,} {things}."
    return f"{count:,} {things} {verb} {rest}."


def _number(value: float | Decimal) -> str:
    if value == int(value):
        return f"{int(value):,}"
    return f"{value:,.2f}" if abs(Decimal(str(value)).as_tuple().exponent) <= 2 else f"{value:,}"
