"""Guest profile domain for the casino host (WP2 items 28-36): the field registry, confidence
rules, consent grants, completeness, incentives, conversation phases and the planner's rules.

Pure: no database, no model. Everything stored is a dataclass with `to_dict()`/`from_dict()`
producing JSON-serialisable documents (`_schema_version` on the profile, X7).
"""

from frontdesk.assistants.casino_host.profile.completeness import (
    completeness,
    completeness_breakdown,
)
from frontdesk.assistants.casino_host.profile.consent import (
    ConsentGrant,
    RevocationResult,
    active_grant,
    field_consented,
    grant,
    marketing_fields,
    revoke_consent,
    revoke_grant,
)
from frontdesk.assistants.casino_host.profile.fields import (
    COMPLETENESS_WEIGHTS,
    CONSENT_SCOPES,
    FIELDS,
    SOURCE_CONFIDENCE_RANGES,
    FieldSpec,
    UnknownFieldError,
    paths_for_agent,
    paths_for_topic,
    resolve,
    spec_for,
)
from frontdesk.assistants.casino_host.profile.guest import SCHEMA_VERSION, GuestProfile, WriteResult
from frontdesk.assistants.casino_host.profile.incentives import (
    INCENTIVE_TIERS,
    IncentiveDecision,
    IncentivePolicy,
    OfferHistory,
    PastOffer,
    decide_incentive,
    weekly_spend,
)
from frontdesk.assistants.casino_host.profile.phases import (
    PHASES,
    PhaseChange,
    PhaseSignals,
    advance_phase,
    campaign_reengagement_allowed,
    count_preference_fields,
    sweep,
)
from frontdesk.assistants.casino_host.profile.planner_rules import (
    WhisperPlan,
    offer_readiness,
    plan_next,
)
from frontdesk.assistants.casino_host.profile.profile_field import (
    PROMPT_THRESHOLD,
    WRITE_THRESHOLD,
    ProfileField,
    clamp_to_source,
)
from frontdesk.assistants.casino_host.profile.signals import (
    estimate_sentiment,
    is_substantive,
    rapport_score,
)
from frontdesk.assistants.casino_host.profile.timezone import (
    TIMEZONE,
    GuestZone,
    area_code_guess,
    area_code_zones,
    canonical_zone,
    guest_zone,
)
from frontdesk.assistants.casino_host.profile.view import ProfileView

__all__ = [
    "COMPLETENESS_WEIGHTS",
    "CONSENT_SCOPES",
    "FIELDS",
    "INCENTIVE_TIERS",
    "PHASES",
    "PROMPT_THRESHOLD",
    "SCHEMA_VERSION",
    "SOURCE_CONFIDENCE_RANGES",
    "TIMEZONE",
    "WRITE_THRESHOLD",
    "ConsentGrant",
    "FieldSpec",
    "GuestProfile",
    "GuestZone",
    "IncentiveDecision",
    "IncentivePolicy",
    "OfferHistory",
    "PastOffer",
    "PhaseChange",
    "PhaseSignals",
    "ProfileField",
    "ProfileView",
    "RevocationResult",
    "UnknownFieldError",
    "WhisperPlan",
    "WriteResult",
    "active_grant",
    "advance_phase",
    "area_code_guess",
    "area_code_zones",
    "campaign_reengagement_allowed",
    "canonical_zone",
    "clamp_to_source",
    "completeness",
    "completeness_breakdown",
    "count_preference_fields",
    "decide_incentive",
    "estimate_sentiment",
    "field_consented",
    "grant",
    "guest_zone",
    "is_substantive",
    "marketing_fields",
    "offer_readiness",
    "paths_for_agent",
    "paths_for_topic",
    "plan_next",
    "rapport_score",
    "resolve",
    "revoke_consent",
    "revoke_grant",
    "spec_for",
    "sweep",
    "weekly_spend",
]
