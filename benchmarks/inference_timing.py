"""Time spent in model inference during a turn, so `make bench` can report orchestration alone.

A turn's orchestration is its wall time less the time inside the chat model and the embedding
model. Both are wrapped here: the embeddings by a delegating proxy that times every embedding
call (`embed_query`, `embed_documents`, `embed_array`), the scripted chat model by a subclass
that times producing each reply. `InferenceClock.total_ms` is the sum since the last `reset()`.
"""

from __future__ import annotations

import time
from typing import Any

from langchain_core.embeddings import Embeddings

from frontdesk.llm.scripted import ScriptedChatModel


class InferenceClock:
    def __init__(self) -> None:
        self.total_ms = 0.0

    def reset(self) -> None:
        self.total_ms = 0.0

    def timed(self, call, *args: Any, **kwargs: Any) -> Any:
        started = time.perf_counter()
        try:
            return call(*args, **kwargs)
        finally:
            self.total_ms += (time.perf_counter() - started) * 1000


class TimedEmbeddings(Embeddings):
    """The wrapped embeddings, with every embedding call timed on `clock`."""

    def __init__(self, inner: Embeddings, clock: InferenceClock) -> None:
        self._inner = inner
        self._clock = clock

    def embed_query(self, text: str) -> list[float]:
        return self._clock.timed(self._inner.embed_query, text)

    def embed_documents(self, texts: list[str]) -> list[list[float]]:
        return self._clock.timed(self._inner.embed_documents, texts)

    def embed_array(self, texts):
        return self._clock.timed(self._inner.embed_array, texts)

    def __getattr__(self, name: str) -> Any:  # clear_query_cache, dimensions, ...
        return getattr(self._inner, name)


class TimedScriptedChatModel(ScriptedChatModel):
    """A scripted chat model whose replies are timed on `clock` (set after construction)."""

    clock: Any = None

    def _reply(self, messages, schema: Any = None) -> str:
        if self.clock is None:
            return super()._reply(messages, schema)
        return self.clock.timed(super()._reply, messages, schema)
