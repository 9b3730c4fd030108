"""ScriptedChatModel: replies, streaming through LangGraph events, structured output."""

from __future__ import annotations

from typing import Literal

import pytest
from langchain_core.exceptions import OutputParserException
from langchain_core.messages import AIMessage, HumanMessage, SystemMessage
from langgraph.graph import START, MessagesState, StateGraph
from pydantic import BaseModel

from frontdesk.config import Settings
from frontdesk.llm import ScriptedChatModel, build_chat_model
from frontdesk.llm.scripted import split_words


class Verdict(BaseModel):
    status: Literal["PASS", "FAIL"]
    reason: str


def one_node_graph(model):
    async def answer(state: MessagesState) -> dict:
        return {"messages": [await model.ainvoke(state["messages"])]}

    return StateGraph(MessagesState).add_node("answer", answer).add_edge(START, "answer").compile()


async def test_tokens_stream_as_langgraph_events():
    reply = "The spa opens at nine and closes at nine."
    graph = one_node_graph(ScriptedChatModel([reply]))

    tokens = []
    async for event in graph.astream_events(
        {"messages": [HumanMessage("When is the spa open?")]}, version="v2"
    ):
        if event["event"] == "on_chat_model_stream":
            assert event["metadata"]["langgraph_node"] == "answer"
            tokens.append(event["data"]["chunk"].content)

    non_empty = [t for t in tokens if t]
    assert len(non_empty) == len(reply.split())  # word by word, not one blob
    assert "".join(tokens) == reply


async def test_final_state_holds_the_whole_reply():
    graph = one_node_graph(ScriptedChatModel(["Breakfast is at seven."]))
    state = await graph.ainvoke({"messages": [HumanMessage("Breakfast?")]})
    assert isinstance(state["messages"][-1], AIMessage)
    assert state["messages"][-1].content == "Breakfast is at seven."


def test_replies_are_used_in_order_and_running_out_is_an_error():
    model = ScriptedChatModel(["first", "second"])
    assert model.invoke("a").content == "first"
    assert model.invoke("b").content == "second"
    assert model.remaining == 0
    with pytest.raises(RuntimeError, match="no reply left"):
        model.invoke("c")


def test_calls_record_the_messages_the_model_saw():
    model = ScriptedChatModel(["ok"])
    model.invoke([SystemMessage("be brief"), HumanMessage("hello")])
    [call] = model.calls
    assert [type(m) for m in call] == [SystemMessage, HumanMessage]
    assert call[1].content == "hello"


def test_a_callable_script_sees_the_messages():
    model = ScriptedChatModel(
        lambda messages: f"{len(messages)} messages, last: {messages[-1].content}"
    )
    reply = model.invoke([SystemMessage("s"), HumanMessage("where is the gym?")])
    assert reply.content == "2 messages, last: where is the gym?"


def test_a_callable_must_return_text():
    model = ScriptedChatModel(lambda messages: 42)
    with pytest.raises(TypeError, match="not str"):
        model.invoke("hi")


@pytest.mark.parametrize("bad", ["just one string", [1, 2], [b"bytes"]])
def test_bad_scripts_are_refused(bad):
    with pytest.raises(TypeError, match="list of reply strings or a callable"):
        ScriptedChatModel(bad)


def test_built_from_settings_it_echoes_the_last_question(tmp_path):
    model = build_chat_model(Settings(llm_provider="scripted", data_dir=tmp_path, _env_file=None))
    assert isinstance(model, ScriptedChatModel)
    first = model.invoke(
        [HumanMessage("Where can I park?"), AIMessage("x"), HumanMessage("Is it free?")]
    )
    again = model.invoke([HumanMessage("Is it free?")])
    assert "Is it free?" in first.content and "Where can I park" not in first.content
    assert first.content == again.content  # deterministic


def test_echo_of_a_long_question_is_short():
    question = " ".join(f"word{i}" for i in range(200))
    reply = ScriptedChatModel().invoke(question).content
    assert len(reply.split()) < 40 and "word0" in reply and "word199" not in reply


def test_sync_stream_yields_word_pieces():
    pieces = [c.content for c in ScriptedChatModel(["one two  three"]).stream("x")]
    assert [p for p in pieces if p] == ["one ", "two  ", "three"]


@pytest.mark.parametrize("text", ["", "a", "  leading", "trailing  ", "tabs\tand\nnewlines "])
def test_split_words_joins_back_to_the_text(text):
    assert "".join(split_words(text)) == text


async def test_structured_output_parses_json_into_the_model():
    model = ScriptedChatModel(['{"status": "FAIL", "reason": "not in the context"}'])
    verdict = await model.with_structured_output(Verdict).ainvoke("check this")
    assert verdict == Verdict(status="FAIL", reason="not in the context")


def test_structured_output_with_a_json_schema_returns_a_dict():
    schema = {"title": "Pick", "type": "object", "properties": {"n": {"type": "integer"}}}
    result = ScriptedChatModel(['{"n": 3}']).with_structured_output(schema).invoke("x")
    assert result == {"n": 3}


def test_structured_output_rejects_text_that_is_not_json():
    model = ScriptedChatModel(["this is not json"])
    with pytest.raises(OutputParserException):
        model.with_structured_output(Verdict).invoke("check")


def test_include_raw_returns_the_parsing_error_instead_of_raising():
    model = ScriptedChatModel(['{"status": "MAYBE", "reason": ""}'])
    result = model.with_structured_output(Verdict, include_raw=True).invoke("check")
    assert result["parsed"] is None
    assert isinstance(result["parsing_error"], Exception)
    assert result["raw"].content == '{"status": "MAYBE", "reason": ""}'


def test_echo_mode_answers_structured_output_with_a_valid_example():
    verdict = ScriptedChatModel().with_structured_output(Verdict).invoke("check")
    assert verdict == Verdict(status="PASS", reason="")


def test_structured_output_needs_a_schema():
    with pytest.raises(TypeError, match="Pydantic model class or a JSON-schema dict"):
        ScriptedChatModel(["{}"]).with_structured_output(str)


async def test_async_calls_reply_on_the_event_loop_not_a_worker_thread():
    import threading

    threads = []

    def reply(messages) -> str:
        threads.append(threading.get_ident())
        return "ok"

    assert (await ScriptedChatModel(reply).ainvoke("hi")).content == "ok"
    assert threads == [threading.get_ident()]
