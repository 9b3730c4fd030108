"""Code QA end to end with the real embedded models: a small repository indexed with MiniLM by
the service's own worker, then questions answered by the GGUF chat model, each citation held
to the lines the answer was shown. Slow (seconds per turn on two cores), so marked `model`."""

from __future__ import annotations

import asyncio
import re

import pytest

from frontdesk.assistants.codeqa.service import build_service
from frontdesk.runtime import Models

pytestmark = pytest.mark.model

CITATION = re.compile(r"[\w./-]+\.\w+:\d+(?:-\d+)?")


@pytest.fixture
async def service(tmp_path, small_repo, real_model_settings):
    settings = real_model_settings(
        tmp_path / "data",
        checkpointer="memory",
        # What is tested is the answer, not the time limit: a slow machine answers late.
        llm_timeout_s=300,
        sse_timeout_s=600,
        plugin_settings={"codeqa": {"repo_path": small_repo, "repo_id": "small"}},
    )
    service = await build_service(settings, Models(settings))
    try:
        for _ in range(1200):  # the worker indexes the repository (MiniLM: seconds)
            if service.info()["indexing"]["stage"] not in ("starting", "reading", "embedding"):
                break
            await asyncio.sleep(0.1)
        assert service.info()["indexing"]["stage"] == "done"
        yield service
    finally:
        await service.aclose()


async def turn(service, question: str, thread: str):
    events = [e async for e in service.stream(question, thread, scope="small")]
    names = [e.event for e in events]
    assert names[-1] == "done" and "error" not in names, names
    state = (await service.graph.aget_state(service.config(thread))).values
    return events, state


def assert_citations_inside_what_was_shown(state) -> list[str]:
    blocks = state["expanded_chunks"]
    labels = []
    for citation in state["citations"]:
        assert any(
            b["path"] == citation["path"]
            and b["start_line"] <= citation["start_line"] <= citation["end_line"] <= b["end_line"]
            for b in blocks
        ), f"{citation['label']} is outside the shown blocks"
        labels.append(citation["label"])
    # Every path:line the answer text shows is one of the checked citations.
    assert set(CITATION.findall(state["final_answer"])) <= set(labels)
    return labels


async def test_two_questions_answered_by_the_model_with_citations_inside_the_code_shown(service):
    events, state = await turn(service, "How does the client retry failed requests?", "e2e")
    assert state["router_output"]["fast_path"] is False
    assert any(e.event == "token" for e in events), "the answer streams"
    assert state["final_answer"].strip()
    labels = assert_citations_inside_what_was_shown(state)
    assert any(label.startswith("pkg/client.py:") for label in labels), state["final_answer"]

    events, state = await turn(service, "How are the settings read from the TOML file?", "e2e")
    assert state["final_answer"].strip()
    labels = assert_citations_inside_what_was_shown(state)
    assert any(label.startswith("pkg/config.py:") for label in labels), state["final_answer"]


async def test_code_that_does_not_exist_is_not_found_not_invented(service):
    _, state = await turn(service, "Where is `render_invoice_pdf` defined?", "missing")
    assert "not defined" in state["final_answer"] or "not found" in state["final_answer"].lower()
    assert state["citations"] == []
