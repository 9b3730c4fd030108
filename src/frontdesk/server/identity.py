"""Who is calling: the web UI's signed session cookie, an API key, or the local operator.

- The web UI gets an HTTP-only cookie signed with the server's secret (itsdangerous): a random
  session id, plus the demo user it signed in as for an assistant (telecom's seeded
  customers). Forged or expired cookies are refused with 401, and `GET /session` replaces them.
- Server-to-server callers send `Authorization: Bearer <key>` (or `X-API-Key`). Keys are
  configured by name with the assistants they may use; a key holder may say which end user it
  acts for, and that id namespaces the conversation (two end users never share a thread).
- With `auth_mode = "open"` (the default, for `make run` on one machine), a request without
  credentials acts as the local operator, as the CLI does.

Each caller has an `owner` string: a conversation belongs to the owner that created it.
"""

from __future__ import annotations

import hashlib
import logging
import os
import secrets
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from fastapi import Request
from itsdangerous import BadSignature, SignatureExpired, URLSafeTimedSerializer
from pydantic import BaseModel, ConfigDict, Field

from frontdesk.agentkit.permissions import Permissions
from frontdesk.config import Settings
from frontdesk.server.errors import ApiError

logger = logging.getLogger("frontdesk.server")

COOKIE_NAME = "frontdesk_session"
_SALT = "frontdesk.session"


class ApiKey(BaseModel):
    """One configured API key (`FRONTDESK_API_KEYS`: {"name": {...}})."""

    model_config = ConfigDict(extra="forbid")

    # The key's SHA-256 in hex (what to configure), or the key itself (development only).
    key_sha256: str | None = Field(default=None, pattern=r"^[0-9a-f]{64}$")
    key: str | None = Field(default=None, min_length=16)
    # The assistants it may use (None: all).
    assistants: list[str] | None = None
    # The company its analyst conversations belong to (None: as the request says).
    company: str | None = None
    # May read decrypted personal data (the analyst's customers' and employees' names,
    # e-mails, phones, addresses). Nobody else may over HTTP.
    personal_data: bool = False

    def digest(self) -> str:
        if self.key_sha256:
            return self.key_sha256
        if self.key:
            return hashlib.sha256(self.key.encode()).hexdigest()
        raise ValueError("an API key needs key_sha256 (or key)")


@dataclass(frozen=True)
class Caller:
    """The identity a request acts as."""

    kind: str  # "web" | "key" | "local"
    id: str  # session id, key name, or "operator"
    # Per assistant, the end user it acts for (a signed-in demo customer, a key's end user).
    users: dict[str, str] = field(default_factory=dict)
    assistants: frozenset[str] | None = None  # None: every assistant
    company: str | None = None
    personal_data: bool = False

    @property
    def owner(self) -> str:
        return f"{self.kind}:{self.id}"

    def may_use(self, assistant: str) -> bool:
        return self.assistants is None or assistant in self.assistants

    @property
    def permissions(self) -> Permissions:
        return Permissions(personal_data=self.personal_data)

    def user_for(self, assistant: str) -> str | None:
        return self.users.get(assistant)

    def thread_key(self, assistant: str, thread_id: str) -> str:
        """The conversation's key in storage. A key holder's end user namespaces it, so two
        end users of one key may both use thread id "1"; others are kept apart by owner."""
        user = self.users.get(assistant) if self.kind == "key" else None
        return f"{self.id}/{user}/{thread_id}" if user else thread_id


OPERATOR = Caller(kind="local", id="operator")


class Identity:
    """Reads and writes the session cookie and checks API keys, for one server."""

    def __init__(self, settings: Settings):
        self.settings = settings
        secret = settings.session_secret.get_secret_value() if settings.session_secret else None
        self._serializer = URLSafeTimedSerializer(
            secret or _stored_secret(settings.data_dir), salt=_SALT
        )
        self.max_age_s = int(settings.session_max_age_days * 86400)
        self._keys = {
            name: ApiKey.model_validate(config) for name, config in settings.api_keys.items()
        }
        self._by_digest = {key.digest(): name for name, key in self._keys.items()}

    # -- cookies ------------------------------------------------------------------------------

    def new_session(self) -> dict[str, Any]:
        return {"sid": secrets.token_urlsafe(18), "users": {}}

    def encode(self, session: dict[str, Any]) -> str:
        return self._serializer.dumps(session)

    def decode(self, cookie: str) -> dict[str, Any] | None:
        """The session, or None for a forged, expired or malformed cookie."""
        try:
            session = self._serializer.loads(cookie, max_age=self.max_age_s)
        except (SignatureExpired, BadSignature):
            return None
        if not isinstance(session, dict) or not isinstance(session.get("sid"), str):
            return None
        users = session.get("users")
        session["users"] = users if isinstance(users, dict) else {}
        return session

    def set_cookie(self, response, session: dict[str, Any]) -> None:
        response.set_cookie(
            COOKIE_NAME,
            self.encode(session),
            max_age=self.max_age_s,
            httponly=True,
            samesite="strict",
            secure=self.settings.cookie_secure,
            path="/",
        )

    # -- callers ------------------------------------------------------------------------------

    def caller(
        self, request: Request, *, end_user: str | None = None, assistant: str = ""
    ) -> Caller:
        """The request's caller; `end_user` is what a key holder says it acts for.

        Raises 401 for an unknown key, a forged or expired cookie, or no credentials when
        they are required."""
        presented = presented_key(request)
        if presented is not None:
            # Looked up by the key's SHA-256: a timing difference tells nothing about a key.
            name = self._by_digest.get(hashlib.sha256(presented.encode()).hexdigest())
            if name is None:
                raise ApiError(401, "The API key is not valid.", headers=_BEARER)
            key = self._keys[name]
            users = {assistant: end_user} if end_user and assistant else {}
            allowed = frozenset(key.assistants) if key.assistants is not None else None
            return Caller("key", name, users, allowed, key.company, key.personal_data)
        cookie = request.cookies.get(COOKIE_NAME)
        if cookie is not None:
            session = self.decode(cookie)
            if session is None:
                raise ApiError(
                    401,
                    "Your session is not valid or has expired. Reload the page to start a new one.",
                )
            return Caller("web", session["sid"], dict(session["users"]))
        if self.settings.auth_mode == "open":
            return OPERATOR
        raise ApiError(
            401,
            "Sign in: open the web UI, or send an API key as 'Authorization: Bearer <key>'.",
            headers=_BEARER,
        )


_BEARER = {"WWW-Authenticate": "Bearer"}


def presented_key(request: Request) -> str | None:
    """The API key the request carries (Bearer or X-API-Key), if any."""
    header = request.headers.get("authorization", "")
    if header[:7].lower() == "bearer ":
        return header[7:].strip()
    return request.headers.get("x-api-key")


def _stored_secret(data_dir: Path) -> str:
    """A random secret created once per data dir (mode 0600), so cookies survive restarts."""
    path = data_dir / "session_secret"
    try:
        return path.read_text().strip()
    except FileNotFoundError:
        pass
    data_dir.mkdir(parents=True, exist_ok=True)
    secret = secrets.token_urlsafe(48)
    try:
        with open(path, "x", opener=lambda p, flags: os.open(p, flags, 0o600)) as f:
            f.write(secret)
    except FileExistsError:  # another process made it first: use theirs
        return path.read_text().strip()
    return secret


def identity_of(request: Request) -> Identity:
    return request.app.state.identity


def caller_of(request: Request) -> Caller:
    """FastAPI dependency: the caller (no end user: see `Identity.caller`)."""
    return identity_of(request).caller(request)


def require_assistant(caller: Caller, assistant: str) -> None:
    if not caller.may_use(assistant):
        raise ApiError(403, "This API key may not use that assistant.")
