"""Request bodies the HTTP API accepts, with the limits it enforces, and the answers it may
give besides success.

The limits are pydantic field constraints checked on the value as sent (length, pattern), so
the OpenAPI schema states exactly what the server accepts; a value is normalised (stripped,
lower-cased) only after it passed them.
"""

from __future__ import annotations

import json
import re
import uuid
from typing import Annotated, Any, TypeVar

from fastapi import Request
from fastapi.exceptions import RequestValidationError
from pydantic import (
    AfterValidator,
    BaseModel,
    ConfigDict,
    Field,
    TypeAdapter,
    ValidationError,
    field_validator,
)

from frontdesk.server.errors import (
    ApiError,
    ErrorBody,
    ValidationErrorBody,
    describe_error,
    described_pattern,
)

MAX_MESSAGE_CHARS = 4096
# White space as a JSON Schema `pattern` (ECMAScript's \s) means it, spelled out so that the
# schema, pydantic's regex engine and the server's stripping agree on what a blank text is.
WHITESPACE = (
    "\t\n\x0b\x0c\r \u00a0\u1680"
    + "".join(chr(c) for c in range(0x2000, 0x200B))
    + "\u2028\u2029\u202f\u205f\u3000\ufeff"
)
NOT_BLANK = described_pattern(
    r"[^\t\n\v\f\r \u00a0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000\ufeff]",
    "must not be empty",
)
# The person an assistant acts for (a customer, an end user): an id, never free text.
USER_ID_PATTERN = re.compile(
    described_pattern(
        r"^\+?[A-Za-z0-9_.@-]{2,64}$",
        "must be 2-64 characters of letters, digits, '_', '.', '@' or '-', after an optional "
        "'+' (a phone number in E.164); leave it out when there is no customer",
    )
)
UUID_PATTERN = described_pattern(
    r"^[0-9A-Fa-f]{8}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{12}$",
    "must be a UUID such as '3f2b8c1e-9d4a-4c5b-8e7f-0a1b2c3d4e5f'",
)
# Generous upper bound for one chat request body: a 4096-char message is at most ~16 KiB
# of UTF-8 plus JSON escaping; anything larger is refused before it is parsed.
MAX_CHAT_BODY_BYTES = 64 * 1024


def _normalised_message(value: str) -> str:
    """A message that passed its limits, stripped; refused when it is not valid Unicode."""
    return check_encodable(value.strip(WHITESPACE))


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


# What a person writes to an assistant: the limits every turn route states and enforces.
MessageText = Annotated[
    str,
    Field(min_length=1, max_length=MAX_MESSAGE_CHARS, pattern=NOT_BLANK),
    AfterValidator(_normalised_message),
]
UserId = Annotated[str, Field(pattern=USER_ID_PATTERN.pattern, examples=["u123"])]
_MESSAGE = TypeAdapter(MessageText)


def check_message(value: str) -> str:
    """`value` checked as a request body's message is (MessageText), for text that does not
    come in one (the CLI): the stripped message, or ValueError with the API's sentence."""
    try:
        return _MESSAGE.validate_python(value)
    except ValidationError as exc:
        error = exc.errors(include_input=False)[0]
        raise ValueError(describe_error({**error, "loc": ("message",)})) from None


class ChatRequest(BaseModel):
    """`POST /chat` body. Strict types: a number is not a message."""

    model_config = ConfigDict(strict=True, extra="ignore")

    message: MessageText = Field(
        description=f"What the guest asks, 1-{MAX_MESSAGE_CHARS} characters, not all blank."
    )
    thread_id: str | None = Field(
        default=None,
        pattern=UUID_PATTERN,
        description="Conversation id (UUID); a new one is made when absent.",
    )
    assistant: str | None = Field(
        default=None,
        min_length=1,
        max_length=64,
        pattern=NOT_BLANK,
        description="Which assistant answers; the server's default when absent.",
    )
    regenerate: bool = Field(
        default=False,
        description="Answer the thread's last question again, replacing the last answer "
        "(send that question as `message`).",
    )
    scope: str | None = Field(
        default=None,
        pattern=r"^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$",
        description="Which of the assistant's collections the question is about (codeqa: an "
        "indexed repository's id); the assistant's default when absent. A scope the assistant "
        "does not have, or any scope for an assistant with one collection, is a 404.",
    )
    user_id: UserId | None = Field(
        default=None,
        description="The end user an API-key caller acts for, 2-64 characters of letters, "
        "digits and _ . @ -; it namespaces the conversation and names the customer for "
        "assistants that act for one. Ignored for callers without an API key.",
    )

    @field_validator("thread_id")
    @classmethod
    def _thread_id(cls, value: str | None) -> str | None:
        # Lower-cased so "ABC..." and "abc..." name the same conversation.
        return value.lower() if value is not None else None

    @field_validator("assistant")
    @classmethod
    def _assistant_name(cls, value: str | None) -> str | None:
        return value.strip(WHITESPACE) if value is not None else None

    def resolved_thread_id(self) -> str:
        return self.thread_id or str(uuid.uuid4())


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
    """The `openapi_extra` documenting a body read by hand (`read_json_body`) as `model`: its
    JSON schema with the nested models written in place (a `#/$defs/...` reference means
    nothing inside an OpenAPI document)."""
    schema = model.model_json_schema()
    definitions = schema.pop("$defs", {})

    def inline(node: Any) -> Any:
        if isinstance(node, dict):
            ref = node.get("$ref")
            if isinstance(ref, str) and ref.startswith("#/$defs/"):
                rest = {k: v for k, v in node.items() if k != "$ref"}
                return {**inline(definitions[ref.removeprefix("#/$defs/")]), **rest}
            return {key: inline(value) for key, value in node.items()}
        if isinstance(node, list):
            return [inline(item) for item in node]
        return node

    return {
        "requestBody": {
            "required": True,
            "content": {"application/json": {"schema": inline(schema)}},
        }
    }


_ERROR_DESCRIPTIONS = {
    401: "Unknown API key, a forged or expired session cookie, or no credentials where the "
    "server requires them",
    403: "The caller may not use this assistant, or this action",
    404: "Unknown assistant, or a conversation (or ticket) that is not the caller's",
    413: "Request body too large",
    409: "The request conflicts with the resource's state",
    422: "Invalid request: the body says which field and why",
    429: "Rate limited; see Retry-After",
    500: "The turn failed; the body says so in one sentence",
    503: "Assistant not ready or failed to start, or too busy; see Retry-After when given",
    504: "The turn ran longer than the configured time limit",
}
_RETRY_AFTER = {
    "Retry-After": {
        "description": "Seconds to wait before trying again",
        "schema": {"type": "integer"},
    }
}
# What a request to a route that reads a JSON body (`read_json_body`) may be answered besides
# success, whatever the route does with it.
BODY_ERRORS = (413, 422)


def error_responses(*codes: int, **described: str) -> dict[int | str, dict[str, Any]]:
    """The `responses=` documenting the errors a route gives (the `ErrorBody` JSON), each
    with the general description or the route's own (`described`, by status as `_404=...`)."""
    own = {int(code.lstrip("_")): text for code, text in described.items()}
    responses: dict[int | str, dict[str, Any]] = {}
    for code in sorted({*codes, *own}):
        entry: dict[str, Any] = {
            "description": own[code] if code in own else _ERROR_DESCRIPTIONS[code],
            "model": ValidationErrorBody if code == 422 else ErrorBody,
        }
        if code in (429, 503):
            entry["headers"] = _RETRY_AFTER
        responses[code] = entry
    return responses


def turn_responses(**extra: dict[str, Any]) -> dict[int | str, dict[str, Any]]:
    """The answers every route that runs a turn may give, plus the route's own (`extra`, by
    status code as `_200=...`; an error there may be a description alone)."""
    common = error_responses(401, 403, 404, 413, 422, 429, 503)
    for code, value in extra.items():
        status = int(code.lstrip("_"))
        if status >= 400:
            value = {**error_responses(status)[status], **value}
        common[status] = value
    return common
