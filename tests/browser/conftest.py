"""Browser tests: the web chat in Debian's headless Chromium, against the real app serving
scripted assistants (tests/browser/scripted.py).

uvicorn runs in a thread on a free 127.0.0.1 port and Python Playwright drives
`/usr/bin/chromium` (never `playwright install`: nothing is downloaded). The README's
screenshot comes from the real assistants instead: `python scripts/screenshot.py`.
"""

from __future__ import annotations

import json
import re
import socket
import tempfile
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any, Self

import pytest
import uvicorn

from frontdesk.config import Settings
from frontdesk.server.app import ServiceFactory, create_app

from .scripted import ScriptedAnalyst, ScriptedConcierge, ScriptedHelpdesk, ScriptedTelecom

sync_api = pytest.importorskip("playwright.sync_api")
expect = sync_api.expect

CHROMIUM = Path("/usr/bin/chromium")
CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
CHATS_KEY = "frontdesk.chats.v2"
DESKTOP = {"viewport": {"width": 1100, "height": 800}}
PHONE = {
    "viewport": {"width": 360, "height": 740},
    "device_scale_factor": 2,
    "is_mobile": True,
    "has_touch": True,
}


class LiveServer:
    """uvicorn in a background thread, on a socket bound before the thread starts (no race)."""

    def __init__(self, *services: Any, load: ServiceFactory | None = None, **settings: Any) -> None:
        """Serves `services`, or what `load(settings)` builds (a real assistant) with
        `settings` added to the test ones."""
        # Its own data dir: the threads store, session secret and checkpoints of this run.
        self.data_dir = tempfile.TemporaryDirectory(prefix="frontdesk-browser-")
        options: dict[str, Any] = {
            "data_dir": Path(self.data_dir.name),
            "rate_limit_chat_per_minute": 1000,
            "sse_timeout_s": 10,
            "allowed_origins": [],
        }
        if services:
            options["assistant"] = services[0].name

        async def factory(_settings: Settings):
            return {service.name: service for service in services}

        app = create_app(Settings(**(options | settings)), service_factory=load or factory)
        self.app = app
        self.socket = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        self.socket.bind(("127.0.0.1", 0))
        self.url = f"http://127.0.0.1:{self.socket.getsockname()[1]}"
        config = uvicorn.Config(
            app, log_level="warning", access_log=False, lifespan="on", timeout_graceful_shutdown=2
        )
        self.server = uvicorn.Server(config)
        self.thread = threading.Thread(
            target=self.server.run, kwargs={"sockets": [self.socket]}, daemon=True
        )

    def __enter__(self) -> Self:
        self.thread.start()
        deadline = time.monotonic() + 20
        # Serving first, then the assistants, built in the background (server/app.py).
        while not (self.server.started and self.app.state.loaded.is_set()):
            if not self.thread.is_alive() or time.monotonic() > deadline:
                raise RuntimeError("the test server did not start")
            time.sleep(0.05)
        return self

    def __exit__(self, *exc: object) -> None:
        self.server.should_exit = True
        self.thread.join(timeout=10)
        self.socket.close()
        self.data_dir.cleanup()


class Services:
    def __init__(self) -> None:
        self.concierge = ScriptedConcierge()
        self.telecom = ScriptedTelecom()
        self.analyst = ScriptedAnalyst()
        self.helpdesk = ScriptedHelpdesk()

    def all(self) -> list[Any]:
        return [self.concierge, self.telecom, self.analyst, self.helpdesk]


@pytest.fixture(scope="package")
def services() -> Services:
    return Services()


@pytest.fixture(scope="package")
def live_server(services) -> Iterator[LiveServer]:
    with LiveServer(*services.all()) as server:
        yield server


# Package scope, not session: the sync Playwright API runs its own event loop, which must be
# gone before the rest of the suite's asyncio tests run in this process.
@pytest.fixture(scope="package")
def browser() -> Iterator[Any]:
    if not CHROMIUM.exists():
        pytest.fail(f"Chromium not found at {CHROMIUM}: install it with `apt-get install chromium`")
    with sync_api.sync_playwright() as playwright:
        try:
            browser = playwright.chromium.launch(
                executable_path=str(CHROMIUM), headless=True, args=CHROMIUM_ARGS
            )
        except sync_api.Error as exc:
            pytest.fail(f"could not start Chromium at {CHROMIUM} ({exc})")
        yield browser
        browser.close()


@pytest.fixture
def problems() -> Iterator[list[str]]:
    found: list[str] = []
    yield found
    assert found == [], found


class Accounts:
    """The identity endpoints (session, sign-in, conversations, feedback, cancel) answered in
    the browser, so a test controls them and sees exactly what the page sent."""

    def __init__(self, page) -> None:
        self.requests: list[tuple[str, str, Any]] = []
        self.session: dict[str, Any] = {
            "caller": {"kind": "web", "signed_in": {}},
            "demo_sign_in": True,
            "demo_users": {
                "telecom": [
                    {"id": "u123", "label": "Anna Kowalska (u123)"},
                    {"id": "u777", "label": "Piotr Nowak (u777)"},
                ]
            },
        }
        self.conversations: dict[str, list[dict[str, Any]]] = {}
        self.transcripts: dict[tuple[str, str], list[dict[str, str]]] = {}
        page.route("**/session", self._session)
        page.route("**/session/*", self._session)
        # Not the shell's own conversations.js: only the API paths.
        page.route(re.compile(r"/conversations(\?|/)"), self._conversations)
        page.route("**/feedback", self._record({"id": 1}, 201))
        page.route("**/chat/cancel", self._record({"cancelled": True}))

    def sent(self, path: str) -> list[Any]:
        return [body for method, url, body in self.requests if url.endswith(path)]

    def _log(self, route) -> Any:
        request = route.request
        body = json.loads(request.post_data) if request.post_data else None
        path = request.url.split("://", 1)[1].split("/", 1)[1]
        self.requests.append((request.method, "/" + path, body))
        return body

    def _record(self, answer: dict[str, Any], status: int = 200):
        def handle(route) -> None:
            self._log(route)
            route.fulfill(status=status, json=answer)

        return handle

    def _session(self, route) -> None:
        body = self._log(route)
        signed = self.session["caller"]["signed_in"]
        if route.request.url.endswith("/sign-in"):
            signed[body["assistant"]] = body["user_id"]
        elif route.request.url.endswith("/sign-out"):
            signed.pop(body["assistant"], None)
        route.fulfill(json=self.session)

    def _conversations(self, route) -> None:
        self._log(route)
        url = route.request.url
        if "?assistant=" in url:
            name = url.split("?assistant=", 1)[1]
            route.fulfill(json={"conversations": self.conversations.get(name, [])})
            return
        assistant, thread_id = url.split("/conversations/", 1)[1].split("/")
        messages = self.transcripts.get((assistant, thread_id))
        if messages is None:
            route.fulfill(status=404, json={"error": "Conversation not found."})
        else:
            route.fulfill(
                json={"assistant": assistant, "thread_id": thread_id, "messages": messages}
            )


def open_page(
    browser,
    live_server,
    problems: list[str],
    *,
    assistant: str | None = None,
    real_accounts: bool = False,
    **options,
):
    context = browser.new_context(**(options or DESKTOP))
    page = context.new_page()
    # Any script error or console error (a CSP violation is one) fails the test.
    page.on("pageerror", lambda err: problems.append(f"page error: {err}"))
    page.on("console", lambda msg: msg.type == "error" and problems.append(f"console: {msg.text}"))
    # real_accounts: the server's own session, conversations, feedback and cancel routes.
    page.accounts = None if real_accounts else Accounts(page)
    page.goto(live_server.url + "/")
    expect(page.locator("#status")).to_have_attribute("data-state", "online")
    if assistant:
        page.get_by_label("Assistant", exact=True).select_option(assistant)
    return page


@pytest.fixture
def page(browser, live_server, problems):
    page = open_page(browser, live_server, problems)
    yield page
    page.context.close()


def assistant_messages(page):
    return page.locator('#messages li[data-role="assistant"]')


def send(page, text: str) -> None:
    box = page.get_by_label("Your message")
    box.fill(text)
    box.press("Enter")


def ask(page, question: str):
    """Send `question` and wait until its answer is done (a real service: up to 30 s)."""
    send(page, question)
    answer = assistant_messages(page).last
    expect(answer).to_have_attribute("data-status", "done", timeout=30_000)
    return answer


def wait_for_answer(page, text: str):
    last = assistant_messages(page).last
    expect(last.locator(".bubble-text")).to_have_text(text)
    expect(last).to_have_attribute("data-status", "done")
    return last
