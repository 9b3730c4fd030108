"""The analyst's own settings: FRONTDESK_ANALYST_* variables (seed 002's table)."""

from __future__ import annotations

from pathlib import Path
from typing import ClassVar

from pydantic import Field, SecretStr

from frontdesk.config import AssistantSettings, Settings, assistant_settings_config


class AnalystSettings(AssistantSettings):
    assistant_name: ClassVar[str] = "analyst"
    model_config = assistant_settings_config("analyst")

    # The business database (SQLAlchemy URL; default: the demo SQLite database built under
    # the data dir), the key its secure views decrypt PII with, and the SQL agent's limits,
    # named as the seed's environment table (FRONTDESK_ANALYST_SQL_...).
    database_url: str | None = None
    aes_key: SecretStr = SecretStr("frontdesk-demo-key")
    join_graph: Path | None = None  # default: <index_dir>/join_graph_validated.json
    # What the schema does not say (descriptions, joins, question-to-SQL examples); default:
    # the shipped one for the demo, else <data_dir>/analyst/semantic/<name>.yaml if present.
    semantic_file: Path | None = None
    # How many of its examples, the closest to the question, the SQL writer is shown (0: none).
    sql_few_shot_examples: int = Field(default=3, ge=0, le=10)
    # ... and only those at least this close (cosine of the questions' embeddings): a distant
    # example misleads a small model more than none (semantic/examples.py).
    sql_few_shot_min_similarity: float = Field(default=0.75, ge=-1.0, le=1.0)
    validate_joins_with_llm: bool = False
    # More named databases for `frontdesk eval sql` rows ({"name": "sqlalchemy-url"}).
    databases: dict[str, str] = Field(default_factory=dict)
    sql_agent_max_iterations: int = 15
    # Sample rows per table in the SQL prompt. The seed's default is 1; measured, one row cost
    # the 0.5B model accuracy on the demo's easy questions (0.885 -> 0.731) and time, so 0.
    sql_sample_rows: int = 0
    sql_max_tables_in_context: int = 20
    sql_correction_max_attempts: int = 3
    sql_pre_validation_enabled: bool = True
    sql_max_relationships_display: int = 50
    sql_max_relationships_in_prompt: int = 20
    sql_max_columns_in_schema: int = 50
    sql_max_columns_in_validation: int = 100
    sql_max_columns_in_correction: int = 100
    sql_max_sql_history_length: int = 100
    # How many of the pre-filter's tables the SQL is written over (plus those a follow-up's
    # previous question used).
    sql_chosen_tables: int = 8
    sql_confidence_threshold: float = 0.7
    sql_max_hops: int = 4
    sql_max_suggested_paths: int = 10
    # How many tables the embedding pre-filter ranks.
    sql_prefilter_tables: int = 12
    sql_query_timeout_s: float = 10.0
    max_query_rows: int = 100
    # The most rows a CSV download of a result holds (the full result up to this; the file's
    # response says when it was cut). The chat itself shows MAX_QUERY_ROWS.
    csv_max_rows: int = Field(default=10_000, ge=1, le=1_000_000)
    # Conversation memory (seed 002).
    max_conversation_messages: int = 20
    conversation_max_age_hours: float = 24.0
    conversation_cleanup_interval_hours: float = 1.0
    conversation_db_retry_attempts: int = 3
    conversation_db_retry_delay: float = 0.1

    def database(self, settings: Settings) -> str:
        return self.database_url or f"sqlite:///{settings.data_dir / 'analyst_demo.sqlite'}"

    def conversations_path(self, settings: Settings) -> Path:
        # A file of its own: its 24-hour cleanup must not delete other assistants' threads.
        return settings.data_dir / "analyst_conversations.sqlite"
