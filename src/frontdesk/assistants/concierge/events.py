"""Dated performances: the shows in the days a question asks about ("is there a show this
weekend?"), picked in code from the items' `performances` and the turn's date."""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import date, datetime

from frontdesk.knowledge.dates import DateRange, asked_range, long_date
from frontdesk.knowledge.loader import KnowledgeItem


@dataclass(frozen=True)
class ShowsAnswer:
    text: str
    items: tuple[str, ...]
    # The dates worked out from the clock ("this weekend is ..."): support for the answer
    # that no item states.
    support: str = ""


_EVENTS = re.compile(
    r"\b(shows?(?! up)|concerts?|events?|perform\w*|comed\w*|gigs?|playing|entertainment|live music|"
    r"what'?s on|anything on|going on|happening)\b"
)
_PERFORMANCE = re.compile(r"^(\d{4}-\d{2}-\d{2}) (\d{1,2}:\d{2} [AP]M)$")


def performances(item: KnowledgeItem) -> list[datetime]:
    found = []
    for value in item.fields.get("performances") or []:
        if match := _PERFORMANCE.match(str(value)):
            found.append(
                datetime.strptime(f"{match.group(1)} {match.group(2)}", "%Y-%m-%d %I:%M %p")
            )
    return found


def _clock(moment: datetime) -> str:
    return moment.strftime("%-I:%M %p")


def events_answer(
    question: str, items: Sequence[KnowledgeItem], today: date | None
) -> ShowsAnswer | None:
    """The dated performances in the range a question asks about ("this weekend")."""
    if today is None or not _EVENTS.search(question.casefold()):
        return None
    dated = [(moment, item) for item in items for moment in performances(item)]
    if not dated:
        return None
    asked = asked_range(question, today)
    if asked is None:
        return None
    return _list_performances(asked, sorted(dated, key=lambda pair: pair[0]), today)


def _list_performances(
    asked: DateRange, dated: list[tuple[datetime, KnowledgeItem]], today: date
) -> ShowsAnswer:
    support = f"Worked out from today's date: {asked.describe()}."
    inside = [(m, i) for m, i in dated if m.date() in asked]
    if inside:
        lines = [
            f"- {item.name} at {item.fields.get('location', 'the resort')}: "
            f"{long_date(moment.date())} at {_clock(moment)}"
            for moment, item in inside
        ]
        return ShowsAnswer(
            f"Shows {asked.describe()}:\n" + "\n".join(lines),
            tuple(dict.fromkeys(item.name for _, item in inside)),
            support,
        )
    later = [(m, i) for m, i in dated if m.date() > asked.end and m.date() >= today]
    text = f"I don't see any shows listed {asked.describe()}."
    if later:
        moment, item = later[0]
        text += (
            f" The next one is {item.name} at {item.fields.get('location', 'the resort')} "
            f"on {long_date(moment.date())} at {_clock(moment)}."
        )
        return ShowsAnswer(text, (item.name,), support)
    return ShowsAnswer(text, (), support)
