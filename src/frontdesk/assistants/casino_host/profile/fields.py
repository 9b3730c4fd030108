"""The one guest-profile field registry (feature map D19).

Every profile fact has one canonical dotted path (item 28's sections). The seed names the same
fact differently in three places (agent extraction targets seed §1.6, the reciprocity table
seed §9.7, the profile schema seed §2.1); those names are aliases here, so the extractor,
the planner, the completeness score and the consent grants all speak in canonical paths.

A `FieldSpec` also says which consent scope (X5) a fact is collected under by default, which
completeness group it counts toward (item 32) and which agent is meant to collect it (item 17).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

ConsentScope = Literal["personalization", "marketing", "analytics", "cross_session", "third_party"]
CONSENT_SCOPES: tuple[ConsentScope, ...] = (
    "personalization",
    "marketing",
    "analytics",
    "cross_session",
    "third_party",
)
# seed §2.8 calls third-party sharing "sharing"; X5 renames it, old documents still say it.
SCOPE_ALIASES: dict[str, ConsentScope] = {"sharing": "third_party"}

Source = Literal[
    "self_reported",
    "contextual_extraction",
    "inferred",
    "crm_import",
    "incentive_exchange",
    "auto_detected",
]
# Confidence each source may claim (item 29). auto_detected (language detection) has no range
# in the seed, so it keeps whatever confidence the detector gives, within 0..1.
SOURCE_CONFIDENCE_RANGES: dict[str, tuple[float, float] | None] = {
    "self_reported": (0.85, 1.0),
    "contextual_extraction": (0.65, 0.85),
    "inferred": (0.50, 0.70),
    "crm_import": (0.90, 1.0),
    "incentive_exchange": (0.85, 0.95),
    "auto_detected": None,
}
SOURCES: tuple[str, ...] = tuple(SOURCE_CONFIDENCE_RANGES)

Agent = Literal["host_agent", "dining_agent", "entertainment_agent", "comp_agent"]

# Item 32 / seed §9.3. Each group's weight counts once, whatever number of fields fills it.
COMPLETENESS_WEIGHTS: dict[str, float] = {
    "name": 0.15,
    "visit_date": 0.15,
    "party_size": 0.10,
    "dining_preferences": 0.15,
    "entertainment_preferences": 0.10,
    "gaming_preferences": 0.05,
    "special_occasion": 0.10,
    "companion_details": 0.05,
    "email": 0.10,
    "language": 0.05,
}

# Planner topics (item 21) a field belongs to; item 33 orders them.
Topic = Literal[
    "name",
    "visit_date",
    "party_size",
    "dining",
    "entertainment",
    "gaming",
    "occasions",
    "companions",
]


@dataclass(frozen=True)
class FieldSpec:
    """What the profile knows about one canonical field."""

    path: str
    kind: Literal["text", "int", "bool", "date", "list", "records", "zone"]
    consent_scope: ConsentScope
    scope_detail: str
    completeness_group: str | None
    topic: Topic | None
    agent: Agent | None
    aliases: tuple[str, ...] = ()

    @property
    def section(self) -> str:
        return self.path.split(".", 1)[0]


_HOST, _DINING, _ENT, _COMP = "host_agent", "dining_agent", "entertainment_agent", "comp_agent"
_P, _M = "personalization", "marketing"

# fmt: off
# (path, kind, completeness group, topic, agent, scope, scope detail, aliases)
_ROWS: tuple[tuple, ...] = (
    ("core_identity.name", "text", "name", "name", _HOST, _P, "identity",
     ("name", "first_name", "guest_name")),
    ("core_identity.full_name", "text", None, None, None, _P, "identity", ("full_name",)),
    # Email is given for deals (seed §2.1: marketing scope, incentive_exchange source).
    ("core_identity.email", "text", "email", None, _COMP, _M, "email_campaigns",
     ("email", "email_address")),
    ("core_identity.language", "text", "language", None, None, _P, "identity",
     ("language", "preferred_language")),
    # The guest's IANA time zone: quiet hours are kept in it. Learned from the area code or
    # from what the guest says (timezone.py), never asked for, so no topic and no agent.
    ("core_identity.timezone", "zone", None, None, None, _P, "contact_hours",
     ("timezone", "time_zone", "guest_timezone")),
    ("core_identity.loyalty_tier", "text", None, "gaming", _COMP, _P, "loyalty",
     ("loyalty_tier", "player_tier")),
    ("visit_context.planned_visit_date", "date", "visit_date", "visit_date", _HOST, _P,
     "visit_planning", ("visit_date", "planned_visit_date", "arrival_date")),
    ("visit_context.party_size", "int", "party_size", "party_size", _HOST, _P, "visit_planning",
     ("party_size", "group_size", "companion_count")),
    ("visit_context.occasion", "text", "special_occasion", "occasions", _HOST, _P,
     "visit_planning", ("occasion", "occasions", "special_occasion")),
    # Children travel with the guest: companion details (item 33 rank 8), picked up by dining
    # (item 17) from "need a kids menu?"-style context, never asked for.
    ("visit_context.kids_ages", "list", "companion_details", "companions", _DINING, _P,
     "companions", ("kids_ages", "children_ages")),
    # "First visit?" rides along with the visit date (seed §9.7); comp_agent targets it too.
    ("visit_context.visit_frequency", "text", None, "visit_date", _COMP, _P, "visit_planning",
     ("visit_frequency",)),
    ("visit_context.visit_history", "records", None, None, None, _P, "visit_history",
     ("visit_history",)),
    ("visit_context.referral_source", "text", None, None, _HOST, _P, "visit_planning",
     ("referral_source",)),
    ("preferences.dining.dietary_restrictions", "list", "dining_preferences", "dining", _DINING,
     _P, "dining_preferences", ("dietary_restrictions", "dietary_needs")),
    ("preferences.dining.cuisine_preferences", "list", "dining_preferences", "dining", _DINING,
     _P, "dining_preferences", ("cuisine_preferences", "cuisine")),
    ("preferences.dining.budget_range", "text", "dining_preferences", "dining", _DINING, _P,
     "dining_preferences", ("budget_range", "dining_budget")),
    ("preferences.dining.kids_menu_needed", "bool", "dining_preferences", "dining", _DINING, _P,
     "dining_preferences", ("kids_menu_needed", "kids_menu")),
    # Spa is routed to the entertainment agent (item 3) and counts as entertainment.
    ("preferences.entertainment.interests", "list", "entertainment_preferences",
     "entertainment", _ENT, _P, "entertainment_preferences",
     ("interests", "music_preferences", "entertainment_interests")),
    ("preferences.entertainment.accessibility_needs", "list", "entertainment_preferences",
     "entertainment", _ENT, _P, "entertainment_preferences",
     ("accessibility_needs", "accessibility")),
    ("preferences.entertainment.date_preferences", "list", "entertainment_preferences",
     "entertainment", _ENT, _P, "entertainment_preferences", ("date_preferences", "show_dates")),
    ("preferences.spa.treatments_interested", "list", "entertainment_preferences",
     "entertainment", _ENT, _P, "spa_preferences", ("treatments_interested", "spa_preferences")),
    # Gaming: asked only after rapport, never after a responsible-gaming trigger (item 33).
    ("preferences.gaming.level", "text", "gaming_preferences", "gaming", _COMP, _P,
     "gaming_preferences", ("gaming_level",)),
    ("preferences.gaming.preferred_games", "list", "gaming_preferences", "gaming", _COMP, _P,
     "gaming_preferences", ("preferred_games", "gaming_type")),
    ("preferences.gaming.typical_spend", "text", "gaming_preferences", "gaming", _COMP, _P,
     "gaming_preferences", ("typical_spend", "spend_pattern")),
    # companions: [{relationship, name, age, preferences}] (item 28) as one field, so a party is
    # replaced as a whole when the guest describes it again.
    ("companions", "records", "companion_details", "companions", _ENT, _P, "companions",
     ("companion_preferences", "companion_details", "companion_type")),
)
# fmt: on

FIELD_SPECS: tuple[FieldSpec, ...] = tuple(
    FieldSpec(path, kind, scope, detail, group, topic, agent, aliases)
    for path, kind, group, topic, agent, scope, detail, aliases in _ROWS
)

FIELDS: dict[str, FieldSpec] = {spec.path: spec for spec in FIELD_SPECS}
SECTIONS: tuple[str, ...] = ("core_identity", "visit_context", "preferences", "companions")


def _build_alias_index() -> dict[str, str]:
    index: dict[str, str] = {}
    for spec in FIELD_SPECS:
        for name in (spec.path, *spec.aliases):
            key = name.casefold()
            if key in index and index[key] != spec.path:
                raise RuntimeError(f"alias {name!r} names both {index[key]} and {spec.path}")
            index[key] = spec.path
    # A leaf path may not be the parent of another: documents nest fields by path.
    for path in FIELDS:
        if any(other.startswith(path + ".") for other in FIELDS):
            raise RuntimeError(f"field {path} is also a section")
    return index


ALIASES: dict[str, str] = _build_alias_index()


class UnknownFieldError(KeyError):
    """A name the registry does not know (an extractor or planner invented it)."""


def resolve(name: str) -> str:
    """Canonical path for a canonical path or an alias, case-insensitively."""
    try:
        return ALIASES[name.strip().casefold()]
    except KeyError:
        raise UnknownFieldError(name) from None


def spec_for(name: str) -> FieldSpec:
    return FIELDS[resolve(name)]


def normalise_scope(scope: str) -> ConsentScope:
    scope = SCOPE_ALIASES.get(scope, scope)
    if scope not in CONSENT_SCOPES:
        raise ValueError(f"unknown consent scope {scope!r}; expected one of {CONSENT_SCOPES}")
    return scope  # type: ignore[return-value]


def paths_for_topic(topic: str) -> tuple[str, ...]:
    return tuple(spec.path for spec in FIELD_SPECS if spec.topic == topic)


def paths_for_group(group: str) -> tuple[str, ...]:
    return tuple(spec.path for spec in FIELD_SPECS if spec.completeness_group == group)


def paths_for_agent(agent: str) -> tuple[str, ...]:
    return tuple(spec.path for spec in FIELD_SPECS if spec.agent == agent)


def paths_for_scope(scope: str) -> tuple[str, ...]:
    scope = normalise_scope(scope)
    return tuple(spec.path for spec in FIELD_SPECS if spec.consent_scope == scope)
