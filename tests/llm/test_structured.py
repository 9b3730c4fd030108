"""Schema helpers behind with_structured_output."""

from __future__ import annotations

from typing import Literal

import pytest
from pydantic import BaseModel, Field

from frontdesk.llm.structured import example_for_schema, json_schema_of


class Inner(BaseModel):
    label: Literal["a", "b"]


class Outer(BaseModel):
    inner: Inner
    note: str | None = None
    count: int = Field(ge=3)
    tags: list[str] = Field(min_length=2)
    name: str = Field(min_length=2)


def test_example_satisfies_a_schema_with_refs_optionals_and_bounds():
    example = example_for_schema(Outer.model_json_schema())
    assert Outer.model_validate(example) == Outer(
        inner=Inner(label="a"), note=None, count=3, tags=["", ""], name="xx"
    )


def test_json_schema_of_a_pydantic_class_is_named_after_it():
    name, schema = json_schema_of(Inner)
    assert name == "Inner"
    assert schema["properties"]["label"]["enum"] == ["a", "b"]


def test_json_schema_names_are_made_safe():
    name, _ = json_schema_of({"title": "my schema!", "type": "object"})
    assert name == "my_schema_"


def test_a_dict_that_is_not_a_schema_is_refused():
    with pytest.raises(ValueError, match="not a JSON schema"):
        json_schema_of({"answer": "str"})


async def test_async_structured_output_is_parsed_on_the_event_loop():
    import threading

    from pydantic import BaseModel, field_validator

    from frontdesk.llm import ScriptedChatModel

    parsed_on = []

    class Recorded(BaseModel):
        status: str

        @field_validator("status")
        @classmethod
        def record(cls, value: str) -> str:
            parsed_on.append(threading.get_ident())
            return value

    model = ScriptedChatModel(['{"status": "PASS"}'])
    assert (await model.with_structured_output(Recorded).ainvoke("review")).status == "PASS"
    assert parsed_on == [threading.get_ident()]
