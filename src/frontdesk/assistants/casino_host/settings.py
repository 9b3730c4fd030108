"""The casino host's behaviour settings: FRONTDESK_CASINO_HOST_* variables (storage has its own,
storage/settings.py, under the same prefix)."""

from __future__ import annotations

from typing import ClassVar, Literal

from pydantic import Field

from frontdesk.config import AssistantSettings, assistant_settings_config

DEV_SIMULATOR_KEY = "frontdesk-sms-simulator-development-key"


class CasinoHostSettings(AssistantSettings):
    assistant_name: ClassVar[str] = "casino_host"
    model_config = assistant_settings_config("casino_host")

    # The casino a turn is about when the caller names none (`--casino` picks another).
    default_casino: str = "mohegan_sun"
    # The first of the web UI's demo guests (a caller that names no guest gets one of its own
    # per conversation: service.conversation_guest).
    demo_guest: str = "+18605550100"
    # D12: the LLM router's own time limit; past it the host agent answers.
    router_timeout_s: float = Field(default=5.0, gt=0)
    # WP5 R-C12: an SMS turn's own time limit. Past it the guest gets the static fallback, and
    # the model's answer, should it come later, is dropped: never a late unsolicited SMS.
    sms_turn_timeout_s: float = Field(default=10.0, gt=0)
    # Item 26: the model's circuit breaker (per service; seed per casino, one model here).
    breaker_failures: int = Field(default=5, ge=1)
    breaker_window_s: float = Field(default=60.0, gt=0)
    breaker_cooldown_s: float = Field(default=30.0, gt=0)
    # Messages of the conversation an agent sees (item 42 summarises what is older).
    history_messages: int = Field(default=20, ge=2, le=100)
    # Item 33's A/B arm: give value before asking (False asks directly).
    reciprocity: bool = True
    # Item 24: one emoji at most, and only where the casino's brand allows it.
    emoji_allowed: bool = False
    # Issue 19, the SMS channel. The simulator's signing keys: the primary, then the secondary
    # while a rotation is under way (the default is public: development only).
    sms_simulator_keys: list[str] = Field(default_factory=lambda: [DEV_SIMULATOR_KEY])
    # The phone simulator (its webhook, page and routes) exists only in development: unset, it
    # is on when the simulator sends and FRONTDESK_AUTH_MODE=open; true or false decides.
    # With FRONTDESK_AUTH_MODE=required it never takes the public development key.
    sms_simulator_enabled: bool | None = None
    # Twilio's auth token and Telnyx's public key (base64), for their webhook signatures; a
    # provider without its secret has its webhooks refused (401).
    sms_twilio_auth_token: str | None = None
    sms_telnyx_public_key: str | None = None
    # Who sends: the simulator (offline), or Twilio or Telnyx, with an optional second provider
    # that takes over while the first is failing (items 34-35).
    sms_provider: Literal["simulator", "twilio", "telnyx"] = "simulator"
    sms_secondary_provider: Literal["twilio", "telnyx"] | None = None
    sms_twilio_account_sid: str | None = None
    sms_twilio_api_url: str = "https://api.twilio.com"
    sms_telnyx_api_key: str | None = None
    sms_telnyx_api_url: str = "https://api.telnyx.com"
    # Item 33: wait 1-3 s before each SMS, as a person typing would (off: send at once).
    sms_human_delay: bool = True
    # Item 28: safe mode answers guests and sends nothing else (no campaigns, no reminders).
    sms_safe_mode: bool = False
    # Item 40: the inbound rate limits' shared windows (redis://127.0.0.1:6379/0); unset, each
    # process counts its own.
    sms_redis_url: str | None = None

    def simulator_on(self, auth_mode: str) -> bool:
        """Whether the phone simulator exists in this set-up (see `sms_simulator_enabled`)."""
        if self.sms_simulator_enabled is not None:
            return self.sms_simulator_enabled
        return self.sms_provider == "simulator" and auth_mode == "open"
