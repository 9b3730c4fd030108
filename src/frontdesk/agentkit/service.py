"""`GraphAssistant`: an `AssistantService` over a compiled LangGraph graph and its run context.

Each assistant supplies what differs (how a message becomes graph input, how a final state
becomes an answer and its sources, what to answer when a turn runs out of time); threads,
streaming, time limits and shutdown are the same for all.
"""

from __future__ import annotations

import dataclasses
import logging
from collections.abc import AsyncIterator, Callable, Collection
from contextlib import AsyncExitStack
from typing import Any

from langchain_core.messages import AIMessage, HumanMessage, RemoveMessage
from langgraph.graph.state import CompiledStateGraph
from langgraph.types import Durability

from frontdesk.agentkit.release import ReleaseCheck
from frontdesk.agentkit.streaming import (
    OutOfTime,
    message_text,
    out_of_time_answer,
    running_time_limit,
    stream_turn,
)
from frontdesk.assistants.base import Answer, ChatEvent

logger = logging.getLogger(__name__)

# A turn's state is saved once, when the turn ends (answered, failed or cancelled), not after
# each node: a turn is the unit a guest sees, nothing inside it is resumable, and saving after
# every step cost a tenth of a scripted turn. A process killed mid-turn loses that turn, which
# the guest never got an answer to.
DURABILITY: Durability = "exit"


class GraphAssistant:
    def __init__(
        self,
        name: str,
        graph: CompiledStateGraph,
        context: Any,
        *,
        info: dict[str, Any],
        token_nodes: Collection[str],
        # (message, user_id) -> the graph's input for a new turn.
        turn_input: Callable[[str, str | None], dict[str, Any]],
        answer_of: Callable[[dict[str, Any], str], Answer],
        sources_of: Callable[[dict[str, Any]], dict[str, Any]],
        resources: AsyncExitStack | None = None,
        # LangGraph event -> a `progress` event (route chosen, tool started), or None.
        progress_of: Callable[[dict[str, Any]], ChatEvent | None] | None = None,
        # The turn's state -> its answer when the turn runs out of time (what was retrieved
        # and where to ask); None: a general "busy, ask again" sentence.
        out_of_time: OutOfTime | None = None,
        # (the turn's state so far, the answer text so far) -> may it be shown while the turn
        # still runs? None: no sentence with a specific before the turn ends.
        release_check: ReleaseCheck | None = None,
    ):
        self.name = name
        self.graph = graph
        self.context = context
        self._info = info
        self._token_nodes = frozenset(token_nodes)
        self._turn_input = turn_input
        self._answer_of = answer_of
        self._sources_of = sources_of
        self._resources = resources
        self._progress_of = progress_of
        self._out_of_time = out_of_time
        self._release_check = release_check
        self._closed = False

    @property
    def ready(self) -> bool:
        return not self._closed

    def info(self) -> dict[str, Any]:
        return dict(self._info)

    def config(self, thread_id: str) -> dict[str, Any]:
        # Namespaced per assistant: assistants may share a checkpoint file, and one's thread id
        # sent to another must never load the first one's history.
        return {"configurable": {"thread_id": f"{self.name}:{thread_id}"}}

    async def transcript(self, thread_id: str) -> list[dict[str, str]]:
        """The conversation as a person saw it: user and assistant messages, oldest first."""
        state = (await self.graph.aget_state(self.config(thread_id))).values
        return [
            {"role": "user" if isinstance(m, HumanMessage) else "assistant", "content": text}
            for m in state.get("messages", [])
            if isinstance(m, (HumanMessage, AIMessage)) and (text := message_text(m))
        ]

    async def forget_last_turn(self, thread_id: str) -> bool:
        """Remove the last question and everything after it (to answer it again); False when
        the thread has no question yet."""
        config = self.config(thread_id)
        messages = (await self.graph.aget_state(config)).values.get("messages", [])
        last = next(
            (i for i in range(len(messages) - 1, -1, -1) if isinstance(messages[i], HumanMessage)),
            None,
        )
        if last is None:
            return False
        removals = [RemoveMessage(id=m.id) for m in messages[last:] if m.id]
        await self.graph.aupdate_state(config, {"messages": removals})
        return True

    def stream(
        self, message: str, thread_id: str, *, user_id: str | None = None
    ) -> AsyncIterator[ChatEvent]:
        return stream_turn(
            self.graph,
            self._turn_input(message, user_id),
            self.config(thread_id),
            thread_id=thread_id,
            token_nodes=self._token_nodes,
            sources_of=self._sources_of,
            context=self.context,
            durability=DURABILITY,
            progress_of=self._progress_of,
            out_of_time=self._out_of_time,
            release_check=self._release_check,
        )

    async def ask(self, message: str, thread_id: str, *, user_id: str | None = None) -> Answer:
        inputs = self._turn_input(message, user_id)
        state: dict[str, Any] = {}
        try:
            # The state after each step, so a turn out of time still has what it found.
            async with running_time_limit():
                async for state in self.graph.astream(
                    inputs,
                    self.config(thread_id),
                    context=self.context,
                    durability=DURABILITY,
                    stream_mode="values",
                ):
                    pass
        except TimeoutError:
            logger.warning("turn out of time for thread %s: answering without the model", thread_id)
            partial = {**inputs, **state}
            answer = self._answer_of(partial, thread_id)
            text = out_of_time_answer(partial, self._out_of_time)
            return dataclasses.replace(
                answer, answer=text, extra={**answer.extra, "out_of_time": True}
            )
        return self._answer_of(state, thread_id)

    async def aclose(self) -> None:
        if not self._closed and self._resources is not None:
            await self._resources.aclose()
        self._closed = True
