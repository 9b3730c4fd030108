"""The seed's sticky routing rules, one case per branch."""

from __future__ import annotations

import pytest
from langchain_core.messages import AIMessage, HumanMessage

from frontdesk.routing.sticky import has_recent_agent_context, sticky_route

AGENTS = ("technical", "billing")


@pytest.mark.parametrize(
    ("category", "confidence", "last_agent", "recent", "expected"),
    [
        ("billing", 0.9, None, False, "billing"),  # fresh start, confident
        ("billing", 0.9, "technical", True, "billing"),  # confident switch
        ("technical", 0.9, "technical", True, "technical"),  # same agent
        ("unknown", 0.9, "billing", True, "fallback"),  # confident unknown is not an agent
        ("unknown", 0.4, "billing", True, "billing"),  # unsure follow-up stays
        ("technical", 0.6, "billing", False, "billing"),  # unsure while an agent helps: stay
        ("technical", 0.6, None, False, "technical"),  # medium confidence, no agent
        ("technical", 0.4, None, False, "fallback"),  # low confidence
        ("unknown", 0.8, None, False, "fallback"),
        ("billing", 0.55, "fallback", True, "billing"),  # fallback is not sticky
    ],
)
def test_sticky_route(category, confidence, last_agent, recent, expected):
    got = sticky_route(category, confidence, last_agent, recent, agents=AGENTS)
    assert got == expected


def test_recent_context_looks_at_the_last_four_messages_before_this_one():
    messages = [HumanMessage("a"), AIMessage("b")] + [HumanMessage(str(i)) for i in range(5)]
    assert not has_recent_agent_context(messages)
    assert has_recent_agent_context(messages[:-1])
    assert not has_recent_agent_context([HumanMessage("first")])
