"""Consent grants per scope and their revocation (item 31, seed §2.14; scopes X5; D17).

A grant is an auditable consent event: which scope, how it was given, the hash of the text the
guest agreed to, and which profile fields it covers. Every written field points at the grant
that authorises it (`consent_ref`). Revoking marks the grant revoked and the fields withdrawn;
the values stay for the legal trail (CCPA's 45-day window, comp audits) but never reach a
prompt, a completeness score, an offer decision or a marketing list again.

personalization and cross_session are implied by the guest's engagement (seed §9.12), so the
first write in those scopes creates an implied grant. marketing, analytics and third_party need
an explicit `grant(...)`. Once a scope has been revoked nothing is implied again: only a new
explicit grant reopens it.
"""

from __future__ import annotations

import hashlib
import uuid
from dataclasses import dataclass, field
from datetime import datetime
from typing import TYPE_CHECKING, Any, Literal

from frontdesk.assistants.casino_host.profile._time import from_iso, require_aware, to_iso
from frontdesk.assistants.casino_host.profile.fields import ConsentScope, normalise_scope, resolve

if TYPE_CHECKING:
    from frontdesk.assistants.casino_host.profile.guest import GuestProfile
    from frontdesk.assistants.casino_host.profile.profile_field import ProfileField

IMPLIED_SCOPES: frozenset[str] = frozenset({"personalization", "cross_session"})
GRANT_PREFIX = "consent_grant:"

GrantStatus = Literal["active", "revoked"]


@dataclass
class ConsentGrant:
    id: str
    scope: ConsentScope
    granted_at: datetime
    granted_via: str
    scope_detail: str = ""
    consent_text_hash: str | None = None
    consent_version: int = 1
    status: GrantStatus = "active"
    revoked_at: datetime | None = None
    revoked_reason: str | None = None
    fields_covered: list[str] = field(default_factory=list)

    def __post_init__(self) -> None:
        self.scope = normalise_scope(self.scope)
        require_aware(self.granted_at, "granted_at")

    @property
    def active(self) -> bool:
        return self.status == "active"

    def cover(self, path: str) -> None:
        if path not in self.fields_covered:
            self.fields_covered.append(path)

    def to_dict(self) -> dict[str, Any]:
        return {
            "_id": self.id,
            "scope": self.scope,
            "scope_detail": self.scope_detail,
            "granted_at": to_iso(self.granted_at),
            "granted_via": self.granted_via,
            "consent_text_hash": self.consent_text_hash,
            "consent_version": self.consent_version,
            "status": self.status,
            "revoked_at": to_iso(self.revoked_at),
            "revoked_reason": self.revoked_reason,
            "fields_covered": list(self.fields_covered),
        }

    @classmethod
    def from_dict(cls, raw: dict[str, Any]) -> ConsentGrant:
        return cls(
            id=raw["_id"],
            scope=raw["scope"],
            granted_at=from_iso(raw["granted_at"]),  # type: ignore[arg-type]
            granted_via=raw.get("granted_via") or "unknown",
            scope_detail=raw.get("scope_detail") or "",
            consent_text_hash=raw.get("consent_text_hash"),
            consent_version=int(raw.get("consent_version") or 1),
            status=raw.get("status") or "active",
            revoked_at=from_iso(raw.get("revoked_at")),
            revoked_reason=raw.get("revoked_reason"),
            fields_covered=list(raw.get("fields_covered") or []),
        )


@dataclass(frozen=True)
class RevocationResult:
    """What a revocation touched. `consent_ref` is the first grant revoked (the seed returns one
    ref per call); `consent_refs` lists all of them when a scope had several grants."""

    scope: str
    consent_ref: str | None
    consent_refs: tuple[str, ...]
    fields_affected: int  # fields covered by the revoked grants or in the revoked scope
    fields_updated: int  # fields newly marked withdrawn by this call
    paths_withdrawn: tuple[str, ...]
    audit_event: dict[str, Any]

    def to_dict(self) -> dict[str, Any]:
        return {
            "scope": self.scope,
            "consent_ref": self.consent_ref,
            "consent_refs": list(self.consent_refs),
            "fields_affected": self.fields_affected,
            "fields_updated": self.fields_updated,
            "paths_withdrawn": list(self.paths_withdrawn),
            "audit_event": dict(self.audit_event),
        }


def hash_consent_text(text: str) -> str:
    return "sha256:" + hashlib.sha256(text.encode("utf-8")).hexdigest()


def grant(
    profile: GuestProfile,
    scope: str,
    *,
    granted_via: str,
    now: datetime,
    scope_detail: str = "",
    consent_text: str | None = None,
    consent_version: int = 1,
    fields: tuple[str, ...] | list[str] = (),
) -> ConsentGrant:
    """Record a consent grant on the profile. Fields named here (aliases allowed) that already
    hold a value in the same scope and are not withdrawn are linked to the new grant."""
    record = ConsentGrant(
        id=f"{GRANT_PREFIX}{uuid.uuid4()}",
        scope=normalise_scope(scope),
        granted_at=require_aware(now),
        granted_via=granted_via,
        scope_detail=scope_detail,
        consent_text_hash=hash_consent_text(consent_text) if consent_text else None,
        consent_version=consent_version,
    )
    for name in fields:
        path = resolve(name)
        record.cover(path)
        existing = profile.fields.get(path)
        if (
            existing is not None
            and existing.consent_scope == record.scope
            and not existing.withdrawn
        ):
            existing.consent_ref = record.id
            existing.consent_version = consent_version
    profile.consent_grants[record.id] = record
    return record


def active_grant(profile: GuestProfile, scope: str) -> ConsentGrant | None:
    """The most recent active grant for a scope."""
    scope = normalise_scope(scope)
    candidates = [g for g in profile.consent_grants.values() if g.scope == scope and g.active]
    return max(candidates, key=lambda g: g.granted_at, default=None)


def scope_revoked(profile: GuestProfile, scope: str) -> bool:
    """True when the scope was revoked and no grant has reopened it since."""
    scope = normalise_scope(scope)
    grants = [g for g in profile.consent_grants.values() if g.scope == scope]
    return bool(grants) and not any(g.active for g in grants)


def grant_for_write(profile: GuestProfile, scope: str, now: datetime) -> ConsentGrant | None:
    """The grant a new field in this scope is written under, or None when the guest has not
    consented: an implied scope gets its implied grant on first use unless it was revoked."""
    current = active_grant(profile, scope)
    if current is not None:
        return current
    if normalise_scope(scope) in IMPLIED_SCOPES and not scope_revoked(profile, scope):
        return grant(profile, scope, granted_via="implied_engagement", now=now)
    return None


def field_consented(profile: GuestProfile, stored: ProfileField) -> bool:
    """May this field be used at all? Not withdrawn, and its grant (when it names one) is still
    active. A field that names a grant the profile does not hold is not trusted."""
    if stored.withdrawn:
        return False
    if stored.consent_ref is None:
        return not scope_revoked(profile, stored.consent_scope)
    record = profile.consent_grants.get(stored.consent_ref)
    return record is not None and record.active


def _withdraw(
    profile: GuestProfile, grants: list[ConsentGrant], scope: str | None, reason: str, now: datetime
) -> tuple[set[str], list[str]]:
    refs = {g.id for g in grants}
    affected: set[str] = {path for g in grants for path in g.fields_covered}
    withdrawn: list[str] = []
    for g in grants:
        g.status, g.revoked_at, g.revoked_reason = "revoked", now, reason
    for path, stored in profile.fields.items():
        linked = stored.consent_ref in refs or (scope is not None and stored.consent_scope == scope)
        if linked:
            affected.add(path)
            if stored.withdraw(now):
                withdrawn.append(path)
    return affected, sorted(withdrawn)


def _result(
    scope: str,
    grants: list[ConsentGrant],
    affected: set[str],
    withdrawn: list[str],
    reason: str,
    now: datetime,
) -> RevocationResult:
    refs = tuple(g.id for g in grants)
    # Paths and counts only: a revocation audit row never carries the values it hid.
    audit = {
        "event_type": "consent_revocation",
        "consent_refs": list(refs),
        "scope": scope,
        "scope_detail": grants[0].scope_detail if len(grants) == 1 else None,
        "fields_affected": len(affected),
        "fields_updated": len(withdrawn),
        "paths_withdrawn": list(withdrawn),
        "reason": reason,
        "timestamp": to_iso(now),
    }
    return RevocationResult(
        scope=scope,
        consent_ref=refs[0] if refs else None,
        consent_refs=refs,
        fields_affected=len(affected),
        fields_updated=len(withdrawn),
        paths_withdrawn=tuple(withdrawn),
        audit_event=audit,
    )


def revoke_consent(
    profile: GuestProfile, scope: str, reason: str, now: datetime
) -> RevocationResult:
    """Revoke every active grant of a scope and withdraw every field held in that scope.
    Calling it again is harmless: it reports zero fields updated."""
    require_aware(now)
    scope = normalise_scope(scope)
    grants = sorted(
        (g for g in profile.consent_grants.values() if g.scope == scope and g.active),
        key=lambda g: g.granted_at,
    )
    marker = None
    if not grants and not any(g.scope == scope for g in profile.consent_grants.values()):
        # Nothing was ever granted: keep a revoked marker so an implied scope stays closed. It
        # is not reported as a revoked consent, because none was ever given.
        marker = grant(profile, scope, granted_via="never_granted", now=now)
    to_revoke = [marker] if marker is not None else grants
    affected, withdrawn = _withdraw(profile, to_revoke, scope, reason, now)
    profile.touch(now)
    return _result(scope, grants, affected, withdrawn, reason, now)


def revoke_grant(
    profile: GuestProfile, consent_ref: str, reason: str, now: datetime
) -> RevocationResult:
    """Revoke one grant (the seed's `revoke_consent`, seed §2.14): only fields linked to it are
    withdrawn, other grants of the same scope stay."""
    require_aware(now)
    record = profile.consent_grants.get(consent_ref)
    if record is None:
        raise KeyError(f"consent grant {consent_ref} not found")
    grants = [record] if record.active else []
    affected, withdrawn = _withdraw(profile, grants, None, reason, now)
    affected |= set(record.fields_covered)
    profile.touch(now)
    return _result(record.scope, [record], affected, withdrawn, reason, now)


def marketing_fields(profile: GuestProfile) -> dict[str, Any]:
    """Values usable for marketing (D17): scope=marketing only, consented, not withdrawn.
    third_party ("sharing" at seed §2.8) is not a licence to market."""
    return {
        path: stored.value
        for path, stored in profile.fields.items()
        if stored.consent_scope == "marketing" and field_consented(profile, stored)
    }
