"""The guest's own time zone, so quiet hours (no promotional SMS 21:00-08:00) are kept in the
guest's local time, not the casino's or a guess that is wrong for half the year.

It is one profile field, `core_identity.timezone`, stored like every other (value, source,
confidence, when, consent). It is learned two ways, and says which (`GuestZone.source`):

- `area_code`: the number's area code lies in exactly one zone (212 is New York). A guess,
  stored as `inferred`. An area code that spans zones (208: Boise and Los Angeles) gives
  none: the gate then checks every zone it spans, the strict choice.
- `guest_said`: "I'm on Pacific time", "I live in Denver", "vivo en Chicago" (the turn's
  extraction). Where the guest lives is `self_reported`; where they say they are is
  `contextual_extraction`. Either replaces the area code's guess, and the guess never
  replaces them (a weaker source never overwrites a stronger one, `guest.py`).

Only a name the IANA time-zone database knows is ever stored (`canonical_zone`, used by the
field's coercion): a zone that cannot be loaded would stop every send to the guest.
Pure: the area codes are `phonenumbers`' offline data, no I/O.
"""

from __future__ import annotations

import functools
import zoneinfo
from dataclasses import dataclass
from datetime import datetime
from typing import TYPE_CHECKING, Any

import phonenumbers
from phonenumbers import timezone as number_zones

from frontdesk.assistants.casino_host.profile._time import to_iso
from frontdesk.assistants.casino_host.profile.consent import field_consented
from frontdesk.assistants.casino_host.profile.profile_field import PROMPT_THRESHOLD

if TYPE_CHECKING:
    from frontdesk.assistants.casino_host.profile.guest import GuestProfile

TIMEZONE = "core_identity.timezone"
# The area code's guess: an inference, as sure as a stated fact would be after a few decays.
AREA_CODE_SOURCE = "inferred"
AREA_CODE_CONFIDENCE = 0.6
# How each stored source reads as where the zone came from. Only the area code infers a zone;
# a source not listed (a CRM import) is shown as itself.
PROVENANCE = {
    AREA_CODE_SOURCE: "area_code",
    "self_reported": "guest_said",
    "contextual_extraction": "guest_said",
}
# Names in the database that are not a place anybody lives in.
_NOT_PLACES = frozenset({"Factory", "localtime", "posixrules"})


@functools.cache
def _known_zones() -> dict[str, str]:
    return {key.casefold(): key for key in zoneinfo.available_timezones() if key not in _NOT_PLACES}


def canonical_zone(name: object) -> str | None:
    """The IANA name as the database spells it ("america/denver" -> "America/Denver"), or
    None when it is not one."""
    if not isinstance(name, str):
        return None
    return _known_zones().get(name.strip().casefold())


def area_code_zones(e164: str) -> tuple[str, ...]:
    """The IANA zones the number's area code spans (offline data of `phonenumbers`)."""
    try:
        zones = number_zones.time_zones_for_number(phonenumbers.parse(e164))
    except phonenumbers.NumberParseException:
        return ()
    return tuple(z for z in zones if z != "Etc/Unknown")


def area_code_zone(e164: str | None) -> str | None:
    """The one zone of the number's area code; None when it spans several or is unknown."""
    zones = area_code_zones(e164) if e164 else ()
    return canonical_zone(zones[0]) if len(zones) == 1 else None


def area_code_guess(profile: GuestProfile) -> tuple[str, float, str] | None:
    """The area code's zone as an extraction write `(value, confidence, source)`, for a guest
    with no zone on file (withdrawn ones count as on file: the guest's choice stands)."""
    if profile.fields.get(TIMEZONE) is not None:
        return None
    zone = area_code_zone(profile.phone_e164)
    return None if zone is None else (zone, AREA_CODE_CONFIDENCE, AREA_CODE_SOURCE)


@dataclass(frozen=True)
class GuestZone:
    zone: str
    source: str  # area_code | guest_said (or the registry source of another writer)
    noted_at: datetime  # when it was last stated or confirmed
    confidence: float

    def to_dict(self) -> dict[str, Any]:
        return {
            "zone": self.zone,
            "source": self.source,
            "noted_at": to_iso(self.noted_at),
            "confidence": self.confidence,
        }


def guest_zone(profile: GuestProfile, now: datetime) -> GuestZone | None:
    """The zone quiet hours are kept in, when the profile has one the host may use: consented
    and still trusted (what a prompt would show). Otherwise None, and the gate goes back to
    the area code's zones."""
    stored = profile.fields.get(TIMEZONE)
    if stored is None or not field_consented(profile, stored):
        return None
    zone = canonical_zone(stored.value)
    confidence = stored.effective_confidence(now)
    if zone is None or confidence < PROMPT_THRESHOLD:
        return None
    source = PROVENANCE.get(stored.source, stored.source)
    return GuestZone(zone, source, stored.verified_at or stored.collected_at, confidence)
