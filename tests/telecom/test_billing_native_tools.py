"""A hosted model with native tool calling: the same tools, rules and idempotency; and what the
client sees while billing decides (never the decision's JSON).

`ToolCallingModel` stands in for a hosted chat model: it implements `bind_tools` and answers
with scripted `AIMessage`s carrying `tool_calls`, streamed as a hosted API streams them (text
pieces, then the call)."""

from __future__ import annotations

import json
from typing import Any

from langchain_core.language_models import BaseChatModel
from langchain_core.messages import AIMessage, AIMessageChunk, HumanMessage
from langchain_core.outputs import ChatGeneration, ChatGenerationChunk, ChatResult
from langchain_core.tools import StructuredTool
from pydantic import PrivateAttr
from tests.server.conftest import make_factory, parse_sse_text, running

from frontdesk.agentkit.tool_calling import supports_native_tools
from frontdesk.assistants.telecom.tools import TOOL_SCHEMAS
from frontdesk.config import Settings
from frontdesk.llm.embedded import EmbeddedChatModel
from frontdesk.llm.scripted import ScriptedChatModel, split_words
from frontdesk.server.app import create_app

KEY = "crm-key-0123456789abcdef"
THREAD = "3f2b8c1e-1111-4222-8333-944455556666"
REFUND = {"reason": "overcharge", "amount_pln": 100, "invoice_id": "INV-20251001"}


def call(name: str, args: dict[str, Any], text: str = "") -> AIMessage:
    return AIMessage(content=text, tool_calls=[{"name": name, "args": args, "id": "call_1"}])


class ToolCallingModel(BaseChatModel):
    """Replies in order; records the tools bound and the messages of every call."""

    replies: list[AIMessage]
    _bound: list[list[Any]] = PrivateAttr(default_factory=list)
    _calls: list[list[Any]] = PrivateAttr(default_factory=list)

    @property
    def _llm_type(self) -> str:
        return "tool-calling-fake"

    def bind_tools(self, tools, **kwargs):
        self._bound.append(list(tools))
        return self.bind(tools=[t.name for t in tools])

    def _next(self, messages) -> AIMessage:
        self._calls.append(list(messages))
        return self.replies[len(self._calls) - 1]

    def _generate(self, messages, stop=None, run_manager=None, **kwargs) -> ChatResult:
        return ChatResult(generations=[ChatGeneration(message=self._next(messages))])

    async def _astream(self, messages, stop=None, run_manager=None, **kwargs):
        reply = self._next(messages)
        for piece in split_words(str(reply.content)):
            chunk = ChatGenerationChunk(message=AIMessageChunk(content=piece))
            if run_manager is not None:
                await run_manager.on_llm_new_token(piece, chunk=chunk)
            yield chunk
        chunks = [
            {"name": c["name"], "args": json.dumps(c["args"]), "id": c["id"], "index": i}
            for i, c in enumerate(reply.tool_calls)
        ]
        yield ChatGenerationChunk(message=AIMessageChunk(content="", tool_call_chunks=chunks))


def test_only_a_model_that_implements_bind_tools_calls_natively():
    assert supports_native_tools(ToolCallingModel(replies=[]))
    assert not supports_native_tools(ScriptedChatModel())
    assert not supports_native_tools(EmbeddedChatModel.model_construct())


async def test_a_native_call_runs_the_same_tool_for_the_signed_in_caller(telecom, store):
    # The model names another customer: the case is still the caller's.
    llm = ToolCallingModel(replies=[call("open_refund_case", {**REFUND, "user_id": "u456"})])
    service, _ = telecom(llm=llm)
    answer = await service.ask("Refund 100 PLN on INV-20251001, overcharge", "n1",
                               user_id="u123")
    (used,) = answer.extra["used_tools"]
    assert used["ok"] and used["args"]["user_id"] == "u123"
    assert [c.user_id for c in store.list_cases("u123")] == ["u123"]
    assert store.list_cases("u456") == []
    assert "R10001" in answer.answer and "100.00 PLN" in answer.answer
    (tools,) = llm._bound
    assert all(isinstance(t, StructuredTool) for t in tools)
    assert [t.name for t in tools] == list(TOOL_SCHEMAS)
    # The schemas default the customer to the caller, so the model need not ask for it.
    subscription = next(t for t in tools if t.name == "get_subscription")
    assert subscription.args_schema.model_fields["user_id"].default == "u123"


async def test_a_value_the_customer_never_wrote_is_asked_for(telecom, store):
    invented = {**REFUND, "invoice_id": "INV-20250901"}
    llm = ToolCallingModel(replies=[call("open_refund_case", invented)])
    service, _ = telecom(llm=llm)
    answer = await service.ask("I was overcharged 100 PLN, refund it", "n2", user_id="u123")
    assert answer.extra["used_tools"] == [] and store.list_cases("u123") == []
    assert "invoice number" in answer.answer
    assert answer.extra["state_excerpt"]["pending_tool"] == "open_refund_case"


async def test_the_models_own_answer_is_the_reply_when_it_calls_no_tool(telecom):
    llm = ToolCallingModel(replies=[AIMessage(content="I can help with plans and refunds.")])
    service, _ = telecom(llm=llm)
    answer = await service.ask("I was overcharged", "n3", user_id="u123")
    assert answer.answer == "I can help with plans and refunds."
    assert answer.extra["used_tools"] == []


async def test_a_refused_call_goes_back_once_and_the_history_keeps_one_reply(telecom, store):
    llm = ToolCallingModel(replies=[
        call("open_refund_case", {**REFUND, "amount_pln": 200}, "Opening it now."),
        call("open_refund_case", REFUND, "Fixed the amount."),
    ])
    service, _ = telecom(llm=llm)
    answer = await service.ask(
        "Refund on INV-20251001: I paid 200 PLN, the plan is 100 PLN, overcharge", "n4",
        user_id="u123",
    )
    assert [u["ok"] for u in answer.extra["used_tools"]] == [False, True]
    assert "exceeds" in str(llm._calls[1][-1].content)  # the tool's error went back
    assert len(store.list_cases("u123")) == 1
    messages = (await service.graph.aget_state(service.config("n4"))).values["messages"]
    assert [type(m) for m in messages] == [HumanMessage, AIMessage]
    assert messages[-1].content == answer.answer and not messages[-1].tool_calls
    assert "Opening it now" not in answer.answer


async def test_a_continued_native_request_merges_and_opens_one_case(telecom, store):
    llm = ToolCallingModel(replies=[
        call("open_refund_case", {"invoice_id": "INV-20251001", "reason": "overcharge"}),
        call("open_refund_case", {"amount_pln": 100}),  # the model forgot the rest
    ])
    service, _ = telecom(llm=llm)
    first = await service.ask("Refund INV-20251001, overcharge", "n5", user_id="u123")
    assert "amount" in first.answer
    answer = await service.ask("ok, 100 PLN", "n5", user_id="u123")
    (used,) = answer.extra["used_tools"]
    assert used["ok"] and used["args"]["invoice_id"] == "INV-20251001"
    assert len(store.list_cases("u123")) == 1


# ---------------------------------------------------------------- what the client is shown


async def chat_events(service, messages: list[str]) -> list[list[tuple[str, dict]]]:
    settings = Settings(
        data_dir=service.context.billing.url.database.rsplit("/", 1)[0],
        assistant="telecom", rate_limit_chat_per_minute=1000, sse_timeout_s=5.0,
        allowed_origins=[], api_keys={"crm": {"key": KEY}},
    )
    app = create_app(settings, service_factory=make_factory(service))
    turns = []
    async with running(app) as client:
        for message in messages:
            response = await client.post(
                "/chat",
                json={"message": message, "assistant": "telecom", "user_id": "u123",
                      "thread_id": THREAD},
                headers={"Authorization": f"Bearer {KEY}"},
            )
            assert response.status_code == 200
            turns.append(parse_sse_text(response.text))
    return turns


def tokens(events) -> list[str]:
    return [data["content"] for name, data in events if name == "token"]


def shown(events) -> str:
    """What the client ends up showing: tokens append, a replace starts over."""
    text = ""
    for name, data in events:
        if name == "token":
            text += data["content"]
        elif name == "replace":
            text = data["content"]
    return text


async def test_the_decision_json_never_streams_with_the_scripted_model(telecom, store):
    decision = json.dumps({"reason": "overcharge", "amount_pln": None, "description": None})
    service, llm = telecom([decision, "Happy to help with your bill."])
    refund, chat = await chat_events(
        service, ["Refund 100 PLN on INV-20251001, overcharge", "I was overcharged"]
    )
    assert len(llm.calls) == 2  # the decision, then the billing chat reply
    # The decision's JSON never reaches a token; the reply from the tool's output does.
    assert not any("reason" in token or "{" in token for token in tokens(refund))
    assert shown(refund).startswith("Your refund case R10001 has been opened")
    # The user-facing reply of the same node still streams.
    assert shown(chat) == "Happy to help with your bill."
    assert not any("{" in token for token in tokens(chat))


async def test_the_native_calls_text_and_arguments_never_stream(telecom, store):
    llm = ToolCallingModel(replies=[call("open_refund_case", REFUND, "Calling the tool with "
                                         + json.dumps(REFUND))])
    service, _ = telecom(llm=llm)
    (refund,) = await chat_events(service, ["Refund 100 PLN on INV-20251001, overcharge"])
    assert not any("Calling the tool" in t or "{" in t for t in tokens(refund))
    assert [name for name, _ in refund][-2:] == ["sources", "done"]
    assert shown(refund).startswith("Your refund case R10001 has been opened")


async def test_nobody_signed_in_gets_only_the_tools_that_read_no_account(telecom):
    llm = ToolCallingModel(replies=[call("get_refund_policy", {})])
    service, _ = telecom(llm=llm)
    answer = await service.ask("I was overcharged, what is the policy?", "n6")
    assert [u["name"] for u in answer.extra["used_tools"]] == ["get_refund_policy"]
    assert [t.name for t in llm._bound[0]] == ["get_refund_policy"]
