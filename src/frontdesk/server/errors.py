"""Every error the API returns is a JSON body `{"error": "<clear message>", ...}`.

FastAPI's defaults (`{"detail": ...}` with pydantic internals) are replaced here so a
client, or a person reading curl output, always finds one sentence under `error`.
"""

from __future__ import annotations

from typing import Any

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from pydantic import BaseModel, ConfigDict, Field
from starlette.exceptions import HTTPException as StarletteHTTPException


class ErrorBody(BaseModel):
    """Every error's body: one sentence for a person, and what the status adds (the request
    id, `retry_after_s`, the assistants available...)."""

    model_config = ConfigDict(extra="allow")

    error: str = Field(description="What went wrong, in one sentence.")
    request_id: str | None = Field(default=None, description="The request's X-Request-ID.")


class ValidationDetail(BaseModel):
    field: str
    message: str
    type: str


class ValidationErrorBody(ErrorBody):
    """A 422: the summary sentence and one entry per invalid field."""

    details: list[ValidationDetail]


# What a field's pattern means, in words, for the 422 sentence (`described_pattern`).
_PATTERN_MEANINGS: dict[str, str] = {}


def described_pattern(pattern: str, meaning: str) -> str:
    """`pattern`, remembered with what it means ("must be a UUID ..."): a value that does not
    match gets "<field> <meaning>" rather than the regular expression."""
    _PATTERN_MEANINGS[pattern] = meaning
    return pattern


class ApiError(Exception):
    """An expected failure with an HTTP status and a message meant for the client."""

    def __init__(
        self,
        status_code: int,
        message: str,
        *,
        headers: dict[str, str] | None = None,
        **extra: Any,
    ) -> None:
        super().__init__(message)
        self.status_code = status_code
        self.message = message
        self.headers = headers
        self.extra = extra


def error_body(message: str, **extra: Any) -> dict[str, Any]:
    return {"error": message, **extra}


def _field_name(loc: tuple[Any, ...] | list[Any]) -> str:
    # ("body", "message") -> "message"; ("query", "assistant") -> "assistant"
    parts = [str(p) for p in loc if p not in ("body", "query", "path", "header")]
    return ".".join(parts) or "body"


def describe_error(error: dict[str, Any]) -> str:
    """One pydantic error as a sentence naming the field."""
    kind = error.get("type", "")
    loc = tuple(error.get("loc", ()))
    if kind == "json_invalid":
        position = loc[1] if len(loc) > 1 else None
        where = f" (near character {position})" if isinstance(position, int) else ""
        return f"request body is not valid JSON{where}"
    if loc == ("body",) and kind in ("missing", "model_attributes_type", "dict_type"):
        return "request body must be a JSON object sent with Content-Type: application/json"
    message = str(error.get("msg", "is invalid"))
    # pydantic prefixes messages from our validators with "Value error, ".
    message = message.removeprefix("Value error, ")
    field = _field_name(loc)
    context = error.get("ctx") or {}
    if kind == "missing":
        return f"{field} is required"
    if kind == "string_too_short":
        least = context.get("min_length", 1)
        return (
            f"{field} must not be empty"
            if least == 1
            else (f"{field} must be at least {least} characters")
        )
    if kind == "string_too_long":
        return f"{field} is too long: the limit is {context.get('max_length')} characters"
    if kind == "string_unicode":
        return f"{field} holds an invalid character (a lone UTF-16 surrogate); send valid text"
    if kind == "string_pattern_mismatch":
        pattern = str(context.get("pattern", ""))
        return f"{field} {_PATTERN_MEANINGS.get(pattern, f'must match {pattern}')}"
    return message if message.startswith(field) else f"{field}: {message}"


def validation_details(exc: RequestValidationError) -> list[dict[str, str]]:
    # The rejected input is left out on purpose: it may be large or sensitive.
    details = []
    for error in exc.errors():
        loc = tuple(error.get("loc", ()))
        field = "body" if error.get("type") == "json_invalid" else _field_name(loc)
        details.append(
            {"field": field, "message": describe_error(error), "type": error.get("type", "")}
        )
    return details


async def _validation_error(request: Request, exc: RequestValidationError) -> JSONResponse:
    details = validation_details(exc)
    summary = "; ".join(dict.fromkeys(d["message"] for d in details)) or "invalid request"
    return JSONResponse(error_body(f"Invalid request: {summary}", details=details), status_code=422)


async def _api_error(request: Request, exc: ApiError) -> JSONResponse:
    return JSONResponse(
        error_body(exc.message, **exc.extra), status_code=exc.status_code, headers=exc.headers
    )


_HTTP_MESSAGES = {
    404: "not found",
    405: "method not allowed",
    413: "request body is too large",
}


async def _http_error(request: Request, exc: StarletteHTTPException) -> JSONResponse:
    detail = exc.detail if isinstance(exc.detail, str) else None
    message = _HTTP_MESSAGES.get(exc.status_code) or detail or "request failed"
    if exc.status_code == 404:
        message = f"not found: {request.method} {request.url.path}"
    elif exc.status_code == 405:
        message = f"method {request.method} is not allowed on {request.url.path}"
    return JSONResponse(
        error_body(message), status_code=exc.status_code, headers=getattr(exc, "headers", None)
    )


def install_error_handlers(app: FastAPI) -> None:
    app.add_exception_handler(RequestValidationError, _validation_error)  # type: ignore[arg-type]
    app.add_exception_handler(ApiError, _api_error)  # type: ignore[arg-type]
    app.add_exception_handler(StarletteHTTPException, _http_error)  # type: ignore[arg-type]
