"""One model answer written within the turn's time: what the model wrote when time ran out is
kept, up to its last whole sentence, instead of being thrown away.

On a busy machine the embedded model may still be writing when the turn's running time (or
the call's own limit) ends. Before, such a turn answered out of time without the model, so a
user who had watched half an explanation stream got a list of places instead. Now the call
stops a few seconds before the turn's limit, leaving those seconds for the answer's own
checks, and the answer is what was written, cut after its last complete sentence or line. A
reply cut by its token limit is trimmed the same way.
"""

from __future__ import annotations

import logging
import re
from collections.abc import Sequence
from contextlib import AbstractAsyncContextManager, nullcontext
from dataclasses import dataclass
from typing import Any

from langchain_core.messages import BaseMessage
from langchain_core.runnables import Runnable

from frontdesk.agentkit.streaming import message_text
from frontdesk.llm.turn_clock import current_turn_clock

__all__ = ["STOP_BEFORE_TURN_ENDS_S", "Written", "whole_sentences", "write_within_time"]

logger = logging.getLogger(__name__)

# Seconds of the turn's running time left to the answer's checks once the model stops.
STOP_BEFORE_TURN_ENDS_S = 4.0

_FENCE = "```"
# A sentence's end: its mark, any closing quote or bracket, then a space or the end.
_SENTENCE_END = re.compile(r"[.!?][\"')\]`*]*(?=\s|$)")


@dataclass(frozen=True)
class Written:
    text: str
    # The model was stopped before it finished (time, or its token limit); `text` is whole
    # sentences only.
    cut: bool = False


def whole_sentences(text: str) -> str:
    """`text` up to its last complete sentence or line: no half sentence, no open code block,
    no line that introduces something that never came ("It is used in:")."""
    if text.count(_FENCE) % 2:
        text = text[: text.rfind(_FENCE)]
    ends = [m.end() for m in _SENTENCE_END.finditer(text)]
    # A line the model moved on from is complete, with or without a full stop (a list item).
    newline = text.rfind("\n")
    cut = max(0, newline, *ends)
    kept = text[:cut].rstrip()
    while kept.endswith(":"):
        kept = kept[: max(kept.rfind("\n"), 0)].rstrip()
    return kept


async def write_within_time(
    llm: Runnable[Sequence[BaseMessage], BaseMessage],
    messages: Sequence[BaseMessage],
    *,
    margin_s: float = STOP_BEFORE_TURN_ENDS_S,
) -> Written:
    """The model's reply to `messages`, streamed, stopped `margin_s` before the current turn's
    running time ends (no such stop outside a timed turn). Past that stop, or past the call's
    own time limit, the whole sentences written so far; nothing written: `TimeoutError`."""
    parts: list[str] = []
    finish: str | None = None
    try:
        async with _before_turn_ends(margin_s):
            async for chunk in llm.astream(list(messages)):
                parts.append(message_text(chunk))
                finish = (chunk.response_metadata or {}).get("finish_reason") or finish
    except TimeoutError:
        kept = whole_sentences("".join(parts))
        if not kept:
            raise
        logger.info("the answer ran out of time: kept %d of %d characters written",
                    len(kept), len("".join(parts)))  # fmt: skip
        return Written(kept, cut=True)
    text = "".join(parts)
    if finish == "length":
        return Written(whole_sentences(text), cut=True)
    return Written(text)


def _before_turn_ends(margin_s: float) -> AbstractAsyncContextManager[Any]:
    clock = current_turn_clock()
    if clock is None:
        return nullcontext()
    # Never earlier than half the turn's budget: a tiny budget still gets its answer.
    return clock.limit(-min(margin_s, clock.budget_s / 2))
