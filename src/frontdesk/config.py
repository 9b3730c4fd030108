"""Settings for every part of Frontdesk, read from FRONTDESK_* environment variables.

One `Settings` object is built per process (`get_settings()`); tests build their own with
explicit values instead of touching the environment.
"""

from __future__ import annotations

import os
from datetime import datetime
from functools import lru_cache
from pathlib import Path
from typing import Any, ClassVar, Literal, Self

from pydantic import BaseModel, ConfigDict, Field, SecretStr, model_validator
from pydantic_settings import BaseSettings, SettingsConfigDict

LLMProvider = Literal["embedded", "openai", "google", "anthropic", "scripted"]
EmbeddingsProvider = Literal["embedded", "hash", "openai", "google"]


class NotifyLevel(BaseModel):
    """One level of the escalation chain: who is told at that level (frontdesk.notify)."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    email: list[str] = []
    webhook: str | None = None  # a Slack-compatible incoming webhook's URL


class Settings(BaseSettings):
    model_config = SettingsConfigDict(
        env_prefix="FRONTDESK_", env_file=".env", env_file_encoding="utf-8", extra="ignore"
    )

    # Which assistant `serve`, `chat` and `ask` use when none is named (default: the first
    # installed plug-in by its `order`)...
    assistant: str | None = None
    # ...and every assistant the server loads (default: every installed plug-in; the default
    # assistant is always loaded too).
    assistants: list[str] | None = None
    # Assistants' own settings given in code (tests), by assistant name; the environment's
    # FRONTDESK_<NAME>_* variables give the rest (see `AssistantSettings`).
    plugin_settings: dict[str, dict[str, Any]] = {}

    # Where everything Frontdesk writes lives: indexes, conversations, reports...
    data_dir: Path = Path(".frontdesk")
    # ...and the embedded models (default: <data_dir>/models).
    models_dir: Path | None = None  # filled in from data_dir below

    # Chat model.
    llm_provider: LLMProvider = "embedded"
    # For `embedded`: a key of frontdesk.llm.weights.MODELS; for hosted providers: their model name.
    llm_model: str = "qwen2.5-coder-0.5b"
    llm_base_url: str | None = None
    llm_api_key: SecretStr | None = None
    llm_temperature: float = 0.0
    llm_max_tokens: int = 384
    # Per model call, counted from when the call starts running, not while it waits its turn.
    llm_timeout_s: float = 60.0
    llm_context_tokens: int = 4096
    llm_threads: int = Field(default_factory=lambda: max(1, os.cpu_count() or 1))
    llm_seed: int = 7
    # Embedded model only: calls running in llama.cpp at once (1-4, one per KV-cache slot at
    # most). The others wait in a fair queue: interactive turns before background work, and
    # round-robin between callers (llm/scheduling.py). One by default: on a few cores, calls
    # running together share the CPU, so each one's running time (which the time limits count)
    # grows with their number, and llama.cpp can give each call the slot whose cached prompt
    # fits it best only when the other slots are free; raise it on a machine with more cores.
    # Hosted and OpenAI-compatible servers have no queue in front of them: they manage their
    # own concurrency.
    llm_parallel_calls: int = 1

    # Embeddings.
    embeddings_provider: EmbeddingsProvider = "embedded"
    embeddings_model: str | None = None

    # Routing: the LLM router runs when configured ("always") or when the embedding
    # classifier's confidence is below the threshold ("auto"); "never" keeps it off. Off by
    # default: with the embedded 0.5B model, "auto" measured 0.925 on the concierge's routing
    # set against 0.956 for the classifier alone. Worth turning on with a hosted model.
    router_llm: Literal["auto", "always", "never"] = "never"
    router_min_confidence: float = 0.55

    # A fixed "now" for every turn (ISO 8601, e.g. 2026-11-24T18:30:00-05:00): what "tonight"
    # and "this weekend" mean in tests and demos. None: the real clock.
    clock: datetime | None = None

    # Conversations.
    checkpointer: Literal["sqlite", "memory"] = "sqlite"
    max_messages: int = 40

    # Server.
    host: str = "127.0.0.1"
    port: int = 8080
    rate_limit_chat_per_minute: int = 20
    # A turn's time limit (/chat, /telecom/chat, /internal/chat/stream), counted while the turn
    # runs, not while its model calls wait in the queue; a turn out of time ends with its
    # assistant's deterministic answer (what was retrieved and where to ask), not an error.
    sse_timeout_s: float = 60.0
    # Turns in progress at once; beyond it a new turn gets 503 with Retry-After. This bounds
    # how long a turn can wait in the model's queue.
    queue_max_turns: int = 16
    allowed_origins: list[str] = ["http://127.0.0.1:8080", "http://localhost:8080"]
    log_level: str = "INFO"
    environment: str = "development"

    # Reverse proxies whose X-Forwarded-For names the client (rate limits, logs). Empty: the
    # connection's own address counts, so no client can pick its rate-limit key or forge the
    # addresses in the logs by sending the header.
    trusted_proxies: list[str] = []

    # Who may call the API. "open": a request without credentials acts as the local operator
    # (one shared identity, like the CLI: `make run` on a laptop just works); "required":
    # every request needs the web UI's session cookie or an API key (a server on a network).
    auth_mode: Literal["open", "required"] = "open"
    # Signs the web UI's session cookie (default: a random secret kept in
    # <data_dir>/session_secret, so sessions survive restarts).
    session_secret: SecretStr | None = None
    session_max_age_days: float = 30.0
    # Send the cookie over HTTPS only: turn on behind TLS.
    cookie_secure: bool = False
    # Server-to-server callers, by name: {"crm": {"key_sha256": "<hex>", "assistants":
    # ["telecom"], "company": "acme"}} (see frontdesk.server.identity.ApiKey).
    api_keys: dict[str, dict[str, Any]] = {}
    # The web UI may sign in as one of an assistant's demo users (telecom's seeded
    # customers). Turn off anywhere real customers are served.
    demo_sign_in: bool = True

    # Who is told when a conversation needs a person (frontdesk.notify): the escalation
    # chain, first level first, e.g. [{"email": ["host-desk@casino.example"], "webhook":
    # "https://hooks.slack.com/services/…"}, {"email": ["shift-manager@casino.example"]}].
    # An alert at level N goes to levels 1..N. Empty: nobody is told (development only).
    notify_chain: list[NotifyLevel] = []
    # Signs every webhook post (X-Frontdesk-Signature), so the receiver can tell ours apart.
    notify_webhook_secret: SecretStr | None = None
    # The mail server alerts go through, and who they come from.
    notify_smtp_host: str | None = None
    notify_smtp_port: int = Field(default=25, ge=1, le=65535)
    notify_smtp_starttls: bool = False
    notify_smtp_username: str | None = None
    notify_smtp_password: SecretStr | None = None
    notify_email_from: str = "frontdesk@localhost"
    # How long one alert may take to be accepted, every target together.
    notify_timeout_s: float = Field(default=5.0, gt=0)
    # The server's address as staff reach it, for links in alerts (e.g. https://host.example).
    public_url: str = "http://127.0.0.1:8080"

    @model_validator(mode="after")
    def _default_models_dir(self) -> Settings:
        if self.models_dir is None:
            self.models_dir = self.data_dir / "models"
        return self

    def index_dir(self, assistant: str) -> Path:
        return self.data_dir / "index" / assistant

    @property
    def checkpoint_path(self) -> Path:
        return self.data_dir / "conversations.sqlite"

    @property
    def threads_path(self) -> Path:
        """Who owns which conversation, their titles, and the answers' feedback."""
        return self.data_dir / "threads.sqlite"


@lru_cache(maxsize=1)
def get_settings() -> Settings:
    return Settings()


class AssistantSettings(BaseSettings):
    """An assistant's own settings, read from its FRONTDESK_<NAME>_* variables.

    A subclass names its assistant and prefix:

        class TelecomSettings(AssistantSettings):
            assistant_name: ClassVar[str] = "telecom"
            model_config = assistant_settings_config("telecom")

    and reads them with `TelecomSettings.of(settings)`: values given in code
    (`Settings.plugin_settings[name]`, what tests use) win over the environment.
    """

    assistant_name: ClassVar[str] = ""

    @classmethod
    def of(cls, settings: Settings) -> Self:
        return cls(**settings.plugin_settings.get(cls.assistant_name, {}))


def assistant_settings_config(name: str) -> SettingsConfigDict:
    return SettingsConfigDict(
        env_prefix=f"FRONTDESK_{name.upper()}_",
        env_file=".env",
        env_file_encoding="utf-8",
        extra="ignore",
    )
