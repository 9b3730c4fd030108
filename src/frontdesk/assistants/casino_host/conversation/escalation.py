"""When a guest needs a person (item 37), and what the guest is told about the alert it raised.

Explicit requests (EN/ES, "real" or "live" allowed), complaints and legal threats escalate
(D26: "lawsuit" is a complaint, not a legal refusal). The gate's own escalations (responsible
gaming, BSA/AML, emergency, self-harm, PII) come from compliance; repeated fallbacks and
unclear messages from the graph's counters (D24: after 2 fallbacks, 5 unclear messages).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from frontdesk.assistants.casino_host.content.models import Casino
from frontdesk.assistants.casino_host.conversation import prompts
from frontdesk.assistants.casino_host.sms import split_sms

_PERSON = (
    r"(?:(?:real|live|actual|human)\s+)?"
    r"(?:person|human|host|agent|someone|somebody|representative|rep|manager|supervisor|"
    r"employee|staff)"
)
_REQUEST = re.compile(
    r"\b(?:talk|speak|chat|text)\s+(?:to|with)\s+(?:a|an|the|your|my|some)?\s*"
    + _PERSON
    + r"|\b(?:get|give|put|connect|transfer)\s+me\s+(?:to|with|through to)?\s*(?:a|an|the)?\s*"
    + _PERSON
    + r"|\b(?:i\s+)?(?:want|need|would like)\s+(?:to\s+talk\s+to\s+)?(?:a|an)\s+"
    r"(?:real|live|actual|human)\s+(?:person|host|human|agent)"
    r"|\bhablar\s+con\s+(?:una?\s+)?(?:persona|humano|anfitri[oó]n|agente|alguien|gerente|"
    r"encargado)(?:\s+real)?"
    r"|\b(?:una?\s+)?persona\s+real\b",
    re.IGNORECASE,
)
_COMPLAINT = re.compile(
    r"\b(?:complaint|complain|queja|quejarme|reclamo|lawsuit|lawyer|attorney|sue\s+you|"
    r"demanda|demandar|abogado|unacceptable|inaceptable|furious|outraged|angry|enojad[oa]|"
    r"furios[oa]|terrible service|worst service|p[eé]simo servicio)\b",
    re.IGNORECASE,
)

# D24: two fallbacks in a row; item 14: five unclear messages in a row.
FALLBACKS_BEFORE_ESCALATION = 2
UNCLEAR_BEFORE_MENU = 3
UNCLEAR_BEFORE_ESCALATION = 5


@dataclass(frozen=True)
class Trigger:
    severity: str  # P0-P3 (X6)
    reason: str


def escalation_trigger(text: str) -> Trigger | None:
    """The escalation a guest's words ask for, if any: a complaint first (it is the more
    urgent), then an explicit request for a person."""
    if _COMPLAINT.search(text):
        return Trigger("P1", "complaint")
    if _REQUEST.search(text):
        return Trigger("P2", "guest_request")
    return None


def alert_lines(state: dict[str, Any], casino: Casino) -> tuple[str, str]:
    """What the guest is told about an escalation's alert: (no one accepted it, it was
    accepted). Security for an emergency; otherwise a host, who needs no line when alerted."""
    language = state.get("language") or "en"
    if state.get("security_alert"):
        phone = casino.security_phone or casino.phone
        return (prompts.say(prompts.SECURITY_NOT_ALERTED, language, security_phone=phone),
                prompts.say(prompts.SECURITY_ALERTED, language))  # fmt: skip
    return prompts.say(prompts.HOSTS_NOT_ALERTED, language, phone=casino.phone), ""


def with_line(text: str, sms: list[str], line: str) -> tuple[str, list[str]]:
    """The reply (`text` as `sms`) with one more sentence, and that sentence as an SMS of its
    own: split together, a long or Spanish reply could lose it, and it is the one the guest
    must get. Without a sentence, the reply as it was."""
    if not line:
        return text, sms
    return f"{text} {line}", [*sms, *split_sms(line, max_parts=2)]
