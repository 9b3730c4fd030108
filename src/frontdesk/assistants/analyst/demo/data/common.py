"""Shared state and helpers of the demo data generator.

Every generator module receives one `Demo`: the seeded random source, the growing rows per
table, and `meta`, where generators leave Python-side facts (which employees are technicians,
which branch a site belongs to ...) for later generators. Rows hold Python `date`/`datetime`
values while generating; `finalize` turns them into ISO text at the end.

The data describe a snapshot taken at `AS_OF` (2025-12-15 17:00): work before it is done or
in progress, work after it is scheduled or open, and invoices are paid, sent or overdue as of
that moment. Nothing depends on the real current date.
"""

from __future__ import annotations

import random
import unicodedata
from datetime import date, datetime, time, timedelta
from typing import Any

from frontdesk.assistants.analyst.demo.data.names import EMAIL_DOMAINS, FIRST_NAMES, LAST_NAMES
from frontdesk.assistants.analyst.demo.schema.tables import TABLE_BY_NAME, TABLES

START = date(2024, 1, 1)
END = date(2025, 12, 31)
AS_OF = datetime(2025, 12, 15, 17, 0)
AS_OF_DATE = AS_OF.date()
AREA_CODES = {"Austin": "512", "Dallas": "214", "Houston": "713", "San Antonio": "210"}


class Demo:
    def __init__(self, seed: int) -> None:
        self.rng = random.Random(seed)
        self.rows: dict[str, list[dict[str, Any]]] = {t.name: [] for t in TABLES}
        self.meta: dict[str, Any] = {}

    def add(self, table: str, **values: Any) -> int:
        """Append a row; its id is its 1-based position, so `row(table, id)` is O(1)."""
        rows = self.rows[table]
        values["id"] = len(rows) + 1
        rows.append(values)
        return values["id"]

    def row(self, table: str, row_id: int) -> dict[str, Any]:
        return self.rows[table][row_id - 1]

    # -- random helpers -------------------------------------------------------------------
    def chance(self, p: float) -> bool:
        return self.rng.random() < p

    def pick(self, seq):
        return seq[self.rng.randrange(len(seq))]

    def weighted(self, options: dict):
        keys = list(options)
        return self.rng.choices(keys, weights=[options[k] for k in keys])[0]

    def day_between(self, first: date, last: date) -> date:
        span = (last - first).days
        return first + timedelta(days=self.rng.randint(0, max(span, 0)))

    def moment(self, day: date, first_hour: int = 8, last_hour: int = 17) -> datetime:
        """A time on `day` between the hours, on a 5-minute grid."""
        minutes = self.rng.randrange(first_hour * 60, last_hour * 60, 5)
        return datetime.combine(day, time(minutes // 60, minutes % 60))

    def person(self) -> tuple[str, str]:
        return self.pick(FIRST_NAMES), self.pick(LAST_NAMES)

    def phone(self, city_branch: str = "Austin") -> str:
        area = AREA_CODES.get(city_branch, "512")
        return f"({area}) {self.rng.randint(200, 989)}-{self.rng.randint(1000, 9999)}"

    def personal_email(self, first: str, last: str) -> str:
        sep = self.pick((".", "", "_"))
        number = self.pick(("", "", str(self.rng.randint(1, 99))))
        return f"{ascii_slug(first)}{sep}{ascii_slug(last)}{number}@{self.pick(EMAIL_DOMAINS)}"


def ascii_slug(text: str) -> str:
    plain = unicodedata.normalize("NFKD", text).encode("ascii", "ignore").decode()
    return "".join(ch for ch in plain.lower() if ch.isalnum())


def money(value: float) -> float:
    return round(value + 1e-9, 2)


def quarter_hours(value: float) -> float:
    return max(0.25, round(value * 4) / 4)


def add_years(day: date, years: int) -> date:
    try:
        return day.replace(year=day.year + years)
    except ValueError:  # 29 February
        return day.replace(year=day.year + years, day=28)


def employed(emp: dict, day: date) -> bool:
    return emp["hire"] <= day and (emp["term"] is None or day <= emp["term"])


def add_named(demo: Demo, table: str, field: str, values, **common) -> dict:
    return {value: demo.add(table, **{field: value}, **common) for value in values}


def business_day(day: date, holidays: set[date]) -> date:
    while day.weekday() >= 5 or day in holidays:
        day += timedelta(days=1)
    return day


def _converter(type_name: str):
    """Per-column conversion to storable values (chosen once per column, for speed)."""
    if type_name == "DATE":
        return lambda v: None if v is None else v.isoformat()
    if type_name == "DATETIME":
        return lambda v: None if v is None else v.isoformat(" ", "seconds")
    if type_name == "TIME":
        return lambda v: None if v is None else v.isoformat("seconds")
    if type_name == "BOOLEAN":
        return lambda v: None if v is None else int(v)
    if type_name.startswith("DECIMAL"):
        return lambda v: None if v is None else round(float(v), 6)
    return None


def finalize(rows: dict[str, list[dict[str, Any]]]) -> dict[str, list[dict[str, Any]]]:
    """Rows in schema column order with ISO dates; unknown or missing required keys raise."""
    out: dict[str, list[dict[str, Any]]] = {}
    for name, table_rows in rows.items():
        table = TABLE_BY_NAME[name]
        names = table.column_names
        known = set(names)
        required = [c.name for c in table.columns if not c.nullable]
        plan = [(c.name, _converter(c.type)) for c in table.columns]
        finished = []
        for row in table_rows:
            if len(row) > len(names) or not known.issuperset(row):
                raise ValueError(f"{name}: unknown columns {sorted(set(row) - known)}")
            missing = [c for c in required if row.get(c) is None]
            if missing:
                raise ValueError(f"{name} id={row.get('id')}: missing {missing}")
            get = row.get
            finished.append({c: convert(get(c)) if convert else get(c) for c, convert in plan})
        out[name] = finished
    return out
