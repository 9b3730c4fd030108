"""SQL storage of the casino host (seed 001): tenants, guests keyed by guest_uuid with a unique
phone index (X1), profiles as versioned JSON documents (X7) with consent grants as rows,
conversations per X2 thread with their messages, offers, promotions, escalations, webhook
idempotency claims and an append-only, de-identified audit log.

SQLAlchemy 2 on SQLite (default `<data_dir>/casino_host.sqlite3`) or PostgreSQL; the schema is
Alembic's (`migrations/`), applied by `upgrade(url)` or when a `Store` opens.
"""

from frontdesk.assistants.casino_host.storage.conversations import SESSION_IDLE_LIMIT
from frontdesk.assistants.casino_host.storage.errors import (
    AuditContentError,
    ConversationNotFound,
    EscalationNotFound,
    GuestNotFound,
    MissingCasinoId,
    NotFound,
    OfferNotFound,
    StaleProfile,
    StorageError,
    StorageUnavailable,
    UnknownCasino,
)
from frontdesk.assistants.casino_host.storage.escalations import BOT_PAUSE
from frontdesk.assistants.casino_host.storage.ledger import GENESIS, ChainVerification, ConsentEvent
from frontdesk.assistants.casino_host.storage.migrate import head_revision, upgrade
from frontdesk.assistants.casino_host.storage.outbound import LEASE, RETRY_DELAYS, OutboundMessage
from frontdesk.assistants.casino_host.storage.phone import (
    PhoneCipher,
    PhoneHasher,
    log_hash,
    phone_hash,
    tenant_pepper,
)
from frontdesk.assistants.casino_host.storage.records import (
    AuditEntry,
    Casino,
    Conversation,
    ConversationOpening,
    Escalation,
    LoadedProfile,
    Offer,
    Promotion,
    StoredMessage,
    thread_id_for,
)
from frontdesk.assistants.casino_host.storage.settings import CasinoHostStorageSettings
from frontdesk.assistants.casino_host.storage.store import Store
from frontdesk.assistants.casino_host.storage.webhooks import WEBHOOK_TTL, WebhookClaim

__all__ = [
    "BOT_PAUSE",
    "GENESIS",
    "LEASE",
    "RETRY_DELAYS",
    "SESSION_IDLE_LIMIT",
    "WEBHOOK_TTL",
    "AuditContentError",
    "AuditEntry",
    "Casino",
    "CasinoHostStorageSettings",
    "ChainVerification",
    "ConsentEvent",
    "Conversation",
    "ConversationNotFound",
    "ConversationOpening",
    "Escalation",
    "EscalationNotFound",
    "GuestNotFound",
    "LoadedProfile",
    "MissingCasinoId",
    "NotFound",
    "Offer",
    "OfferNotFound",
    "OutboundMessage",
    "PhoneCipher",
    "PhoneHasher",
    "Promotion",
    "StaleProfile",
    "StorageError",
    "StorageUnavailable",
    "Store",
    "StoredMessage",
    "UnknownCasino",
    "WebhookClaim",
    "head_revision",
    "log_hash",
    "phone_hash",
    "tenant_pepper",
    "thread_id_for",
    "upgrade",
]
