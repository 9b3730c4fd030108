"""Code QA's own settings: FRONTDESK_CODEQA_* variables."""

from __future__ import annotations

from pathlib import Path
from typing import ClassVar

from pydantic import Field

from frontdesk.config import AssistantSettings, assistant_settings_config

# Frontdesk's own package: what is indexed when no repository is configured, so a first run
# has something to answer about.
DEFAULT_REPOSITORY = Path(__file__).resolve().parents[2]
DEFAULT_REPO_ID = "frontdesk"


class CodeQASettings(AssistantSettings):
    assistant_name: ClassVar[str] = "codeqa"
    model_config = assistant_settings_config("codeqa")

    # The repository questions are about by default, and its id (`--repo` picks another
    # indexed one).
    repo_path: Path = DEFAULT_REPOSITORY
    repo_id: str = DEFAULT_REPO_ID
    # Index the default repository when the service starts (incremental: only changed files).
    index_on_start: bool = True
    # A chunk's size, in non-whitespace characters.
    chunk_budget: int = Field(default=900, ge=100, le=20_000)
    # Tests, docs and config: the characters of each chunk that are embedded (its header and
    # the start of its text; code chunks are embedded whole). See indexing/indexer.py.
    outside_code_embed_chars: int = Field(default=150, ge=50, le=20_000)
    # Chunks given to the answer, and the characters of code (with their context) at most.
    top_k: int = Field(default=5, ge=1, le=20)
    context_chars: int = Field(default=3600, ge=500, le=40_000)
    # Weighted reciprocal rank fusion (the seed's 0.4 for BM25, 1.0 for vectors).
    bm25_weight: float = Field(default=0.4, ge=0.0)
    dense_weight: float = Field(default=1.0, ge=0.0)
    # Below this cosine between the question and the nearest chunk, with no keyword match
    # for every term and no named symbol, the answer is "not found in this repository".
    min_similarity: float = Field(default=0.25, ge=-1.0, le=1.0)
    # The repository map shown to the answer (tokens, about 4 characters each).
    map_tokens: int = Field(default=256, ge=0, le=8192)
    # Turns of conversation kept in a thread's memory.
    memory_turns: int = Field(default=10, ge=1, le=100)
