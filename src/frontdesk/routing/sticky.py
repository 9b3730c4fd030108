"""Conversation-aware routing between specialist agents (seed 004's sticky rules).

A vague follow-up ("and now?", "ok, u123") classifies with little confidence; sent to whatever
the classifier guessed, the conversation would jump between agents. These rules keep it with
the agent already helping, unless the new message clearly belongs to another one.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence

from langchain_core.messages import AIMessage, BaseMessage

HIGH_CONFIDENCE = 0.7
MEDIUM_CONFIDENCE = 0.5
RECENT_MESSAGES = 4


def has_recent_agent_context(
    messages: Sequence[BaseMessage], window: int = RECENT_MESSAGES
) -> bool:
    """True when one of the last `window` messages before the current one is an agent reply."""
    earlier = list(messages)[:-1][-window:]
    return any(isinstance(m, AIMessage) for m in earlier)


def sticky_route(
    category: str,
    confidence: float,
    last_agent: str | None,
    recent_context: bool,
    *,
    agents: Collection[str],
    fallback: str = "fallback",
    high: float = HIGH_CONFIDENCE,
    medium: float = MEDIUM_CONFIDENCE,
) -> str:
    """The agent for this turn, from the classifier's (category, confidence) and the history.

    - confident (>= high) and an agent category: that agent, except that a conversation
      already with an agent stays there when the category is the same (or unknown);
    - unsure (< high) while an agent is helping: stay with it;
    - medium confidence (>= medium) in an agent category: that agent;
    - otherwise: the fallback agent, which asks what the customer needs.
    """
    helping = last_agent in agents
    if confidence >= high and category in agents:
        if helping and recent_context and category == last_agent:
            return last_agent
        return category
    if helping and confidence < high:
        return last_agent  # type: ignore[return-value]
    if confidence >= medium and category in agents:
        return category
    return fallback
