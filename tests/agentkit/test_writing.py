"""An answer the model was still writing when time ran out keeps its whole sentences."""

from __future__ import annotations

import time
from collections.abc import AsyncIterator
from typing import Any

import pytest
from langchain_core.messages import AIMessageChunk, BaseMessage, HumanMessage
from langchain_core.outputs import ChatGenerationChunk

from frontdesk.agentkit.writing import whole_sentences, write_within_time
from frontdesk.llm.scripted import ScriptedChatModel
from frontdesk.llm.turn_clock import turn_clock_scope

ASK = [HumanMessage(content="How does the retry work?")]
LONG = (
    "The retry is set up in adapters.py by the Retry class. "
    "Each failed request waits longer than the one before. " * 6
).strip()


def test_a_half_sentence_is_cut_after_the_last_whole_one():
    text = "It retries three times. The wait doubles after each fail"
    assert whole_sentences(text) == "It retries three times."


def test_a_finished_list_line_is_kept_and_an_open_code_block_dropped():
    text = "It is called from:\n- `send` in adapters.py\n- `get` in api.py\n```python\ndef se"
    assert whole_sentences(text) == "It is called from:\n- `send` in adapters.py\n- `get` in api.py"


def test_a_line_that_introduces_nothing_is_dropped():
    assert whole_sentences("The session is built in sessions.py.\nIt is used in:\n- ") == (
        "The session is built in sessions.py."
    )
    assert whole_sentences("It is used in:") == ""


def test_dotted_names_and_numbers_are_not_sentence_ends():
    assert whole_sentences("Call requests.get with timeout 3.5 and the") == ""


async def test_an_answer_still_streaming_at_the_turns_end_keeps_what_was_written():
    model = ScriptedChatModel([LONG], token_delay_s=0.02)
    started = time.monotonic()
    with turn_clock_scope(1.0):
        written = await write_within_time(model, ASK, margin_s=0.4)
    elapsed = time.monotonic() - started
    assert written.cut
    assert 0.4 < elapsed < 0.9, elapsed  # stopped before the turn's second was up
    assert written.text.startswith("The retry is set up in adapters.py by the Retry class.")
    assert written.text.endswith(".")
    assert len(written.text) < len(LONG)


async def test_an_answer_finished_in_time_is_whole():
    model = ScriptedChatModel(["It retries three times"])
    with turn_clock_scope(5.0):
        written = await write_within_time(model, ASK)
    assert written == written.__class__("It retries three times", cut=False)


class _StopsAt(ScriptedChatModel):
    """Streams its reply, then fails as the embedded model does at its own time limit, or
    ends it as a token limit does."""

    after_words: int = 8
    ending: str = "timeout"

    async def _astream(
        self, messages: list[BaseMessage], stop: list[str] | None = None, **kwargs: Any
    ) -> AsyncIterator[ChatGenerationChunk]:
        words = LONG.split(" ")[: self.after_words]
        for word in words:
            yield ChatGenerationChunk(message=AIMessageChunk(content=word + " "))
        if self.ending == "timeout":
            raise TimeoutError("the embedded model did not answer within 60 s of starting")
        finish = {"finish_reason": "length"}
        yield ChatGenerationChunk(message=AIMessageChunk(content="", response_metadata=finish))


async def test_the_models_own_time_limit_keeps_the_whole_sentences():
    written = await write_within_time(_StopsAt(after_words=14), ASK)
    assert written.cut
    assert written.text == "The retry is set up in adapters.py by the Retry class."


async def test_nothing_whole_written_in_time_is_a_timeout():
    with pytest.raises(TimeoutError):
        await write_within_time(_StopsAt(after_words=4), ASK)


async def test_a_reply_cut_by_its_token_limit_ends_on_a_whole_sentence():
    written = await write_within_time(_StopsAt(after_words=14, ending="length"), ASK)
    assert written == written.__class__(
        "The retry is set up in adapters.py by the Retry class.", cut=True
    )
