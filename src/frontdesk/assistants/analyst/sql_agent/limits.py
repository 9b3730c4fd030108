"""The SQL agent's limits: the seed's FRONTDESK_ANALYST_SQL_* settings, and a few of ours."""

from __future__ import annotations

from dataclasses import dataclass

from frontdesk.assistants.analyst.settings import AnalystSettings

__all__ = ["SQLLimits"]


@dataclass(frozen=True)
class SQLLimits:
    """The seed's environment table (FRONTDESK_SQL_*, FRONTDESK_MAX_QUERY_ROWS)."""

    agent_max_iterations: int = 15
    sample_rows: int = 0
    max_tables_in_context: int = 20
    correction_max_attempts: int = 3
    pre_validation_enabled: bool = True
    max_relationships_display: int = 50
    max_relationships_in_prompt: int = 20
    max_columns_in_schema: int = 50
    max_columns_in_validation: int = 100
    max_columns_in_correction: int = 100
    max_sql_history_length: int = 100
    max_fallback_tables: int = 5
    max_tables_in_selection_prompt: int = 250
    confidence_threshold: float = 0.7
    max_hops: int = 4
    max_suggested_paths: int = 10
    prefilter_tables: int = 12
    query_timeout_s: float = 10.0
    max_query_rows: int = 100
    few_shot_examples: int = 3
    few_shot_min_similarity: float = 0.75
    # The most rows a CSV download of a result holds (FRONTDESK_ANALYST_CSV_MAX_ROWS).
    csv_max_rows: int = 10_000

    @classmethod
    def from_settings(cls, s: AnalystSettings) -> SQLLimits:
        return cls(
            agent_max_iterations=s.sql_agent_max_iterations,
            sample_rows=s.sql_sample_rows,
            max_tables_in_context=s.sql_max_tables_in_context,
            correction_max_attempts=s.sql_correction_max_attempts,
            pre_validation_enabled=s.sql_pre_validation_enabled,
            max_relationships_display=s.sql_max_relationships_display,
            max_relationships_in_prompt=s.sql_max_relationships_in_prompt,
            max_columns_in_schema=s.sql_max_columns_in_schema,
            max_columns_in_validation=s.sql_max_columns_in_validation,
            max_columns_in_correction=s.sql_max_columns_in_correction,
            max_sql_history_length=s.sql_max_sql_history_length,
            max_fallback_tables=s.sql_max_fallback_tables,
            max_tables_in_selection_prompt=s.sql_max_tables_in_selection_prompt,
            confidence_threshold=s.sql_confidence_threshold,
            max_hops=s.sql_max_hops,
            max_suggested_paths=s.sql_max_suggested_paths,
            prefilter_tables=s.sql_prefilter_tables,
            query_timeout_s=s.sql_query_timeout_s,
            max_query_rows=s.max_query_rows,
            few_shot_examples=s.sql_few_shot_examples,
            few_shot_min_similarity=s.sql_few_shot_min_similarity,
            csv_max_rows=s.csv_max_rows,
        )
