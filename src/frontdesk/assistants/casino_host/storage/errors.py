"""What the casino host's storage raises. The service catches `StorageUnavailable` to answer the
guest with a static text and keep serving; the rest are programming or concurrency errors."""

from __future__ import annotations


class StorageError(Exception):
    """Base class of every error this package raises on purpose."""


class StorageUnavailable(StorageError):
    """The database could not be reached (or refused the connection). The message names the
    database without its password; the driver's error is chained as `__cause__`."""

    def __init__(self, database: str, reason: str):
        self.database = database
        self.reason = reason
        super().__init__(f"casino host database {database} is unavailable: {reason}")


class MissingCasinoId(StorageError, ValueError):
    """A call without a casino id: every query is scoped to one tenant, so none may run unscoped."""


class NotFound(StorageError, LookupError):
    """A row that does not exist in this casino. A row of another casino is reported the same
    way: a tenant cannot tell another tenant's ids from ids that were never issued."""


class UnknownCasino(NotFound):
    pass


class GuestNotFound(NotFound):
    pass


class ConversationNotFound(NotFound):
    pass


class OfferNotFound(NotFound):
    pass


class EscalationNotFound(NotFound):
    pass


class StaleProfile(StorageError):
    """The profile changed since it was loaded (optimistic concurrency). Reload, reapply the
    change and save again."""

    def __init__(self, guest_uuid: str, expected_version: int, current_version: int | None):
        self.guest_uuid = guest_uuid
        self.expected_version = expected_version
        self.current_version = current_version
        super().__init__(
            f"profile of guest {guest_uuid} is at version {current_version}, not "
            f"{expected_version}: reload it and apply the change again"
        )


class AuditContentError(StorageError, ValueError):
    """Audit details that would put message text or a raw phone number in the audit log."""
