"""Planned visit dates resolved against a fixed `now` (Wednesday 2026-11-25, New York)."""

from __future__ import annotations

from datetime import datetime
from zoneinfo import ZoneInfo

import pytest

from frontdesk.assistants.casino_host.conversation.extraction import extract

NEW_YORK = ZoneInfo("America/New_York")
NOW = datetime(2026, 11, 25, 15, 0, tzinfo=NEW_YORK)
VISIT_DATE = "visit_context.planned_visit_date"


def visit_date(message: str, now: datetime = NOW, **kwargs: object) -> str | None:
    found = {item.path: item for item in extract(message, now=now, **kwargs)}  # type: ignore[arg-type]
    return found[VISIT_DATE].value if VISIT_DATE in found else None


@pytest.mark.parametrize(
    ("message", "expected"),
    [
        ("coming this Saturday", "2026-11-28"),
        ("we'll be there Saturday night", "2026-11-28"),
        ("coming tomorrow", "2026-11-26"),
        ("see you tonight", "2026-11-25"),
        ("day after tomorrow", "2026-11-27"),
        ("coming Wednesday", "2026-11-25"),
        ("next Friday", "2026-12-04"),  # Friday of next week, said on a Wednesday
        ("this weekend", "2026-11-28"),
        ("next weekend", "2026-12-05"),
        ("on the 14th", "2026-12-14"),  # the 14th of this month has passed
        ("on the 28th", "2026-11-28"),
        ("March 3", "2027-03-03"),
        ("Dec 3", "2026-12-03"),
        ("December 31st", "2026-12-31"),
        ("3rd of March", "2027-03-03"),
        ("12/20", "2026-12-20"),
        ("2026-12-01", "2026-12-01"),
        ("in 2 weeks", "2026-12-09"),
        ("in a week", "2026-12-02"),
        ("Thanksgiving", "2026-11-26"),
        ("Christmas Eve", "2026-12-24"),
        ("el sábado", "2026-11-28"),
        ("este sábado vamos", "2026-11-28"),
        ("el próximo sábado", "2026-11-28"),
        ("mañana", "2026-11-26"),
        ("Mañana por la mañana", "2026-11-26"),
        ("pasado mañana", "2026-11-27"),
        ("el 14 de marzo", "2027-03-14"),
        ("el día 5", "2026-12-05"),
        ("este fin de semana", "2026-11-28"),
        ("en dos semanas", "2026-12-09"),
        ("llegamos el viernes 4 de diciembre", "2026-12-04"),
        ("Nochevieja", "2026-12-31"),
    ],
)
def test_relative_and_absolute_dates(message: str, expected: str) -> None:
    assert visit_date(message) == expected


@pytest.mark.parametrize(
    "message",
    [
        "We were there yesterday",
        "we came last Saturday",
        "el sábado pasado",
        "We had dinner on November 20",  # recently past, not next year
        "on 2025-12-01",
        "loved the show on the 14th",  # past tense
        "por la mañana",  # "in the morning" is not tomorrow
        "open 24/7?",
        "at 7:30",
        "our 50th anniversary",
        "I may 2 things",
    ],
)
def test_past_or_non_dates_give_no_visit_date(message: str) -> None:
    assert visit_date(message) is None


def test_numeric_dates_follow_the_language() -> None:
    assert visit_date("vamos el 12/03", language="es") == "2027-03-12"
    assert visit_date("coming 12/03", language="en") == "2026-12-03"


def test_resolution_uses_the_guest_time_zone() -> None:
    utc_now = datetime(2026, 11, 26, 2, 30, tzinfo=ZoneInfo("UTC"))  # 21:30 on the 25th in NY
    assert visit_date("tomorrow", now=utc_now) == "2026-11-26"
    assert visit_date("tomorrow", now=utc_now, timezone="Europe/Madrid") == "2026-11-27"


def test_saturday_said_on_sunday_is_next_saturday() -> None:
    sunday = datetime(2026, 11, 29, 10, 0, tzinfo=NEW_YORK)
    assert visit_date("coming Saturday", now=sunday) == "2026-12-05"
    assert visit_date("this weekend", now=sunday) == "2026-11-29"


def test_confidence_depends_on_visit_wording() -> None:
    stated = next(i for i in extract("we're coming Saturday", now=NOW) if i.path == VISIT_DATE)
    asked = next(i for i in extract("what's on Saturday?", now=NOW) if i.path == VISIT_DATE)
    assert stated.source == "self_reported"
    assert asked.source == "contextual_extraction"
    assert asked.confidence < stated.confidence
