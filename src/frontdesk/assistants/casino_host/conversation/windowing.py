"""Item 42: a long conversation's state keeps the newest 20 messages and one rolling summary of
the older ones ("## Previous Conversation Summary"); the full history stays in the storage's
messages table. The summary is extractive (who said what, shortened), made in code: the 0.5B
model would spend a turn's time on it and could invent what was said.
"""

from __future__ import annotations

from langchain_core.messages import (
    AIMessage,
    BaseMessage,
    HumanMessage,
    RemoveMessage,
    SystemMessage,
)

from frontdesk.agentkit.streaming import message_text

WINDOW_LIMIT = 40  # messages in state before the oldest are folded into the summary
KEEP = 20  # the newest messages kept as they are
SUMMARY_HEADING = "## Previous Conversation Summary"
LINE_CHARS = 100
SUMMARY_LINES = 30  # the rolling summary keeps its newest lines


def _line(message: BaseMessage) -> str | None:
    who = "Guest" if isinstance(message, HumanMessage) else "Host"
    if not isinstance(message, HumanMessage | AIMessage):
        return None
    text = " ".join(message_text(message).split())
    return f"- {who}: {text if len(text) <= LINE_CHARS else text[: LINE_CHARS - 1] + '…'}"


def is_summary(message: BaseMessage) -> bool:
    return isinstance(message, SystemMessage) and message_text(message).startswith(SUMMARY_HEADING)


def window_updates(messages: list[BaseMessage]) -> list[BaseMessage]:
    """The `messages` updates that fold all but the newest KEEP messages into the summary, or
    [] while the conversation is within WINDOW_LIMIT. The summary stays the first message: it
    takes the place (the id) of the oldest message it replaces."""
    summary = messages[0] if messages and is_summary(messages[0]) else None
    talk = messages[1:] if summary is not None else list(messages)
    if len(talk) <= WINDOW_LIMIT:
        return []
    folded = talk[: len(talk) - KEEP]
    previous = message_text(summary).splitlines()[1:] if summary is not None else []
    lines = [*previous, *(line for line in map(_line, folded) if line)][-SUMMARY_LINES:]
    content = "\n".join([SUMMARY_HEADING, *lines])
    if summary is not None:
        head, removed = summary, folded
    else:
        head, removed = folded[0], folded[1:]
    return [
        SystemMessage(content=content, id=head.id),
        *(RemoveMessage(id=m.id) for m in removed if m.id),
    ]
