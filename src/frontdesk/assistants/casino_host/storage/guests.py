"""Casinos, guests and their profiles.

A guest is created with its phone_index row and an empty profile in one transaction (X1). The
phone_index primary key (casino_id, phone_hash) decides a race: of two concurrent first
messages from one number, one insert wins and the other reads the winner's guest.

The profile is stored as its JSON document with two things moved out of it: the phone number
(only ever in `guests.phone_ciphertext`, encrypted; the document keeps phone history encrypted
too) and the consent grants (rows of `consent_grants`, so revocations can be queried).
"""

from __future__ import annotations

import uuid
from datetime import datetime
from typing import Any
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from sqlalchemy import bindparam, select, update
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session

from frontdesk.assistants.casino_host.profile import SCHEMA_VERSION, ConsentGrant, GuestProfile
from frontdesk.assistants.casino_host.profile import completeness as profile_completeness
from frontdesk.assistants.casino_host.storage.base import (
    StoreBase,
    StoredGuest,
    execute,
    moment,
    public,
)
from frontdesk.assistants.casino_host.storage.errors import (
    GuestNotFound,
    StaleProfile,
    UnknownCasino,
)
from frontdesk.assistants.casino_host.storage.records import Casino, LoadedProfile
from frontdesk.assistants.casino_host.storage.tables import (
    CasinoRow,
    ConsentGrantRow,
    GuestRow,
    PhoneIndexRow,
    ProfileRow,
)

GUEST_SCHEMA_VERSION = 1
ENCRYPTED_HISTORY = "phone_history_encrypted"

# A turn's statements, built once (`execute`).
_PHONES, _PROFILES, _GRANT_ROWS = (
    PhoneIndexRow.__table__,
    ProfileRow.__table__,
    ConsentGrantRow.__table__,
)
_FIND_GUEST = select(_PHONES.c.guest_uuid).where(
    _PHONES.c.casino_id == bindparam("casino_id"), _PHONES.c.phone_hash == bindparam("hash")
)
_PROFILE = select(_PROFILES.c.document, _PROFILES.c.version).where(
    _PROFILES.c.casino_id == bindparam("casino_id"),
    _PROFILES.c.guest_uuid == bindparam("guest_uuid"),
)
_GRANTS = (
    select(_GRANT_ROWS)
    .where(
        _GRANT_ROWS.c.casino_id == bindparam("casino_id"),
        _GRANT_ROWS.c.guest_uuid == bindparam("guest_uuid"),
    )
    .order_by(_GRANT_ROWS.c.granted_at, _GRANT_ROWS.c.grant_id)
)
# A first contact's: the guest, its phone_index row and its empty profile (X1).
_CASINO_EXISTS = select(CasinoRow.__table__.c.casino_id).where(
    CasinoRow.__table__.c.casino_id == bindparam("casino_id")
)
_GUESTS = GuestRow.__table__
_INSERT_GUEST = _GUESTS.insert()
_INSERT_PHONE = _PHONES.insert()
_INSERT_PROFILE = _PROFILES.insert()
# The columns to set are the parameters named as columns; the b_ ones select the row.
_TOUCH_GUEST = update(_GUESTS).where(
    _GUESTS.c.casino_id == bindparam("b_casino_id"),
    _GUESTS.c.guest_uuid == bindparam("b_guest_uuid"),
)
_SAVE_PROFILE = update(_PROFILES).where(
    _PROFILES.c.casino_id == bindparam("b_casino_id"),
    _PROFILES.c.guest_uuid == bindparam("b_guest_uuid"),
    _PROFILES.c.version == bindparam("b_version"),
)


def _casino(row: CasinoRow) -> Casino:
    return Casino(row.casino_id, row.name, row.timezone, row.state)


def _grant_row(casino_id: str, guest_uuid: str, grant: ConsentGrant) -> dict[str, Any]:
    return {
        "grant_id": grant.id,
        "casino_id": casino_id,
        "guest_uuid": guest_uuid,
        "scope": grant.scope,
        "scope_detail": grant.scope_detail,
        "granted_at": grant.granted_at,
        "granted_via": grant.granted_via,
        "consent_text_hash": grant.consent_text_hash,
        "consent_version": grant.consent_version,
        "status": grant.status,
        "revoked_at": grant.revoked_at,
        "revoked_reason": grant.revoked_reason,
        "fields_covered": list(grant.fields_covered),
    }


def _grant(row: ConsentGrantRow) -> ConsentGrant:
    return ConsentGrant(
        id=row.grant_id,
        scope=row.scope,  # type: ignore[arg-type]
        granted_at=row.granted_at,
        granted_via=row.granted_via,
        scope_detail=row.scope_detail,
        consent_text_hash=row.consent_text_hash,
        consent_version=row.consent_version,
        status=row.status,  # type: ignore[arg-type]
        revoked_at=row.revoked_at,
        revoked_reason=row.revoked_reason,
        fields_covered=list(row.fields_covered or []),
    )


class GuestStore(StoreBase):
    # --- casinos ---------------------------------------------------------------------------
    @public
    def put_casino(
        self,
        casino_id: str,
        *,
        name: str,
        timezone: str,
        state: str | None = None,
        now: datetime | None = None,
    ) -> Casino:
        """Register a casino or update its name, time zone (IANA) and US state."""
        try:
            ZoneInfo(timezone)
        except (ZoneInfoNotFoundError, ValueError) as exc:
            raise ValueError(f"unknown time zone {timezone!r}") from exc
        if state is not None and not (len(state) == 2 and state.isalpha() and state.isupper()):
            raise ValueError("state must be a two-letter code such as 'NJ'")
        with self._begin() as session:
            row = session.get(CasinoRow, casino_id)
            if row is None:
                row = CasinoRow(casino_id=casino_id, created_at=moment(now))
                session.add(row)
            row.name, row.timezone, row.state = name, timezone, state
            return _casino(row)

    @public
    def get_casino(self, casino_id: str) -> Casino:
        with self._begin() as session:
            row = session.get(CasinoRow, casino_id)
            if row is None:
                raise UnknownCasino(f"no casino {casino_id}")
            return _casino(row)

    # --- guests ----------------------------------------------------------------------------
    @public
    def phone_hash(self, casino_id: str, e164: str) -> str:
        """The casino's keyed hash of a number (X3), as stored; no database access."""
        return self._hasher.hash(casino_id, e164)

    @public
    def find_guest(self, casino_id: str, e164: str) -> str | None:
        return self._find_guest_uuid(casino_id, self._hasher.hash(casino_id, e164))

    def _find_guest_uuid(self, casino_id: str, hashed: str) -> str | None:
        with self._begin(read_only=True) as session:
            return execute(session, _FIND_GUEST, {"casino_id": casino_id, "hash": hashed}).scalar()

    @public
    def get_or_create_guest(
        self, casino_id: str, e164: str, *, language: str | None = None, now: datetime | None = None
    ) -> tuple[str, bool]:
        """The guest texting from `e164` at this casino, created on first contact:
        (guest_uuid, created). Race-safe: concurrent first messages yield one guest."""
        hashed = self._hasher.hash(casino_id, e164)
        existing = self._find_guest_uuid(casino_id, hashed)
        if existing is not None:
            return existing, False
        now = moment(now)
        try:
            return self._insert_guest(casino_id, e164, hashed, language, now), True
        except IntegrityError:
            # Lost the race: the phone_index row of the other transaction decides.
            winner = self._find_guest_uuid(casino_id, hashed)
            if winner is None:
                raise
            return winner, False

    def _insert_guest(
        self, casino_id: str, e164: str, hashed: str, language: str | None, now: datetime
    ) -> str:
        guest = StoredGuest(str(uuid.uuid4()), casino_id, hashed, self._cipher.encrypt(e164))
        profile = GuestProfile(guest_uuid=guest.guest_uuid, created_at=now, casino_id=casino_id)
        columns = self._columns(profile, self._document(profile, casino_id), now)
        columns["_schema_version"] = columns.pop("schema_version")  # the column's own name
        with self._begin(savepoint=True) as session:
            if execute(session, _CASINO_EXISTS, {"casino_id": casino_id}).first() is None:
                raise UnknownCasino(f"no casino {casino_id}: register it with put_casino first")
            execute(session, _INSERT_GUEST, {**guest._asdict(), "language": language,
                                             "created_at": now, "updated_at": now,
                                             "_schema_version": GUEST_SCHEMA_VERSION})  # fmt: skip
            execute(session, _INSERT_PHONE, {"casino_id": casino_id, "phone_hash": hashed,
                                             "guest_uuid": guest.guest_uuid, "created_at": now})  # fmt: skip
            execute(session, _INSERT_PROFILE, {"guest_uuid": guest.guest_uuid, "version": 1,
                                               **columns})  # fmt: skip
        self._know_guest(session, guest)  # once the savepoint holds
        return guest.guest_uuid

    @public
    def guest_phone(self, casino_id: str, guest_uuid: str) -> str:
        """The guest's E.164 number, decrypted, for sending an SMS. Never log it."""
        with self._begin(read_only=True) as session:
            return self._cipher.decrypt(
                self._guest(session, casino_id, guest_uuid).phone_ciphertext
            )

    # --- profiles --------------------------------------------------------------------------
    def _document(self, profile: GuestProfile, casino_id: str) -> dict[str, Any]:
        document = profile.to_dict()
        document["casino_id"] = casino_id
        document.pop("consent_grants", None)  # rows of consent_grants
        core = document.setdefault("core_identity", {})
        core["phone"] = None  # guests.phone_ciphertext is the one home of the number
        history = core.pop("phone_history", None) or []
        core[ENCRYPTED_HISTORY] = [self._cipher.encrypt(number) for number in history]
        return document

    @staticmethod
    def _columns(profile: GuestProfile, document: dict[str, Any], now: datetime) -> dict[str, Any]:
        return {
            "casino_id": document["casino_id"],
            "document": document,
            "schema_version": int(document.get("_schema_version") or SCHEMA_VERSION),
            "completeness": float(profile_completeness(profile)),
            "conversation_phase": profile.conversation_phase,
            "responsible_gaming_triggered": bool(profile.responsible_gaming_triggered),
            "updated_at": now,
        }

    @public
    def load_profile(self, casino_id: str, guest_uuid: str) -> LoadedProfile:
        """The guest's profile and its version (for `save_profile`)."""
        with self._begin(read_only=True) as session:
            guest = self._guest(session, casino_id, guest_uuid)
            keys = {"casino_id": casino_id, "guest_uuid": guest_uuid}
            row = execute(session, _PROFILE, keys).first()
            if row is None:
                raise GuestNotFound(f"guest {guest_uuid} has no profile")
            grants = execute(session, _GRANTS, keys).all()
            document = dict(row.document)
            core = dict(document.get("core_identity") or {})
            core["phone"] = self._cipher.decrypt(guest.phone_ciphertext)
            core["phone_history"] = [
                self._cipher.decrypt(token) for token in core.pop(ENCRYPTED_HISTORY, None) or []
            ]
            document["core_identity"] = core
            document["consent_grants"] = []
            profile = GuestProfile.from_dict(document)
            profile.consent_grants = {grant.id: grant for grant in map(_grant, grants)}
            return LoadedProfile(profile, row.version)

    @public
    def save_profile(
        self,
        casino_id: str,
        profile: GuestProfile,
        expected_version: int,
        *,
        now: datetime | None = None,
    ) -> int:
        """Write the profile if it is still at `expected_version`; returns the new version.
        Raises StaleProfile when someone saved in between: reload, reapply, save again."""
        if profile.casino_id not in (None, casino_id):
            raise GuestNotFound(f"no guest {profile.guest_uuid} in casino {casino_id}")
        now = moment(now)
        document = self._document(profile, casino_id)
        columns = self._columns(profile, document, now)
        columns["_schema_version"] = columns.pop("schema_version")  # the column's own name
        with self._begin() as session:
            changed = execute(session, _SAVE_PROFILE, {
                "b_casino_id": casino_id, "b_guest_uuid": profile.guest_uuid,
                "b_version": expected_version, "version": expected_version + 1, **columns,
            }).rowcount  # fmt: skip
            if changed != 1:
                current = session.scalar(
                    select(ProfileRow.version).where(
                        ProfileRow.casino_id == casino_id,
                        ProfileRow.guest_uuid == profile.guest_uuid,
                    )
                )
                if current is None:
                    raise GuestNotFound(f"no guest {profile.guest_uuid} in casino {casino_id}")
                raise StaleProfile(profile.guest_uuid, expected_version, current)
            self._save_grants(session, casino_id, profile)
            # The profile's row matched this casino's guest: the guest's row is touched too.
            language = profile.fields.get("core_identity.language")
            touched: dict[str, Any] = {"updated_at": now}
            if language is not None and not language.withdrawn:
                touched["language"] = str(language.value)
            execute(session, _TOUCH_GUEST, {"b_casino_id": casino_id,
                                            "b_guest_uuid": profile.guest_uuid, **touched})  # fmt: skip
        return expected_version + 1

    @staticmethod
    def _save_grants(session: Session, casino_id: str, profile: GuestProfile) -> None:
        """Insert new grants and update changed ones; grants are never deleted (audit trail)."""
        if not profile.consent_grants:
            return  # a loaded profile holds every stored grant: none to write
        stored = {
            row.grant_id: row
            for row in session.scalars(
                select(ConsentGrantRow).where(
                    ConsentGrantRow.casino_id == casino_id,
                    ConsentGrantRow.guest_uuid == profile.guest_uuid,
                )
            )
        }
        for grant in profile.consent_grants.values():
            values = _grant_row(casino_id, profile.guest_uuid, grant)
            row = stored.get(grant.id)
            if row is None:
                session.add(ConsentGrantRow(**values))
            else:
                for key, value in values.items():
                    if getattr(row, key) != value:  # a JSON value set again counts as changed
                        setattr(row, key, value)
