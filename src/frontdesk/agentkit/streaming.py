"""Run one graph turn and translate LangGraph's event stream into `ChatEvent`s.

Tokens are forwarded only from the nodes that write the answer (never from a router's or
validator's model call). When such a node runs again (a validation retry) the client is told to
clear what it has shown; and when the final answer is not what was streamed (a canned greeting, a
fallback, a static "I don't know"), a `replace` carries the final text.
"""

from __future__ import annotations

import logging
from collections.abc import AsyncIterator, Callable, Collection
from typing import Any

from langchain_core.messages import AIMessage, BaseMessage, HumanMessage
from langgraph.graph.state import CompiledStateGraph
from langgraph.types import Durability

from frontdesk.assistants.base import ChatEvent

logger = logging.getLogger(__name__)


def message_text(message: BaseMessage) -> str:
    content = message.content
    if isinstance(content, str):
        return content
    return "".join(part.get("text", "") if isinstance(part, dict) else str(part) for part in content)


def human_texts(messages: list[BaseMessage]) -> list[str]:
    """The user's messages, oldest first, as text."""
    return [message_text(m) for m in messages if isinstance(m, HumanMessage)]


def last_ai_text(messages: list[BaseMessage]) -> str:
    for message in reversed(messages):
        if isinstance(message, AIMessage):
            return message_text(message)
    return ""


async def stream_turn(
    graph: CompiledStateGraph,
    inputs: dict[str, Any],
    config: dict[str, Any],
    *,
    thread_id: str,
    token_nodes: Collection[str],
    sources_of: Callable[[dict[str, Any]], dict[str, Any]],
    context: Any = None,
    durability: Durability,
    progress_of: Callable[[dict[str, Any]], ChatEvent | None] | None = None,
) -> AsyncIterator[ChatEvent]:
    """`progress_of(event)` turns the LangGraph events an assistant cares about (a route
    chosen, a tool started) into `progress` events; the rest are not shown."""
    yield ChatEvent("metadata", {"thread_id": thread_id})
    streamed: list[str] = []
    runs_seen: dict[str, int] = {}
    try:
        async for event in graph.astream_events(
            inputs, config, version="v2", context=context, durability=durability
        ):
            kind = event["event"]
            node = event.get("metadata", {}).get("langgraph_node")
            if progress_of is not None and kind in ("on_chain_start", "on_chain_end"):
                progress = progress_of(event)
                if progress is not None:
                    yield progress
            if kind == "on_chain_start" and node in token_nodes and event["name"] == node:
                runs_seen[node] = runs_seen.get(node, 0) + 1
                if runs_seen[node] > 1 and streamed:
                    streamed.clear()
                    yield ChatEvent("replace", {"content": ""})
            elif kind == "on_chat_model_stream" and node in token_nodes:
                text = message_text(event["data"]["chunk"])
                if text:
                    streamed.append(text)
                    yield ChatEvent("token", {"content": text})
        state = (await graph.aget_state(config)).values
        final = last_ai_text(state.get("messages", []))
        if final != "".join(streamed):
            yield ChatEvent("replace", {"content": final})
        yield ChatEvent("sources", sources_of(state))
    except Exception as exc:  # the turn failed: say so, never leak a traceback
        logger.exception("turn failed for thread %s", thread_id)
        yield ChatEvent("error", {"error": _public_error(exc)})
    yield ChatEvent("done", {"done": True})


def _public_error(exc: Exception) -> str:
    from frontdesk.errors import FrontdeskError

    if isinstance(exc, FrontdeskError):
        return str(exc)
    return "Sorry, something went wrong while answering. Please try again."
