"""Streamed answers are released a sentence at a time, and a specific only once it is grounded."""

from __future__ import annotations

from typing import Annotated, Any

from langchain_core.messages import AIMessage, HumanMessage
from langgraph.checkpoint.memory import InMemorySaver
from langgraph.graph import END, START, StateGraph
from langgraph.graph.message import add_messages
from typing_extensions import TypedDict

from frontdesk.agentkit.release import (
    SentenceRelease,
    grounded_release,
    hold_specifics,
)
from frontdesk.agentkit.streaming import stream_turn
from frontdesk.llm import ScriptedChatModel

CONTEXT = [
    "Seasons Buffet: open daily 11:00 AM to 9:00 PM. Located in the Casino of the Earth.",
    "Mohegan Sun Arena: 10,000 seats. Box office open on show days from 10:00 AM.",
]
STATE = {"retrieved_context": [{"content": text} for text in CONTEXT]}


def feed_all(gate: SentenceRelease, pieces: list[str], state: dict[str, Any]) -> list[str]:
    return [out for piece in pieces if (out := gate.feed(piece, state))]


def test_plain_sentences_are_released_whole_as_they_end():
    gate = SentenceRelease(hold_specifics)
    pieces = ["Welcome", " to", " the", " resort.", " We", " hope", " you", " enjoy", " it.", " Ask"]
    out = feed_all(gate, pieces, {})
    # A sentence goes out once the next one has begun: not a word earlier.
    assert out == ["Welcome to the resort. ", "We hope you enjoy it. "]
    assert gate.pending == "Ask"
    assert gate.finish({}) == "Ask"
    assert not gate.holding


def test_a_decimal_or_abbreviation_does_not_end_a_sentence():
    gate = SentenceRelease(lambda state, text: True)
    out = feed_all(gate, ["It is 2.5 miles away, e.g. ten minutes. ", "Then "], {})
    assert out == ["It is 2.5 miles away, e.g. ten minutes. "]


def test_by_default_a_sentence_with_a_specific_waits_and_so_does_all_after_it():
    gate = SentenceRelease(hold_specifics)
    pieces = ["Sure! ", "The buffet opens at 11:00 AM. ", "Enjoy your ", "meal. ", "Bye"]
    out = feed_all(gate, pieces, {})
    assert out == ["Sure! "]
    assert gate.holding
    assert gate.finish({}) == ""
    assert gate.shown == "Sure! "


def test_grounded_release_shows_supported_specifics_and_holds_the_wrong_ones():
    check = grounded_release(venue_names=["Seasons Buffet", "Mohegan Sun Arena"])
    right = SentenceRelease(check)
    assert feed_all(right, ["Seasons Buffet opens at 11:00 AM. ", "It closes "], STATE) == [
        "Seasons Buffet opens at 11:00 AM. "
    ]
    wrong = SentenceRelease(check)
    # The buffet's hours told as the Arena's: the values exist, but for another item.
    out = feed_all(wrong, ["The Mohegan Sun Arena is open 11:00 AM to 9:00 PM. ", "Next "], STATE)
    assert out == []
    assert wrong.holding
    made_up = SentenceRelease(check)
    assert feed_all(made_up, ["The buffet costs $19.99. ", "Yes "], STATE) == []


def test_grounded_release_holds_every_specific_when_nothing_was_retrieved():
    gate = SentenceRelease(grounded_release())
    assert feed_all(gate, ["Call 1-888-226-7711 for help. ", "Or "], {}) == []
    assert feed_all(SentenceRelease(grounded_release()), ["Happy to help. ", "Or "], {}) == [
        "Happy to help. "
    ]


def test_supplied_facts_count_as_support():
    check = grounded_release(trusted_facts_of=lambda state: ["Main line 1-888-226-7711"])
    gate = SentenceRelease(check)
    assert feed_all(gate, ["Call 1-888-226-7711 for help. ", "Or "], {}) == [
        "Call 1-888-226-7711 for help. "
    ]


class State(TypedDict, total=False):
    messages: Annotated[list, add_messages]
    retrieved_context: list[dict[str, Any]]
    attempts: int


def build(model: ScriptedChatModel, final: str | None):
    """retrieve -> answer (streams the model) -> check (keeps the answer, or puts `final`)."""

    def retrieve(state: State) -> dict:
        return {"retrieved_context": STATE["retrieved_context"]}

    async def answer(state: State) -> dict:
        reply = await model.ainvoke(state["messages"])
        return {"messages": [AIMessage(reply.content)]}

    def check(state: State) -> dict:
        if final is None:
            return {}
        return {"messages": [AIMessage(final, id=state["messages"][-1].id)]}

    graph = StateGraph(State)
    graph.add_node("retrieve", retrieve)
    graph.add_node("answer", answer)
    graph.add_node("check", check)
    graph.add_edge(START, "retrieve")
    graph.add_edge("retrieve", "answer")
    graph.add_edge("answer", "check")
    graph.add_edge("check", END)
    return graph.compile(checkpointer=InMemorySaver())


async def run(graph, **kwargs) -> list[tuple[str, dict]]:
    events = stream_turn(
        graph,
        {"messages": [HumanMessage("when is the arena open?")]},
        {"configurable": {"thread_id": "t"}},
        thread_id="t",
        token_nodes={"answer"},
        sources_of=lambda state: {"sources": []},
        durability="exit",
        **kwargs,
    )
    return [(e.event, e.data) async for e in events]


def shown_before_the_end(events: list[tuple[str, dict]]) -> str:
    """What the client had on screen before the final answer arrived."""
    text = ""
    for name, data in events:
        if name == "token":
            text += data["content"]
        if name == "replace":
            return text
    return text


async def test_an_ungrounded_specific_never_streams_and_checking_is_announced():
    wrong = "Happy to help. The Mohegan Sun Arena is open 11:00 AM to 9:00 PM daily."
    fixed = "The box office opens at 10:00 AM on show days."
    graph = build(ScriptedChatModel([wrong]), final=fixed)
    events = await run(graph, release_check=grounded_release(venue_names=["Mohegan Sun Arena"]))
    names = [name for name, _ in events]
    assert "11:00 AM" not in shown_before_the_end(events)
    assert shown_before_the_end(events) == "Happy to help. "
    assert ("progress", {"stage": "checking"}) in events
    assert names.index("progress") < names.index("replace")
    assert events[names.index("replace")][1] == {"content": fixed}
    assert names[-2:] == ["sources", "done"]


async def test_a_grounded_answer_streams_sentence_by_sentence_and_ends_complete():
    text = "Seasons Buffet opens at 11:00 AM. It is in the Casino of the Earth. Enjoy!"
    graph = build(ScriptedChatModel([text]), final=None)
    events = await run(graph, release_check=grounded_release(venue_names=["Seasons Buffet"]))
    tokens = [data["content"] for name, data in events if name == "token"]
    assert len(tokens) >= 3  # one per sentence, not one lump at the end
    assert "".join(tokens) == text
    assert "replace" not in [name for name, _ in events]
    assert ("progress", {"stage": "checking"}) not in events


async def test_without_a_check_specifics_wait_for_the_end_of_the_turn():
    text = "Sure. The buffet opens at 11:00 AM. See you there."
    graph = build(ScriptedChatModel([text]), final=None)
    events = await run(graph)
    assert shown_before_the_end(events) in ("Sure. ", text)
    first_token = next(data["content"] for name, data in events if name == "token")
    assert first_token == "Sure. "
    assert "".join(data["content"] for name, data in events if name == "token") == text


def test_the_clock_supports_a_date_but_never_an_opening_time():
    state = {**STATE, "current_time": "Tuesday, November 24, 2026, 6:41 AM EST"}
    gate = SentenceRelease(grounded_release())
    assert feed_all(gate, ["The spa opens at 6:41 AM. ", "Then "], state) == []
    dated = SentenceRelease(grounded_release())
    assert feed_all(dated, ["Today is November 24. ", "Then "], state) == ["Today is November 24. "]
