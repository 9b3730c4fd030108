"""The SQL agent's limits: the seed's FRONTDESK_ANALYST_SQL_* settings, and a few of ours."""

from __future__ import annotations

from dataclasses import dataclass, fields

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
    chosen_tables: int = 8
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
        """Each limit from its setting: `sql_<name>`, or `<name>` for the two the seed names
        without the prefix. A limit without a setting is an AttributeError at start."""
        return cls(**{f.name: getattr(s, _setting_name(f.name)) for f in fields(cls)})


# The seed's FRONTDESK_MAX_QUERY_ROWS and our FRONTDESK_ANALYST_CSV_MAX_ROWS have no SQL_ prefix.
_UNPREFIXED = frozenset({"max_query_rows", "csv_max_rows"})


def _setting_name(limit: str) -> str:
    return limit if limit in _UNPREFIXED else f"sql_{limit}"
