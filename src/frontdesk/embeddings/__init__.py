"""Embedding providers behind LangChain's `Embeddings` interface.

`build_embeddings(settings)` picks by `settings.embeddings_provider`:
- `embedded`: all-MiniLM-L6-v2 int8 ONNX, in-process (needs `frontdesk models install`);
- `hash`: deterministic hashed features, no model (tests);
- `openai` / `google`: hosted, through the optional `langchain-openai` / `langchain-google-genai`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from langchain_core.embeddings import Embeddings

from frontdesk.embeddings.hashing import HashEmbeddings
from frontdesk.embeddings.minilm import MiniLMEmbeddings

if TYPE_CHECKING:
    from frontdesk.config import Settings

__all__ = ["HashEmbeddings", "MiniLMEmbeddings", "build_embeddings"]

_DEFAULT_HOSTED_MODELS = {
    "openai": "text-embedding-3-small",
    "google": "models/gemini-embedding-001",
}


def _missing_extra(provider: str, package: str) -> ImportError:
    return ImportError(
        f"the {provider} embeddings provider needs {package}, which is not installed: "
        f"pip install 'frontdesk[{provider}]'"
    )


def _hosted_credentials(settings: Settings, provider: str) -> dict[str, object]:
    # The llm_* key/URL belong to the chat provider; reuse them only for the same vendor,
    # otherwise the vendor client reads its usual environment variable.
    if settings.llm_provider != provider:
        return {}
    credentials: dict[str, object] = {}
    if settings.llm_api_key is not None:
        credentials["api_key"] = settings.llm_api_key
    if settings.llm_base_url and provider == "openai":
        credentials["base_url"] = settings.llm_base_url
    return credentials


def build_embeddings(settings: Settings) -> Embeddings:
    """The embeddings the settings select; raises `ModelNotInstalledError` for a missing model."""
    provider = settings.embeddings_provider
    if provider == "embedded":
        return MiniLMEmbeddings.from_settings(settings)
    if provider == "hash":
        return HashEmbeddings()
    model = settings.embeddings_model or _DEFAULT_HOSTED_MODELS.get(provider)
    if provider == "openai":
        try:
            from langchain_openai import OpenAIEmbeddings
        except ImportError:
            raise _missing_extra("openai", "langchain-openai") from None
        return OpenAIEmbeddings(model=model, **_hosted_credentials(settings, "openai"))
    if provider == "google":
        try:
            from langchain_google_genai import GoogleGenerativeAIEmbeddings
        except ImportError:
            raise _missing_extra("google", "langchain-google-genai") from None
        credentials = _hosted_credentials(settings, "google")
        if "api_key" in credentials:
            credentials = {"google_api_key": credentials["api_key"]}
        return GoogleGenerativeAIEmbeddings(model=model, **credentials)
    raise ValueError(
        f"unknown embeddings provider {provider!r} (FRONTDESK_EMBEDDINGS_PROVIDER); "
        "choose embedded, hash, openai or google"
    )
