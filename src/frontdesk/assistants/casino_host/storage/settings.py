"""The storage's settings, read from FRONTDESK_CASINO_HOST_* variables (or
`Settings.plugin_settings["casino_host"]` in code, which wins).

- `FRONTDESK_CASINO_HOST_DATABASE_URL`: any SQLAlchemy URL or a SQLite path; default
  `<data_dir>/casino_host.sqlite3`.
- `FRONTDESK_CASINO_HOST_PHONE_PEPPER`: the master secret of the phone hash (X3).
- `FRONTDESK_CASINO_HOST_PHONE_KEYS`: comma-separated Fernet keys for the stored numbers; the
  first encrypts, all decrypt (rotation). Default: a key derived from the pepper.

WARNING: the pepper's default is a public development value. With it, anyone holding the
database can recover numbers by hashing candidates, and the derived encryption key is public
too. Set both in production. Changing the pepper later orphans every phone_index row (existing
guests would be created again), so pick it once per deployment.
"""

from __future__ import annotations

import logging
from typing import ClassVar

from pydantic import SecretStr
from sqlalchemy.engine import URL

from frontdesk.config import AssistantSettings, Settings, assistant_settings_config
from frontdesk.db_url import database_url

logger = logging.getLogger(__name__)

DEVELOPMENT_PEPPER = "frontdesk-casino-host-development-pepper-do-not-use-in-production"
DATABASE_FILE = "casino_host.sqlite3"


class CasinoHostStorageSettings(AssistantSettings):
    assistant_name: ClassVar[str] = "casino_host"
    model_config = assistant_settings_config("casino_host")

    database_url: str | None = None
    phone_pepper: SecretStr = SecretStr(DEVELOPMENT_PEPPER)
    phone_keys: SecretStr | None = None

    @property
    def uses_development_pepper(self) -> bool:
        return self.phone_pepper.get_secret_value() == DEVELOPMENT_PEPPER

    def pepper(self) -> str:
        if self.uses_development_pepper:
            logger.warning(
                "casino host: FRONTDESK_CASINO_HOST_PHONE_PEPPER is not set; phone hashes use "
                "the public development pepper"
            )
        return self.phone_pepper.get_secret_value()

    def encryption_keys(self) -> list[str]:
        configured = self.phone_keys.get_secret_value() if self.phone_keys else ""
        keys = [key.strip() for key in configured.split(",") if key.strip()]
        # Derived from the pepper (phone.fernet_key) when no key is configured.
        return keys or [self.phone_pepper.get_secret_value()]

    def url(self, settings: Settings) -> URL:
        return database_url(self.database_url or settings.data_dir / DATABASE_FILE)
