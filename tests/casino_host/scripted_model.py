"""The scripted chat model the casino host's service tests drive (its `Brain`)."""

from __future__ import annotations

from typing import Any

from langchain_core.messages import BaseMessage, SystemMessage


class Brain:
    """What the scripted chat model answers: `replies` in order (a string, an exception to
    raise, or a callable of the messages), then `default`. Every call is kept in `calls`."""

    def __init__(self) -> None:
        self.calls: list[list[BaseMessage]] = []
        self.replies: list[Any] = []
        self.default: Any = "Happy to help with that."

    def __call__(self, messages: list[BaseMessage]) -> str:
        self.calls.append(list(messages))
        step = self.replies.pop(0) if self.replies else self.default
        if isinstance(step, BaseException):
            raise step
        if callable(step):
            return step(messages)
        return step

    def systems(self) -> list[str]:
        """The system prompt of every call, in order."""
        return [str(m.content) for call in self.calls for m in call if isinstance(m, SystemMessage)]

    def seen_text(self) -> str:
        return "\n".join(str(m.content) for call in self.calls for m in call)
