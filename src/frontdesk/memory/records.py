"""The JSON shape of the stores' records: what the API and the CLI print of a thread or ticket."""

from __future__ import annotations

import dataclasses
from datetime import datetime
from typing import Any


def public_record(record: Any) -> dict[str, Any]:
    """A frozen dataclass record as JSON-ready fields: datetimes in ISO 8601, nested records
    (a ticket's messages) as their own public fields, everything else as it is."""
    return {f.name: _plain(getattr(record, f.name)) for f in dataclasses.fields(record)}


def _plain(value: Any) -> Any:
    if isinstance(value, datetime):
        return value.isoformat()
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return public_record(value)
    if isinstance(value, tuple):
        return [_plain(item) for item in value]
    return value
