"""What the caller of the current turn may see, for assistants that hold personal data.

The server sets it per request from the caller (`frontdesk.server.identity.Caller`); the CLI
acts as the operator on the machine and may see everything. An assistant reads `current()`
where it would reveal personal data (the analyst's decrypting views). The default is the safe
one: code that runs outside a request or a command sees nothing personal.
"""

from __future__ import annotations

from contextvars import ContextVar
from dataclasses import dataclass


@dataclass(frozen=True)
class Permissions:
    # Decrypted personal data: names, e-mails, phone numbers, addresses, free-text notes.
    personal_data: bool = False


NOBODY = Permissions()
OPERATOR = Permissions(personal_data=True)
_current: ContextVar[Permissions | None] = ContextVar("frontdesk_permissions", default=None)


def current() -> Permissions:
    return _current.get() or NOBODY


def grant(permissions: Permissions) -> None:
    """Set the permissions for the rest of the current context (a request's task, a command's
    run): tasks started from it inherit them, other requests never see them."""
    _current.set(permissions)
