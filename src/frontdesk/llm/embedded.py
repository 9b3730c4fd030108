"""`EmbeddedChatModel`: the GGUF chat model running in-process on llama.cpp (xllamacpp).

A LangChain `BaseChatModel`, so LangGraph nodes can `ainvoke` it and `astream_events(v2)` sees
every token as `on_chat_model_stream`. llama.cpp blocks while it generates, so each call runs
in a worker thread that hands chunks back through a queue; the event loop never blocks.

Prompt caching: llama.cpp keeps one KV cache per slot and, by default, sends each call to the
slot whose cached prompt shares the longest prefix, so router, validator and generator prompts
settle in different slots and a long static system prompt is evaluated once, not every turn.
`with_cache_slot("router")` (or `cache_slot=` per call) pins a call kind to a slot instead.
Structured output is grammar-constrained (JSON schema).

Every call first waits its turn in the runtime's fair queue (`scheduling.py`); its time limit
(`timeout_s`) counts from when it starts running. While an async call waits, its place is sent
as a LangChain custom event (`QUEUE_EVENT`), which a streamed turn shows as a `progress` event.
"""

from __future__ import annotations

import asyncio
import queue
import threading
import time
from collections.abc import AsyncIterator, Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from langchain_core.callbacks import (
    AsyncCallbackManagerForLLMRun,
    CallbackManagerForLLMRun,
    adispatch_custom_event,
)
from langchain_core.language_models import BaseChatModel
from langchain_core.language_models.chat_models import agenerate_from_stream, generate_from_stream
from langchain_core.messages import AIMessageChunk, BaseMessage, convert_to_openai_messages
from langchain_core.messages.ai import UsageMetadata
from langchain_core.outputs import ChatGenerationChunk, ChatResult
from langchain_core.runnables import Runnable
from pydantic import Field, PrivateAttr

from frontdesk.llm.llama_server import CACHE_SLOTS, LlamaServerRuntime, shared_runtime
from frontdesk.llm.scheduling import QUEUE_EVENT, Grant
from frontdesk.llm.structured import json_schema_of, structured_output
from frontdesk.llm.weights import chat_model_path

if TYPE_CHECKING:
    from frontdesk.config import Settings

_PER_CALL_OPTIONS = ("max_tokens", "temperature", "seed", "response_format")
_CONSUMER_GRACE_S = 5.0


async def report_queue_place(position: int, waiting: int) -> None:
    """Tell the running graph (if any) where this call waits; 0 when its turn came."""
    try:
        await adispatch_custom_event(QUEUE_EVENT, {"position": position, "waiting": waiting})
    except RuntimeError:
        pass  # called outside any runnable (a bare model call): nobody to tell


def _check_slot(slot: str | None) -> None:
    if slot is not None and slot not in CACHE_SLOTS:
        raise ValueError(f"unknown cache slot {slot!r}; choose one of {CACHE_SLOTS} or None")


@dataclass
class _Done:
    """End of a worker's output."""


@dataclass
class _Failed:
    error: BaseException


class EmbeddedChatModel(BaseChatModel):
    """A local GGUF chat model; build it with `from_settings` (or `build_chat_model`)."""

    model_path: Path
    model_name: str = "embedded"
    context_tokens: int = Field(default=4096, ge=256)
    threads: int = Field(default=1, ge=1)
    temperature: float = Field(default=0.2, ge=0.0)
    max_tokens: int = Field(default=384, ge=1)
    seed: int = 7
    # Per call, counted from when the call starts running (not while it waits its turn).
    timeout_s: float = Field(default=60.0, gt=0)
    # How many calls run in llama.cpp at once (None: one per KV-cache slot); set by the
    # first model object built for a runtime, shared by the rest.
    parallel_calls: int | None = Field(default=None, ge=1)
    # The KV-cache slot this model object uses unless a call passes `cache_slot=`;
    # None lets llama.cpp pick the slot whose cached prompt shares the longest prefix.
    cache_slot: str | None = None

    _runtime: LlamaServerRuntime = PrivateAttr()

    def __init__(self, **data: Any) -> None:
        super().__init__(**data)
        _check_slot(self.cache_slot)
        self._runtime = shared_runtime(
            self.model_path,
            context_tokens=self.context_tokens,
            threads=self.threads,
            parallel_calls=self.parallel_calls,
        )

    @classmethod
    def from_settings(cls, settings: Settings) -> EmbeddedChatModel:
        """Raises `ModelNotInstalledError` (naming `frontdesk models install`) if needed."""
        return cls(
            model_path=chat_model_path(settings.llm_model, settings.models_dir),
            model_name=settings.llm_model,
            context_tokens=settings.llm_context_tokens,
            threads=settings.llm_threads,
            temperature=settings.llm_temperature,
            max_tokens=settings.llm_max_tokens,
            seed=settings.llm_seed,
            timeout_s=settings.llm_timeout_s,
            parallel_calls=settings.llm_parallel_calls,
        )

    @property
    def _llm_type(self) -> str:
        return "llama.cpp"

    @property
    def _identifying_params(self) -> dict[str, Any]:
        return {
            "model_name": self.model_name,
            "temperature": self.temperature,
            "max_tokens": self.max_tokens,
            "seed": self.seed,
            "context_tokens": self.context_tokens,
        }

    @property
    def runtime(self) -> LlamaServerRuntime:
        return self._runtime

    def load(self) -> None:
        """Load the weights now (otherwise the first call does it): for server start-up."""
        self._runtime.load()

    def with_cache_slot(self, slot: str | None) -> EmbeddedChatModel:
        """A copy pinned to KV-cache slot `slot` (None: automatic); shares the loaded weights."""
        _check_slot(slot)
        return self.model_copy(update={"cache_slot": slot})

    # ------------------------------------------------------------------ one request

    def _request(
        self, messages: list[BaseMessage], stop: list[str] | None, **kwargs: Any
    ) -> tuple[dict[str, Any], str | None]:
        request: dict[str, Any] = {
            "messages": convert_to_openai_messages(messages),
            "max_tokens": self.max_tokens,
            "temperature": self.temperature,
            "seed": self.seed,
            "cache_prompt": True,
        }
        request.update({k: kwargs[k] for k in _PER_CALL_OPTIONS if kwargs.get(k) is not None})
        if stop:
            request["stop"] = list(stop)
        slot = kwargs.get("cache_slot", self.cache_slot)
        _check_slot(slot)
        return request, slot

    def _work(
        self, request: dict[str, Any], slot: str | None, put: Callable[[Any], None], grant: Grant
    ) -> tuple[threading.Event, float]:
        """Start the blocking generation in a worker thread; returns (cancel switch, deadline).

        The call holds `grant` (its place in the queue) until llama.cpp is done with it, even
        when the consumer gave up earlier; the time limit starts now, when it starts running.
        """
        cancelled = threading.Event()
        deadline = time.monotonic() + self.timeout_s

        def run() -> None:
            try:
                self._runtime.chat(
                    request, slot=slot, on_chunk=put, cancelled=cancelled, deadline=deadline
                )
                put(_Done())
            except BaseException as exc:  # noqa: BLE001 - handed to the consumer
                put(_Failed(exc))
            finally:
                grant.release()

        try:
            self._runtime.spawn(run, cancelled, name=f"frontdesk-llm-{slot or 'auto'}")
        except BaseException:
            grant.release()
            raise
        return cancelled, deadline

    def _wait_s(self, deadline: float) -> float:
        # The worker enforces the deadline between tokens; this bound also covers a runtime
        # that stalls before its first token (e.g. a huge prompt), with a little grace.
        return max(0.0, deadline - time.monotonic()) + _CONSUMER_GRACE_S

    def _timed_out(self) -> TimeoutError:
        return TimeoutError(
            f"the embedded model did not answer within {self.timeout_s:g} s of starting "
            "(raise FRONTDESK_LLM_TIMEOUT_S if answers need longer on this machine)"
        )

    def _to_chunk(self, raw: dict[str, Any], slot: str | None) -> ChatGenerationChunk | None:
        choices = raw.get("choices") or [{}]
        delta = choices[0].get("delta") or {}
        finish = choices[0].get("finish_reason")
        text = delta.get("content") or ""
        if not finish:
            return ChatGenerationChunk(message=AIMessageChunk(content=text)) if text else None
        timings = raw.get("timings", {})
        usage = raw.get("usage") or {}
        input_tokens = usage.get(
            "prompt_tokens", timings.get("prompt_n", 0) + timings.get("cache_n", 0)
        )
        output_tokens = usage.get("completion_tokens", timings.get("predicted_n", 0))
        message = AIMessageChunk(
            content=text,
            response_metadata={
                "finish_reason": finish,
                "model_name": self.model_name,
                "cache_slot": slot,
                # cache_n = prompt tokens served from the KV cache instead of evaluated.
                "timings": timings,
            },
            usage_metadata=UsageMetadata(
                input_tokens=input_tokens,
                output_tokens=output_tokens,
                total_tokens=input_tokens + output_tokens,
            ),
            chunk_position="last",
        )
        return ChatGenerationChunk(message=message)

    # ------------------------------------------------------------------ LangChain hooks

    def _stream(
        self,
        messages: list[BaseMessage],
        stop: list[str] | None = None,
        run_manager: CallbackManagerForLLMRun | None = None,
        **kwargs: Any,
    ) -> Iterator[ChatGenerationChunk]:
        request, slot = self._request(messages, stop, **kwargs)
        chunks: queue.SimpleQueue[Any] = queue.SimpleQueue()
        grant = self._runtime.scheduler.acquire_blocking(slot)
        cancelled, deadline = self._work(request, slot, chunks.put, grant)
        try:
            while True:
                try:
                    item = chunks.get(timeout=self._wait_s(deadline))
                except queue.Empty:
                    raise self._timed_out() from None
                if isinstance(item, _Done):
                    break
                if isinstance(item, _Failed):
                    raise item.error
                chunk = self._to_chunk(item, slot)
                if chunk is None:
                    continue
                if run_manager is not None and chunk.text:
                    run_manager.on_llm_new_token(chunk.text, chunk=chunk)
                yield chunk
        finally:
            # The consumer stopped early (or failed): free the slot at the next token.
            cancelled.set()

    async def _astream(
        self,
        messages: list[BaseMessage],
        stop: list[str] | None = None,
        run_manager: AsyncCallbackManagerForLLMRun | None = None,
        **kwargs: Any,
    ) -> AsyncIterator[ChatGenerationChunk]:
        request, slot = self._request(messages, stop, **kwargs)
        loop = asyncio.get_running_loop()
        chunks: asyncio.Queue[Any] = asyncio.Queue()
        cancelled: threading.Event | None = None

        def put(item: Any) -> None:
            try:
                loop.call_soon_threadsafe(chunks.put_nowait, item)
            except RuntimeError:  # the event loop is gone: nobody is listening any more
                if cancelled is not None:
                    cancelled.set()

        grant = await self._runtime.scheduler.acquire(slot, on_position=report_queue_place)
        cancelled, deadline = self._work(request, slot, put, grant)
        try:
            while True:
                try:
                    item = await asyncio.wait_for(chunks.get(), self._wait_s(deadline))
                except TimeoutError:
                    raise self._timed_out() from None
                if isinstance(item, _Done):
                    break
                if isinstance(item, _Failed):
                    raise item.error
                chunk = self._to_chunk(item, slot)
                if chunk is None:
                    continue
                if run_manager is not None and chunk.text:
                    await run_manager.on_llm_new_token(chunk.text, chunk=chunk)
                yield chunk
        finally:
            cancelled.set()

    def _generate(
        self,
        messages: list[BaseMessage],
        stop: list[str] | None = None,
        run_manager: CallbackManagerForLLMRun | None = None,
        **kwargs: Any,
    ) -> ChatResult:
        return generate_from_stream(self._stream(messages, stop, None, **kwargs))

    async def _agenerate(
        self,
        messages: list[BaseMessage],
        stop: list[str] | None = None,
        run_manager: AsyncCallbackManagerForLLMRun | None = None,
        **kwargs: Any,
    ) -> ChatResult:
        return await agenerate_from_stream(self._astream(messages, stop, None, **kwargs))

    def with_structured_output(
        self, schema: dict[str, Any] | type, *, include_raw: bool = False, **kwargs: Any
    ) -> Runnable:
        """Grammar-constrained JSON for `schema`, parsed into it (Pydantic class or JSON schema).

        The sampler can only produce text that matches the schema, so even the 0.5B model
        returns valid JSON; the prompt should still say what the fields mean.
        """
        method = kwargs.pop("method", "json_schema")
        if method != "json_schema" or kwargs:
            raise ValueError(
                "the embedded model supports only method='json_schema' and no other options"
            )
        name, json_schema = json_schema_of(schema)
        response_format = {
            "type": "json_schema",
            "json_schema": {"name": name, "schema": json_schema, "strict": True},
        }
        bound = self.bind(response_format=response_format)
        return structured_output(bound, schema, include_raw=include_raw)
