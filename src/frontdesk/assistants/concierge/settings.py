"""The concierge's own settings: FRONTDESK_CONCIERGE_* variables.

Before issue 35 these were core settings with no prefix (FRONTDESK_RAG_TOP_K...), although
only the concierge read them. A deployment that still sets an old name is refused with the
new one named: silently ignoring FRONTDESK_KNOWLEDGE_FILE would serve the demo resort's
knowledge in place of the operator's own.
"""

from __future__ import annotations

from pathlib import Path
from typing import ClassVar, Self

from pydantic_settings import BaseSettings, SettingsConfigDict

from frontdesk.config import AssistantSettings, Settings, assistant_settings_config
from frontdesk.errors import FrontdeskError

NAME = "concierge"


class ConciergeSettings(AssistantSettings):
    assistant_name: ClassVar[str] = NAME
    model_config = assistant_settings_config(NAME)

    # A file that replaces the concierge's own knowledge base (same JSON shape).
    knowledge_file: Path | None = None
    # Retrieval: items in the model's context, chunking, and the rank fusion's constant.
    rag_top_k: int = 5
    rag_chunk_size: int = 800
    rag_chunk_overlap: int = 100
    rag_rrf_k: int = 60
    # Cosine similarity a hit's best dense match must reach for the context to count as relevant.
    rag_min_similarity: float = 0.20
    # An LLM reviewer after the grounding checks in code: a second model call per answer. Off
    # by default (one model call per answer); measured side by side in the README.
    validator_llm: bool = False

    @classmethod
    def of(cls, settings: Settings) -> Self:
        if renamed := _renamed_variables_set():
            raise FrontdeskError(
                "These settings are the concierge's own now; rename them: "
                + ", ".join(f"{old} -> {new}" for old, new in renamed)
                + "."
            )
        return super().of(settings)


class _FormerNames(BaseSettings):
    """The old, unprefixed names, read from the environment and `.env` like any setting."""

    model_config = SettingsConfigDict(
        env_prefix="FRONTDESK_", env_file=".env", env_file_encoding="utf-8", extra="ignore"
    )

    knowledge_file: str | None = None
    rag_top_k: str | None = None
    rag_chunk_size: str | None = None
    rag_chunk_overlap: str | None = None
    rag_rrf_k: str | None = None
    rag_min_similarity: str | None = None
    validator_llm: str | None = None


def _renamed_variables_set() -> list[tuple[str, str]]:
    former = _FormerNames()
    return [
        (f"FRONTDESK_{field.upper()}", f"FRONTDESK_{NAME.upper()}_{field.upper()}")
        for field in type(former).model_fields
        if getattr(former, field) is not None
    ]
