"""The real embedded chat model (Qwen2.5-Coder-0.5B GGUF on llama.cpp). Slow: `-m model`.

Skipped when the model is not installed (`frontdesk models install`).
"""

from __future__ import annotations

from typing import Literal

import pytest
from langchain_core.messages import HumanMessage, SystemMessage
from langgraph.graph import START, MessagesState, StateGraph
from pydantic import BaseModel

from frontdesk.config import Settings
from frontdesk.llm import build_chat_model
from frontdesk.llm.weights import MODELS
from frontdesk.model_files import is_verified

SETTINGS = Settings(llm_provider="embedded", llm_max_tokens=48, llm_temperature=0.0)
_model_file = MODELS.get(SETTINGS.llm_model)
pytestmark = [
    pytest.mark.model,
    pytest.mark.skipif(
        _model_file is None
        or not is_verified(_model_file.path(SETTINGS.models_dir), _model_file.sha256),
        reason="embedded chat model not installed: frontdesk models install",
    ),
]

HANDBOOK = "\n".join(
    f"- Fact {i}: the {name} is open from {i % 12 + 6}:00 to {i % 12 + 14}:00."
    for i, name in enumerate(["spa", "gym", "pool", "bar", "library", "kids club"] * 4)
)


@pytest.fixture(scope="module")
def model():
    return build_chat_model(SETTINGS)


async def test_a_short_answer_streams_token_by_token(model):
    async def answer(state: MessagesState) -> dict:
        return {"messages": [await model.ainvoke(state["messages"])]}

    graph = StateGraph(MessagesState).add_node("answer", answer).add_edge(START, "answer").compile()
    question = [SystemMessage("Answer briefly."), HumanMessage("Count from one to five in words.")]
    tokens = [
        event["data"]["chunk"].content
        async for event in graph.astream_events({"messages": question}, version="v2")
        if event["event"] == "on_chat_model_stream"
    ]
    text = "".join(tokens)
    assert len([t for t in tokens if t]) > 3
    assert "three" in text.lower()


class Route(BaseModel):
    category: Literal["dining", "spa", "parking", "other"]
    confidence: float


async def test_structured_output_is_schema_valid(model):
    route = await model.with_structured_output(Route).ainvoke(
        "Classify the guest message into a category.\nMessage: Where can I leave my car overnight?"
    )
    assert isinstance(route, Route)
    assert route.category in {"dining", "spa", "parking", "other"}


async def test_the_static_system_prompt_is_served_from_the_cache_on_the_next_turn(model):
    pinned = model.with_cache_slot("generator")
    system = SystemMessage(f"You are a hotel concierge. Facts:\n{HANDBOOK}")
    first = await pinned.ainvoke([system, HumanMessage("When does the spa open?")], max_tokens=4)
    second = await pinned.ainvoke([system, HumanMessage("And the gym?")], max_tokens=4)
    prompt_tokens = first.usage_metadata["input_tokens"]
    assert prompt_tokens > 300
    # The second turn only evaluates its new question; the shared prefix comes from the cache.
    assert second.response_metadata["timings"]["cache_n"] > prompt_tokens * 0.8
