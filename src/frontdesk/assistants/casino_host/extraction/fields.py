"""Result type, canonical profile paths and confidence bands of the deterministic extractor."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Literal

Source = Literal["self_reported", "contextual_extraction"]

SELF_REPORTED: Source = "self_reported"
CONTEXTUAL: Source = "contextual_extraction"

# Source bands from the ProfileField schema (seed L1925-1931); D18: clamp into the band.
SOURCE_BANDS: dict[str, tuple[float, float]] = {
    SELF_REPORTED: (0.85, 1.0),
    CONTEXTUAL: (0.65, 0.85),
}
# Only fields above this are written (seed L13180).
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

# Seed field names (L457-460, L13145-13151) accepted as targets. The profile registry owns the
# full alias table (D19); this is the subset the whisper planner is documented to emit.
TARGET_ALIASES: dict[str, str] = {
    "name": NAME,
    "full_name": FULL_NAME,
    "email": EMAIL,
    "language": LANGUAGE,
    "visit_date": VISIT_DATE,
    "date_preferences": VISIT_DATE,
    "party_size": PARTY_SIZE,
    "companion_count": PARTY_SIZE,
    "occasion": OCCASION,
    "occasions": OCCASION,
    "dietary_restrictions": DIETARY,
    "cuisine_preferences": CUISINE,
    "budget_range": BUDGET,
    "kids_menu_needed": KIDS_MENU,
    "interests": INTERESTS,
    "music_preferences": INTERESTS,
    "accessibility_needs": ACCESSIBILITY,
    "gaming_level": GAMING_LEVEL,
    "gaming_type": GAMES,
    "preferred_games": GAMES,
    "spa_preferences": SPA_TREATMENTS,
    "treatments_interested": SPA_TREATMENTS,
    "companions": COMPANIONS,
    "companion_preferences": COMPANIONS,
    "companion_type": COMPANIONS,
    "kids_ages": COMPANIONS,
}


@dataclass(frozen=True, slots=True)
class Extracted:
    """One profile field found in a message; `evidence` is the matched text, for audit."""

    path: str
    value: Any
    confidence: float
    source: Source
    evidence: str


def clamp_confidence(confidence: float, source: str) -> float:
    low, high = SOURCE_BANDS[source]
    return round(min(high, max(low, confidence)), 3)


def resolve_targets(targets: object) -> frozenset[str] | None:
    """Canonical paths for `targets` (paths or seed aliases); ValueError names unknown ones."""
    if targets is None:
        return None
    if isinstance(targets, str):
        raise TypeError("targets must be a sequence of field names, not a single string")
    resolved: set[str] = set()
    unknown: list[str] = []
    for target in targets:  # type: ignore[attr-defined]
        if target in SUPPORTED_PATHS:
            resolved.add(target)
        elif target in TARGET_ALIASES:
            resolved.add(TARGET_ALIASES[target])
        else:
            unknown.append(str(target))
    if unknown:
        raise ValueError(f"unknown extraction targets: {', '.join(sorted(unknown))}")
    return frozenset(resolved)
