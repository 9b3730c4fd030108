"""Prompt rendering that user text cannot break.

Prompts are `string.Template`s filled with `safe_substitute`: a message containing `{`, `}` or
`$` is inserted as-is (values are never re-parsed as templates), and a placeholder that has no
value stays visible instead of raising in the middle of a conversation.
"""

from __future__ import annotations

from string import Template
from typing import Any

from langchain_core.runnables import Runnable

# Built verdict runnables by (model, schema, budget); a handful per process.
_VERDICTS: dict[tuple[int, type, int], tuple[Any, Runnable]] = {}
_MAX_VERDICTS = 32


def with_max_tokens(llm, max_tokens: int):
    """The same chat model with a lower output budget, when its class has one to lower.

    Structured verdicts (router, validator) are a line of JSON; capping them keeps a rambling
    small model from spending the turn's time budget on a `reason`.
    """
    fields = getattr(type(llm), "model_fields", {})
    return llm.model_copy(update={"max_tokens": max_tokens}) if "max_tokens" in fields else llm


def structured_verdict(llm, schema: type, max_tokens: int) -> Runnable:
    """`llm` with its output budget capped, bound to answer as `schema`; built once per model.

    Building one (a model copy, a JSON schema, a parser) costs about as much as the rest of a
    validation with a scripted model, and the router and the validator ask on every turn.
    """
    key = (id(llm), schema, max_tokens)
    cached = _VERDICTS.get(key)
    # The model is kept with its runnable, so its id cannot be reused by another model.
    if cached is not None and cached[0] is llm:
        return cached[1]
    runnable = with_max_tokens(llm, max_tokens).with_structured_output(schema)
    if len(_VERDICTS) >= _MAX_VERDICTS:
        _VERDICTS.pop(next(iter(_VERDICTS)))
    _VERDICTS[key] = (llm, runnable)
    return runnable


def render(template: Template | str, **values: Any) -> str:
    if isinstance(template, str):
        template = Template(template)
    return template.safe_substitute({k: "" if v is None else str(v) for k, v in values.items()})
