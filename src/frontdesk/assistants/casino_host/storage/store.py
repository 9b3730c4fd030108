"""`Store`: the casino host's SQL storage in one object.

Every public method takes the casino id first and refuses to run without one (tenant
isolation), and raises StorageUnavailable when the database cannot be reached. Calls are
synchronous and short; from async code run them in a worker thread (`asyncio.to_thread`).

    store = Store.from_settings()            # migrates to the newest schema
    guest_uuid, created = store.get_or_create_guest("mohegan_sun", "+12035551234")
    opening = store.open_or_resume_conversation("mohegan_sun", guest_uuid)
    message_id, is_new = store.record_inbound(
        "mohegan_sun", provider_id, thread_id=opening.thread_id, text=redacted_text
    )
"""

from __future__ import annotations

from frontdesk.assistants.casino_host.storage.conversations import ConversationStore
from frontdesk.assistants.casino_host.storage.escalation_notices import EscalationNoticeStore
from frontdesk.assistants.casino_host.storage.guests import GuestStore
from frontdesk.assistants.casino_host.storage.ledger import LedgerStore
from frontdesk.assistants.casino_host.storage.offers import OfferStore
from frontdesk.assistants.casino_host.storage.outbound import OutboundStore
from frontdesk.assistants.casino_host.storage.webhooks import WebhookStore
from frontdesk.config import Settings


class Store(
    GuestStore,
    ConversationStore,
    OfferStore,
    EscalationNoticeStore,  # and EscalationStore, which it extends
    WebhookStore,
    LedgerStore,
    OutboundStore,
):
    @classmethod
    def from_settings(cls, settings: Settings | None = None, *, migrate: bool = True) -> Store:
        """The store the settings describe (FRONTDESK_CASINO_HOST_DATABASE_URL, pepper, keys)."""
        return cls(settings=settings, migrate=migrate)
