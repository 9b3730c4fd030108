"""A compliance keyword answered without the model (WP1 items 14-25, T5, T6, T19), and its
writes in one transaction: the consent record (X4), the consent ledger's hash-chain event, the
audit row, the cancelled outbound queue of a STOP, and the reply. Split from `turn_records`,
which records ordinary turns.

`receive` takes a guest's message in and, when it is a keyword, answers it, in the same
transaction: a STOP is one commit, and lands whole or not at all.
"""

from __future__ import annotations

import copy
from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from frontdesk.assistants.casino_host.consent.keywords import (
    Keyword,
    asks_for_consent,
    is_natural_opt_out,
    keyword_of,
)
from frontdesk.assistants.casino_host.consent.replies import (
    KeywordDecision,
    keyword_decision,
    keyword_language,
)
from frontdesk.assistants.casino_host.content.models import Casino
from frontdesk.assistants.casino_host.conversation import prompts
from frontdesk.assistants.casino_host.profile import GuestProfile
from frontdesk.assistants.casino_host.records.turns import (
    SAVE_ATTEMPTS,
    Intake,
    reply_key,
    take_in,
    with_turn_context,
)
from frontdesk.assistants.casino_host.sms import split_sms
from frontdesk.assistants.casino_host.storage import LoadedProfile, StaleProfile, Store

CONSENT_SPEAKER = "consent"  # who answers a compliance keyword (in code, never the model)


@dataclass(frozen=True)
class ConsentReply:
    text: str  # "" when the guest is sent nothing (a suppressed guest's other messages)
    language: str
    profile: GuestProfile  # after the keyword's effect

    @property
    def sms(self) -> list[str]:
        return split_sms(self.text, max_parts=2) if self.text else []


# Called with a keyword's reply (its SMS parts) and the guest, inside the keyword's own
# transaction: a channel's writes for that reply land in the same commit.
KeywordSettle = Callable[[list[str], str], None]


class DuplicateDelivery(Exception):
    """The channel's claim on this delivery was not granted: another delivery of the message
    has it, or had it and finished. Nothing was written."""


@dataclass
class DeliveryClaim:
    """A channel's claim on one delivery of a message (an SMS webhook's idempotency claim),
    taken inside the intake's transaction, so that a STOP's claim, intake, consent write and
    reply are one commit, not two. `take`: claims it, True when granted. `held`: the claim
    was granted and committed (False when the transaction rolled back: nothing is claimed)."""

    take: Callable[[], bool]
    held: bool = False


def receive(store: Store, casino_id: str, casino: Casino, phone: str, message: str,
            delivery_id: str, now: datetime, *, settle: KeywordSettle | None = None,
            claim: DeliveryClaim | None = None) -> tuple[Intake, ConsentReply | None]:  # fmt: skip
    """`take_in`, then the keyword's answer, in one transaction; when the message is
    conversation for the graph (no answer: None), the intake carries the graph's context.
    `casino`: its name, phone and privacy link are in the replies. `settle`: the SMS
    channel's own writes for a keyword's reply (queue it, close the webhook's claim), so that
    a STOP, its reply and its delivery's claim are one commit. `claim`: taken first, in the
    same transaction (DuplicateDelivery when it is not granted)."""
    with store.transaction():
        if claim is not None and not claim.take():
            raise DuplicateDelivery(delivery_id)
        received = _receive(store, casino, message, take_in(store, casino_id, phone, message,
                                                             delivery_id, now), now, settle)  # fmt: skip
    if claim is not None:
        claim.held = True
    return received


def _receive(store: Store, casino: Casino, message: str, intake: Intake, now: datetime,
             settle: KeywordSettle | None) -> tuple[Intake, ConsentReply | None]:  # fmt: skip
    if intake.answered is not None:
        return intake, None
    consent = answer_keyword(store, casino, message, intake, now)
    if consent is None:
        return with_turn_context(store, intake, now), None
    if settle is not None:
        settle(consent.sms, intake.guest_uuid)
    return intake, consent


def answer_keyword(store: Store, casino: Casino, message: str, intake: Intake,
                   now: datetime) -> ConsentReply | None:  # fmt: skip
    """A compliance keyword (or any message from a suppressed guest) decided, answered and
    written; None when the message is conversation for the graph."""
    keyword = keyword_of(message)
    suppressed = bool(intake.profile.consent.get("suppressed"))
    prompt = opt_in_prompt(store, intake) if keyword is Keyword.YES and not suppressed else None
    decision = keyword_decision(keyword, suppressed=suppressed,
                                in_words=is_natural_opt_out(message), opt_in_prompt=prompt,
                                opted_in=bool(intake.profile.consent.get("sms_opt_in")))  # fmt: skip
    if decision is None:
        return None
    language = keyword_language(message, intake.profile.prompt_view(now).language or "en")
    text = ""
    if decision.reply is not None:
        text = prompts.say(decision.reply, language, casino=casino.name, phone=casino.phone,
                           privacy_url=casino.privacy_url or casino.website or "")  # fmt: skip
    profile = write_consent_reply(store, intake, decision, keyword=keyword.value if keyword else None,
                                  reply=text or None, now=now)  # fmt: skip
    return ConsentReply(text, language, profile)


def write_consent_reply(store: Store, intake: Intake, decision: KeywordDecision, *,
                        keyword: str | None, reply: str | None, now: datetime) -> GuestProfile:  # fmt: skip
    """A compliance keyword's effect, once per message, in one transaction: the consent record
    (X4: `suppressed`, `sms_opt_in`, `marketing_consent`, the history), the consent ledger's
    hash-chain event, the audit row, and the reply (None: a suppressed guest is sent nothing)."""
    with store.transaction():
        return _write_consent_reply(store, intake, decision, keyword=keyword, reply=reply, now=now)


def consent_state(consent: dict[str, Any]) -> dict[str, bool]:
    return {
        "sms_opt_in": bool(consent.get("sms_opt_in")),
        "marketing_consent": bool(consent.get("marketing_consent")),
        "suppressed": bool(consent.get("suppressed")),
    }


CONSENT_AUDIT_EVENTS = {
    "opt_out": "consent_revoked",
    "opt_in": "consent_granted",
    "marketing_opt_in": "consent_granted",
    "deletion_requested": "deletion_requested",
}


def opt_in_prompt(store: Store, intake: Intake) -> str | None:
    """The outbound a YES would confirm (T19): the last one sent to a guest who has not given
    express written consent yet; None when there is none."""
    if intake.profile.consent.get("consent_type") == "express_written":
        return None
    sent = store.outbound_for(intake.casino_id, intake.guest_uuid, statuses=("sent", "delivered"))
    # Sent on the host's own initiative (not a keyword confirmation, not a reply), and the last
    # such: a YES answers the message before it, and only one that asked for it is consent.
    own = [m for m in sent if m.kind not in ("keyword", "reply")]
    return own[-1].outbound_id if own and asks_for_consent(own[-1].body) else None


# The rules consent is taken under: the FCC's TCPA consent rules as of April 2025 (a
# revocation by any reasonable means, honoured within 10 business days; here at once).
TCPA_VERSION = "47 CFR 64.1200, as amended 2025-04-11"
ALWAYS_AUDITED = frozenset({"deletion_requested", "marketing_opt_in"})


def consent_evidence(disclosure: str | None) -> dict[str, str | None]:
    """X4's evidence of a consent given by SMS: the channel, the TCPA rules it was taken
    under, and the words the guest was shown (no IP or user agent: a text has none)."""
    return {"channel": "sms", "ip_address": None, "user_agent": None,
            "tcpa_version": TCPA_VERSION, "disclosure_text": disclosure}  # fmt: skip


def _confirm_written_consent(store: Store, intake: Intake, profile: GuestProfile,
                             prompted_by: str, now: datetime) -> None:  # fmt: skip
    """T19: YES to a first outbound is the double opt-in: express written consent, with the
    message that asked for it as evidence."""
    before = consent_state(profile.consent)
    asked = [m for m in store.outbound_for(intake.casino_id, intake.guest_uuid)
             if m.outbound_id == prompted_by]  # fmt: skip
    prompt_text = asked[0].body if asked else None
    profile.consent.update(
        sms_opt_in=True,
        marketing_consent=True,
        consent_type="express_written",
        written_consent_evidence={
            "method": "sms_double_opt_in",
            "prompted_by_message_id": prompted_by,
            "reply_message_id": intake.message_id,
            "timestamp": now.isoformat(),
            **consent_evidence(prompt_text),
        },
    )
    store.append_consent_event(
        intake.casino_id,
        intake.guest_uuid,
        {
            "event_type": "consent_granted",
            "action": "opt_in",
            "method": "sms_double_opt_in",
            "consent_type": "express_written",
            "prompted_by_message_id": prompted_by,
            **consent_evidence(prompt_text),
            "previous_state": before,
            "new_state": consent_state(profile.consent),
            "timestamp": now.isoformat(),
        },
        now=now,
    )


def _write_consent_reply(store: Store, intake: Intake, decision: KeywordDecision, *,
                         keyword: str | None, reply: str | None,
                         now: datetime) -> GuestProfile:  # fmt: skip
    for attempt in range(SAVE_ATTEMPTS):
        # The profile as the intake read it (in this transaction, as a rule), then, after a
        # concurrent write, as it is now.
        loaded = (
            LoadedProfile(copy.deepcopy(intake.profile), intake.profile_version)
            if attempt == 0
            else store.load_profile(intake.casino_id, intake.guest_uuid)
        )
        profile = loaded.profile
        if profile.engagement.last_message_id == intake.message_id:
            break  # applied by an earlier delivery of this message
        changes = decision.suppressed is not None and (
            profile.consent.get("suppressed", False) != decision.suppressed
            # START from a number never opted in: its consent is recorded, not assumed.
            or (not decision.suppressed and not profile.consent.get("sms_opt_in"))
        )
        if changes:
            before = consent_state(profile.consent)
            profile.consent["suppressed"] = decision.suppressed
            # Item 14: STOP withdraws every SMS consent; START restores the SMS channel only
            # (marketing needs written consent again).
            profile.consent["sms_opt_in"] = not decision.suppressed
            if decision.suppressed:
                profile.consent["marketing_consent"] = False
                # Withdrawn: the written consent's evidence stays, as does the ledger; a
                # marketing text needs a new double opt-in after START.
                profile.consent["consent_type"] = None
            store.append_consent_event(
                intake.casino_id,
                intake.guest_uuid,
                {
                    "event_type": CONSENT_AUDIT_EVENTS[decision.event or "opt_out"],
                    "action": "opt_out" if decision.suppressed else "opt_in",
                    "method": "sms_keyword",
                    "keyword": keyword,
                    **consent_evidence(reply),
                    "previous_state": before,
                    "new_state": consent_state(profile.consent),
                    "timestamp": now.isoformat(),
                },
                now=now,
            )
            history = list(profile.consent.get("consent_revocation_history") or [])
            history.append(
                {
                    "action": "opt_out" if decision.suppressed else "opt_in",
                    "method": "text_keyword",
                    "timestamp": now.isoformat(),
                    "processed_by": "casino_host",
                }
            )
            profile.consent["consent_revocation_history"] = history
            if decision.suppressed:
                # T5: nothing queued, scheduled or retrying goes out after a STOP; cancelled
                # in the STOP's own transaction, before its reply is acknowledged.
                store.cancel_outbound(intake.casino_id, intake.guest_uuid, reason="STOP", now=now)
        if decision.event == "marketing_opt_in" and decision.prompted_by is not None:
            _confirm_written_consent(store, intake, profile, decision.prompted_by, now)
        if decision.event == "deletion_requested":
            profile.consent.setdefault("deletion_requested_at", now.isoformat())
        if decision.event is not None and (changes or decision.event in ALWAYS_AUDITED):
            store.audit(
                intake.casino_id,
                CONSENT_AUDIT_EVENTS[decision.event],
                guest_uuid=intake.guest_uuid,
                details={"method": "sms_keyword", "keyword": keyword},
                now=now,
            )
        profile.record_guest_message(substantive=False, now=now)
        profile.engagement.last_message_id = intake.message_id
        try:
            store.save_profile(intake.casino_id, profile, loaded.version, now=now)
            break
        except StaleProfile:
            if attempt == SAVE_ATTEMPTS - 1:
                raise
    if reply is not None:
        store.record_outbound(
            intake.casino_id,
            thread_id=intake.thread_id,
            text=reply,
            agent=CONSENT_SPEAKER,
            idempotency_key=reply_key(intake.message_id),
            now=now,
        )
    return profile
