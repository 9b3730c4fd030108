"""An escalation as an alert a person reads on their phone: de-identified (the guest is the
last four digits and a 16-hex hash; inbound text is stored redacted, and numbers typed into it
are masked), short, with a link to the staff page."""

from __future__ import annotations

from frontdesk.assistants.casino_host.content.models import Casino
from frontdesk.assistants.casino_host.storage.records import Escalation
from frontdesk.notify import Alert

# What the trigger means, in the words of the person who must act.
REASONS = {
    "compliance:emergency": "Guest safety: possible emergency",
    "compliance:self_harm": "Guest safety: possible self-harm",
    "compliance:responsible_gaming": "Responsible gaming concern",
    "compliance:bsa_aml": "Cash reporting (BSA/AML) concern",
    "compliance:pii": "Guest sent sensitive data: needs secure handling",
    "complaint": "Guest complaint",
    "guest_request": "Guest asked for a person",
    "repeated_fallback": "The host could not answer twice in a row",
    "unclear_messages": "Several unclear messages in a row",
}
EXCERPT_CHARS = 200


def reason_text(trigger_reason: str) -> str:
    return REASONS.get(trigger_reason, trigger_reason.replace("_", " ").capitalize())


def escalation_alert(escalation: Escalation, *, casino: Casino, staff_url: str,
                     level: int, repeat: int = 0) -> Alert:  # fmt: skip
    since = escalation.created_at.astimezone(casino.tz)  # the casino's clock, as staff read it
    lines = [
        f"{casino.name}: guest ••{escalation.guest_last_four} ({escalation.guest_id_hash})",
        f"Since {since:%Y-%m-%d %H:%M %Z} · from {escalation.trigger_source}",
    ]
    for turn in escalation.conversation_excerpt[-4:]:
        who = "Guest" if turn.get("direction") == "inbound" else "Host"
        text = str(turn.get("text", ""))
        lines.append(f"{who}: {text[:EXCERPT_CHARS]}{'…' if len(text) > EXCERPT_CHARS else ''}")
    return Alert(
        alert_id=escalation.escalation_id,
        priority=escalation.severity,
        title=reason_text(escalation.trigger_reason),
        lines=tuple(lines),
        level=level,
        link=f"{staff_url}#{escalation.escalation_id}",
        repeat=repeat,
    )
