"""When a guest needs a person (item 37) and when that person will answer (item 38).

Explicit requests (EN/ES, "real" or "live" allowed), complaints and legal threats escalate
(D26: "lawsuit" is a complaint, not a legal refusal). The gate's own escalations (responsible
gaming, BSA/AML, emergency, self-harm, PII) come from compliance; repeated fallbacks and
unclear messages from the graph's counters (D24: after 2 fallbacks, 5 unclear messages).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

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


# Item 39: how long a person has to acknowledge, by severity (P3: no deadline). Each level
# past it raises the escalation one more level (max 3), re-notifying the backup.
ACK_SLA: dict[str, timedelta | None] = {
    "P0": timedelta(minutes=7.5),
    "P1": timedelta(minutes=30),
    "P2": timedelta(hours=2),
    "P3": None,
}


def raise_due(severity: str, level: int, created_at: datetime, now: datetime) -> bool:
    """Whether an unacknowledged escalation at `level` has outlived its deadline (pure): level
    1 is due one SLA after it was made, level 2 two SLAs after, and 3 is the top."""
    sla = ACK_SLA.get(severity)
    return sla is not None and level < 3 and now - created_at >= sla * level


def sweep_escalations(store: Any, casino_id: str, now: datetime) -> list[Any]:
    """Raise every unacknowledged escalation of the casino past its deadline (run every
    minute by the scheduler or `frontdesk casino_host escalations sweep`); returns the raised
    ones. Safe to run any number of times."""
    raised = []
    for escalation in store.unacknowledged_escalations(casino_id):
        if raise_due(escalation.severity, escalation.escalation_level, escalation.created_at, now):
            raised.append(store.raise_level(casino_id, escalation.escalation_id, now=now))
    return raised
