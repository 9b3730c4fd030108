"""The telecom handoff agent: a person instead of the bot (issue 15).

The seed's policy (data/docs/main_policy.md) transfers with a `transfer_to_human_agents` call
and a fixed "you are being transferred" message; here the transfer is a ticket with the
transcript (frontdesk.memory.tickets), and the reply gives its number. While the ticket is
open or answered the bot stays silent on the thread: each new message is added to the ticket
and acknowledged with a fixed sentence, without the model. The bot answers again once a person
closes the ticket (a person may keep talking after a first answer).
"""

from __future__ import annotations

from typing import Any

from langchain_core.messages import AIMessage
from langchain_core.runnables import RunnableConfig
from langgraph.runtime import Runtime

from frontdesk.agentkit.handoff import conversation_of, transcript_of
from frontdesk.agentkit.language import conversation_language
from frontdesk.agentkit.prompts import render
from frontdesk.agentkit.streaming import human_texts
from frontdesk.assistants.telecom import prompts
from frontdesk.assistants.telecom.billing_agent import turn_key
from frontdesk.assistants.telecom.state import TelecomContext, TelecomState


async def handoff(
    state: TelecomState, runtime: Runtime[TelecomContext], config: RunnableConfig
) -> dict[str, Any]:
    tickets = runtime.context.tickets
    assert tickets is not None, "routed to the handoff agent without a ticket store"
    messages = state.get("messages", [])
    text = (human_texts(messages) or [""])[-1]
    language = conversation_language(human_texts(messages))
    assistant, thread_key = conversation_of(config)
    # The same turn replayed (a retry, a regenerate) adds its message once.
    held = await tickets.hold(assistant, thread_key, text, turn_key(config, messages))
    if held is not None:
        reply = render(prompts.HANDOFF_HELD[language], ticket=held.id)
        ticket_id = held.id
    else:
        ticket, _opened = await tickets.open(assistant, thread_key, transcript_of(messages))
        reply = render(prompts.HANDOFF_OPENED[language], ticket=ticket.id)
        ticket_id = ticket.id
    return {
        "messages": [AIMessage(content=reply)],
        "last_agent": "handoff",
        "used_tools": [],
        "ticket_id": ticket_id,
    }
