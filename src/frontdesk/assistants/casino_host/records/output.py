"""What a casino host turn reports beyond its text (`frontdesk ask --json`, the web UI's
phone view): who answered, the gate's verdict, the SMS as sent, the escalation and offer, and
what the host now knows about the guest. Never the guest's number (X2)."""

from __future__ import annotations

from typing import Any

from frontdesk.assistants.casino_host.profile import GuestProfile, guest_zone
from frontdesk.assistants.casino_host.records.turns import Intake, Written
from frontdesk.assistants.casino_host.sms import segments_needed


def profile_summary(profile: GuestProfile, now: Any) -> dict[str, Any]:
    view = profile.prompt_view(now)
    zone = guest_zone(profile, now)
    return {
        "fields": {
            path: {
                "value": value,
                "confidence": round(view.confidences[path], 2),
                "source": profile.fields[path].source if path in profile.fields else None,
            }
            for path, value in view.values.items()
        },
        "completeness": round(view.completeness, 4),
        # Where quiet hours are kept, and how the host knows (area_code | guest_said).
        "timezone": zone.to_dict() if zone is not None else None,
        "phase": profile.conversation_phase,
        "responsible_gaming": profile.responsible_gaming_triggered,
        "offers_sent": profile.engagement.offers_sent,
        "escalations": profile.engagement.escalations,
    }


def turn_extra(intake: Intake, state: dict[str, Any], sms: list[str],
               speaker: str, written: Written | None) -> dict[str, Any]:  # fmt: skip
    ended = state.get("compliance_outcome") in ("blocked", "safety")
    hits = state.get("guardrail_hits") or []
    guardrail = next(
        ({"layer": h["layer"], "pattern_id": h["pattern_id"]} for h in hits if ended), None
    )
    escalation = written.escalation if written else None
    offer = written.offer if written else None
    profile = written.profile if written else intake.profile
    now = profile.updated_at
    return {
        "agent": speaker,
        "guardrail": guardrail,
        "guardrail_hits": hits,
        "sms": sms,
        "segments": sum(segments_needed(part) for part in sms),
        "escalation": None
        if escalation is None
        else {"id": escalation.escalation_id, "severity": escalation.severity},
        "offer": None
        if offer is None
        else {
            "offer_id": offer.offer_id,
            "tier": offer.tier,
            "value_usd": offer.value_usd,
            "text": offer.text,
            "redemption_instruction": offer.redemption_instruction,
        },
        "language": state.get("language"),
        "casino_id": intake.casino_id,
        "guest_uuid": intake.guest_uuid,
        "conversation": intake.thread_id,
        "session": intake.opening,
        "extracted": {
            path: item["value"] for path, item in (state.get("extracted_fields") or {}).items()
        },
        "used_tools": list(state.get("used_tools") or []),
        "handoffs": list(state.get("handoffs") or []),
        "profile": profile_summary(profile, now),
    }
