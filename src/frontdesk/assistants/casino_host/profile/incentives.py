"""Incentive tiers (item 34, seed §9.6) and offer rules (item 35; D13, D14, D15).

`decide_incentive` refuses outright when a rule forbids any offer now (one per arc, too few
exchanges, rejection cool-off, escalation pause, readiness). Otherwise it walks the tiers from
the highest down and offers the first one the guest is eligible for and every rule allows:
completeness and the tier's requirement (the tier table decides eligibility, D13), no gaming
incentive after a responsible-gaming trigger, the weekly cap (D14: VIP is unreachable until a
casino raises the cap above its value), the NJ 24 h cooling-off for VIP offers over $100.

Copy welcomes, it never grades the guest (D15): "We'd love to welcome you with ...", and a
redemption instruction always comes with an offer (seed §9.6).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from types import MappingProxyType
from typing import Any, Literal

from frontdesk.assistants.casino_host.profile._time import from_iso, require_aware, to_iso
from frontdesk.assistants.casino_host.profile.completeness import completeness
from frontdesk.assistants.casino_host.profile.guest import GuestProfile

TierName = Literal["dining", "freeplay", "hotel", "vip"]
OfferStatus = Literal["accepted", "rejected", "pending"]
WEEK = timedelta(days=7)
VISIT_DATE_CONFIRMED = 0.85  # a date the guest stated (self_reported floor) or confirmed


@dataclass(frozen=True)
class IncentiveTier:
    name: TierName
    min_completeness: float  # strictly above
    requirement: str
    # Free play is a gaming incentive. The VIP package's contents are the casino's, so it is
    # treated as one too: a high-value package is the last thing to send after an RG trigger.
    gaming: bool


INCENTIVE_TIERS: tuple[IncentiveTier, ...] = (
    IncentiveTier("dining", 0.2, "guest replied to 2+ messages", gaming=False),
    IncentiveTier("freeplay", 0.4, "email on file", gaming=True),
    IncentiveTier("hotel", 0.6, "visit date confirmed", gaming=False),
    IncentiveTier("vip", 0.8, "special occasion known", gaming=True),
)

DEFAULT_TIER_VALUES = MappingProxyType(
    {"dining": 10.0, "freeplay": 25.0, "hotel": 50.0, "vip": 100.0}
)
DEFAULT_REDEMPTION = MappingProxyType(
    {
        "dining": "Show this text to the host at any of our restaurants.",
        "freeplay": "Show this text with your ID at the players club desk to load it.",
        "hotel": "Mention this text when you book your stay.",
        "vip": "Show this text at the VIP desk and your host will set it up.",
    }
)
OFFER_LABELS = MappingProxyType(
    {
        "dining": "a ${value} dining credit",
        "freeplay": "${value} in free play",
        "hotel": "${value} off your hotel stay",
        "vip": "a ${value} VIP package",
    }
)


@dataclass(frozen=True)
class IncentivePolicy:
    """Per-casino offer settings; the defaults are the seed's."""

    weekly_cap_usd: float = 50.0
    casino_state: str | None = None
    tier_values: Mapping[str, float] = field(default_factory=lambda: dict(DEFAULT_TIER_VALUES))
    redemption_instructions: Mapping[str, str] = field(
        default_factory=lambda: dict(DEFAULT_REDEMPTION)
    )
    min_substantive_exchanges: int = 3
    rejection_cooloff_messages: int = 5
    min_dining_replies: int = 2
    create_offer_readiness: float = 0.8  # D13: create_offer needs readiness above this
    # seed §9.19 / seed §9.20: NJ's 24 h cooling-off between marketing consent and a VIP offer > $100.
    cooling_off_hours: Mapping[str, int] = field(default_factory=lambda: {"NJ": 24})
    cooling_off_above_usd: float = 100.0


@dataclass(frozen=True)
class PastOffer:
    tier: TierName
    value_usd: float
    made_at: datetime
    status: OfferStatus = "pending"

    def to_dict(self) -> dict[str, Any]:
        return {
            "tier": self.tier,
            "value_usd": self.value_usd,
            "made_at": to_iso(self.made_at),
            "status": self.status,
        }

    @classmethod
    def from_dict(cls, raw: dict[str, Any]) -> PastOffer:
        return cls(raw["tier"], float(raw["value_usd"]), from_iso(raw["made_at"]), raw["status"])  # type: ignore[arg-type]


@dataclass(frozen=True)
class OfferHistory:
    """What the offer rules need to know about the past. `arc_started_at` defaults to the
    profile's; `messages_since_last_rejection` counts guest messages since the latest offer was
    rejected (None when unknown: the cool-off then holds, failing closed)."""

    offers: Sequence[PastOffer] = ()
    substantive_exchanges: int = 0
    guest_replies: int = 0
    messages_since_last_rejection: int | None = None
    arc_started_at: datetime | None = None

    def to_dict(self) -> dict[str, Any]:
        return {
            "offers": [offer.to_dict() for offer in self.offers],
            "substantive_exchanges": self.substantive_exchanges,
            "guest_replies": self.guest_replies,
            "messages_since_last_rejection": self.messages_since_last_rejection,
            "arc_started_at": to_iso(self.arc_started_at),
        }

    @classmethod
    def from_dict(cls, raw: dict[str, Any]) -> OfferHistory:
        return cls(
            offers=tuple(PastOffer.from_dict(o) for o in raw.get("offers") or []),
            substantive_exchanges=int(raw.get("substantive_exchanges") or 0),
            guest_replies=int(raw.get("guest_replies") or 0),
            messages_since_last_rejection=raw.get("messages_since_last_rejection"),
            arc_started_at=from_iso(raw.get("arc_started_at")),
        )


@dataclass(frozen=True)
class IncentiveDecision:
    should_offer: bool
    tier: TierName | None
    value: str | None  # "$25 in free play"
    reason: str
    redemption_instruction: str | None
    value_usd: float | None = None
    offer_text: str | None = None
    blocked_by: dict[str, str] = field(default_factory=dict)  # rule or tier -> why not

    def to_dict(self) -> dict[str, Any]:
        return {
            "should_offer": self.should_offer,
            "tier": self.tier,
            "value": self.value,
            "reason": self.reason,
            "redemption_instruction": self.redemption_instruction,
            "value_usd": self.value_usd,
            "offer_text": self.offer_text,
            "blocked_by": dict(self.blocked_by),
        }


def _money(value: float) -> str:
    return f"{value:.0f}" if float(value).is_integer() else f"{value:.2f}"


def _refuse(reason: str, blocked_by: dict[str, str]) -> IncentiveDecision:
    return IncentiveDecision(False, None, None, reason, None, blocked_by=blocked_by)


def weekly_spend(history: OfferHistory, now: datetime) -> float:
    """Value offered in the last 7 days that may still cost the casino: rejected offers don't."""
    return sum(
        offer.value_usd
        for offer in history.offers
        if offer.status != "rejected" and now - WEEK < offer.made_at <= now
    )


def _general_block(
    profile: GuestProfile, history: OfferHistory, policy: IncentivePolicy, readiness: float | None
) -> tuple[str, str] | None:
    arc_start = history.arc_started_at or profile.phase_state.arc_started_at
    if any(arc_start is None or offer.made_at >= arc_start for offer in history.offers):
        return "one_offer_per_arc", "an offer was already made in this conversation arc"
    if not history.offers and history.substantive_exchanges < policy.min_substantive_exchanges:
        return "min_exchanges", "fewer than 3 substantive exchanges before a first offer"
    latest = max(history.offers, key=lambda offer: offer.made_at, default=None)
    if latest is not None and latest.status == "rejected":
        since = history.messages_since_last_rejection or 0
        if since < policy.rejection_cooloff_messages:
            return "rejection_cooloff", "fewer than 5 messages since the last offer was declined"
    if profile.session.paused:
        return "session_paused", "the conversation is paused for a human host"
    if readiness is not None and readiness <= policy.create_offer_readiness:
        return "readiness", "offer readiness not above 0.8"
    return None


def _requirement_met(
    tier: IncentiveTier,
    profile: GuestProfile,
    history: OfferHistory,
    now: datetime,
    policy: IncentivePolicy,
) -> bool:
    if tier.name == "dining":
        return history.guest_replies >= policy.min_dining_replies
    if tier.name == "freeplay":
        return profile.usable("core_identity.email")
    if tier.name == "hotel":
        stored = profile.get("visit_context.planned_visit_date")
        return (
            profile.usable("visit_context.planned_visit_date")
            and stored is not None
            and stored.effective_confidence(now) >= VISIT_DATE_CONFIRMED
        )
    return profile.usable("visit_context.occasion")


def _cooling_off_block(
    profile: GuestProfile, value: float, policy: IncentivePolicy, now: datetime
) -> str | None:
    hours = policy.cooling_off_hours.get((policy.casino_state or "").upper())
    if not hours or value <= policy.cooling_off_above_usd:
        return None
    # Consent held continuously since the earliest grant still active.
    since = min(
        (
            g.granted_at
            for g in profile.consent_grants.values()
            if g.scope == "marketing" and g.active
        ),
        default=None,
    )
    if since is None or now - since < timedelta(hours=hours):
        return f"{policy.casino_state} cooling-off: {hours} h after marketing consent"
    return None


def decide_incentive(
    profile: GuestProfile,
    history: OfferHistory,
    now: datetime,
    *,
    policy: IncentivePolicy | None = None,
    offer_readiness_score: float | None = None,
) -> IncentiveDecision:
    """Whether to make an offer this turn, and which. `offer_readiness_score` (the planner's)
    applies D13's create_offer gate when given."""
    require_aware(now)
    policy = policy or IncentivePolicy()
    general = _general_block(profile, history, policy, offer_readiness_score)
    if general is not None:
        return _refuse(general[1], {general[0]: general[1]})

    score = completeness(profile, now)
    remaining = policy.weekly_cap_usd - weekly_spend(history, now)
    blocked: dict[str, str] = {}
    for tier in reversed(INCENTIVE_TIERS):
        value = float(policy.tier_values[tier.name])
        if not score > tier.min_completeness:
            blocked[tier.name] = f"completeness {score:.2f} not above {tier.min_completeness}"
        elif not _requirement_met(tier, profile, history, now, policy):
            blocked[tier.name] = f"needs: {tier.requirement}"
        elif tier.gaming and profile.responsible_gaming_triggered:
            blocked[tier.name] = "no gaming incentive after a responsible-gaming trigger"
        elif value > remaining:
            blocked[tier.name] = (
                f"weekly cap: ${_money(max(remaining, 0))} of ${_money(policy.weekly_cap_usd)} left"
            )
        elif (why := _cooling_off_block(profile, value, policy, now)) is not None:
            blocked[tier.name] = why
        else:
            label = OFFER_LABELS[tier.name].replace("{value}", _money(value))
            instruction = policy.redemption_instructions[tier.name]
            return IncentiveDecision(
                should_offer=True,
                tier=tier.name,
                value=label,
                reason=f"{tier.name}: completeness {score:.2f}, {tier.requirement}",
                redemption_instruction=instruction,
                value_usd=value,
                offer_text=f"We'd love to welcome you with {label}. {instruction}",
                blocked_by=blocked,
            )
    lowest = INCENTIVE_TIERS[0].name
    return _refuse(f"no tier allowed ({lowest}: {blocked[lowest]})", blocked)
