"""The structured tool decision: schema, context arguments, missing fields."""

from __future__ import annotations

import json
from enum import Enum

from langchain_core.messages import AIMessage, HumanMessage
from pydantic import BaseModel, Field

from frontdesk.agentkit.language import detect_language
from frontdesk.agentkit.tool_calling import (
    ToolSpec,
    args_model,
    choose_tool,
    decide_tool,
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
