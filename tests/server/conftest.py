"""Fixtures for the HTTP API tests: fake assistants that implement `AssistantService`.

The fakes are exposed through fixtures (not imported from a helper module) so these tests never
collide with another folder's helper of the same name.
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import AsyncIterator, Callable, Mapping
from contextlib import asynccontextmanager
from typing import Any

import httpx
import pytest
from fastapi import FastAPI

from frontdesk.assistants.base import Answer, AssistantService, ChatEvent
from frontdesk.config import Settings
from frontdesk.server.app import create_app, serving


class FakeService:
    """Streams metadata, a few tokens built from the message, sources, done.

    Knobs: `delay_s` before each token, `fail_at` (raise before that token index),
    `replace` (emit one `replace` instead of tokens), `ready`, `info_data`.
    """

    def __init__(
        self,
        name: str = "concierge",
        *,
        ready: bool = True,
        sources: tuple[str, ...] = ("restaurants", "spa"),
        delay_s: float = 0.0,
        fail_at: int | None = None,
        replace: str | None = None,
        info_data: dict[str, Any] | None = None,
    ) -> None:
        self.name = name
        self._ready = ready
        self.sources = list(sources)
        self.delay_s = delay_s
        self.fail_at = fail_at
        self.replace = replace
        self.info_data = (
            info_data
            if info_data is not None
            else {
                "name": "Seaside Grand Hotel",
                "location": "Portland, ME",
                "categories": ["restaurants", "spa", "rooms"],
                "document_count": 12,
            }
        )
        self.calls: list[tuple[str, str]] = []
        # The user_id of each stream/ask call, in order (None when the request named none).
        self.user_ids: list[str | None] = []
        self.streams_closed = 0
        self.closed = False

    @property
    def ready(self) -> bool:
        return self._ready

    def info(self) -> dict[str, Any]:
        return dict(self.info_data)

    @staticmethod
    def tokens_for(message: str) -> list[str]:
        return ["You ", "asked: ", message]

    async def stream(
        self, message: str, thread_id: str, *, user_id: str | None = None
    ) -> AsyncIterator[ChatEvent]:
        self.calls.append((message, thread_id))
        self.user_ids.append(user_id)
        try:
            yield ChatEvent("metadata", {"thread_id": thread_id})
            if self.replace is not None:
                yield ChatEvent("replace", {"content": self.replace})
            else:
                for index, token in enumerate(self.tokens_for(message)):
                    if index == self.fail_at:
                        raise RuntimeError("vector store exploded at /secret/internal/path")
                    if self.delay_s:
                        await asyncio.sleep(self.delay_s)
                    yield ChatEvent("token", {"content": token})
            yield ChatEvent("sources", {"sources": self.sources})
            yield ChatEvent("done", {"done": True})
        finally:
            self.streams_closed += 1

    async def ask(self, message: str, thread_id: str, *, user_id: str | None = None) -> Answer:
        self.calls.append((message, thread_id))
        self.user_ids.append(user_id)
        text = "".join(self.tokens_for(message))
        return Answer(text, "rag", 1.0, self.sources, "PASS", thread_id)

    async def aclose(self) -> None:
        self.closed = True


def make_factory(*services: AssistantService) -> Callable[[Settings], Any]:
    async def load(settings: Settings) -> Mapping[str, AssistantService]:
        return {service.name: service for service in services}

    return load


@pytest.fixture
def factory_for() -> Callable[..., Any]:
    """`factory_for(*services)`: a service_factory that loads exactly those services."""
    return make_factory


@pytest.fixture
def make_service() -> Callable[..., FakeService]:
    return FakeService


@pytest.fixture
def settings(tmp_path) -> Settings:
    return Settings(
        data_dir=tmp_path,
        assistant="concierge",
        # The fakes use no model; /health's model check sees the scripted one.
        llm_provider="scripted",
        rate_limit_chat_per_minute=1000,
        sse_timeout_s=5.0,
        allowed_origins=[],
    )


@pytest.fixture
def service() -> FakeService:
    return FakeService()


@asynccontextmanager
async def running(app: FastAPI, client_ip: str = "127.0.0.1") -> AsyncIterator[httpx.AsyncClient]:
    """The app with its lifespan run (services loaded), behind an httpx client."""
    async with serving(app):
        transport = httpx.ASGITransport(app=app, client=(client_ip, 50000))
        async with httpx.AsyncClient(transport=transport, base_url="http://testserver") as client:
            yield client


@pytest.fixture
def start() -> Callable[..., Any]:
    """`async with start(settings, service, ...) as client:` runs an app serving those fakes."""

    def _start(settings: Settings, *services: AssistantService, factory=None):
        app = create_app(settings, service_factory=factory or make_factory(*services))
        return running(app)

    return _start


@pytest.fixture
async def client(settings, service) -> AsyncIterator[httpx.AsyncClient]:
    app = create_app(settings, service_factory=make_factory(service))
    async with running(app) as c:
        yield c


def parse_sse_text(text: str) -> list[tuple[str, dict[str, Any]]]:
    """[(event, data)] from an SSE body; data lines are JSON. Comments (pings) are skipped."""
    events = []
    for block in text.replace("\r\n", "\n").split("\n\n"):
        name, data = None, []
        for line in block.split("\n"):
            if line.startswith("event:"):
                name = line[len("event:") :].strip()
            elif line.startswith("data:"):
                data.append(line[len("data:") :].removeprefix(" "))
        if name is not None:
            events.append((name, json.loads("\n".join(data))))
    return events


@pytest.fixture
def parse_sse() -> Callable[[str], list[tuple[str, dict[str, Any]]]]:
    return parse_sse_text
