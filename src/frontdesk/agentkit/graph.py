"""Helpers for assembling an assistant's LangGraph graph (its graph.py)."""

from __future__ import annotations

import functools
import inspect
from collections.abc import Callable
from typing import Any


def inline(fn: Callable[..., Any]) -> Callable[..., Any]:
    """`fn`, a quick synchronous node or routing function, run on the event loop.

    In an async graph LangGraph runs each synchronous node and routing function in a worker
    thread. For work of a millisecond or two (a search of in-memory indexes, reading state,
    filling a template) the hand-off to the thread and back costs more than the work: a third
    of a scripted turn's graph overhead. Slow or blocking work (a network call, a model) goes
    in an async node, never through this. The graph then runs only asynchronously
    (`ainvoke`, `astream_events`), as the assistants' services run it.
    """
    if inspect.iscoroutinefunction(fn):
        return fn

    # functools.wraps keeps the signature visible (inspect follows __wrapped__), so LangGraph
    # still passes `runtime` to the nodes that ask for it.
    @functools.wraps(fn)
    async def run_inline(*args: Any, **kwargs: Any) -> Any:
        return fn(*args, **kwargs)

    return run_inline
