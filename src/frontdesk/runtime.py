"""Process-wide shared resources: one chat model and one embedding model for all assistants.

Loading a GGUF model or an ONNX session takes seconds and hundreds of megabytes, so every
assistant in a process shares them. Tests pass their own models instead.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property

from langchain_core.embeddings import Embeddings
from langchain_core.language_models import BaseChatModel

from frontdesk.config import Settings


def embeddings_id(settings: Settings) -> str:
    """Names the vector space: indexes built with one model are never searched with another."""
    return f"{settings.embeddings_provider}-{settings.embeddings_model or 'default'}"


@dataclass
class Models:
    settings: Settings
    chat_override: BaseChatModel | None = None
    embeddings_override: Embeddings | None = None

    @cached_property
    def chat(self) -> BaseChatModel:
        if self.chat_override is not None:
            return self.chat_override
        from frontdesk.llm import build_chat_model

        return build_chat_model(self.settings)

    @cached_property
    def embeddings(self) -> Embeddings:
        if self.embeddings_override is not None:
            return self.embeddings_override
        from frontdesk.embeddings import build_embeddings

        return build_embeddings(self.settings)

    @property
    def embeddings_id(self) -> str:
        return embeddings_id(self.settings)
