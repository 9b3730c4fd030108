"""Tool calling in two structured steps, reliable on a small local model.

Free-form tool calling (the model writes a call in its own format, or a hosted API's function
calling) is what a 0.5B model does worst: asked to pick a tool and fill its arguments in one
JSON object, the embedded model measured 0.30 on telecom's billing requests. So the decision
is split, and each part goes to what does it best:

1. **Which tool:** a chooser, usually the embedding intent classifier trained on example
   requests per tool (the same head the routers use), over the customer's last message, or
   the last two when the last alone is unclear ("INV-20251002, 15 PLN").
2. **Which arguments:** per-argument extractors first (a pattern that finds an invoice id or an
   amount with its currency in the customer's words), then the model fills what is left in a
   JSON object holding only that tool's remaining arguments, each nullable, decoded under the
   schema's grammar.

An argument the customer has not given stays null and becomes a question, never a guess: a
value the model offers for a `grounded` argument counts only when it appears in the customer's
own messages. Arguments that come from context (the customer id of the request) are filled by
the agent. Validation of the values (ranges, existence) stays with the tool, whose error goes
back to the model once and then to the customer.

A model with native tool calling (a hosted API whose class implements `bind_tools`) decides
in one call instead (`decide_tool_natively`), over the same tools, and its call goes through
the same rules: context arguments are the agent's, grounded values must be the customer's,
missing ones become a question. Either way the decision call is tagged `NOT_STREAMED`: its
JSON is never shown to the customer as it is written.
"""

from __future__ import annotations

import enum
import functools
import re
import types
import typing
from collections.abc import Callable, Collection, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Literal

from langchain_core.language_models import BaseChatModel
from langchain_core.messages import BaseMessage, HumanMessage, SystemMessage
from langchain_core.runnables import RunnableConfig
from langchain_core.tools import BaseTool
from pydantic import BaseModel, Field, create_model

from frontdesk.agentkit.prompts import structured_verdict
from frontdesk.agentkit.streaming import NOT_STREAMED, message_text

NO_TOOL = "none"
# An enum argument's extra choice for "the customer did not say": offered a null, a small model
# still picks one of the real values; offered this word, it picks it.
NOT_STATED = "not_stated"
ARGS_TOKENS = 120
# Below this the chooser's pick on the last message alone is retried with the one before.
CHOOSER_MIN_CONFIDENCE = 0.6
# The config of a decision call: never streamed to the client.
DECISION_CALL: RunnableConfig = {"tags": [NOT_STREAMED]}

Extractor = Callable[[Sequence[str]], Any]  # customer messages, oldest first -> value or None
Chooser = Callable[[str], tuple[str, float]]  # text -> (tool name or "none", confidence)
Known = Mapping[str, Mapping[str, Any]]  # tool name -> arguments given earlier to it


@dataclass(frozen=True, eq=False)  # compared and hashed by identity: specs are constants
class ToolSpec:
    name: str
    description: str
    args_model: type[BaseModel]
    # Arguments the agent fills from context when it has them (user_id from the request); the
    # model is asked for them only when the context lacks them.
    context_args: tuple[str, ...] = ()
    # Deterministic extractors per argument, tried before the model.
    extractors: Mapping[str, Extractor] = field(default_factory=dict)
    # Arguments whose model-given value must appear in the customer's messages.
    grounded: tuple[str, ...] = ()
    # Optional arguments only an extractor fills (an id with a pattern): the model is never
    # asked for them, so a lookup without one costs no model call.
    extract_only: tuple[str, ...] = ()

    def model_args(self, known: Collection[str] = ()) -> dict[str, Any]:
        """Argument name -> pydantic FieldInfo, for the arguments the model is still to fill."""
        return {
            name: info
            for name, info in self.args_model.model_fields.items()
            if name not in known and name not in self.extract_only
        }

    def required(self) -> list[str]:
        return [n for n, info in self.args_model.model_fields.items() if info.is_required()]


@dataclass(frozen=True)
class ToolDecision:
    tool: str | None  # None: no tool (answer or ask)
    args: dict[str, Any] = field(default_factory=dict)
    missing: tuple[str, ...] = ()  # required arguments the customer has not given yet
    confidence: float = 0.0
    # A natively calling model's own answer when it called no tool (None: it wrote nothing).
    reply: str | None = None

    @property
    def ready(self) -> bool:
        return self.tool is not None and not self.missing


def _plain_type(annotation: Any) -> Any:
    """The argument's type without constraints, enums as literals (what a grammar can hold)."""
    origin = typing.get_origin(annotation)
    if origin in (typing.Union, types.UnionType):
        args = [a for a in typing.get_args(annotation) if a is not type(None)]
        return _plain_type(args[0]) if len(args) == 1 else annotation
    if isinstance(annotation, type) and issubclass(annotation, enum.Enum):
        values = (NOT_STATED, *(member.value for member in annotation))
        return Literal[values]  # type: ignore[misc]
    if isinstance(annotation, type) and issubclass(annotation, bool | int | float | str):
        return annotation
    return str


@functools.cache
def _args_model(spec: ToolSpec, names: tuple[str, ...]) -> type[BaseModel]:
    fields: dict[str, Any] = {}
    for name in names:
        info = spec.args_model.model_fields[name]
        fields[name] = (
            _plain_type(info.annotation) | None,
            Field(default=None, description=info.description or ""),
        )
    return create_model(f"{spec.name}_arguments", **fields)


def args_model(spec: ToolSpec, names: Sequence[str]) -> type[BaseModel]:
    """The schema the model fills: just `names` of `spec`'s arguments, each nullable."""
    return _args_model(spec, tuple(names))


def customer_texts(messages: Sequence[BaseMessage]) -> list[str]:
    return [message_text(m) for m in messages if isinstance(m, HumanMessage)]


def choose_tool(chooser: Chooser, texts: Sequence[str]) -> tuple[str, float]:
    """The chooser's pick on the last message, or on the last two when that is more certain."""
    if not texts:
        return NO_TOOL, 0.0
    label, confidence = chooser(texts[-1])
    if confidence < CHOOSER_MIN_CONFIDENCE and len(texts) > 1:
        joined, joined_confidence = chooser(f"{texts[-2]} {texts[-1]}")
        if joined_confidence > confidence:
            return joined, joined_confidence
    return label, confidence


def _appears(value: Any, texts: Sequence[str]) -> bool:
    """Whether the customer wrote `value` (numbers compared as numbers, text case-folded)."""
    joined = " ".join(texts)
    if isinstance(value, int | float) and not isinstance(value, bool):
        numbers = re.findall(r"\d+(?:[.,]\d+)?", joined)
        return any(abs(float(n.replace(",", ".")) - float(value)) < 0.005 for n in numbers)
    return str(value).casefold() in joined.casefold()


def _earlier(spec: ToolSpec, known: Known | None, args: Mapping[str, Any]) -> dict[str, Any]:
    """The arguments given earlier to `spec`'s tool that this turn has not given anew."""
    earlier = (known or {}).get(spec.name) or {}
    fields = spec.args_model.model_fields
    return {
        a: v
        for a, v in earlier.items()
        if a in fields and a not in args and a not in spec.context_args and v is not None
    }


def describe_tools(specs: Sequence[ToolSpec]) -> str:
    return "\n".join(f"- {spec.name}: {spec.description}" for spec in specs)


async def decide_tool(
    llm: Any,
    specs: Sequence[ToolSpec],
    chooser: Chooser,
    system_prompt: str,
    messages: Sequence[BaseMessage],
    context: dict[str, Any],
    *,
    known: Known | None = None,
    max_tokens: int = ARGS_TOKENS,
) -> ToolDecision:
    """The next step over the conversation `messages`: a tool, its arguments, what is missing.

    `system_prompt` guides the model's argument filling; `context` holds context arguments;
    `known` the arguments given earlier to a request this message continues (tool name ->
    arguments), used where the extractors find nothing in the customer's words."""
    texts = customer_texts(messages)
    name, confidence = choose_tool(chooser, texts)
    spec = next((s for s in specs if s.name == name), None)
    if spec is None:
        return ToolDecision(None, confidence=confidence)
    args: dict[str, Any] = {a: context[a] for a in spec.context_args if a in context}
    for arg, extract in spec.extractors.items():
        if arg not in args and (value := extract(texts)) is not None:
            args[arg] = value
    args.update(_earlier(spec, known, args))
    remaining = list(spec.model_args(args))
    if spec.name in (known or {}):  # an answer to the agent's question: not asked for extras
        remaining = [a for a in remaining if spec.args_model.model_fields[a].is_required()]
    if remaining:
        runnable = structured_verdict(llm, args_model(spec, remaining), max_tokens)
        prompt = f"{system_prompt}\n\nFill the arguments of {spec.name}: {spec.description}"
        raw = await runnable.ainvoke([SystemMessage(content=prompt), *messages], DECISION_CALL)
        values = raw.model_dump() if isinstance(raw, BaseModel) else dict(raw or {})
        for arg in remaining:
            value = values.get(arg)
            if value in (None, "", NOT_STATED):
                continue
            if arg in spec.grounded and not _appears(value, texts):
                continue  # the customer never said it: ask instead of guessing
            args[arg] = value
    missing = tuple(arg for arg in spec.required() if arg not in args)
    return ToolDecision(spec.name, args, missing, confidence)


def supports_native_tools(llm: Any) -> bool:
    """Whether the model's class implements `bind_tools` (the hosted APIs' chat models do; the
    embedded and scripted models do not, and decide with `decide_tool`)."""
    bind = getattr(type(llm), "bind_tools", None)
    return bind is not None and bind is not BaseChatModel.bind_tools


async def decide_tool_natively(
    llm: Any,
    tools: Sequence[BaseTool],
    specs: Sequence[ToolSpec],
    system_prompt: str,
    messages: Sequence[BaseMessage],
    context: dict[str, Any],
    *,
    known: Known | None = None,
) -> ToolDecision:
    """The next step from a model with native tool calling, bound to `tools` (one per spec).

    The model's first tool call is the decision (one tool a turn, as with `decide_tool`); its
    arguments pass the same rules: context arguments come from `context` whatever the model
    wrote, a grounded value the customer never wrote is dropped (and asked for), `known`
    fills what the model left out. No call: the model's text is the reply."""
    texts = customer_texts(messages)
    reply = await llm.bind_tools(list(tools)).ainvoke(
        [SystemMessage(content=system_prompt), *messages], DECISION_CALL
    )
    calls = getattr(reply, "tool_calls", None) or []
    if not calls:
        return ToolDecision(None, reply=message_text(reply).strip() or None)
    name, given = calls[0]["name"], dict(calls[0].get("args") or {})
    spec = next((s for s in specs if s.name == name), None)
    if spec is None:  # a tool we do not have: the tool runner reports it, the model retries
        return ToolDecision(name, given, (), 1.0)
    args = {a: context[a] for a in spec.context_args if a in context}
    for arg, value in given.items():
        if arg in args or arg in spec.context_args or value in (None, "", NOT_STATED):
            continue
        if arg in spec.grounded and not _appears(value, texts):
            continue
        args[arg] = value
    args.update(_earlier(spec, known, args))
    missing = tuple(arg for arg in spec.required() if arg not in args)
    return ToolDecision(spec.name, args, missing, 1.0)
