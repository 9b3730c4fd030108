"""Importing a casino's existing opt-ins (loyalty sign-ups, paper forms): each a consent
record on the guest's profile, a consent ledger event with its evidence, and a de-identified
audit row, all in ONE transaction. The database going away midway leaves nothing written,
and the same file imported twice changes nothing the second time.

An import never overrides the guest: a number that is opted out (STOP), or asked for its data
to be deleted, is rejected (only the guest opts in again, with START), and so is a consent
captured before a STOP the guest sent later (a later START restores the SMS channel only, never
the written consent the STOP withdrew). A guest who already holds the same or a stronger
consent is counted unchanged.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any, Literal

from frontdesk.assistants.casino_host.consent.import_rows import ImportRow, Rejected, last_four
from frontdesk.assistants.casino_host.consent.records import consent_evidence, consent_state
from frontdesk.assistants.casino_host.storage import Store

# How much a consent type allows; `_rank` adds marketing on top (written with it > without).
STRENGTH = {None: 0, "express": 1, "express_written": 2}
EVIDENCE_KEY = {"express": "opt_in_evidence", "express_written": "written_consent_evidence"}


@dataclass
class ImportReport:
    imported: int = 0
    unchanged: int = 0
    rejected: list[Rejected] = field(default_factory=list)
    dry_run: bool = False

    def as_dict(self) -> dict[str, Any]:
        return {"imported": self.imported, "unchanged": self.unchanged,
                "rejected": [{"line": r.line, "phone_last_four": r.last_four,
                              "reason": r.reason} for r in sorted(self.rejected,
                                                                  key=lambda r: r.line)],
                "dry_run": self.dry_run}  # fmt: skip


class _RollBack(Exception):
    """A dry run: everything was checked in the transaction, which now rolls back."""


def import_consents(store: Store, rows: Sequence[ImportRow], rejected: Sequence[Rejected], *,
                    now: datetime, dry_run: bool = False,
                    progress: Callable[[], None] | None = None) -> ImportReport:  # fmt: skip
    """Write every row, or none (StorageError propagates after the rollback)."""
    report = ImportReport(rejected=list(rejected), dry_run=dry_run)
    try:
        with store.transaction():
            for row in rows:
                outcome = _import_row(store, row, now)
                if isinstance(outcome, Rejected):
                    report.rejected.append(outcome)
                elif outcome == "imported":
                    report.imported += 1
                else:
                    report.unchanged += 1
                if progress is not None:
                    progress()
            if dry_run:
                raise _RollBack
    except _RollBack:
        pass
    return report


def import_evidence(row: ImportRow) -> dict[str, str | None]:
    """X4's evidence of an imported consent, as the ledger and the profile keep it: the keys
    of a consent given by SMS (`consent_evidence`), with how, when and where it was given."""
    return {**consent_evidence(row.disclosure_text), "channel": "import",
            "ip_address": row.ip_address, "user_agent": row.user_agent,
            "tcpa_version": row.tcpa_version, "method": row.method,
            "captured_at": row.captured_at.isoformat(),
            "source_reference": row.source_reference}  # fmt: skip


def _rank(consent_type: str | None, marketing: bool) -> tuple[int, bool]:
    return STRENGTH.get(consent_type, 0), marketing and consent_type == "express_written"


def _held(consent: dict[str, Any]) -> tuple[int, bool]:
    """What the guest holds: a START without a recorded type is SMS consent (express)."""
    if not consent.get("sms_opt_in") or consent.get("suppressed"):
        return 0, False
    return _rank(consent.get("consent_type") or "express", bool(consent.get("marketing_consent")))


def _opted_out_on(consent: dict[str, Any]) -> datetime | None:
    """When the guest last opted out (their STOP), from the consent record's history."""
    stops = [_aware(entry["timestamp"]) for entry in consent.get("consent_revocation_history")
             or [] if entry.get("action") == "opt_out" and entry.get("timestamp")]  # fmt: skip
    return max(stops, default=None)


def _aware(value: str) -> datetime:
    moment = datetime.fromisoformat(value)
    return moment if moment.tzinfo is not None else moment.replace(tzinfo=UTC)


def _refusal(row: ImportRow, consent: dict[str, Any], *, held: bool) -> str | None:
    """Why the guest's own word stands against this row; None when it does not. `held`: the
    guest already holds what the row gives (then only a current opt-out or deletion stands)."""
    stopped = _opted_out_on(consent)
    on = f"opted out on {stopped.astimezone(UTC):%Y-%m-%d %H:%M} UTC" if stopped else "opted out"
    if consent.get("deletion_requested_at"):
        return "the guest asked for their data to be deleted"
    if consent.get("suppressed"):
        return f"the guest {on} (STOP): an import never lifts it, only the guest's START does"
    if not held and stopped is not None and stopped >= row.captured_at:
        return f"the guest {on}, after this consent was captured: that STOP withdrew it"
    return None


def _import_row(store: Store, row: ImportRow,
                now: datetime) -> Rejected | Literal["imported", "unchanged"]:  # fmt: skip
    guest_uuid, _created = store.get_or_create_guest(row.casino_id, row.phone, now=now)
    loaded = store.load_profile(row.casino_id, guest_uuid)
    profile, consent = loaded.profile, loaded.profile.consent
    have, wanted = _held(consent), _rank(row.consent_type, row.marketing)
    held = have[0] >= wanted[0] and have[1] >= wanted[1]
    refusal = _refusal(row, consent, held=held)
    if refusal is not None:
        return Rejected(row.line, last_four(row.phone), refusal)
    if held:
        return "unchanged"  # the same file again, or a consent the guest gave since
    before = consent_state(consent)
    # Never lowered: a guest holding more than the row keeps it (the row adds what it adds).
    opted_in = bool(consent.get("sms_opt_in"))
    kind = max(row.consent_type, (consent.get("consent_type") if opted_in else None) or "express",
               key=lambda name: STRENGTH.get(name, 0))  # fmt: skip
    marketing = row.marketing or (opted_in and bool(consent.get("marketing_consent")))
    consent.update(sms_opt_in=True, consent_type=kind, marketing_consent=marketing)
    evidence = import_evidence(row)
    consent[EVIDENCE_KEY[row.consent_type]] = evidence
    history = list(consent.get("consent_revocation_history") or [])
    history.append({"action": "opt_in", "method": f"import:{row.method}",
                    "timestamp": now.isoformat(), "captured_at": evidence["captured_at"],
                    "processed_by": "consent_import"})  # fmt: skip
    consent["consent_revocation_history"] = history
    store.append_consent_event(
        row.casino_id,
        guest_uuid,
        {
            **evidence,
            "event_type": "consent_granted",
            "action": "opt_in",
            "method": f"import:{row.method}",  # how it was given, and that it came by import
            "consent_type": row.consent_type,
            "marketing": row.marketing,
            "previous_state": before,
            "new_state": consent_state(consent),
            "timestamp": now.isoformat(),
        },
        now=now,
    )
    store.save_profile(row.casino_id, profile, loaded.version, now=now)
    store.audit(row.casino_id, "consent_imported", guest_uuid=guest_uuid,
                details={"method": row.method, "consent_type": row.consent_type,
                         "marketing": row.marketing, "line": row.line}, now=now)  # fmt: skip
    return "imported"
