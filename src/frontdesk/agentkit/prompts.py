"""Prompt rendering that user text cannot break.

Prompts are `string.Template`s filled with `safe_substitute`: a message containing `{`, `}` or
`$` is inserted as-is (values are never re-parsed as templates), and a placeholder that has no
value stays visible instead of raising in the middle of a conversation.
"""

from __future__ import annotations

from string import Template
from typing import Any


def with_max_tokens(llm, max_tokens: int):
    """The same chat model with a lower output budget, when its class has one to lower.

    Structured verdicts (router, validator) are a line of JSON; capping them keeps a rambling
    small model from spending the turn's time budget on a `reason`.
    """
    fields = getattr(type(llm), "model_fields", {})
    return llm.model_copy(update={"max_tokens": max_tokens}) if "max_tokens" in fields else llm


def render(template: Template | str, **values: Any) -> str:
    if isinstance(template, str):
        template = Template(template)
    return template.safe_substitute({k: "" if v is None else str(v) for k, v in values.items()})
