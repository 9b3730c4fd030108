from datetime import date

import pytest

from frontdesk.knowledge.dates import asked_range
from frontdesk.knowledge.schedule import asked_days

SUNDAY = date(2026, 11, 29)
MON, TUE, WED, THU, FRI, SAT, SUN = range(7)


@pytest.mark.parametrize(
    ("question", "day"),
    [
        ("is it open wednesday night", date(2026, 12, 2)),
        ("what's on saturday?", date(2026, 12, 5)),
        ("open sat?", date(2026, 12, 5)),
        ("next sun brunch", date(2026, 12, 6)),
        ("¿abre el lunes?", date(2026, 11, 30)),
        ("y el miércoles?", date(2026, 12, 2)),
        ("el próximo sábado hay show?", date(2026, 12, 5)),
        ("y mañana?", date(2026, 11, 30)),
        ("mañana por la mañana", date(2026, 11, 30)),
        ("pasado mañana", date(2026, 12, 1)),
        ("qué hay esta noche", SUNDAY),
        ("wut time does the pool close tmrw", date(2026, 11, 30)),
        ("anything on tonite?", SUNDAY),
    ],
)
def test_one_day_asked_in_english_or_spanish(question, day):
    asked = asked_range(question, SUNDAY)
    assert asked is not None and asked.start == asked.end == day


@pytest.mark.parametrize(
    "question",
    ["what shows are at mohegan sun", "is the pool in the sun", "abre por la mañana?"],
)
def test_words_that_only_look_like_a_day_name_none(question):
    assert asked_range(question, SUNDAY) is None


def test_a_spanish_weekend_is_the_weekend():
    asked = asked_range("qué hay este fin de semana", date(2026, 12, 2))
    assert asked is not None and (asked.start, asked.end) == (date(2026, 12, 4), date(2026, 12, 6))


def test_asked_days_reads_spanish_day_words():
    now = "Sunday, November 29, 2026, 6:00 PM EST"
    assert asked_days("abre el lunes o el viernes?", now) == [MON, FRI]
    assert asked_days("y mañana?", now) == [MON]
    assert asked_days("a qué hora abre hoy", now) == [SUN]
