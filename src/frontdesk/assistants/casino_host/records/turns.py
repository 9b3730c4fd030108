"""What one turn reads from and writes to the casino host's storage (synchronous: the service
runs these in a worker thread).

`take_in` runs before the graph: the guest (created on first contact), the conversation (a
new session after 48 h idle), the message stored once per delivery id with its PII redacted,
and the profile; `with_turn_context` adds what only the graph reads (the recent messages, the
offers, and whether a person has the conversation: the 30-minute pause), so a compliance
keyword, answered without the graph, does not read them. `write_turn` runs after it:
the profile, the offer, the escalation, the audit rows and the reply, each keyed by the guest's
message, so a message delivered twice is answered once and applied once. Each runs in one
transaction (`Store.transaction`): a turn whose writes failed is answered again, whole, on the
next delivery.
"""

from __future__ import annotations

import logging
import re
from dataclasses import dataclass, field, replace
from datetime import datetime
from typing import Any

from frontdesk.assistants.casino_host.compliance import scan_pii
from frontdesk.assistants.casino_host.conversation.windowing import is_summary
from frontdesk.assistants.casino_host.profile import GuestProfile, OfferHistory, advance_phase
from frontdesk.assistants.casino_host.profile.signals import is_substantive, rapport_score
from frontdesk.assistants.casino_host.storage import (
    Escalation,
    Offer,
    StaleProfile,
    Store,
    StoredMessage,
)
from frontdesk.errors import FrontdeskError

logger = logging.getLogger(__name__)

SAVE_ATTEMPTS = 3


# A guest's SMS: 10 concatenated segments at most on most carriers; the API allows 4,096
# characters, and the service takes no more either.
MAX_MESSAGE_CHARS = 4096
_CONTROL = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f]")


class MessageError(FrontdeskError):
    """A message the host cannot take (too long, not text)."""


def clean_message(message: str) -> str:
    """The message as it may be stored and read: control characters removed (PostgreSQL
    refuses NUL in text), refused when it is not valid Unicode or longer than a message."""
    try:
        message.encode("utf-8")
    except UnicodeEncodeError:
        raise MessageError("the message holds an invalid character; send plain text") from None
    if len(message) > MAX_MESSAGE_CHARS:
        raise MessageError(f"the message is longer than {MAX_MESSAGE_CHARS} characters")
    return _CONTROL.sub("", message)


@dataclass(frozen=True)
class Intake:
    casino_id: str
    guest_uuid: str
    thread_id: str  # X2: casino:guest:session
    opening: str  # new_guest | continued | new_session
    profile: GuestProfile
    profile_version: int  # as read: a write in the same transaction saves against it
    message_id: int
    is_new: bool
    pii_redacted: bool
    answered: StoredMessage | None  # this message's reply, when it was already sent
    # Read by `with_turn_context`, for the graph:
    offers: OfferHistory = field(default_factory=OfferHistory)
    pause: Escalation | None = None  # a person has the conversation: hold, no model
    recent_guest_texts: tuple[str, ...] = ()  # before this message, oldest first
    # A new session: who answered last in the previous one (item 43's "last time we
    # discussed ..."), None when there was none.
    previous_agent: str | None = None


@dataclass(frozen=True)
class Written:
    offer: Offer | None
    escalation: Escalation | None
    reply_id: int
    profile: GuestProfile  # after the turn


def reply_key(message_id: int) -> str:
    return f"reply:{message_id}"


def take_in(store: Store, casino_id: str, phone: str, text: str, delivery_id: str,
            now: datetime) -> Intake:  # fmt: skip
    with store.transaction():  # one commit for the turn's reads and its inbound message
        guest_uuid, _ = store.get_or_create_guest(casino_id, phone, now=now)
        opening = store.open_or_resume_conversation(casino_id, guest_uuid, now)
        redacted = scan_pii(text).redacted_text
        message_id, is_new = store.record_inbound(
            casino_id,
            delivery_id,
            thread_id=opening.thread_id,
            text=redacted,
            pii_redacted=redacted != text,
            substantive=is_substantive(text),
            now=now,
        )
        loaded = store.load_profile(casino_id, guest_uuid)
        return Intake(
            casino_id=casino_id,
            guest_uuid=guest_uuid,
            thread_id=opening.thread_id,
            opening=opening.kind,
            profile=loaded.profile,
            profile_version=loaded.version,
            message_id=message_id,
            is_new=is_new,
            pii_redacted=redacted != text,
            answered=None if is_new else store.find_outbound(casino_id, reply_key(message_id)),
            previous_agent=_previous_agent(store, casino_id, opening.previous),
        )


def with_turn_context(store: Store, intake: Intake, now: datetime) -> Intake:
    """The intake with what the graph reads: the guest's recent texts, the offers, the pause."""
    casino_id, guest_uuid = intake.casino_id, intake.guest_uuid
    recent = store.recent_messages(casino_id, intake.thread_id, n=8)
    return replace(
        intake,
        offers=store.offer_history(casino_id, guest_uuid),
        pause=store.active_pause(casino_id, guest_uuid, now),
        recent_guest_texts=tuple(
            m.text for m in recent if m.direction == "inbound" and m.message_id != intake.message_id
        ),
    )


def _previous_agent(store: Store, casino_id: str, previous: Any) -> str | None:
    """A new session: who answered last in the previous one (item 43)."""
    if previous is None:
        return None
    earlier = store.recent_messages(casino_id, previous.thread_id, n=10)
    return next((m.agent for m in reversed(earlier) if m.direction == "outbound" and m.agent), None)


def _apply(profile: GuestProfile, intake: Intake, state: dict[str, Any], text: str,
           now: datetime) -> None:  # fmt: skip
    """The turn's effects on the profile (once per message)."""
    # A timed transition that fell due while the guest was silent (48 h: dormant) happens
    # before the message that ends the silence (D23).
    if (due := profile.due_sweep(now)) is not None:
        profile.apply_phase_change(due)
    updates = {
        path: (item["value"], item["confidence"], item["source"])
        for path, item in (state.get("extracted_fields") or {}).items()
    }
    if updates:
        results = profile.apply_extraction(updates, now)
        refused = {p: r.reason for p, r in results.items() if not r.written}
        if refused:
            logger.info("profile fields not written: %s", refused)
    # A message the gate answered is not conversation: it neither counts as substantive nor
    # moves the phase.
    answered_by_gate = state.get("compliance_outcome") in ("blocked", "safety")
    profile.record_guest_message(substantive=is_substantive(text) and not answered_by_gate, now=now)
    if state.get("responsible_gaming"):
        profile.mark_responsible_gaming(now)
    plan = state.get("whisper_plan") or {}
    signals = profile.phase_signals(
        now,
        rapport_score=rapport_score([*intake.recent_guest_texts, text]),
        offer_readiness_score=float(plan.get("offer_readiness_score") or 0.0),
        escalated=bool(state.get("escalation_request")),
    )
    change = None if answered_by_gate else advance_phase(profile.conversation_phase, signals, now)
    if change is not None:
        profile.apply_phase_change(change)
    profile.record_host_message(now)
    if state.get("offer"):
        profile.engagement.offers_sent += 1
    if state.get("escalation_request"):
        profile.engagement.escalations += 1
    profile.engagement.last_message_id = intake.message_id


def save_profile(store: Store, intake: Intake, state: dict[str, Any], text: str,
                 now: datetime) -> GuestProfile:  # fmt: skip
    """Apply the turn to the stored profile, reloading when someone saved in between."""
    for attempt in range(SAVE_ATTEMPTS):
        loaded = store.load_profile(intake.casino_id, intake.guest_uuid)
        profile = loaded.profile
        if profile.engagement.last_message_id == intake.message_id:
            return profile  # applied by an earlier delivery of this message
        _apply(profile, intake, state, text, now)
        try:
            store.save_profile(intake.casino_id, profile, loaded.version, now=now)
            return profile
        except StaleProfile:
            if attempt == SAVE_ATTEMPTS - 1:
                raise
    raise AssertionError("unreachable")


def write_turn(store: Store, intake: Intake, state: dict[str, Any], text: str, reply: str,
               sms: list[str], speaker: str, now: datetime) -> Written:  # fmt: skip
    """The turn's writes, in one transaction: all of them land, or none and the next delivery
    of the message runs the turn again."""
    with store.transaction():
        return _write_turn(store, intake, state, text, reply, sms, speaker, now)


def _write_turn(store: Store, intake: Intake, state: dict[str, Any], text: str, reply: str,
                sms: list[str], speaker: str, now: datetime) -> Written:  # fmt: skip
    casino_id, guest_uuid = intake.casino_id, intake.guest_uuid
    profile = save_profile(store, intake, state, text, now)
    offer = None
    if decided := state.get("offer"):
        offer, _ = store.create_offer(
            casino_id,
            guest_uuid,
            source_message_id=intake.message_id,
            tier=decided["tier"],
            value_usd=float(decided["value_usd"]),
            text=f"{decided['value']} ({decided['title']})",
            redemption_instruction=decided["redemption_instruction"],
            now=now,
        )
    escalation = None
    if request := state.get("escalation_request"):
        escalation, _ = store.create_escalation(
            casino_id,
            guest_uuid,
            severity=request["severity"],
            trigger_reason=request["reason"],
            trigger_source=request["source"],
            thread_id=intake.thread_id,
            source_message_id=intake.message_id,
            now=now,
        )
    hits = state.get("guardrail_hits") or []
    if hits and intake.is_new:
        store.audit(
            casino_id,
            "guardrail_triggered",
            guest_uuid=guest_uuid,
            details={
                "pattern_ids": [hit["pattern_id"] for hit in hits],
                "outcome": state.get("compliance_outcome"),
            },
            now=now,
        )
    if state.get("offer_flags") and intake.is_new:
        store.audit(
            casino_id,
            "offer_unverified",
            guest_uuid=guest_uuid,
            details={"count": len(state["offer_flags"]), "agent": speaker},
            now=now,
        )
    messages = state.get("messages") or []
    if messages and is_summary(messages[0]):  # item 42 / D21: kept on the conversation too
        store.set_summary(casino_id, intake.thread_id, str(messages[0].content), now=now)
    reply_id, _ = store.record_outbound(
        casino_id,
        thread_id=intake.thread_id,
        text=reply,
        agent=speaker,
        sms_parts=max(1, len(sms)),
        idempotency_key=reply_key(intake.message_id),
        now=now,
    )
    return Written(offer, escalation, reply_id, profile)


def write_holding(store: Store, intake: Intake, reply: str, now: datetime) -> int:
    """A message during a person's pause: stored, answered with the holding text, no model."""
    reply_id, _ = store.record_outbound(
        intake.casino_id,
        thread_id=intake.thread_id,
        text=reply,
        agent="holding",
        idempotency_key=reply_key(intake.message_id),
        now=now,
    )
    return reply_id
