"""Profile completeness (item 32, seed §9.3): Σ weight × confidence over ten groups.

Reading of the seed where it is loose:
- A group counts once. When several fields fill it (dining has four) the group takes the best
  confidence among them: completeness measures how well we know the guest's dining taste, not
  how many dining facts we hold.
- The seed's `confidence or 0.5` means a value present without a confidence score counts half.
  Here every stored field carries a confidence; a stored value that had none is read as 0.5 when
  loaded (`ProfileField.from_dict`). Unlike `or`, a confidence of 0.0 (contradicted to the
  floor) counts zero, not 0.5.
- Withdrawn fields, and fields whose grant was revoked, count nothing: the guest took them back.
  Fields under the 0.40 prompt threshold still count at their low confidence, as in the seed.
- With `now`, confidences are the decayed ones due at that time (nothing is written).
"""

from __future__ import annotations

from datetime import datetime
from typing import TYPE_CHECKING

from frontdesk.assistants.casino_host.profile.consent import field_consented
from frontdesk.assistants.casino_host.profile.fields import COMPLETENESS_WEIGHTS, FIELDS
from frontdesk.assistants.casino_host.profile.values import is_empty

if TYPE_CHECKING:
    from frontdesk.assistants.casino_host.profile.guest import GuestProfile


def group_confidences(profile: GuestProfile, now: datetime | None = None) -> dict[str, float]:
    """Best usable confidence per completeness group that holds any value."""
    best: dict[str, float] = {}
    for path, stored in profile.fields.items():
        spec = FIELDS.get(path)
        if spec is None or spec.completeness_group is None or is_empty(stored.value):
            continue
        if not field_consented(profile, stored):
            continue
        confidence = stored.effective_confidence(now) if now else stored.confidence
        group = spec.completeness_group
        best[group] = max(best.get(group, 0.0), confidence)
    return best


def completeness_breakdown(profile: GuestProfile, now: datetime | None = None) -> dict[str, float]:
    """Each group's contribution (weight × confidence); missing groups contribute 0."""
    known = group_confidences(profile, now)
    return {
        group: round(weight * known.get(group, 0.0), 6)
        for group, weight in COMPLETENESS_WEIGHTS.items()
    }


def completeness(profile: GuestProfile, now: datetime | None = None) -> float:
    return round(min(1.0, sum(completeness_breakdown(profile, now).values())), 4)
