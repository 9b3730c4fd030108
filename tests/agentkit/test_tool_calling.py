"""The structured tool decision: schema, context arguments, missing fields."""

from __future__ import annotations

import json
from enum import Enum

from langchain_core.callbacks import AsyncCallbackHandler
from langchain_core.messages import AIMessage, HumanMessage
from langchain_core.runnables.config import var_child_runnable_config
from langchain_core.tools import StructuredTool
from pydantic import BaseModel, Field

from frontdesk.agentkit.language import detect_language
from frontdesk.agentkit.streaming import NOT_STREAMED
from frontdesk.agentkit.tool_calling import (
    ToolSpec,
    args_model,
    choose_tool,
    decide_tool,
    decide_tool_natively,
    describe_tools,
)
from frontdesk.llm.scripted import ScriptedChatModel


class Reason(str, Enum):
    A = "overcharge"
    B = "other"


class RefundIn(BaseModel):
    user_id: str = Field(min_length=2)
    reason: Reason
    amount_pln: float = Field(gt=0, le=1000)
    note: str | None = None


class LookupIn(BaseModel):
    user_id: str


SPECS = (
    ToolSpec(
        "refund",
        "open a refund",
        RefundIn,
        context_args=("user_id",),
        extractors={"amount_pln": lambda texts: 25.0 if any("25" in t for t in texts) else None},
        grounded=("amount_pln", "user_id"),
    ),
    ToolSpec("lookup", "look up", LookupIn, context_args=("user_id",), grounded=("user_id",)),
)


def chooser_of(table):
    return lambda text: table.get(text, ("none", 0.3))


def test_args_schema_is_nullable_and_only_what_is_left():
    schema = args_model(SPECS[0], ["reason", "note"]).model_json_schema()
    assert set(schema["properties"]) == {"reason", "note"}
    reason = json.dumps(schema["properties"]["reason"])
    assert "overcharge" in reason and "null" in reason


async def test_context_extractors_and_model_fill_in_that_order():
    llm = ScriptedChatModel(script=['{"reason": "overcharge", "note": null}'])
    chooser = chooser_of({"refund 25 please": ("refund", 0.9)})
    decision = await decide_tool(
        llm, SPECS, chooser, "sys", [HumanMessage("refund 25 please")], {"user_id": "u1"}
    )
    assert decision.tool == "refund" and decision.ready
    assert decision.args == {"user_id": "u1", "amount_pln": 25.0, "reason": "overcharge"}
    # The model was asked only for what was left.
    assert '"reason"' in str(llm.calls) or llm.calls


async def test_values_the_customer_never_wrote_are_dropped_and_become_missing():
    llm = ScriptedChatModel(script=['{"reason": null, "amount_pln": 999, "note": null}'])
    chooser = chooser_of({"I want a refund": ("refund", 0.9)})
    decision = await decide_tool(
        llm, SPECS, chooser, "sys", [HumanMessage("I want a refund")], {"user_id": "u1"}
    )
    assert decision.missing == ("reason", "amount_pln") and not decision.ready


async def test_an_unclear_last_message_is_read_with_the_one_before():
    llm = ScriptedChatModel(script=['{"user_id": "u77"}'])
    chooser = chooser_of({"it is u77": ("none", 0.4), "what plan? it is u77": ("lookup", 0.8)})
    messages = [HumanMessage("what plan?"), AIMessage("your id?"), HumanMessage("it is u77")]
    decision = await decide_tool(llm, SPECS, chooser, "sys", messages, {})
    assert decision.tool == "lookup" and decision.args == {"user_id": "u77"}
    assert choose_tool(chooser, []) == ("none", 0.0)


async def test_no_tool_means_no_model_call():
    llm = ScriptedChatModel(script=[])
    decision = await decide_tool(llm, SPECS, chooser_of({}), "sys", [HumanMessage("hi")], {})
    assert decision.tool is None and llm.calls == []


def test_describe_tools_lists_each_tool():
    text = describe_tools(SPECS)
    assert "- refund: open a refund" in text and "- lookup: look up" in text


def test_language_detection():
    assert detect_language("moja sieć słaba") == "pl"
    assert detect_language("chce zwrot za fakture, nie dziala internet") == "pl"
    assert detect_language("my internet is down") == "en"
    # Without Polish letters: "na" and a Polish spelling ("cz") make two Polish words.
    assert detect_language("Dioda PON miga na czerwono") == "pl"
    assert detect_language("What is the Czech word for router?") == "en"  # one is not enough


# ---------------------------------------------------------------- a request over several turns


async def test_known_arguments_fill_what_this_turn_did_not_give_and_skip_the_extras():
    llm = ScriptedChatModel(script=[])  # nothing required is left: no model call at all
    chooser = chooser_of({"ok, 25": ("refund", 0.9)})
    known = {"refund": {"reason": "overcharge", "amount_pln": 99.0, "user_id": "u-other"},
             "lookup": {"user_id": "u9"}}
    decision = await decide_tool(
        llm, SPECS, chooser, "sys", [HumanMessage("ok, 25")], {"user_id": "u1"}, known=known
    )
    # This turn's extracted 25 wins over the earlier 99; the context's user_id over a known one.
    assert decision.args == {"user_id": "u1", "amount_pln": 25.0, "reason": "overcharge"}
    assert decision.ready and llm.calls == []


def test_extract_only_arguments_are_never_asked_of_the_model():
    spec = ToolSpec("find", "find", RefundIn, extractors={"note": lambda texts: None},
                    extract_only=("note",))
    assert "note" not in spec.model_args() and "reason" in spec.model_args()


class TagsSeen(AsyncCallbackHandler):
    def __init__(self) -> None:
        self.tags: list[list[str] | None] = []

    async def on_chat_model_start(self, serialized, messages, *, tags=None, **kwargs):
        self.tags.append(tags)


async def test_decision_calls_are_tagged_not_to_stream():
    llm = ScriptedChatModel(script=['{"reason": "overcharge", "note": null}'])
    chooser = chooser_of({"refund 25 please": ("refund", 0.9)})
    seen = TagsSeen()
    # As inside a graph node: the parent's callbacks reach the decision's model call.
    token = var_child_runnable_config.set({"callbacks": [seen]})
    try:
        await decide_tool(llm, SPECS, chooser, "sys", [HumanMessage("refund 25 please")],
                          {"user_id": "u1"})
    finally:
        var_child_runnable_config.reset(token)
    assert seen.tags and all(NOT_STREAMED in (tags or []) for tags in seen.tags)


# ---------------------------------------------------------------- native tool calling


class NativeModel:
    """What decide_tool_natively uses of a natively calling model: bind_tools, ainvoke."""

    def __init__(self, reply: AIMessage) -> None:
        self.reply, self.bound, self.configs = reply, [], []

    def bind_tools(self, tools, **kwargs):
        self.bound = [t.name for t in tools]
        return self

    async def ainvoke(self, messages, config=None, **kwargs):
        self.configs.append(config)
        return self.reply


def native(reply: AIMessage) -> NativeModel:
    return NativeModel(reply)


def _call(name, args):
    return AIMessage(content="", tool_calls=[{"name": name, "args": args, "id": "c1"}])


async def test_a_native_call_follows_the_same_rules():
    tools = [StructuredTool.from_function(lambda **kw: "", name=s.name, description=s.description,
                                          args_schema=s.args_model) for s in SPECS]
    text = [HumanMessage("refund 25 please, overcharge")]
    llm = native(_call("refund", {"user_id": "u666", "reason": "overcharge", "amount_pln": 25}))
    decision = await decide_tool_natively(llm, tools, SPECS, "sys", text, {"user_id": "u1"})
    assert decision.ready and decision.args == {
        "user_id": "u1", "reason": "overcharge", "amount_pln": 25}
    assert llm.bound == ["refund", "lookup"] and NOT_STREAMED in llm.configs[0]["tags"]
    # A grounded value the customer never wrote is dropped and becomes a question.
    llm = native(_call("refund", {"reason": "overcharge", "amount_pln": 300}))
    decision = await decide_tool_natively(llm, tools, SPECS, "sys", text, {"user_id": "u1"})
    assert decision.missing == ("amount_pln",)
    # Known arguments of the same tool fill what the model left out.
    llm = native(_call("refund", {"amount_pln": 25}))
    decision = await decide_tool_natively(llm, tools, SPECS, "sys", text, {"user_id": "u1"},
                                          known={"refund": {"reason": "other"}})
    assert decision.ready and decision.args["reason"] == "other"
    # No call: the model's text is the reply. Nobody signed in: user_id is missing.
    llm = native(AIMessage(content=" Hello! "))
    assert (await decide_tool_natively(llm, tools, SPECS, "s", text, {})).reply == "Hello!"
    llm = native(_call("lookup", {"user_id": "u1"}))
    decision = await decide_tool_natively(llm, tools, SPECS, "sys", text, {})
    assert decision.missing == ("user_id",)
