"""The channel's port to the host: the one call the SMS gateway makes to have a guest's text
answered, and the typed reply it gets back. The host (the casino host's service) is handed to
the gateway as a `HostTurn` by the build, so the channel knows nothing of the graph, the
profile or the prompts, and the host nothing of webhooks, claims' transport or sending.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Protocol

from frontdesk.assistants.casino_host.consent.records import DeliveryClaim, KeywordSettle
from frontdesk.errors import FrontdeskError


class HostUnavailable(FrontdeskError):
    """The host's storage is down: nothing was acknowledged, the guest's message should be
    resent (the provider is told 503 and sends it again)."""


@dataclass(frozen=True)
class HostReply:
    """The host's answer to one inbound SMS: the SMS parts as they are to be sent, who
    answered, and the guest (their id in the storage, never their number)."""

    parts: tuple[str, ...]
    speaker: str
    guest_uuid: str | None


class HostTurn(Protocol):
    """What the SMS gateway needs from the host."""

    async def answer_sms(
        self,
        casino_id: str,
        sender: str,
        text: str,
        *,
        delivery_id: str,
        settle_keyword: KeywordSettle,
        claim: DeliveryClaim | None,
    ) -> HostReply:
        """The reply to `text` from `sender` (E.164) to the casino. `delivery_id`: the
        provider's id of the message (a second delivery is answered once); `settle_keyword`:
        the channel's writes for a compliance keyword's reply, run in the keyword's own
        transaction; `claim`: the delivery's claim when the turn takes it. Raises
        `HostUnavailable` when nothing could be recorded, `DuplicateDelivery` when another
        delivery has the claim."""
        ...

    def fallback_sms(self, casino_id: str) -> tuple[str, ...]:
        """The static reply a guest gets when a turn fails (never silence, never a 500)."""
        ...

    def now(self) -> datetime:
        """The clock the host's turns run at (tests and the phone simulator move it)."""
        ...
