"""Structured output shared by the local chat models: schema in, parsed object out.

The model is bound to a JSON schema (the embedded model turns it into a grammar, so decoding
cannot leave the schema); the parser turns the reply into the Pydantic object (or dict).
"""

from __future__ import annotations

import copy
import functools
import json
import re
from operator import itemgetter
from typing import Any

from langchain_core.output_parsers import JsonOutputParser, PydanticOutputParser
from langchain_core.runnables import Runnable, RunnableMap, RunnablePassthrough
from pydantic import BaseModel


def is_pydantic_class(schema: Any) -> bool:
    return isinstance(schema, type) and issubclass(schema, BaseModel)


@functools.cache
def _pydantic_schema(model: type[BaseModel]) -> dict[str, Any]:
    # Generating a schema costs about half a millisecond; the router and the validator ask
    # for the same two on every turn.
    return model.model_json_schema()


def json_schema_of(schema: Any) -> tuple[str, dict[str, Any]]:
    """(name, JSON schema) for a Pydantic model class or a JSON-schema dict."""
    if is_pydantic_class(schema):
        return schema.__name__, copy.deepcopy(_pydantic_schema(schema))
    if isinstance(schema, dict):
        if "type" not in schema and "properties" not in schema and "$ref" not in schema:
            raise ValueError(
                "with_structured_output got a dict that is not a JSON schema "
                "(it has no 'type', 'properties' or '$ref')"
            )
        title = str(schema.get("title") or "output")
        # The OpenAI json_schema name must be ^[a-zA-Z0-9_-]+$.
        return re.sub(r"[^a-zA-Z0-9_-]", "_", title), schema
    raise TypeError(
        "with_structured_output expects a Pydantic model class or a JSON-schema dict, "
        f"got {schema!r}"
    )


# LangChain's parsers parse an async result in a worker thread; a verdict is one short line of
# JSON, parsed in microseconds, far less than the hand-off to the thread.
class _InlinePydanticParser(PydanticOutputParser):
    async def aparse_result(self, result: list[Any], *, partial: bool = False) -> Any:
        return self.parse_result(result, partial=partial)


class _InlineJsonParser(JsonOutputParser):
    async def aparse_result(self, result: list[Any], *, partial: bool = False) -> Any:
        return self.parse_result(result, partial=partial)


def structured_output(bound_model: Runnable, schema: Any, *, include_raw: bool = False) -> Runnable:
    """`bound_model | parser`, or the raw/parsed/parsing_error dict when `include_raw`."""
    parser: Runnable = (
        _InlinePydanticParser(pydantic_object=schema)
        if is_pydantic_class(schema)
        else _InlineJsonParser()
    )
    if not include_raw:
        return bound_model | parser
    # Same contract as langchain-core's default: parsing errors are returned, not raised.
    parse_ok = RunnablePassthrough.assign(
        parsed=itemgetter("raw") | parser, parsing_error=lambda _: None
    )
    parse_failed = RunnablePassthrough.assign(parsed=lambda _: None)
    return RunnableMap(raw=bound_model) | parse_ok.with_fallbacks(
        [parse_failed], exception_key="parsing_error"
    )


def example_for_schema(schema: dict[str, Any]) -> Any:
    """A small deterministic value that satisfies common JSON schemas (for scripted replies).

    Uses defaults, the first enum/const value, the first non-null `anyOf` branch, empty
    strings/lists and zero; follows local `$ref`s into `$defs`.
    """
    definitions = schema.get("$defs", {}) or schema.get("definitions", {})

    def build(node: dict[str, Any], depth: int) -> Any:
        if depth > 20:
            return None
        if "$ref" in node:
            name = node["$ref"].rsplit("/", 1)[-1]
            return build(definitions.get(name, {}), depth + 1)
        if "default" in node:
            return node["default"]
        if "const" in node:
            return node["const"]
        if node.get("enum"):
            return node["enum"][0]
        for key in ("anyOf", "oneOf", "allOf"):
            if node.get(key):
                branches = [b for b in node[key] if b.get("type") != "null"] or node[key]
                return build(branches[0], depth + 1)
        kind = node.get("type", "object")
        if isinstance(kind, list):
            kind = next((k for k in kind if k != "null"), "null")
        if kind == "object":
            properties = node.get("properties", {})
            return {name: build(sub, depth + 1) for name, sub in properties.items()}
        if kind == "array":
            count = int(node.get("minItems", 0))
            return [build(node.get("items", {}), depth + 1) for _ in range(count)]
        if kind == "string":
            return "x" * int(node.get("minLength", 0))
        if kind in ("integer", "number"):
            low = node.get("minimum", node.get("exclusiveMinimum", 0))
            value = low + 1 if "exclusiveMinimum" in node and "minimum" not in node else low
            return int(value) if kind == "integer" else float(value)
        return False if kind == "boolean" else None

    return build(schema, 0)


def example_json_for(schema: Any) -> str:
    return json.dumps(example_for_schema(json_schema_of(schema)[1]))
