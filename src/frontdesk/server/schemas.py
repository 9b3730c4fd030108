"""Request bodies the HTTP API accepts, with the limits it enforces."""

from __future__ import annotations

import json
import re
import uuid
from typing import Any, TypeVar

from fastapi import Request
from fastapi.exceptions import RequestValidationError
from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator

from frontdesk.server.errors import ApiError

MAX_MESSAGE_CHARS = 4096
# The person an assistant acts for (a customer, an end user): an id, never free text.
USER_ID_PATTERN = re.compile(r"^[A-Za-z0-9_.@-]{2,64}$")
# Generous upper bound for one chat request body: a 4096-char message is at most ~16 KiB
# of UTF-8 plus JSON escaping; anything larger is refused before it is parsed.
MAX_CHAT_BODY_BYTES = 64 * 1024


class ChatRequest(BaseModel):
    """`POST /chat` body. Strict types: a number is not a message."""

    model_config = ConfigDict(strict=True, extra="ignore")

    message: str = Field(description=f"What the guest asks, 1-{MAX_MESSAGE_CHARS} characters.")
    thread_id: str | None = Field(
        default=None, description="Conversation id (UUID); a new one is made when absent."
    )
    assistant: str | None = Field(
        default=None, description="Which assistant answers; the server's default when absent."
    )
    regenerate: bool = Field(
        default=False,
        description="Answer the thread's last question again, replacing the last answer "
        "(send that question as `message`).",
    )
    user_id: str | None = Field(
        default=None,
        description="The end user an API-key caller acts for, 2-64 characters of letters, "
        "digits and _ . @ -; it namespaces the conversation and names the customer for "
        "assistants that act for one. Ignored for callers without an API key.",
        json_schema_extra={"pattern": USER_ID_PATTERN.pattern, "examples": ["u123"]},
    )

    @field_validator("message")
    @classmethod
    def _message_length(cls, value: str) -> str:
        return check_message(value)

    @field_validator("thread_id")
    @classmethod
    def _thread_id_is_uuid(cls, value: str | None) -> str | None:
        if value is None:
            return None
        try:
            # Normalised so "ABC..." and "abc..." name the same conversation.
            return str(uuid.UUID(value.strip()))
        except ValueError:
            raise ValueError("thread_id must be a UUID such as '3f2b8c1e-...'") from None

    @field_validator("assistant")
    @classmethod
    def _assistant_name(cls, value: str | None) -> str | None:
        if value is None:
            return None
        name = value.strip()
        if not name:
            raise ValueError("assistant must not be empty (leave it out to use the default)")
        return name

    @field_validator("user_id")
    @classmethod
    def _user_id(cls, value: str | None) -> str | None:
        return check_user_id(value)

    def resolved_thread_id(self) -> str:
        return self.thread_id or str(uuid.uuid4())


def check_message(value: str) -> str:
    text = value.strip()
    if not text:
        raise ValueError("message must not be empty")
    check_encodable(text)
    if len(text) > MAX_MESSAGE_CHARS:
        raise ValueError(f"message is {len(text)} characters; the limit is {MAX_MESSAGE_CHARS}")
    return text


def check_encodable(text: str) -> str:
    """Text that is valid Unicode: JSON allows a lone UTF-16 surrogate ("\\ud800"), which no
    tokenizer, database or log can encode."""
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        raise ValueError(
            "message holds an invalid character (a lone UTF-16 surrogate); send valid text"
        ) from None
    return text


def check_user_id(value: str | None) -> str | None:
    if value is None:
        return None
    text = value.strip()
    if not USER_ID_PATTERN.match(text):
        raise ValueError(
            "user_id must be 2-64 characters of letters, digits, '_', '.', '@' or '-' "
            "(leave it out when there is no customer)"
        )
    return text


Body = TypeVar("Body", bound=BaseModel)


async def read_chat_request(request: Request) -> ChatRequest:
    """Parse and validate a `POST /chat` body (see `read_json_body`)."""
    return await read_json_body(request, ChatRequest)


async def read_json_body(request: Request, model: type[Body]) -> Body:
    """Parse and validate a JSON body as `model`, refusing oversized bodies before reading them.

    Done by hand rather than as a FastAPI body parameter so that an oversized body gets the same
    JSON error shape as every other failure (Starlette's body limit answers in plain text).
    Raises `ApiError` (413) or `RequestValidationError` (422).
    """
    declared = request.headers.get("content-length", "")
    if declared.isdigit() and int(declared) > MAX_CHAT_BODY_BYTES:
        raise _too_large()
    media_type = request.headers.get("content-type", "").split(";")[0].strip().lower()
    if media_type != "application/json" and not media_type.endswith("+json"):
        raise _body_error("model_attributes_type")
    raw = bytearray()
    async for chunk in request.stream():
        raw += chunk
        if len(raw) > MAX_CHAT_BODY_BYTES:
            raise _too_large()
    if not raw.strip():
        raise _body_error("missing")
    try:
        payload = json.loads(raw)
    except (ValueError, UnicodeDecodeError) as exc:
        position = getattr(exc, "pos", 0)
        raise RequestValidationError(
            [{"type": "json_invalid", "loc": ("body", position), "msg": "JSON decode error"}]
        ) from None
    if not isinstance(payload, dict):
        raise _body_error("model_attributes_type")
    try:
        return model.model_validate(payload)
    except ValidationError as exc:
        errors = [{**e, "loc": ("body", *e["loc"])} for e in exc.errors(include_input=False)]
        raise RequestValidationError(errors) from None


def _too_large() -> ApiError:
    return ApiError(
        413, f"request body is too large (the limit is {MAX_CHAT_BODY_BYTES // 1024} KiB)"
    )


def _body_error(kind: str) -> RequestValidationError:
    return RequestValidationError([{"type": kind, "loc": ("body",), "msg": "invalid body"}])


def json_request_body(model: type[BaseModel]) -> dict[str, Any]:
    """The `openapi_extra` documenting a body read by hand (`read_json_body`) as `model`."""
    return {
        "requestBody": {
            "required": True,
            "content": {"application/json": {"schema": model.model_json_schema()}},
        }
    }


def turn_responses(**extra: dict[str, Any]) -> dict[int | str, dict[str, Any]]:
    """The answers every route that runs a turn may give, plus the route's own (`extra`, by
    status code as `_200=...`)."""
    common: dict[int | str, dict[str, Any]] = {
        401: {"description": "Unknown API key, or a forged or expired session cookie"},
        403: {"description": "The API key may not use this assistant"},
        404: {"description": "Unknown assistant, or a conversation that is not the caller's"},
        413: {"description": "Request body too large"},
        422: {"description": "Invalid request"},
        429: {"description": "Rate limited; see Retry-After"},
        503: {"description": "Assistant not ready, or too busy; see Retry-After"},
    }
    common.update({int(code.lstrip("_")): value for code, value in extra.items()})
    return common
