"""The casino host's state (seed §1.3, feature map WP2 item 5).

`messages` is the only field carried across turns (through the checkpointer); every other field
belongs to one inbound message and is reset by `turn_state` at its start, so a retry's feedback
from a dining turn can never leak into the next turn (the seed's v1 bug)."""

from __future__ import annotations

from datetime import datetime
from typing import Annotated, Any, TypedDict

from langchain_core.messages import HumanMessage
from langgraph.graph.message import add_messages

# The seed's time format for the agents' prompts (seed §1.3).
CURRENT_TIME_FORMAT = "%A, %B %d, %Y %I:%M %p %Z"


class CasinoHostState(TypedDict, total=False):
    # Carried across turns.
    messages: Annotated[list, add_messages]
    # Item 14: "ambiguous" or off-topic turns in a row (3: the menu again; 5: a person).
    unclear_streak: int
    # Item 37 / D24: fallback replies in a row (2: a person).
    fallback_streak: int

    # Who and where (set at entry; X1, X2).
    casino_id: str
    guest_uuid: str
    message_type: str  # sms | mms | web

    # Per turn: the compliance gate (items 6-12).
    compliance_outcome: str | None  # pass | annotate | blocked | safety
    guardrail_hits: list[dict[str, str]]  # every hit: {"layer", "pattern_id"}
    escalation_triggered: str | None  # severity P0-P3, or None
    # Why and who decided it: {"severity", "reason", "source"}; the service files it.
    escalation_request: dict[str, str] | None
    responsible_gaming: bool  # the gate saw it: the profile's flag is set, for good
    security_alert: bool

    # Per turn: the router (item 13, D5).
    query_type: (
        str | None
    )  # greeting | domain_query | off_topic | ambiguous | identity_check | sensitive
    router_confidence: float
    domain: str | None
    # Kept across turns (turn_state leaves it): the domain of the guest's last question for the
    # agents, which a follow-up ("y mañana?") leans on.
    last_domain: str | None
    language: str  # en | es
    language_switched: bool  # item 44: acknowledged in the reply

    # Per turn: the agents, validation and the reply.
    active_agent: str | None
    handoffs: list[str]  # silent handoffs this turn (Command(goto=...)), in order
    speaker: str | None  # the node whose reply the guest gets
    offer: dict[str, Any] | None  # the offer this reply makes (IncentiveDecision + promotion)
    offer_flags: list[str]  # offers named without a $ value that match no promotion (audited)
    used_tools: list[str]
    model_failed: bool  # the model did not answer (breaker open, error): the fallback answers
    envelope_changes: list[str]  # the persona envelope's rules that changed the reply
    retrieved_context: list[dict[str, Any]]
    # The catalog items the reply draws on, by name: the sources a reader can open.
    sources_used: list[str]
    validation_result: str | None  # PASS | RETRY | FAIL
    retry_count: int
    skip_validation: bool
    retry_feedback: str | None
    current_time: str
    extracted_fields: dict[str, Any]
    whisper_plan: dict[str, Any] | None
    delay_seconds: float
    sms_segments: list[str]


def turn_state(message: str, *, now: datetime, casino_id: str, guest_uuid: str,
               language: str = "en", message_type: str = "sms") -> dict[str, Any]:  # fmt: skip
    """A fresh turn: the guest's message and every per-turn field at its start value."""
    if now.tzinfo is None:
        raise ValueError("now must carry its time zone (the casino's clock)")
    return {
        "messages": [HumanMessage(content=message)],
        "casino_id": casino_id,
        "guest_uuid": guest_uuid,
        "message_type": message_type,
        "compliance_outcome": None,
        "guardrail_hits": [],
        "escalation_triggered": None,
        "escalation_request": None,
        "responsible_gaming": False,
        "security_alert": False,
        "query_type": None,
        "router_confidence": 0.0,
        "domain": None,
        "language": language,
        "language_switched": False,
        "active_agent": None,
        "handoffs": [],
        "speaker": None,
        "offer": None,
        "offer_flags": [],
        "used_tools": [],
        "model_failed": False,
        "envelope_changes": [],
        "retrieved_context": [],
        "sources_used": [],
        "validation_result": None,
        "retry_count": 0,
        "skip_validation": False,
        "retry_feedback": None,
        "current_time": now.strftime(CURRENT_TIME_FORMAT),
        "extracted_fields": {},
        "whisper_plan": None,
        "delay_seconds": 0.0,
        "sms_segments": [],
    }
