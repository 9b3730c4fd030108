"""Timestamps for stored profile documents: timezone-aware, ISO 8601 in JSON."""

from __future__ import annotations

from datetime import UTC, date, datetime


def require_aware(moment: datetime, what: str = "timestamp") -> datetime:
    """Reject naive datetimes: a naive 'now' from one caller and an aware one from another would
    make the 90-day decay and the 48 h dormancy arithmetic silently wrong."""
    if not isinstance(moment, datetime):
        raise TypeError(f"{what} must be a datetime, got {type(moment).__name__}")
    if moment.tzinfo is None or moment.tzinfo.utcoffset(moment) is None:
        raise ValueError(f"{what} must be timezone-aware (use datetime.now(UTC))")
    return moment


def to_iso(moment: datetime | None) -> str | None:
    return None if moment is None else require_aware(moment).isoformat()


def from_iso(text: str | None) -> datetime | None:
    if text is None:
        return None
    parsed = datetime.fromisoformat(text)
    # Stored documents written by other tools may lack an offset; the profile stores UTC.
    return parsed if parsed.tzinfo else parsed.replace(tzinfo=UTC)


def as_instant(value: date | datetime | str | None) -> datetime | None:
    """A visit date as a UTC instant: a bare date means its midnight UTC (the profile has no
    reliable guest time zone), a datetime is kept, an ISO string is parsed."""
    if value is None or value == "":
        return None
    if isinstance(value, str):
        text = value.strip()
        if len(text) == 10:
            value = date.fromisoformat(text)
        else:
            return from_iso(text)
    if isinstance(value, datetime):
        return require_aware(value, "visit date")
    return datetime(value.year, value.month, value.day, tzinfo=UTC)
