"""Field values: coercion to the registry's kind, equality for confirmation, prompt masking."""

from __future__ import annotations

import json
from datetime import date, datetime
from typing import Any

from frontdesk.assistants.casino_host.profile.fields import FieldSpec
from frontdesk.assistants.casino_host.profile.timezone import canonical_zone


class InvalidValueError(ValueError):
    """A value that cannot be read as the field's kind (e.g. party_size "a few")."""


def is_empty(value: Any) -> bool:
    return value is None or value == "" or value == [] or value == {}


def coerce(spec: FieldSpec, value: Any) -> Any:
    """Bring an extracted value into the field's kind; extractors hand back strings often."""
    kind = spec.kind
    if kind == "int":
        if isinstance(value, bool):
            raise InvalidValueError(f"{spec.path}: {value!r} is not a number")
        try:
            number = int(str(value).strip()) if not isinstance(value, int) else value
        except ValueError:
            raise InvalidValueError(f"{spec.path}: {value!r} is not a number") from None
        if number < 0:
            raise InvalidValueError(f"{spec.path}: {value!r} is negative")
        return number
    if kind == "bool":
        if isinstance(value, bool):
            return value
        text = str(value).strip().casefold()
        if text in {"true", "yes", "y", "1", "si", "sí"}:
            return True
        if text in {"false", "no", "n", "0"}:
            return False
        raise InvalidValueError(f"{spec.path}: {value!r} is not yes/no")
    if kind == "date":
        if isinstance(value, datetime):
            return value.date().isoformat()
        if isinstance(value, date):
            return value.isoformat()
        text = str(value).strip()
        try:
            return date.fromisoformat(text[:10]).isoformat()
        except ValueError:
            raise InvalidValueError(f"{spec.path}: {value!r} is not an ISO date") from None
    if kind == "list":
        items = value if isinstance(value, (list, tuple, set)) else [value]
        return [item.strip() if isinstance(item, str) else item for item in items]
    if kind == "zone":
        # A zone the database does not know would stop every send to the guest (quiet hours).
        zone = canonical_zone(value)
        if zone is None:
            raise InvalidValueError(f"{spec.path}: {value!r} is not an IANA time zone")
        return zone
    if kind == "records":
        items = value if isinstance(value, (list, tuple)) else [value]
        if not all(isinstance(item, dict) for item in items):
            raise InvalidValueError(f"{spec.path}: expected a list of objects")
        return [dict(item) for item in items]
    return str(value).strip()


def _normalised(value: Any) -> Any:
    if isinstance(value, str):
        return " ".join(value.casefold().split())
    if isinstance(value, (list, tuple, set)):
        return sorted(json.dumps(_normalised(item), sort_keys=True) for item in value)
    if isinstance(value, dict):
        return {str(k): _normalised(v) for k, v in value.items()}
    return value


def same_value(left: Any, right: Any) -> bool:
    """Equal for the purpose of confirmation: case, spacing and list order do not matter."""
    return _normalised(left) == _normalised(right)


def mask_email(address: str) -> str:
    """The model needs to know an email is on file, never the address (prompts get traced)."""
    local, _, domain = str(address).partition("@")
    return f"{local[:1]}***@{domain}" if domain else "***"
