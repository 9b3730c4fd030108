"""Settings for every part of Frontdesk, read from FRONTDESK_* environment variables.

One `Settings` object is built per process (`get_settings()`); tests build their own with
explicit values instead of touching the environment.
"""

from __future__ import annotations

import os
from functools import lru_cache
from pathlib import Path
from typing import Literal

from pydantic import Field, SecretStr, model_validator
from pydantic_settings import BaseSettings, SettingsConfigDict

LLMProvider = Literal["embedded", "openai", "google", "anthropic", "scripted"]
EmbeddingsProvider = Literal["embedded", "hash", "openai", "google"]


class Settings(BaseSettings):
    model_config = SettingsConfigDict(
        env_prefix="FRONTDESK_", env_file=".env", env_file_encoding="utf-8", extra="ignore"
    )

    # Which assistant `serve`, `chat` and `ask` use when none is named...
    assistant: str = "concierge"
    # ...and every assistant the server loads (the default one is always loaded too).
    assistants: list[str] = ["concierge", "telecom", "analyst"]

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

    # Knowledge: a file that replaces the assistant's own knowledge base (same JSON shape).
    knowledge_file: Path | None = None

    # Retrieval.
    rag_top_k: int = 5
    rag_chunk_size: int = 800
    rag_chunk_overlap: int = 100
    rag_rrf_k: int = 60
    # Cosine similarity a hit's best dense match must reach for the context to count as relevant.
    rag_min_similarity: float = 0.20

    # Telecom: the billing database (SQLAlchemy URL; default: SQLite under data_dir) and the
    # NO_CONTEXT gate's threshold on retrieval relevance (knowledge/mmr.py), calibrated for the
    # embedded MiniLM model with `frontdesk calibrate-gate --assistant telecom`
    # (docs/telecom.md); recalibrate when changing the embedding model.
    telecom_billing_url: str | None = None
    telecom_gate_threshold: float = 0.95

    # Analyst (seed 002): the business database (SQLAlchemy URL; default: the demo SQLite
    # database built under data_dir), the key its secure views decrypt PII with, and the SQL
    # agent's limits, named as the seed's environment table (FRONTDESK_SQL_...).
    analyst_database_url: str | None = None
    analyst_aes_key: SecretStr = SecretStr("frontdesk-demo-key")
    analyst_join_graph: Path | None = None  # default: <index_dir>/join_graph_validated.json
    analyst_validate_joins_with_llm: bool = False
    # More named databases for `frontdesk eval sql` rows ({"name": "sqlalchemy-url"}).
    analyst_databases: dict[str, str] = {}
    sql_agent_max_iterations: int = 15
    sql_sample_rows: int = 1
    sql_max_tables_in_context: int = 20
    sql_correction_max_attempts: int = 3
    sql_pre_validation_enabled: bool = True
    sql_max_relationships_display: int = 50
    sql_max_relationships_in_prompt: int = 20
    sql_max_columns_in_schema: int = 50
    sql_max_columns_in_validation: int = 100
    sql_max_columns_in_correction: int = 100
    sql_max_sql_history_length: int = 100
    sql_max_fallback_tables: int = 5
    sql_max_tables_in_selection_prompt: int = 250
    sql_confidence_threshold: float = 0.7
    sql_max_hops: int = 4
    sql_max_suggested_paths: int = 10
    # How many tables the embedding pre-filter offers the LLM's table selector.
    sql_prefilter_tables: int = 12
    sql_query_timeout_s: float = 10.0
    max_query_rows: int = 100
    # Conversation memory (seed 002).
    max_conversation_messages: int = 20
    conversation_max_age_hours: float = 24.0
    conversation_cleanup_interval_hours: float = 1.0
    conversation_db_retry_attempts: int = 3
    conversation_db_retry_delay: float = 0.1

    # Routing: the LLM router runs when configured ("always") or when the embedding
    # classifier's confidence is below the threshold ("auto"); "never" keeps it off. Off by
    # default: with the embedded 0.5B model, "auto" measured 0.925 on the concierge's routing
    # set against 0.956 for the classifier alone. Worth turning on with a hosted model.
    router_llm: Literal["auto", "always", "never"] = "never"
    router_min_confidence: float = 0.55

    # Validation: the LLM reviewer runs after the deterministic grounding check.
    validator_llm: bool = True

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

    @model_validator(mode="after")
    def _default_models_dir(self) -> Settings:
        if self.models_dir is None:
            self.models_dir = self.data_dir / "models"
        return self

    def index_dir(self, assistant: str) -> Path:
        return self.data_dir / "index" / assistant

    @property
    def telecom_billing_database(self) -> str:
        return self.telecom_billing_url or f"sqlite:///{self.data_dir / 'telecom_billing.sqlite'}"

    @property
    def analyst_database(self) -> str:
        return self.analyst_database_url or f"sqlite:///{self.data_dir / 'analyst_demo.sqlite'}"

    @property
    def analyst_conversations_path(self) -> Path:
        # A file of its own: its 24-hour cleanup must not delete other assistants' threads.
        return self.data_dir / "analyst_conversations.sqlite"

    @property
    def checkpoint_path(self) -> Path:
        return self.data_dir / "conversations.sqlite"


@lru_cache(maxsize=1)
def get_settings() -> Settings:
    return Settings()
