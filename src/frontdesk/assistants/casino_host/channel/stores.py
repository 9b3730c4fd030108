"""The casino host's store with the content's casinos registered: what the service and the
`frontdesk sms` commands open (a guest of a casino the store does not know is refused)."""

from __future__ import annotations

from frontdesk.assistants.casino_host.content import CasinoContent
from frontdesk.assistants.casino_host.storage import Store
from frontdesk.config import Settings


def open_store(settings: Settings, content: CasinoContent) -> Store:
    store = Store.from_settings(settings)
    for casino_id in content.casino_ids:
        casino = content.catalog(casino_id).casino
        store.put_casino(casino_id, name=casino.name, timezone=casino.timezone, state=casino.state)
    return store
