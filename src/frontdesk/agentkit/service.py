"""`GraphAssistant`: an `AssistantService` over a compiled LangGraph graph and its run context.

Each assistant supplies what differs (how a message becomes graph input, how a final state
becomes an answer and its sources, what to answer when a turn runs out of time); threads,
streaming, time limits and shutdown are the same for all.
"""

from __future__ import annotations

import dataclasses
import logging
from collections.abc import AsyncIterator, Callable, Collection
from contextlib import AsyncExitStack, aclosing
from typing import Any

from langchain_core.messages import HumanMessage, RemoveMessage
from langgraph.graph.state import CompiledStateGraph
from langgraph.types import Durability

from frontdesk.agentkit.claims import with_claims
from frontdesk.agentkit.handoff import person_message, transcript_of
from frontdesk.agentkit.release import ReleaseCheck
from frontdesk.agentkit.streaming import (
    OutOfTime,
    out_of_time_answer,
    running_time_limit,
    stream_turn,
)
from frontdesk.assistants.base import Answer, ChatEvent, check_scope
from frontdesk.memory.tickets import TicketStore

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
        # What GET /assistants shows about it; a callable when it changes while serving.
        info: dict[str, Any] | Callable[[], dict[str, Any]],
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
        # Where conversations handed to a person are kept: their replies are put into the
        # thread before it is next read or answered. None: this assistant hands off nothing.
        tickets: TicketStore | None = None,
        # An assistant with several collections (codeqa's repositories): raises a
        # FrontdeskError for a scope it lacks; and the state a scoped turn starts with.
        check_scope: Callable[[str], None] | None = None,
        scope_input: Callable[[str], dict[str, Any]] | None = None,
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
        self.tickets = tickets
        if check_scope is not None:
            self.check_scope = check_scope
        self._scope_input = scope_input
        self._closed = False

    @property
    def ready(self) -> bool:
        return not self._closed

    def info(self) -> dict[str, Any]:
        return dict(self._info() if callable(self._info) else self._info)

    def config(self, thread_id: str) -> dict[str, Any]:
        # Namespaced per assistant: assistants may share a checkpoint file, and one's thread id
        # sent to another must never load the first one's history.
        # The assistant and the thread key: a node that files the conversation somewhere
        # (a ticket) names it by them (agentkit.handoff.conversation_of).
        return {
            "configurable": {
                "thread_id": f"{self.name}:{thread_id}",
                "assistant": self.name,
                "thread_key": thread_id,
            }
        }

    async def transcript(self, thread_id: str) -> list[dict[str, Any]]:
        """The conversation as a person saw it: user and assistant messages, oldest first (a
        person's reply marked "from": "person")."""
        await self.deliver_person_replies(thread_id)
        state = (await self.graph.aget_state(self.config(thread_id))).values
        return transcript_of(state.get("messages", []))

    async def deliver_person_replies(self, thread_id: str) -> int:
        """Put what people answered on the thread's tickets into the conversation, those not
        there yet (by id: a reply lost by a concurrent write comes back, none comes twice).
        Returns how many were added."""
        if self.tickets is None:
            return 0
        replies = await self.tickets.person_replies(self.name, thread_id)
        if not replies:
            return 0
        config = self.config(thread_id)
        present = {m.id for m in (await self.graph.aget_state(config)).values.get("messages", [])}
        missing = [person_message(r) for r in replies]
        missing = [m for m in missing if m.id not in present]
        if missing:
            await self.graph.aupdate_state(config, {"messages": missing})
        return len(missing)

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

    def _inputs(self, message: str, user_id: str | None, scope: str | None) -> dict[str, Any]:
        inputs = self._turn_input(message, user_id)
        if scope is not None:
            check_scope(self, scope)
            if self._scope_input is not None:
                inputs = {**inputs, **self._scope_input(scope)}
        return inputs

    async def stream(
        self, message: str, thread_id: str, *, user_id: str | None = None, scope: str | None = None
    ) -> AsyncIterator[ChatEvent]:
        inputs = self._inputs(message, user_id, scope)
        await self.deliver_person_replies(thread_id)
        events = stream_turn(
            self.graph,
            inputs,
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
        # Closed with this stream, so stopping the turn stops the graph and the model.
        async with aclosing(events):
            async for event in events:
                yield event

    async def ask(
        self, message: str, thread_id: str, *, user_id: str | None = None, scope: str | None = None
    ) -> Answer:
        inputs = self._inputs(message, user_id, scope)
        await self.deliver_person_replies(thread_id)
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
            return self._cited(
                partial,
                dataclasses.replace(
                    answer, answer=text, extra={**answer.extra, "out_of_time": True}
                ),
            )
        return self._cited(state, self._answer_of(state, thread_id))

    def _cited(self, state: dict[str, Any], answer: Answer) -> Answer:
        """`answer` with each sentence's sources (`claims`), as the stream gives them."""
        try:
            claims = with_claims(self._sources_of(state), answer.answer)["claims"]
        except Exception:  # citations are extra: a turn is never lost for want of them
            logger.exception("citing the answer's sentences failed")
            claims = []
        return dataclasses.replace(answer, extra={**answer.extra, "claims": claims})

    async def aclose(self) -> None:
        if not self._closed and self._resources is not None:
            await self._resources.aclose()
        self._closed = True
