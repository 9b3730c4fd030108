"""Chat models behind LangChain's `BaseChatModel`; see `build_chat_model`."""

from __future__ import annotations

from frontdesk.llm.llama_server import CACHE_SLOTS, LlamaRuntimeError
from frontdesk.llm.providers import build_chat_model
from frontdesk.llm.scripted import ScriptedChatModel
from frontdesk.llm.weights import DEFAULT_MODEL, MODELS
from frontdesk.model_files import ModelNotInstalledError

__all__ = [
    "CACHE_SLOTS",
    "DEFAULT_MODEL",
    "MODELS",
    "LlamaRuntimeError",
    "ModelNotInstalledError",
    "ScriptedChatModel",
    "build_chat_model",
]
