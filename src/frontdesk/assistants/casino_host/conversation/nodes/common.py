"""Small helpers the nodes share: the guest's message, a reply update, the casino's values."""

from __future__ import annotations

from typing import Any

from langchain_core.messages import AIMessage, BaseMessage, HumanMessage

from frontdesk.agentkit.streaming import message_text
from frontdesk.assistants.casino_host.conversation.context import CasinoHostContext


def guest_message(messages: list[BaseMessage]) -> HumanMessage | None:
    for message in reversed(messages):
        if isinstance(message, HumanMessage):
            return message
    return None


def guest_text(state: dict[str, Any]) -> str:
    message = guest_message(state.get("messages") or [])
    return message_text(message) if message is not None else ""


def guest_texts(messages: list[BaseMessage]) -> list[str]:
    return [message_text(m) for m in messages if isinstance(m, HumanMessage)]


def draft_of(state: dict[str, Any]) -> str:
    """The reply being worked on: the last message, when it is the host's."""
    messages = state.get("messages") or []
    if messages and isinstance(messages[-1], AIMessage):
        return message_text(messages[-1])
    return ""


def reply(state: dict[str, Any], text: str, speaker: str, **updates: Any) -> dict[str, Any]:
    """The host's reply; a draft of this turn (a retry's first attempt) is replaced in place,
    so the conversation keeps one reply per guest message."""
    messages = state.get("messages") or []
    if messages and isinstance(messages[-1], AIMessage) and messages[-1].id:
        message = AIMessage(content=text, id=messages[-1].id)
    else:
        message = AIMessage(content=text)
    return {"messages": [message], "speaker": speaker, **updates}


def casino_values(ctx: CasinoHostContext) -> dict[str, str]:
    casino = ctx.catalog.casino
    return {"casino": casino.name, "phone": casino.phone}


def guest_name(ctx: CasinoHostContext) -> str | None:
    view = ctx.view
    name = view.values.get("core_identity.name")
    return str(name) if name else None
