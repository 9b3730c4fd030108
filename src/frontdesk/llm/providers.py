"""`build_chat_model(settings)`: the chat model `FRONTDESK_LLM_PROVIDER` selects.

- `embedded` (default): the installed GGUF, in-process on llama.cpp (offline).
- `scripted`: deterministic replies for tests (echoes the last question by default).
- `openai`: OpenAI, or any OpenAI-compatible server via `FRONTDESK_LLM_BASE_URL`
  (vLLM, Ollama, llama.cpp's own server).
- `google`, `anthropic`: hosted, through their LangChain packages.
Hosted packages are optional extras, imported only when selected.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from langchain_core.language_models import BaseChatModel

from frontdesk.llm.weights import MODELS

if TYPE_CHECKING:
    from frontdesk.config import Settings

# A local OpenAI-compatible server usually wants no key, but the OpenAI client insists on one.
_PLACEHOLDER_KEY = "not-needed"


def _missing_extra(provider: str, package: str) -> ImportError:
    return ImportError(
        f"the {provider} chat provider needs {package}, which is not installed: "
        f"pip install 'frontdesk[{provider}]'"
    )


def _hosted_model_name(settings: Settings) -> str:
    # The default FRONTDESK_LLM_MODEL names an embedded GGUF; a hosted API would reject it
    # with a less helpful error, so say what to set. A custom base URL may serve anything.
    if settings.llm_model in MODELS and not settings.llm_base_url:
        raise ValueError(
            f"FRONTDESK_LLM_MODEL={settings.llm_model!r} names an embedded model; "
            f"set it to a {settings.llm_provider} model name"
        )
    return settings.llm_model


def _openai(settings: Settings) -> BaseChatModel:
    try:
        from langchain_openai import ChatOpenAI
    except ImportError:
        raise _missing_extra("openai", "langchain-openai") from None
    options: dict[str, Any] = {}
    if settings.llm_base_url:
        options["base_url"] = settings.llm_base_url
        options["api_key"] = settings.llm_api_key or _PLACEHOLDER_KEY
    elif settings.llm_api_key is not None:
        options["api_key"] = settings.llm_api_key
    return ChatOpenAI(
        model=_hosted_model_name(settings),
        temperature=settings.llm_temperature,
        max_tokens=settings.llm_max_tokens,
        timeout=settings.llm_timeout_s,
        seed=settings.llm_seed,
        **options,
    )


def _google(settings: Settings) -> BaseChatModel:
    try:
        from langchain_google_genai import ChatGoogleGenerativeAI
    except ImportError:
        raise _missing_extra("google", "langchain-google-genai") from None
    options: dict[str, Any] = {}
    if settings.llm_api_key is not None:
        options["google_api_key"] = settings.llm_api_key
    return ChatGoogleGenerativeAI(
        model=_hosted_model_name(settings),
        temperature=settings.llm_temperature,
        max_output_tokens=settings.llm_max_tokens,
        timeout=settings.llm_timeout_s,
        **options,
    )


def _anthropic(settings: Settings) -> BaseChatModel:
    try:
        from langchain_anthropic import ChatAnthropic
    except ImportError:
        raise _missing_extra("anthropic", "langchain-anthropic") from None
    options: dict[str, Any] = {}
    if settings.llm_api_key is not None:
        options["api_key"] = settings.llm_api_key
    if settings.llm_base_url:
        options["base_url"] = settings.llm_base_url
    return ChatAnthropic(
        model=_hosted_model_name(settings),
        temperature=settings.llm_temperature,
        max_tokens=settings.llm_max_tokens,
        timeout=settings.llm_timeout_s,
        **options,
    )


def build_chat_model(settings: Settings) -> BaseChatModel:
    """The chat model the settings select.

    `embedded` raises `ModelNotInstalledError` (naming `frontdesk models install`) when the
    GGUF is missing; the weights themselves load on first use or on `.load()`.
    """
    provider = settings.llm_provider
    if provider == "embedded":
        from frontdesk.llm.embedded import EmbeddedChatModel

        return EmbeddedChatModel.from_settings(settings)
    if provider == "scripted":
        from frontdesk.llm.scripted import ScriptedChatModel

        return ScriptedChatModel()
    if provider == "openai":
        return _openai(settings)
    if provider == "google":
        return _google(settings)
    if provider == "anthropic":
        return _anthropic(settings)
    raise ValueError(
        f"unknown chat provider {provider!r} (FRONTDESK_LLM_PROVIDER); "
        "choose embedded, scripted, openai, google or anthropic"
    )
