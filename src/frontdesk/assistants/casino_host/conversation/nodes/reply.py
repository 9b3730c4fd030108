"""persona_envelope and fallback_node (items 24-25): what the guest receives.

The envelope shapes a passed reply for SMS in code: sanitized, the after-model filters (no
amounts or "complimentary" from a non-comp agent, no promised wins), the style rules (one
question, one "!", no ALL-CAPS, URLs, line breaks or ellipsis) and at most two SMS. The
fallback is static, names the casino's phone, and two in a row bring a person (D24).
"""

from __future__ import annotations

from typing import Any

from langgraph.runtime import Runtime

from frontdesk.assistants.casino_host.conversation import prompts
from frontdesk.assistants.casino_host.conversation.context import CasinoHostContext
from frontdesk.assistants.casino_host.conversation.escalation import FALLBACKS_BEFORE_ESCALATION
from frontdesk.assistants.casino_host.conversation.nodes.common import (
    casino_values,
    draft_of,
    guest_name,
    reply,
)
from frontdesk.assistants.casino_host.conversation.routing import FALLBACK, HOST_AGENT
from frontdesk.assistants.casino_host.sms import shape_reply, split_sms


def persona_envelope(state: dict[str, Any], runtime: Runtime[CasinoHostContext]) -> dict[str, Any]:
    ctx = runtime.context
    language = state.get("language") or "en"
    speaker = state.get("speaker") or state.get("active_agent") or HOST_AGENT
    shaped = shape_reply(
        draft_of(state),
        agent=speaker,
        guest_name=guest_name(ctx),
        emoji_allowed=ctx.settings.emoji_allowed,
        first_message=ctx.profile.engagement.total_messages_sent == 0,
        language=language,
        # Item 14: the first SMS of every session says an AI is texting.
        disclose_ai=ctx.opening != "continued",
    )
    if not shaped.parts:  # nothing sendable was left: the static fallback instead
        return fallback(state, runtime)
    return reply(
        state,
        " ".join(shaped.parts),
        speaker,
        sms_segments=list(shaped.parts),
        fallback_streak=0,
        envelope_changes=sorted(shaped.rules),
    )


def fallback(state: dict[str, Any], runtime: Runtime[CasinoHostContext]) -> dict[str, Any]:
    ctx = runtime.context
    language = state.get("language") or "en"
    text = prompts.say(prompts.FALLBACK, language, **casino_values(ctx))
    streak = int(state.get("fallback_streak") or 0) + 1
    update: dict[str, Any] = {
        "sms_segments": split_sms(text, max_parts=2),
        "fallback_streak": streak,
        "offer": None,  # an offer is made only by a reply that carries it
    }
    if streak >= FALLBACKS_BEFORE_ESCALATION and not state.get("escalation_request"):
        update["escalation_triggered"] = "P2"
        update["escalation_request"] = {
            "severity": "P2",
            "reason": "repeated_fallback",
            "source": FALLBACK,
        }
        update["fallback_streak"] = 0
    return reply(state, text, FALLBACK, **update)
