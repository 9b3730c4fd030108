"""Prompt rendering that user text cannot break.

Prompts are `string.Template`s filled with `safe_substitute`: a message containing `{`, `}` or
`$` is inserted as-is (values are never re-parsed as templates), and a placeholder that has no
value stays visible instead of raising in the middle of a conversation.
"""

from __future__ import annotations

from string import Template
from typing import Any


def render(template: Template | str, **values: Any) -> str:
    if isinstance(template, str):
        template = Template(template)
    return template.safe_substitute({k: "" if v is None else str(v) for k, v in values.items()})
