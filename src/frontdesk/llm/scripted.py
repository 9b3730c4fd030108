"""`ScriptedChatModel`: a deterministic chat model for tests and offline demos.

It replays a list of replies (or asks a callable), streams each reply word by word through the
regular LangChain callbacks, so LangGraph's `astream_events` shows `on_chat_model_stream`
events exactly as with a real model, and parses replies as JSON for structured output.
"""

from __future__ import annotations

import asyncio
import re
import threading
from collections.abc import AsyncIterator, Callable, Iterator, Sequence
from typing import Any

from langchain_core.callbacks import AsyncCallbackManagerForLLMRun, CallbackManagerForLLMRun
from langchain_core.language_models import BaseChatModel
from langchain_core.messages import AIMessage, AIMessageChunk, BaseMessage, HumanMessage
from langchain_core.outputs import ChatGeneration, ChatGenerationChunk, ChatResult
from langchain_core.runnables import Runnable
from pydantic import ConfigDict, PrivateAttr

from frontdesk.llm.structured import example_json_for, json_schema_of, structured_output

Script = Sequence[str] | Callable[[list[BaseMessage]], str]
_PIECES = re.compile(r"\S+\s*|\s+")
_ECHO_WORDS = 24


def split_words(text: str) -> list[str]:
    """Word-sized pieces (each keeps its trailing whitespace) that join back to `text`."""
    return _PIECES.findall(text)


def _text_of(message: BaseMessage) -> str:
    # `.text` joins the text blocks of list content (and is the content for a plain string).
    return str(message.text)


def echo_reply(messages: Sequence[BaseMessage]) -> str:
    """The default scripted reply: built from the last human message, deterministic."""
    last = next((m for m in reversed(messages) if isinstance(m, HumanMessage)), None)
    if last is None:
        return "Scripted reply: no question was asked."
    words = _text_of(last).split()
    snippet = " ".join(words[:_ECHO_WORDS]) + (" ..." if len(words) > _ECHO_WORDS else "")
    return f"Scripted reply to: {snippet}" if snippet else "Scripted reply: the message was empty."


class ScriptedChatModel(BaseChatModel):
    """Replays `script` (a list of replies, used in order, or `callable(messages) -> str`).

    With no script it echoes the last human message; for structured output it then answers
    with a minimal JSON object that fits the schema. Every call's messages are recorded in
    `calls` so tests can assert what the model was asked.
    """

    model_config = ConfigDict(arbitrary_types_allowed=True)

    script: list[str] | Callable[[list[BaseMessage]], str] | None = None
    # Seconds between streamed words: lets a UI show streaming; 0 in tests.
    token_delay_s: float = 0.0
    model_name: str = "scripted"

    _lock: threading.Lock = PrivateAttr(default_factory=threading.Lock)
    _next_reply: int = PrivateAttr(default=0)
    _calls: list[list[BaseMessage]] = PrivateAttr(default_factory=list)

    def __init__(self, script: Script | None = None, **kwargs: Any) -> None:
        if script is not None and not callable(script):
            if isinstance(script, str) or not all(isinstance(r, str) for r in script):
                raise TypeError("script must be a list of reply strings or a callable")
            script = list(script)
        super().__init__(script=script, **kwargs)

    @property
    def _llm_type(self) -> str:
        return "scripted"

    @property
    def _identifying_params(self) -> dict[str, Any]:
        return {"model_name": self.model_name}

    @property
    def calls(self) -> list[list[BaseMessage]]:
        """The messages of every call so far, oldest first."""
        with self._lock:
            return list(self._calls)

    @property
    def remaining(self) -> int | None:
        """Replies left in a list script (None for a callable or echo script)."""
        if isinstance(self.script, list):
            with self._lock:
                return len(self.script) - self._next_reply
        return None

    def _reply(self, messages: list[BaseMessage], schema: Any = None) -> str:
        with self._lock:
            self._calls.append(list(messages))
            if isinstance(self.script, list):
                if self._next_reply >= len(self.script):
                    raise RuntimeError(
                        f"ScriptedChatModel has no reply left: all {len(self.script)} "
                        "scripted replies were used"
                    )
                reply = self.script[self._next_reply]
                self._next_reply += 1
                return reply
        if callable(self.script):
            reply = self.script(list(messages))
            if not isinstance(reply, str):
                raise TypeError(f"the script callable returned {type(reply).__name__}, not str")
            return reply
        return example_json_for(schema) if schema is not None else echo_reply(messages)

    @staticmethod
    def _chunk(piece: str, *, last: bool = False) -> ChatGenerationChunk:
        message = AIMessageChunk(
            content=piece,
            response_metadata={"finish_reason": "stop", "model_name": "scripted"} if last else {},
            chunk_position="last" if last else None,
        )
        return ChatGenerationChunk(message=message)

    def _generate(
        self,
        messages: list[BaseMessage],
        stop: list[str] | None = None,
        run_manager: CallbackManagerForLLMRun | None = None,
        **kwargs: Any,
    ) -> ChatResult:
        reply = self._reply(messages, kwargs.get("structured_schema"))
        message = AIMessage(content=reply, response_metadata={"finish_reason": "stop"})
        return ChatResult(generations=[ChatGeneration(message=message)])

    async def _agenerate(
        self,
        messages: list[BaseMessage],
        stop: list[str] | None = None,
        run_manager: AsyncCallbackManagerForLLMRun | None = None,
        **kwargs: Any,
    ) -> ChatResult:
        # Replying takes microseconds: LangChain's default would hand it to a worker thread,
        # which costs more than the reply and than an async model's own overhead.
        result = self._generate(messages, stop, None, **kwargs)
        if self.token_delay_s:
            # Unstreamed, a reply takes as long as streamed (slow-model tests rely on it).
            words = split_words(result.generations[0].text)
            await asyncio.sleep(self.token_delay_s * len(words))
        return result

    def _stream(
        self,
        messages: list[BaseMessage],
        stop: list[str] | None = None,
        run_manager: CallbackManagerForLLMRun | None = None,
        **kwargs: Any,
    ) -> Iterator[ChatGenerationChunk]:
        import time

        for piece in split_words(self._reply(messages, kwargs.get("structured_schema"))):
            chunk = self._chunk(piece)
            if run_manager is not None:
                run_manager.on_llm_new_token(piece, chunk=chunk)
            yield chunk
            if self.token_delay_s:
                time.sleep(self.token_delay_s)
        yield self._chunk("", last=True)

    async def _astream(
        self,
        messages: list[BaseMessage],
        stop: list[str] | None = None,
        run_manager: AsyncCallbackManagerForLLMRun | None = None,
        **kwargs: Any,
    ) -> AsyncIterator[ChatGenerationChunk]:
        for piece in split_words(self._reply(messages, kwargs.get("structured_schema"))):
            chunk = self._chunk(piece)
            if run_manager is not None:
                await run_manager.on_llm_new_token(piece, chunk=chunk)
            yield chunk
            # Yield to the event loop between words, like a real model would.
            await asyncio.sleep(self.token_delay_s)
        yield self._chunk("", last=True)

    def with_structured_output(
        self, schema: dict[str, Any] | type, *, include_raw: bool = False, **kwargs: Any
    ) -> Runnable:
        """Parse the reply as JSON into `schema` (a Pydantic class or a JSON-schema dict)."""
        if kwargs:
            raise ValueError(f"unsupported arguments: {', '.join(sorted(kwargs))}")
        json_schema_of(schema)  # validates the schema argument early, with a clear error
        # The JSON schema (not the class) is bound: bound kwargs show up in callbacks/traces.
        bound = self.bind(structured_schema=json_schema_of(schema)[1])
        return structured_output(bound, schema, include_raw=include_raw)
