"""The in-process llama.cpp runtime (xllamacpp) behind the embedded chat model.

xllamacpp embeds llama.cpp's server: one loaded model, several *slots* (parallel sequences,
each with its own KV cache), JSON-schema constrained decoding and prompt caching. Each kind of
call can keep its own slot, so the router's prompt does not evict the generator's cached
system prompt: a later call that shares a slot's prefix only evaluates the new tokens.

- A named slot (`generator`, `router`, `validator`, `default`) pins the call to that slot.
- No slot (`None`, the default) lets llama.cpp choose: the free slot whose cached prompt shares
  the longest prefix with the new one, else the least recently used. That keeps call kinds
  apart without callers naming them.

One runtime per (model file, context, threads) per process, shared by every chat model object
built for it: the weights are loaded once. Concurrent requests are safe: llama.cpp's task queue
serialises work per slot (different slots decode together in one batch). In front of it, the
runtime's `CallScheduler` (scheduling.py) lets at most `parallel_calls` requests in (one per
slot at most, one at a time on a named slot); the others wait in its fair queue, in Python,
where a waiting turn can be told its place, not inside llama.cpp.
"""

from __future__ import annotations

import atexit
import secrets
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from frontdesk.llm.scheduling import CallScheduler

# The KV-cache slots, by the call kind a caller can pin to each; with no slot named,
# llama.cpp picks among the same slots by shared prompt prefix.
CACHE_SLOTS: tuple[str, ...] = ("generator", "router", "validator", "default")
# Host-RAM cache of evicted slot prompts (llama.cpp defaults to 8 GiB; we share a small box).
_PROMPT_RAM_CACHE_MIB = 256
# llama.cpp log threshold: 1 = errors only (the default, 3, logs every request).
_LOG_VERBOSITY = 1


class LlamaRuntimeError(RuntimeError):
    """llama.cpp refused or failed a request (e.g. the prompt does not fit the context)."""


@dataclass(frozen=True)
class RuntimeKey:
    model_path: Path
    context_tokens: int
    threads: int


class LlamaServerRuntime:
    """A loaded GGUF with one KV-cache slot per call kind."""

    def __init__(
        self,
        key: RuntimeKey,
        slots: tuple[str, ...] = CACHE_SLOTS,
        *,
        parallel_calls: int | None = None,
    ) -> None:
        if key.context_tokens < 256:
            raise ValueError(f"llm_context_tokens must be at least 256, got {key.context_tokens}")
        if key.threads < 1:
            raise ValueError(f"llm_threads must be at least 1, got {key.threads}")
        self.key = key
        self.slots = slots
        parallel_calls = len(slots) if parallel_calls is None else parallel_calls
        if not 1 <= parallel_calls <= len(slots):
            raise ValueError(
                f"llm_parallel_calls must be between 1 and {len(slots)} (one per KV-cache "
                f"slot at most), got {parallel_calls}"
            )
        # Calls wait their turn here, in a fair order (llama.cpp's own queue is first come,
        # first served, and cannot tell a waiting caller its place).
        self.scheduler = CallScheduler(parallel_calls)
        self._server: Any = None
        self._load_lock = threading.Lock()
        self.load_seconds: float | None = None
        # In-flight worker threads and their cancel switches, so close() can stop them.
        self._active: set[tuple[threading.Thread, threading.Event]] = set()
        self._active_lock = threading.Lock()

    @property
    def loaded(self) -> bool:
        return self._server is not None

    def load(self) -> None:
        """Load the weights (about a second for the 0.5B model); later calls are no-ops."""
        with self._load_lock:
            if self._server is not None:
                return
            import xllamacpp

            params = xllamacpp.CommonParams()
            params.model.path = str(self.key.model_path)
            # Each slot gets the full configured context (the total is split across slots).
            params.n_ctx = self.key.context_tokens * len(self.slots)
            params.n_parallel = len(self.slots)
            params.kv_unified = False
            params.cache_prompt = True
            params.ctx_shift = False
            params.cache_ram_mib = _PROMPT_RAM_CACHE_MIB
            params.cpuparams.n_threads = self.key.threads
            params.cpuparams_batch.n_threads = self.key.threads
            params.verbosity = _LOG_VERBOSITY
            # xllamacpp also serves llama.cpp's HTTP API on a random localhost port; a random
            # key keeps other local processes from using it. We call it in-process only.
            params.api_keys = [secrets.token_urlsafe(32)]
            started = time.perf_counter()
            try:
                self._server = xllamacpp.Server(params)
            except RuntimeError as exc:
                raise LlamaRuntimeError(
                    f"llama.cpp could not load {self.key.model_path}: {exc}"
                ) from exc
            self.load_seconds = time.perf_counter() - started

    def spawn(self, work: Callable[[], None], cancelled: threading.Event, name: str) -> None:
        """Run `work` (a blocking `chat` call) in a worker thread that `close()` can stop."""

        def run() -> None:
            try:
                work()
            finally:
                with self._active_lock:
                    self._active.discard(entry)

        thread = threading.Thread(target=run, name=name, daemon=True)
        entry = (thread, cancelled)
        with self._active_lock:
            self._active.add(entry)
        thread.start()

    def close(self, timeout_s: float = 10.0) -> None:
        """Cancel in-flight requests, wait for them, and unload the model.

        Called at interpreter exit: a worker thread still inside llama.cpp when Python
        finalises gets torn down mid-call and aborts the process.
        """
        with self._active_lock:
            active = list(self._active)
        for _, cancelled in active:
            cancelled.set()
        for thread, _ in active:
            thread.join(timeout_s)
        with self._load_lock:
            self._server = None  # the destructor stops llama.cpp's loop and frees memory

    def slot_id(self, name: str | None) -> int:
        """llama.cpp's slot index for `name`; -1 (llama.cpp chooses) for None."""
        if name is None:
            return -1
        if name not in self.slots:
            raise ValueError(f"unknown cache slot {name!r}; choose one of: {', '.join(self.slots)}")
        return self.slots.index(name)

    def chat(
        self,
        request: dict[str, Any],
        *,
        slot: str | None,
        on_chunk: Callable[[dict[str, Any]], None],
        cancelled: threading.Event,
        deadline: float,
    ) -> None:
        """Stream one chat completion into `on_chunk` (blocking; run it in a worker thread).

        The caller holds a `Grant` from `self.scheduler` for this slot while this runs. Stops
        early when `cancelled` is set. Raises `TimeoutError` past `deadline`
        (`time.monotonic()`), `LlamaRuntimeError` when llama.cpp reports an error.
        """
        self.load()
        slot_index = self.slot_id(slot)
        errors: list[dict[str, Any]] = []
        raised: list[BaseException] = []
        finished = False

        def receive(chunk: dict[str, Any]) -> bool:
            # Returning True tells llama.cpp to stop this request. xllamacpp swallows
            # exceptions raised in here, so they are kept and re-raised below.
            nonlocal finished
            if "error" in chunk or ("message" in chunk and "choices" not in chunk):
                errors.append(chunk.get("error", chunk))
                return True
            try:
                on_chunk(chunk)
            except BaseException as exc:  # noqa: BLE001 - re-raised after the call
                raised.append(exc)
                return True
            if any(c.get("finish_reason") for c in chunk.get("choices", [])):
                finished = True
            return cancelled.is_set() or time.monotonic() > deadline

        payload = {**request, "stream": True, "id_slot": slot_index}
        self._server.handle_chat_completions(payload, receive)
        if raised:
            raise raised[0]
        if errors:
            error = errors[0]
            raise LlamaRuntimeError(str(error.get("message", error)))
        if not finished and not cancelled.is_set() and time.monotonic() > deadline:
            raise TimeoutError("the embedded model did not finish within the time limit")


_RUNTIMES: dict[RuntimeKey, LlamaServerRuntime] = {}
_RUNTIMES_LOCK = threading.Lock()


@atexit.register
def close_all() -> None:
    """Stop and unload every shared runtime (runs at interpreter exit)."""
    with _RUNTIMES_LOCK:
        runtimes = list(_RUNTIMES.values())
    for runtime in runtimes:
        runtime.close()


def shared_runtime(
    model_path: Path, *, context_tokens: int, threads: int, parallel_calls: int | None = None
) -> LlamaServerRuntime:
    """The process-wide runtime for these settings (created on first use, loaded lazily).

    `parallel_calls` is set by whoever creates the runtime; later callers share its queue."""
    key = RuntimeKey(model_path.resolve(), context_tokens, threads)
    with _RUNTIMES_LOCK:
        runtime = _RUNTIMES.get(key)
        if runtime is None:
            runtime = _RUNTIMES[key] = LlamaServerRuntime(key, parallel_calls=parallel_calls)
        return runtime
