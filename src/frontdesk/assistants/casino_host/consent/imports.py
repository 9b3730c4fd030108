"""Importing a casino's existing opt-ins (loyalty sign-ups, paper forms): each a consent
record on the guest's profile, a consent ledger event with its evidence, and a de-identified
audit row, all in ONE transaction. The database going away midway leaves nothing written,
and the same file imported twice changes nothing the second time.

An import never overrides the guest: a number that texted STOP, or asked for its data to be
deleted, is rejected (only the guest opts in again, with START). A guest who already holds
the same or a stronger consent is counted unchanged.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any, Literal

from frontdesk.assistants.casino_host.consent.import_rows import ImportRow, Rejected, last_four
from frontdesk.assistants.casino_host.consent.records import consent_state
from frontdesk.assistants.casino_host.storage import Store

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


def _import_row(store: Store, row: ImportRow,
                now: datetime) -> Rejected | Literal["imported", "unchanged"]:  # fmt: skip
    guest_uuid, _created = store.get_or_create_guest(row.casino_id, row.phone, now=now)
    loaded = store.load_profile(row.casino_id, guest_uuid)
    profile, consent = loaded.profile, loaded.profile.consent
    if consent.get("suppressed"):
        return Rejected(row.line, last_four(row.phone),
                        "the guest texted STOP: only the guest opts in again, with START")  # fmt: skip
    if consent.get("deletion_requested_at"):
        return Rejected(row.line, last_four(row.phone), "the guest asked for their data to be "
                        "deleted")  # fmt: skip
    held = consent.get("consent_type") if consent.get("sms_opt_in") else None
    if STRENGTH.get(held, 0) >= STRENGTH[row.consent_type]:
        return "unchanged"
    before = consent_state(consent)
    consent.update(sms_opt_in=True, consent_type=row.consent_type)
    if row.consent_type == "express_written":
        consent["marketing_consent"] = True
    consent[EVIDENCE_KEY[row.consent_type]] = row.evidence()
    store.append_consent_event(
        row.casino_id,
        guest_uuid,
        {
            **row.evidence(),
            "event_type": "consent_granted",
            "action": "opt_in",
            "method": f"import:{row.method}",  # how it was given, and that it came by import
            "consent_type": row.consent_type,
            "previous_state": before,
            "new_state": consent_state(consent),
            "timestamp": now.isoformat(),
        },
        now=now,
    )
    store.save_profile(row.casino_id, profile, loaded.version, now=now)
    store.audit(row.casino_id, "consent_imported", guest_uuid=guest_uuid,
                details={"method": row.method, "consent_type": row.consent_type,
                         "line": row.line}, now=now)  # fmt: skip
    return "imported"
