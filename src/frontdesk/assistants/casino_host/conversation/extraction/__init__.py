"""Deterministic extraction of guest profile fields from one SMS (EN/ES), before any model.

`extract()` returns `Extracted(path, value, confidence, source, evidence)` items keyed by
canonical profile paths; `detect_language()` feeds the graph's language-switch rule.
"""

from .evaluation import DEV_SET, HELDOUT_SET, load_rows, score
from .extractor import extract
from .fields import (
    EXTRACTED_AS,
    FIELD_ORDER,
    MIN_CONFIDENCE,
    SOURCE_BANDS,
    SUPPORTED_PATHS,
    Extracted,
    resolve_targets,
)
from .language import detect_language

__all__ = [
    "DEV_SET",
    "EXTRACTED_AS",
    "FIELD_ORDER",
    "HELDOUT_SET",
    "MIN_CONFIDENCE",
    "SOURCE_BANDS",
    "SUPPORTED_PATHS",
    "Extracted",
    "detect_language",
    "extract",
    "load_rows",
    "resolve_targets",
    "score",
]
