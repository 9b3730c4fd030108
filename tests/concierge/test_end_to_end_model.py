"""The concierge end to end with the real embedded models: MiniLM embeddings and the GGUF chat
model on llama.cpp. Slow (seconds per turn on two cores), so marked `model`."""

import uuid

import pytest

from frontdesk.agentkit.grounding import check_grounding
from frontdesk.assistants.concierge.service import build_service
from frontdesk.config import Settings, get_settings
from frontdesk.runtime import Models

pytestmark = pytest.mark.model


@pytest.fixture(scope="module")
def settings(tmp_path_factory):
    return Settings(
        data_dir=tmp_path_factory.mktemp("e2e"),
        models_dir=get_settings().models_dir,  # the installed models; all else in a temp dir
        checkpointer="sqlite",
        router_llm="never",
        _env_file=None,
    )


async def test_two_questions_through_the_graph_with_the_embedded_model(settings):
    service = await build_service(settings, Models(settings))
    thread = str(uuid.uuid4())
    try:
        events = [e async for e in service.stream("What time does Seasons Buffet open?", thread)]
        names = [e.event for e in events]
        assert names[0] == "metadata" and names[-1] == "done" and "error" not in names
        state = (await service.graph.aget_state(service.config(thread))).values
        assert state["query_type"] in ("hours_schedule", "property_qa")
        assert any(d["metadata"]["item_name"] == "Seasons Buffet" for d in state["retrieved_context"])
        first = state["messages"][-1].content
        assert first.strip()
        if state["validation_result"] == "PASS":
            # What passed validation is grounded in what was retrieved.
            assert names.count("token") > 1
            assert check_grounding(first, [d["content"] for d in state["retrieved_context"]],
                                   clock=state["current_time"]).grounded
        else:
            assert "1-888-226-7711" in first  # the fallback gives the resort's number

        answer = await service.ask("And how much does it cost?", thread)
        assert answer.thread_id == thread
        history = (await service.graph.aget_state(service.config(thread))).values["messages"]
        assert [m.type for m in history] == ["human", "ai", "human", "ai"]
        assert answer.answer.strip()
        assert answer.validation in ("PASS", "FAIL")
    finally:
        await service.aclose()

    # A restarted service (same sqlite file) still knows the conversation.
    restarted = await build_service(settings, Models(settings))
    try:
        state = (await restarted.graph.aget_state(restarted.config(thread))).values
        assert len(state["messages"]) == 4
    finally:
        await restarted.aclose()
