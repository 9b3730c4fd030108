"""Graph plumbing shared by the assistants: inline nodes, verdict runnables, turn durability."""

from __future__ import annotations

import asyncio
import threading
from dataclasses import dataclass
from typing import Literal

import pytest
from langchain_core.messages import AIMessage, HumanMessage
from langgraph.checkpoint.memory import InMemorySaver
from langgraph.graph import END, START, MessagesState, StateGraph
from langgraph.runtime import Runtime
from pydantic import BaseModel

from frontdesk.agentkit.graph import inline
from frontdesk.agentkit.prompts import structured_verdict
from frontdesk.agentkit.service import GraphAssistant
from frontdesk.agentkit.streaming import NOT_STREAMED
from frontdesk.assistants.base import Answer
from frontdesk.llm import ScriptedChatModel


@dataclass
class Ctx:
    greeting: str


def test_inline_runs_a_sync_node_on_the_event_loop_with_its_runtime():
    seen: dict[str, object] = {}

    def node(state: MessagesState, runtime: Runtime[Ctx]) -> dict:
        seen["thread"] = threading.get_ident()
        return {"messages": [AIMessage(runtime.context.greeting)]}

    def route(state: MessagesState) -> str:
        seen["route_thread"] = threading.get_ident()
        return END

    graph = StateGraph(MessagesState, context_schema=Ctx)
    graph.add_node("node", inline(node))
    graph.add_edge(START, "node")
    graph.add_conditional_edges("node", inline(route), [END])

    async def run():
        seen["loop"] = threading.get_ident()
        return await graph.compile().ainvoke({"messages": [HumanMessage("hi")]}, context=Ctx("hello"))

    state = asyncio.run(run())
    assert state["messages"][-1].content == "hello"
    assert seen["thread"] == seen["loop"] == seen["route_thread"]


def test_inline_leaves_async_functions_alone():
    async def node(state):
        return {}

    assert inline(node) is node


class Verdict(BaseModel):
    status: Literal["PASS", "FAIL"]


def test_structured_verdict_is_built_once_per_model_schema_and_budget():
    model, other = ScriptedChatModel(['{"status": "PASS"}']), ScriptedChatModel()
    first = structured_verdict(model, Verdict, 96)
    assert structured_verdict(model, Verdict, 96) is first
    assert structured_verdict(model, Verdict, 32) is not first
    assert structured_verdict(other, Verdict, 96) is not first
    assert first.invoke("review this") == Verdict(status="PASS")


def _assistant(graph, checkpointer) -> GraphAssistant:
    return GraphAssistant(
        "test",
        graph.compile(checkpointer=checkpointer),
        None,
        info={},
        token_nodes={"answer"},
        turn_input=lambda message, user_id=None: {"messages": [HumanMessage(message)]},
        answer_of=lambda state, thread: Answer(
            answer=state["messages"][-1].content,
            route=None,
            confidence=None,
            sources=[],
            validation=None,
            thread_id=thread,
        ),
        sources_of=lambda state: {},
    )


async def test_a_turn_is_saved_when_it_ends_and_a_failed_turn_keeps_the_question():
    calls = {"n": 0}

    async def answer(state: MessagesState) -> dict:
        calls["n"] += 1
        if "break" in state["messages"][-1].content:
            raise RuntimeError("model crashed")
        return {"messages": [AIMessage(f"answer {calls['n']}")]}

    graph = StateGraph(MessagesState).add_node("answer", answer)
    graph.add_edge(START, "answer")
    saver = InMemorySaver()
    service = _assistant(graph, saver)

    assert (await service.ask("first", "t1")).answer == "answer 1"
    with pytest.raises(RuntimeError):
        await service.ask("please break", "t1")
    state = await service.graph.aget_state(service.config("t1"))
    texts = [m.content for m in state.values["messages"]]
    # Saved once per turn, not per step, yet nothing the guest sent is lost on a failure.
    assert texts == ["first", "answer 1", "please break"]


async def test_a_not_streamed_call_in_a_token_node_is_neither_shown_nor_a_rewrite():
    """An agent's internal decision (tagged NOT_STREAMED) never reaches the client, before or
    after the node's own answer has streamed, and does not clear what was shown."""
    llm = ScriptedChatModel(script=['{"tool": "secret"}', "Plain answer.", '{"tool": "later"}'])

    async def answer(state: MessagesState) -> dict:
        await llm.ainvoke(state["messages"], {"tags": [NOT_STREAMED]})
        reply = await llm.ainvoke(state["messages"])
        await llm.ainvoke(state["messages"], {"tags": [NOT_STREAMED]})
        return {"messages": [reply]}

    graph = StateGraph(MessagesState)
    graph.add_node("answer", answer)
    graph.add_edge(START, "answer")
    graph.add_edge("answer", END)
    events = [e async for e in _assistant(graph, InMemorySaver()).stream("hi", "t-ns")]
    shown = [(e.event, e.data.get("content")) for e in events if e.event in ("token", "replace")]
    assert "".join(text for _, text in shown) == "Plain answer."
    assert all(kind == "token" for kind, _ in shown)


class ScopedState(MessagesState):
    collection: str


async def test_a_scoped_turn_starts_in_its_collection_and_the_thread_stays_there():
    from frontdesk.assistants.base import UnknownScope
    from frontdesk.errors import FrontdeskError

    async def answer(state: ScopedState) -> dict:
        return {"messages": [AIMessage(f"about {state.get('collection', 'the default')}")]}

    graph = StateGraph(ScopedState).add_node("answer", answer)
    graph.add_edge(START, "answer")

    def check(scope: str) -> None:
        if scope not in ("alpha", "beta"):
            raise FrontdeskError(f"no collection {scope!r}")

    service = GraphAssistant(
        "scoped",
        graph.compile(checkpointer=InMemorySaver()),
        None,
        info={},
        token_nodes={"answer"},
        turn_input=lambda message, user_id=None: {"messages": [HumanMessage(message)]},
        answer_of=lambda state, thread: Answer(
            state["messages"][-1].content, None, None, [], None, thread
        ),
        sources_of=lambda state: {},
        check_scope=check,
        scope_input=lambda scope: {"collection": scope},
    )
    assert (await service.ask("q", "t")).answer == "about the default"
    assert (await service.ask("q", "t", scope="beta")).answer == "about beta"
    assert (await service.ask("q", "t")).answer == "about beta"  # the thread stays on it
    with pytest.raises(FrontdeskError, match="no collection 'gamma'"):
        await service.ask("q", "t", scope="gamma")
    # An assistant with one collection refuses any scope, and says so.
    single = _assistant(graph, InMemorySaver())
    with pytest.raises(UnknownScope, match="one collection only"):
        await single.ask("q", "t", scope="alpha")
