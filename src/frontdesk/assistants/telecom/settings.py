"""The telecom assistant's own settings: FRONTDESK_TELECOM_* variables."""

from __future__ import annotations

from typing import ClassVar

from frontdesk.config import AssistantSettings, Settings, assistant_settings_config


class TelecomSettings(AssistantSettings):
    assistant_name: ClassVar[str] = "telecom"
    model_config = assistant_settings_config("telecom")

    # The billing database (SQLAlchemy URL; default: SQLite under the data dir).
    billing_url: str | None = None
    # The NO_CONTEXT gate's threshold on retrieval relevance (knowledge/mmr.py), calibrated
    # for the embedded MiniLM model with `frontdesk telecom calibrate-gate` (docs/telecom.md);
    # recalibrate when changing the embedding model.
    gate_threshold: float = 0.95

    def billing_database(self, settings: Settings) -> str:
        return self.billing_url or f"sqlite:///{settings.data_dir / 'telecom_billing.sqlite'}"
