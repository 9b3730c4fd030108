"""Handing a conversation to a person, for any assistant's graph (the tickets live in
`frontdesk.memory.tickets`, the staff's routes in `frontdesk.server.routes.tickets`).

An assistant's graph opens a ticket when the customer asks for a person
(`frontdesk.routing.handoff.asks_for_person`) and, while the thread's ticket is active, holds
each new message on it instead of answering. A person's reply is put into the conversation by
the service (`GraphAssistant`) before the thread is next read or answered, as an assistant
message named `PERSON`, with an id of its own so putting it there twice changes nothing.
A turn the handoff agent answered says so with `ticket_id` in its `sources` event: the web UI
then fetches the conversation after turns and on load, to show a person's replies (no push).
"""

from __future__ import annotations

from typing import Any

from langchain_core.messages import AIMessage, BaseMessage, HumanMessage
from langchain_core.runnables import RunnableConfig

from frontdesk.agentkit.streaming import message_text
from frontdesk.memory.tickets import TicketMessage

# The `name` of an assistant message a person wrote (the transcript marks it "from": "person").
PERSON = "person"


def conversation_of(config: RunnableConfig | None) -> tuple[str, str]:
    """(assistant, thread key) of the turn running under `config` (see GraphAssistant.config)."""
    configurable = (config or {}).get("configurable") or {}
    assistant, thread_key = configurable.get("assistant"), configurable.get("thread_key")
    if not assistant or not thread_key:
        raise ValueError("the run's config does not name its assistant and thread")
    return str(assistant), str(thread_key)


def transcript_of(messages: list[BaseMessage]) -> list[dict[str, Any]]:
    """The conversation as a person saw it: user and assistant messages, oldest first; a
    person's reply is marked `"from": "person"` with its author."""
    shown: list[dict[str, Any]] = []
    for message in messages:
        if not isinstance(message, (HumanMessage, AIMessage)):
            continue
        text = message_text(message)
        if not text:
            continue
        entry: dict[str, Any] = {
            "role": "user" if isinstance(message, HumanMessage) else "assistant",
            "content": text,
        }
        if isinstance(message, AIMessage) and message.name == PERSON:
            entry["from"] = PERSON
            entry["author"] = message.additional_kwargs.get("author")
        shown.append(entry)
    return shown


def person_message(reply: TicketMessage) -> AIMessage:
    """A person's reply as a message of the conversation; its id is the reply's own, so the
    conversation holds it once however often it is delivered."""
    return AIMessage(
        id=f"ticket-{reply.ticket_id}-reply-{reply.id}",
        content=reply.text,
        name=PERSON,
        additional_kwargs={"author": reply.author, "ticket_id": reply.ticket_id},
    )
