"""Run one graph turn and translate LangGraph's event stream into `ChatEvent`s.

Tokens are forwarded only from the nodes that write the answer (never from a router's or
validator's model call; nor from a call tagged `NOT_STREAMED`, an agent's internal decision
made inside such a node), a sentence at a time and only once the assistant's release check lets
the answer so far be shown (agentkit/release.py): a specific that has not passed the grounding
check never reaches the screen. While text is held the client gets `{"stage": "checking"}`
progress. When such a node runs again (a validation retry) the client is told to clear what it
has shown. At the end the final answer's unshown rest follows as a token, or, when it does not
begin with what was shown (a canned greeting, a fallback, a static "I don't know"), a `replace`
carries it whole.

A model call waiting its turn in the embedded model's queue shows as `progress` events with its
place (`{"stage": "queue", "position": 2, "waiting": 5}`; position 0 once it starts). When the
turn runs out of time (the turn clock the server starts, which does not count that waiting; or a
model call's own limit), the turn ends with the assistant's deterministic answer built from what
its nodes had found so far (`out_of_time`), never with an error.
"""

from __future__ import annotations

import functools
import logging
from collections.abc import AsyncIterator, Callable, Collection
from contextlib import AbstractAsyncContextManager, nullcontext
from typing import Any

from langchain_core.messages import AIMessage, BaseMessage, HumanMessage
from langgraph.graph.state import CompiledStateGraph
from langgraph.types import Durability

from frontdesk.agentkit.claims import with_claims
from frontdesk.agentkit.release import ReleaseCheck, SentenceRelease, hold_specifics
from frontdesk.assistants.base import ChatEvent
from frontdesk.llm.scheduling import QUEUE_EVENT
from frontdesk.llm.turn_clock import current_turn_clock

# A turn's state -> its best answer without the model (retrieved facts, where to ask).
OutOfTime = Callable[[dict[str, Any]], str]
# The progress event of an answer held for checking.
CHECKING = ChatEvent("progress", {"stage": "checking"})
# A model call tagged with this never streams to the client, even inside a token node: an
# agent's internal decision (a tool choice's JSON) is not text for the customer.
NOT_STREAMED = "frontdesk:not_streamed"
# What a turn out of time says when its assistant supplies nothing better.
OUT_OF_TIME_ANSWER = (
    "Sorry, I could not finish this answer in time. "
    "Please ask again in a moment, or try a shorter question."
)

logger = logging.getLogger(__name__)


def message_text(message: BaseMessage) -> str:
    content = message.content
    if isinstance(content, str):
        return content
    return "".join(
        part.get("text", "") if isinstance(part, dict) else str(part) for part in content
    )


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
    out_of_time: OutOfTime | None = None,
    release_check: ReleaseCheck | None = None,
) -> AsyncIterator[ChatEvent]:
    """`progress_of(event)` turns the LangGraph events an assistant cares about (a route
    chosen, a tool started) into `progress` events; the rest are not shown. `out_of_time(state)`
    is the answer when the turn runs out of time. `release_check(state, text)` says whether the
    answer text so far may be shown (default: no sentence with a specific before the turn
    ends)."""
    yield ChatEvent("metadata", {"thread_id": thread_id})
    gate = SentenceRelease(release_check or hold_specifics)
    runs_seen: dict[str, int] = {}
    # What the turn's nodes (subgraphs' too) have written so far: an answer out of time is
    # built from it, since a cancelled turn's state is not saved.
    written: dict[str, Any] = {}
    events = aiter(
        graph.astream_events(inputs, config, version="v2", context=context, durability=durability)
    )
    try:
        while True:
            try:
                # Only the wait for the graph's next event counts, never the `yield`: a slow
                # consumer is not a slow turn.
                async with running_time_limit():
                    event = await anext(events)
            except StopAsyncIteration:
                break
            kind = event["event"]
            node = event.get("metadata", {}).get("langgraph_node")
            if kind == "on_custom_event" and event["name"] == QUEUE_EVENT:
                yield ChatEvent("progress", {"stage": "queue", **event["data"]})
                continue
            if kind == "on_chain_end" and node is not None and event["name"] == node:
                output = event.get("data", {}).get("output")
                if isinstance(output, dict):
                    written.update(output)
                if node in token_nodes:
                    for item in _released(gate, gate.finish, {**inputs, **written}):
                        yield item
            if progress_of is not None and kind in ("on_chain_start", "on_chain_end"):
                progress = progress_of(event)
                if progress is not None:
                    yield progress
            if kind == "on_chain_start" and node in token_nodes and event["name"] == node:
                runs_seen[node] = runs_seen.get(node, 0) + 1
                if runs_seen[node] > 1:
                    if gate.shown:
                        yield ChatEvent("replace", {"content": ""})
                    gate.reset()
            elif NOT_STREAMED in (event.get("tags") or ()):
                continue  # an internal decision: neither shown nor a rewrite of what was
            elif kind == "on_chat_model_start" and node in token_nodes:
                # A second model call in one run of the node rewrites the first one's answer
                # (a draft its own check rejected): what the first one showed goes.
                if gate.shown:
                    yield ChatEvent("replace", {"content": ""})
                gate.reset()
            elif kind == "on_chat_model_stream" and node in token_nodes:
                text = message_text(event["data"]["chunk"])
                if text:
                    feed = functools.partial(gate.feed, text)
                    for item in _released(gate, feed, {**inputs, **written}):
                        yield item
        state = (await graph.aget_state(config)).values
        final = last_ai_text(state.get("messages", []))
        ending = final_text_event(gate.shown, final)
        if ending is not None:
            yield ending
        yield ChatEvent("sources", with_claims(sources_of(state), final))
    except TimeoutError:
        logger.warning(
            "turn out of time for thread %s: answering without the model (raise "
            "FRONTDESK_SSE_TIMEOUT_S or FRONTDESK_LLM_TIMEOUT_S if this is frequent)",
            thread_id,
        )
        await _close(events)
        state = await _state_so_far(graph, config, inputs, written)
        for item in out_of_time_events(state, out_of_time, sources_of):
            yield item
    except Exception as exc:  # the turn failed: say so, never leak a traceback
        logger.exception("turn failed for thread %s", thread_id)
        yield ChatEvent("error", {"error": _public_error(exc)})
    finally:
        await _close(events)
    yield ChatEvent("done", {"done": True})


def _released(
    gate: SentenceRelease, step: Callable[[dict[str, Any]], str], state: dict[str, Any]
) -> list[ChatEvent]:
    """The events of one step of the release: text now shown, and `checking` the moment the
    gate starts holding text back."""
    was_holding = gate.holding
    text = step(state)
    events = [ChatEvent("token", {"content": text})] if text else []
    if gate.holding and not was_holding:
        events.append(CHECKING)
    return events


def final_text_event(shown: str, final: str) -> ChatEvent | None:
    """The rest of the final answer after what was shown, or the whole of it in its place
    (None: it was all shown)."""
    lead = shown.lstrip()
    if not final.startswith(lead):
        return ChatEvent("replace", {"content": final})
    rest = final[len(lead) :]
    return ChatEvent("token", {"content": rest}) if rest else None


def running_time_limit() -> AbstractAsyncContextManager[Any]:
    """The current turn's clock as a timeout (none outside a turn the server timed)."""
    clock = current_turn_clock()
    return clock.limit() if clock is not None else nullcontext()


def out_of_time_answer(state: dict[str, Any], out_of_time: OutOfTime | None) -> str:
    if out_of_time is None:
        return OUT_OF_TIME_ANSWER
    try:
        return out_of_time(state) or OUT_OF_TIME_ANSWER
    except Exception:  # a partial state the function did not expect: the general answer
        logger.exception("the out-of-time answer failed")
        return OUT_OF_TIME_ANSWER


def out_of_time_events(
    state: dict[str, Any],
    out_of_time: OutOfTime | None,
    sources_of: Callable[[dict[str, Any]], dict[str, Any]],
) -> list[ChatEvent]:
    """`replace` with the deterministic answer, then the sources it drew on (flagged)."""
    answer = out_of_time_answer(state, out_of_time)
    events = [ChatEvent("replace", {"content": answer})]
    try:
        sources = with_claims(sources_of(state), answer)
    except Exception:
        logger.exception("sources of a turn out of time failed")
        sources = {"sources": [], "claims": []}
    events.append(ChatEvent("sources", {**sources, "out_of_time": True}))
    return events


async def _close(events: AsyncIterator[Any]) -> None:
    closer = getattr(events, "aclose", None)
    if closer is not None:
        try:
            await closer()
        except Exception:
            logger.exception("closing the graph's event stream failed")


async def _state_so_far(
    graph: CompiledStateGraph,
    config: dict[str, Any],
    inputs: dict[str, Any],
    written: dict[str, Any],
) -> dict[str, Any]:
    """The conversation as saved before this turn, this turn's input, and what its nodes
    wrote (the latest value of each key; messages are the input's)."""
    try:
        saved = dict((await graph.aget_state(config)).values)
    except Exception:
        logger.exception("reading the state of a turn out of time failed")
        saved = {}
    history = list(saved.get("messages") or [])
    asked = [m for m in inputs.get("messages") or [] if m not in history]
    state = {**saved, **inputs, **{k: v for k, v in written.items() if k != "messages"}}
    state["messages"] = history + asked
    return state


def _public_error(exc: Exception) -> str:
    from frontdesk.errors import FrontdeskError

    if isinstance(exc, FrontdeskError):
        return str(exc)
    return "Sorry, something went wrong while answering. Please try again."
