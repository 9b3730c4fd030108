"""The guest profile (item 28): fields by canonical path, consent grants, engagement, phase.

Writes follow D18: a value is written only when its claimed confidence is above 0.5, then the
confidence is clamped into its source's range. Writing the value already held confirms it
(+0.15, or the new source's own claim if that is higher). A different value replaces the
stored one unless it comes from a weaker kind of source (an inference never overwrites what
the guest said); a caller that knows a source disagrees without superseding calls
`contradict`. Nothing is written without consent for the field's scope (`consent.py`).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from frontdesk.assistants.casino_host.profile import consent as consent_rules
from frontdesk.assistants.casino_host.profile._time import from_iso, require_aware, to_iso
from frontdesk.assistants.casino_host.profile.completeness import completeness
from frontdesk.assistants.casino_host.profile.consent import ConsentGrant, field_consented
from frontdesk.assistants.casino_host.profile.fields import FIELDS, UnknownFieldError, resolve
from frontdesk.assistants.casino_host.profile.phases import (
    PhaseChange,
    PhaseSignals,
    count_preference_fields,
    sweep,
)
from frontdesk.assistants.casino_host.profile.profile_field import (
    PROMPT_THRESHOLD,
    WRITE_THRESHOLD,
    ProfileField,
    clamp_to_source,
)
from frontdesk.assistants.casino_host.profile.sections import Engagement, PhaseState, SessionState
from frontdesk.assistants.casino_host.profile.values import (
    InvalidValueError,
    coerce,
    is_empty,
    mask_email,
    same_value,
)
from frontdesk.assistants.casino_host.profile.view import PROMPT_SCOPES, ProfileView

SCHEMA_VERSION = 1
# How direct a source is: a weaker one never overwrites a stronger one's different value.
SOURCE_STRENGTH = {
    "inferred": 0,
    "auto_detected": 0,
    "contextual_extraction": 1,
    "self_reported": 2,
    "incentive_exchange": 2,
    "crm_import": 2,
}


@dataclass(frozen=True)
class WriteResult:
    path: str
    written: bool
    # written | confirmed | below_write_threshold | empty_value | invalid_value | no_consent
    # | consent_not_active | weaker_than_stored | not_targeted | unknown_field | unknown_source
    reason: str
    confidence: float | None = None


@dataclass(repr=False)
class GuestProfile:
    guest_uuid: str
    created_at: datetime
    casino_id: str | None = None
    phone_e164: str | None = None  # kept for storage; never in repr, views or ids (X2)
    phone_history: list[str] = field(default_factory=list)
    updated_at: datetime | None = None
    fields: dict[str, ProfileField] = field(default_factory=dict)
    consent_grants: dict[str, ConsentGrant] = field(default_factory=dict)
    consent: dict[str, Any] = field(default_factory=dict)  # X4 SMS consent record, owned by WP1
    engagement: Engagement = field(default_factory=Engagement)
    phase_state: PhaseState = field(default_factory=PhaseState)
    session: SessionState = field(default_factory=SessionState)
    responsible_gaming_triggered: bool = False
    responsible_gaming_triggered_at: datetime | None = None

    def __post_init__(self) -> None:
        require_aware(self.created_at, "created_at")
        self.updated_at = self.updated_at or self.created_at
        if self.phase_state.entered_at is None:
            self.phase_state.entered_at = self.created_at
        if self.phase_state.arc_started_at is None:
            self.phase_state.arc_started_at = self.created_at

    def __repr__(self) -> str:
        return (
            f"GuestProfile(guest_uuid={self.guest_uuid!r}, casino_id={self.casino_id!r}, "
            f"phase={self.conversation_phase!r}, fields={sorted(self.fields)!r})"
        )

    __str__ = __repr__

    @property
    def conversation_phase(self) -> str:
        return self.phase_state.phase

    def touch(self, now: datetime) -> None:
        """Every change passes here, so the stored completeness never lags the fields."""
        self.updated_at = require_aware(now)
        self.engagement.profile_completeness = completeness(self)

    # --- reading -------------------------------------------------------------------------
    def get(self, name: str) -> ProfileField | None:
        """The stored field (withdrawn ones included, for audit and storage); by path or alias."""
        return self.fields.get(resolve(name))

    def usable(self, name: str) -> bool:
        stored = self.get(name)
        return stored is not None and field_consented(self, stored) and not is_empty(stored.value)

    def prompt_view(self, now: datetime) -> ProfileView:
        """What a model may see (see `view.py`)."""
        require_aware(now)
        values: dict[str, Any] = {}
        confidences: dict[str, float] = {}
        for path, stored in sorted(self.fields.items()):
            if stored.consent_scope not in PROMPT_SCOPES or not field_consented(self, stored):
                continue
            confidence = stored.effective_confidence(now)
            if confidence < PROMPT_THRESHOLD or is_empty(stored.value):
                continue
            value = stored.value
            values[path] = mask_email(value) if path == "core_identity.email" else value
            confidences[path] = confidence
        return ProfileView(
            values=values,
            confidences=confidences,
            conversation_phase=self.conversation_phase,
            completeness=completeness(self, now),
            responsible_gaming_triggered=self.responsible_gaming_triggered,
            language=values.get("core_identity.language"),
        )

    # --- writing -------------------------------------------------------------------------
    def set_field(
        self,
        name: str,
        value: Any,
        *,
        source: str,
        confidence: float,
        now: datetime,
        consent_ref: str | None = None,
    ) -> WriteResult:
        path = resolve(name)
        spec = FIELDS[path]
        require_aware(now)
        clamp_to_source(confidence, source)  # rejects an unknown source before anything else
        if not confidence > WRITE_THRESHOLD:
            return WriteResult(path, False, "below_write_threshold")
        if is_empty(value):
            return WriteResult(path, False, "empty_value")
        try:
            value = coerce(spec, value)
        except InvalidValueError:
            return WriteResult(path, False, "invalid_value")
        claimed = clamp_to_source(confidence, source)

        existing = self.fields.get(path)
        if existing is not None and field_consented(self, existing):
            if same_value(existing.value, value):
                # A second source agreeing confirms; a more direct one also lifts the field to
                # at least what that source alone would have claimed.
                existing.confirm(now)
                if claimed > existing.confidence:
                    existing.confidence, existing.source = claimed, source  # type: ignore[assignment]
                self.touch(now)
                return WriteResult(path, True, "confirmed", existing.confidence)
            weaker = SOURCE_STRENGTH[source] < SOURCE_STRENGTH[existing.source]
            if weaker and existing.effective_confidence(now) >= PROMPT_THRESHOLD:
                return WriteResult(path, False, "weaker_than_stored")

        if consent_ref is not None:
            grant = self.consent_grants.get(consent_ref)
            if grant is None or not grant.active:
                return WriteResult(path, False, "consent_not_active")
        else:
            grant = consent_rules.grant_for_write(self, spec.consent_scope, now)
            if grant is None:
                return WriteResult(path, False, "no_consent")
        self.fields[path] = ProfileField(
            value=value,
            confidence=claimed,
            source=source,  # type: ignore[arg-type]
            collected_at=now,
            consent_scope=grant.scope,
            consent_ref=grant.id,
            consent_version=grant.consent_version,
            consent_scope_detail=grant.scope_detail or spec.scope_detail,
        )
        grant.cover(path)
        self.touch(now)
        return WriteResult(path, True, "written", claimed)

    def apply_extraction(
        self,
        updates: Mapping[str, tuple[Any, float, str]],
        now: datetime,
        *,
        targets: list[str] | tuple[str, ...] | None = None,
    ) -> dict[str, WriteResult]:
        """Write an extractor's `{path: (value, confidence, source)}`. With `targets` (the
        planner's extraction_targets) only those fields are written (seed §9.7). A model's output
        is untrusted: an unknown field name or source is reported, not raised."""
        allowed = None if targets is None else {resolve(t) for t in targets}
        results: dict[str, WriteResult] = {}
        for name, (value, confidence, source) in updates.items():
            try:
                path = resolve(name)
            except UnknownFieldError:
                results[name] = WriteResult(name, False, "unknown_field")
                continue
            if allowed is not None and path not in allowed:
                results[path] = WriteResult(path, False, "not_targeted")
            elif source not in SOURCE_STRENGTH:
                results[path] = WriteResult(path, False, "unknown_source")
            else:
                results[path] = self.set_field(
                    path, value, source=source, confidence=float(confidence), now=now
                )
        return results

    def _stored(self, name: str) -> ProfileField:
        path = resolve(name)
        if path not in self.fields:
            raise KeyError(f"no value stored for {path}")
        return self.fields[path]

    def confirm(self, name: str, now: datetime) -> float:
        result = self._stored(name).confirm(now)
        self.touch(now)
        return result

    def contradict(self, name: str, now: datetime, reason: str = "contradicted") -> float:
        result = self._stored(name).contradict(now, reason)
        self.touch(now)
        return result

    def apply_decay(self, now: datetime) -> list[str]:
        """The decay check (nightly job): fold due decay steps into stored confidences. Safe to
        run any number of times; returns the paths that changed."""
        changed = [path for path, stored in self.fields.items() if stored.apply_decay(now)]
        if changed:
            self.touch(now)
        return sorted(changed)

    def fields_needing_review(self) -> list[str]:
        return sorted(path for path, stored in self.fields.items() if stored.needs_review)

    def mark_responsible_gaming(self, now: datetime) -> None:
        """Permanent (seed §9.20): there is deliberately no way to clear it."""
        if not self.responsible_gaming_triggered:
            self.responsible_gaming_triggered = True
            self.responsible_gaming_triggered_at = require_aware(now)
        self.touch(now)

    # --- conversation bookkeeping ----------------------------------------------------------
    def record_guest_message(self, *, substantive: bool, now: datetime) -> None:
        self.engagement.total_messages_received += 1
        self.engagement.last_message_at = require_aware(now)
        self.phase_state.exchanges += 1
        self.phase_state.substantive += int(substantive)
        self.touch(now)

    def record_host_message(self, now: datetime) -> None:
        self.engagement.total_messages_sent += 1
        self.touch(now)

    def phase_signals(
        self,
        now: datetime,
        *,
        rapport_score: float = 0.0,
        offer_readiness_score: float = 0.0,
        is_stop: bool = False,
        escalated: bool = False,
        next_visit_interest: bool = False,
    ) -> PhaseSignals:
        """Signals for `advance_phase` after `record_guest_message`: the counters and known
        fields come from the profile (prompt-usable fields only), the judgements from the caller."""
        known = self.prompt_view(now).values
        return PhaseSignals(
            is_stop=is_stop,
            exchanges_in_phase=self.phase_state.exchanges,
            substantive_in_phase=self.phase_state.substantive,
            rapport_score=rapport_score,
            identity_known="core_identity.name" in known
            or "visit_context.planned_visit_date" in known,
            preference_fields=count_preference_fields(known),
            offer_readiness_score=offer_readiness_score,
            escalated=escalated,
            next_visit_interest=next_visit_interest,
        )

    def due_sweep(self, now: datetime) -> PhaseChange | None:
        """The timed transition due for this profile now (not applied)."""
        visit = self.get("visit_context.planned_visit_date")
        return sweep(
            self.conversation_phase,
            self.engagement.last_message_at,
            visit.value if visit is not None and field_consented(self, visit) else None,
            now,
            phase_entered_at=self.phase_state.entered_at,
        )

    def apply_phase_change(self, change: PhaseChange) -> None:
        if change.from_phase != self.phase_state.phase:
            raise ValueError(
                f"change from {change.from_phase} does not apply to phase {self.phase_state.phase}"
            )
        self.phase_state.phase = change.to_phase
        self.phase_state.entered_at = change.at
        self.phase_state.exchanges = 0
        self.phase_state.substantive = 0
        if change.starts_new_arc:
            self.phase_state.arc_started_at = change.at
        self.touch(change.at)

    # --- JSON ----------------------------------------------------------------------------
    def to_dict(self) -> dict[str, Any]:
        """The stored document: item 28's sections with fields nested by path (X7 version)."""
        doc: dict[str, Any] = {
            "_schema_version": SCHEMA_VERSION,
            "guest_uuid": self.guest_uuid,
            "casino_id": self.casino_id,
            "_created_at": to_iso(self.created_at),
            "_updated_at": to_iso(self.updated_at),
            "core_identity": {
                "guest_uuid": self.guest_uuid,
                "phone": self.phone_e164,
                "phone_history": list(self.phone_history),
            },
            "visit_context": {},
            "preferences": {},
            "companions": None,
        }
        for path, stored in sorted(self.fields.items()):
            *parents, leaf = path.split(".")
            node = doc
            for part in parents:
                node = node.setdefault(part, {})
            node[leaf] = stored.to_dict()
        doc.update(
            consent=dict(self.consent),
            consent_grants=[g.to_dict() for g in self.consent_grants.values()],
            engagement=self.engagement.to_dict(),
            conversation_phase=self.conversation_phase,
            phase_state=self.phase_state.to_dict(),
            responsible_gaming_triggered=self.responsible_gaming_triggered,
            responsible_gaming_triggered_at=to_iso(self.responsible_gaming_triggered_at),
            session=self.session.to_dict(),
        )
        return doc

    @classmethod
    def from_dict(cls, doc: Mapping[str, Any]) -> GuestProfile:
        version = int(doc.get("_schema_version") or 0)
        if version > SCHEMA_VERSION:
            raise ValueError(f"profile schema {version} is newer than this code ({SCHEMA_VERSION})")
        created_at = from_iso(doc["_created_at"])
        updated_at = from_iso(doc.get("_updated_at")) or created_at
        core = doc.get("core_identity") or {}
        fields: dict[str, ProfileField] = {}
        for path in FIELDS:
            node: Any = doc
            for part in path.split("."):
                node = node.get(part) if isinstance(node, Mapping) else None
            if node is not None:
                fields[path] = ProfileField.from_dict(node, default_time=updated_at)
        grants = [ConsentGrant.from_dict(raw) for raw in doc.get("consent_grants") or []]
        phase_state = PhaseState.from_dict(doc.get("phase_state"))
        if not doc.get("phase_state") and doc.get("conversation_phase"):
            phase_state.phase = doc["conversation_phase"]
        return cls(
            guest_uuid=doc.get("guest_uuid") or core.get("guest_uuid"),
            created_at=created_at,  # type: ignore[arg-type]
            casino_id=doc.get("casino_id"),
            phone_e164=core.get("phone"),
            phone_history=list(core.get("phone_history") or []),
            updated_at=updated_at,
            fields=fields,
            consent_grants={g.id: g for g in grants},
            consent=dict(doc.get("consent") or {}),
            engagement=Engagement.from_dict(doc.get("engagement")),
            phase_state=phase_state,
            session=SessionState.from_dict(doc.get("session")),
            responsible_gaming_triggered=bool(doc.get("responsible_gaming_triggered", False)),
            responsible_gaming_triggered_at=from_iso(doc.get("responsible_gaming_triggered_at")),
        )
