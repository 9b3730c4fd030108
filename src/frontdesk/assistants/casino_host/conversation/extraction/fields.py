"""Result type, canonical profile paths and confidence bands of the deterministic extractor."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Literal

from frontdesk.assistants.casino_host.profile.fields import (
    SOURCE_CONFIDENCE_RANGES,
    UnknownFieldError,
    resolve,
)

Source = Literal["self_reported", "contextual_extraction"]

SELF_REPORTED: Source = "self_reported"
CONTEXTUAL: Source = "contextual_extraction"

# The bands this extractor's two sources may claim: the profile's own table (D18).
SOURCE_BANDS: dict[str, tuple[float, float]] = {
    source: SOURCE_CONFIDENCE_RANGES[source] for source in (SELF_REPORTED, CONTEXTUAL)
}  # type: ignore[misc]
# Only fields above this are written (seed §9.7).
MIN_CONFIDENCE = 0.5

# Confidence presets, named by how the value was stated.
STATED_EXPLICITLY = 0.95  # "my name is Ana", "party of 6"
STATED = 0.9  # "I'm vegetarian", "we're coming Saturday"
STATED_WEAKLY = 0.85  # a signature, a loosely phrased self statement
ABOUT_COMPANION = 0.8  # "my wife is vegan": stated, but about someone else
IMPLIED = 0.75  # "dinner for me and my wife" -> 2
HINTED = 0.7  # a question that suggests an interest: "any sushi places?"

NAME = "core_identity.name"
FULL_NAME = "core_identity.full_name"
EMAIL = "core_identity.email"
LANGUAGE = "core_identity.language"
TIMEZONE = "core_identity.timezone"
VISIT_DATE = "visit_context.planned_visit_date"
PARTY_SIZE = "visit_context.party_size"
OCCASION = "visit_context.occasion"
DIETARY = "preferences.dining.dietary_restrictions"
CUISINE = "preferences.dining.cuisine_preferences"
BUDGET = "preferences.dining.budget_range"
KIDS_MENU = "preferences.dining.kids_menu_needed"
INTERESTS = "preferences.entertainment.interests"
ACCESSIBILITY = "preferences.entertainment.accessibility_needs"
GAMING_LEVEL = "preferences.gaming.level"
GAMES = "preferences.gaming.preferred_games"
SPA_TREATMENTS = "preferences.spa.treatments_interested"
COMPANIONS = "companions"

# Output order of extract(); also the set of paths this extractor can produce.
FIELD_ORDER: tuple[str, ...] = (
    NAME,
    FULL_NAME,
    EMAIL,
    LANGUAGE,
    TIMEZONE,
    VISIT_DATE,
    PARTY_SIZE,
    OCCASION,
    DIETARY,
    CUISINE,
    BUDGET,
    KIDS_MENU,
    INTERESTS,
    ACCESSIBILITY,
    GAMING_LEVEL,
    GAMES,
    SPA_TREATMENTS,
    COMPANIONS,
)
SUPPORTED_PATHS = frozenset(FIELD_ORDER)
LIST_PATHS = frozenset(
    {DIETARY, CUISINE, INTERESTS, ACCESSIBILITY, GAMES, SPA_TREATMENTS, COMPANIONS}
)

# Seed field names (seed §1.6, §9.7) accepted as targets. The profile registry owns the
# full alias table (D19); this is the subset the whisper planner is documented to emit.
# Registry fields this extractor fills through another path: a child's age is a companion
# entry ({"relationship": "child", "age": 7}), a date the guest prefers is the visit date.
# Every other name resolves through the profile registry's aliases (one table, D19).
EXTRACTED_AS: dict[str, str] = {
    "visit_context.kids_ages": COMPANIONS,
    "preferences.entertainment.date_preferences": VISIT_DATE,
}


@dataclass(frozen=True, slots=True)
class Extracted:
    """One profile field found in a message; `evidence` is the matched text, for audit."""

    path: str
    value: Any
    confidence: float
    source: Source
    evidence: str


def resolve_targets(targets: object) -> frozenset[str] | None:
    """Canonical paths for `targets` (paths or the registry's aliases); ValueError names
    unknown ones and ones this extractor cannot fill."""
    if targets is None:
        return None
    if isinstance(targets, str):
        raise TypeError("targets must be a sequence of field names, not a single string")
    resolved: set[str] = set()
    unknown: list[str] = []
    for target in targets:  # type: ignore[attr-defined]
        try:
            path = resolve(str(target))
        except UnknownFieldError:
            unknown.append(str(target))
            continue
        path = EXTRACTED_AS.get(path, path)
        if path in SUPPORTED_PATHS:
            resolved.add(path)
        else:
            unknown.append(str(target))
    if unknown:
        raise ValueError(f"unknown extraction targets: {', '.join(sorted(unknown))}")
    return frozenset(resolved)
