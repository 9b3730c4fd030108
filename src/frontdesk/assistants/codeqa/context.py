"""What the code QA nodes run with: the model, the repositories, the settings."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from frontdesk.assistants.codeqa.repository import Repository
from frontdesk.assistants.codeqa.retrieval.search import SearchSettings
from frontdesk.assistants.codeqa.settings import CodeQASettings


@dataclass(frozen=True)
class CodeQAContext:
    llm: Any  # a LangChain chat model
    embeddings: Any  # the guard's learned layer reads them
    repository: Callable[[str], Repository]  # repo id -> the loaded repository
    default_repo: str
    settings: CodeQASettings

    @property
    def search_settings(self) -> SearchSettings:
        return SearchSettings(
            bm25_weight=self.settings.bm25_weight, dense_weight=self.settings.dense_weight
        )
