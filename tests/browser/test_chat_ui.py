"""The web chat UI in Debian's headless Chromium, against the real app serving a fake assistant.

Runs uvicorn in a thread on a free 127.0.0.1 port and drives `/usr/bin/chromium` with Python
Playwright (never `playwright install`: nothing is downloaded). The README's screenshot comes
from the real concierge instead: `python scripts/screenshot.py`.
"""

from __future__ import annotations

import asyncio
import socket
import threading
import time
import uuid
from collections.abc import AsyncIterator, Iterator
from pathlib import Path
from typing import Any, Self

import pytest
import uvicorn

from frontdesk.assistants.base import Answer, ChatEvent
from frontdesk.config import Settings
from frontdesk.server.app import create_app

pytestmark = pytest.mark.browser

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
STORAGE_KEY = "frontdesk.chat.v1"

POOL_Q = "Is the pool heated, and when is it open?"
POOL_A = (
    "Yes, the indoor saltwater pool is heated to 84°F all year. It is open daily from 6 am to "
    "10 pm on the third floor, and towels are provided poolside. Children under 12 are welcome "
    "with an adult until 8 pm."
)
DINNER_Q = "Where should we go for dinner tonight?"
DINNER_A = (
    "For dinner I'd suggest Salt & Pine, our rooftop seafood restaurant (5–10 pm, reservations "
    "recommended), or the more casual Harbor Tavern in the lobby, which serves until midnight."
)
SPA_A = "The Tidewater Spa offers massages, facials and a eucalyptus steam room, 9 am to 8 pm."
GREETING = "Hello! I'm the virtual concierge for Seaside Grand Hotel. How can I help you today?"

ANSWERS = {  # keyword -> (answer, sources)
    "pool": (POOL_A, ["amenities", "hours"]),
    "dinner": (DINNER_A, ["dining"]),
    "spa": (SPA_A, ["spa"]),
}


class ScriptedConcierge:
    """Implements AssistantService with canned answers streamed word by word.

    `gate` (a threading.Event, set by default) pauses the stream halfway through an answer
    while cleared, so a test can look at the page in the middle of streaming.
    """

    name = "concierge"
    ready = True

    def __init__(self) -> None:
        self.gate = threading.Event()
        self.gate.set()
        self.calls: list[tuple[str, str]] = []
        self.user_ids: list[str | None] = []

    def info(self) -> dict[str, Any]:
        return {
            "name": "Seaside Grand Hotel",
            "location": "Portland, Maine",
            "categories": ["dining", "spa", "rooms", "pool"],
            "document_count": 42,
        }

    async def stream(
        self, message: str, thread_id: str, *, user_id: str | None = None
    ) -> AsyncIterator[ChatEvent]:
        self.calls.append((message, thread_id))
        self.user_ids.append(user_id)
        yield ChatEvent("metadata", {"thread_id": thread_id})
        lowered = message.lower()
        if "fail" in lowered:
            raise RuntimeError("simulated model crash")
        if "unavailable" in lowered:  # how a real service reports its own failure
            yield ChatEvent("error", {"error": "The knowledge base is unavailable right now."})
            yield ChatEvent("done", {"done": True})
            return
        if lowered.startswith("hello"):
            yield ChatEvent("token", {"content": "Let me check"})
            await asyncio.sleep(0.05)
            yield ChatEvent("replace", {"content": GREETING})
            yield ChatEvent("sources", {"sources": []})
            yield ChatEvent("done", {"done": True})
            return
        answer, sources = next(
            (value for key, value in ANSWERS.items() if key in lowered),
            (f"Here is what I know about: {message}", ["faq"]),
        )
        words = answer.split(" ")
        for index, word in enumerate(words):
            if index == len(words) // 2:
                while not self.gate.is_set():
                    await asyncio.sleep(0.02)
            await asyncio.sleep(0.01)
            yield ChatEvent("token", {"content": word if index == 0 else f" {word}"})
        yield ChatEvent("sources", {"sources": sources})
        yield ChatEvent("done", {"done": True})

    async def ask(self, message: str, thread_id: str) -> Answer:  # pragma: no cover - unused
        raise NotImplementedError

    async def aclose(self) -> None:
        pass


class LiveServer:
    """uvicorn in a background thread, on a socket bound before the thread starts (no race)."""

    def __init__(self, *services: Any) -> None:
        settings = Settings(
            assistant="concierge",
            rate_limit_chat_per_minute=1000,
            sse_timeout_s=10,
            allowed_origins=[],
        )

        async def factory(_settings: Settings):
            return {service.name: service for service in services}

        app = create_app(settings, service_factory=factory)
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
        while not self.server.started:
            if not self.thread.is_alive() or time.monotonic() > deadline:
                raise RuntimeError("the test server did not start")
            time.sleep(0.05)
        return self

    def __exit__(self, *exc: object) -> None:
        self.server.should_exit = True
        self.thread.join(timeout=10)
        self.socket.close()


@pytest.fixture(scope="module")
def concierge() -> ScriptedConcierge:
    return ScriptedConcierge()


@pytest.fixture(scope="module")
def live_server(concierge) -> Iterator[LiveServer]:
    with LiveServer(concierge) as server:
        yield server


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    if not CHROMIUM.exists():
        pytest.fail(f"Chromium not found at {CHROMIUM}: install it with `apt-get install chromium`")
    with sync_api.sync_playwright() as playwright:
        try:
            browser = playwright.chromium.launch(
                executable_path=str(CHROMIUM), headless=True, args=CHROMIUM_ARGS
            )
        except sync_api.Error as exc:
            pytest.fail(
                f"could not start Chromium at {CHROMIUM} ({exc}); "
                "install it with `apt-get install chromium`"
            )
        yield browser
        browser.close()


def open_page(browser, live_server, problems: list[str], **context_options):
    context = browser.new_context(**context_options)
    page = context.new_page()
    # Any script error or console error (a CSP violation is one) fails the test.
    page.on("pageerror", lambda err: problems.append(f"page error: {err}"))
    page.on("console", lambda msg: msg.type == "error" and problems.append(f"console: {msg.text}"))
    page.goto(live_server.url + "/")
    expect(page.locator("#status")).to_have_attribute("data-state", "online")
    return page


@pytest.fixture
def problems() -> Iterator[list[str]]:
    found: list[str] = []
    yield found
    assert found == [], found


@pytest.fixture
def page(browser, live_server, problems):
    page = open_page(browser, live_server, problems, viewport={"width": 1100, "height": 800})
    yield page
    page.context.close()


def assistant_messages(page):
    return page.locator('#messages li[data-role="assistant"]')


def send(page, text: str) -> None:
    box = page.get_by_label("Your message")
    box.fill(text)
    box.press("Enter")


def wait_for_answer(page, text: str):
    last = assistant_messages(page).last
    expect(last.locator(".bubble-text")).to_have_text(text)
    expect(last).to_have_attribute("data-status", "done")
    return last


def test_streams_answer_with_sources_and_survives_reload(page, concierge):
    expect(page).to_have_title("Seaside Grand Hotel · Concierge")
    expect(page.locator("#property-name")).to_have_text("Seaside Grand Hotel")

    concierge.gate.clear()  # hold the answer halfway
    send(page, POOL_Q)
    expect(page.locator('#messages li[data-role="user"] .bubble-text')).to_have_text(POOL_Q)
    answer = assistant_messages(page).last
    half = " ".join(POOL_A.split(" ")[: len(POOL_A.split(" ")) // 2])
    expect(answer.locator(".bubble-text")).to_have_text(half)
    # Mid-stream: partial text, streaming state, composer disabled, no sources yet.
    expect(answer).to_have_attribute("data-status", "streaming")
    expect(page.get_by_label("Your message")).to_be_disabled()
    expect(page.get_by_role("button", name="Send")).to_be_disabled()
    expect(answer.locator(".source-chip")).to_have_count(0)
    concierge.gate.set()

    wait_for_answer(page, POOL_A)
    expect(answer.locator(".source-chip")).to_have_text(["amenities", "hours"])
    expect(page.get_by_label("Your message")).to_be_enabled()
    message, thread_id = concierge.calls[-1]
    assert message == POOL_Q and uuid.UUID(thread_id)
    stored = page.evaluate(f"JSON.parse(localStorage.getItem('{STORAGE_KEY}'))")
    assert stored["threadId"] == thread_id

    page.reload()
    expect(page.locator("#welcome")).to_be_hidden()
    expect(page.locator("#messages .bubble-text")).to_have_text([POOL_Q, POOL_A])
    expect(assistant_messages(page).last.locator(".source-chip")).to_have_text(
        ["amenities", "hours"]
    )

    # The conversation continues on the same thread after the reload.
    send(page, DINNER_Q)
    wait_for_answer(page, DINNER_A)
    assert concierge.calls[-1] == (DINNER_Q, thread_id)

    page.get_by_role("button", name="New conversation").click()
    expect(page.locator("#messages li")).to_have_count(0)
    expect(page.locator("#welcome")).to_be_visible()
    assert page.evaluate(f"localStorage.getItem('{STORAGE_KEY}')") is None
    page.reload()
    expect(page.locator("#messages li")).to_have_count(0)

    send(page, DINNER_Q)
    wait_for_answer(page, DINNER_A)
    assert concierge.calls[-1][1] != thread_id


def test_replace_suggestions_and_polite_errors(page, concierge):
    # Topic suggestions come from GET /property; clicking one asks about it.
    expect(page.locator(".suggestion")).to_have_text(["Dining", "Spa", "Rooms", "Pool"])
    page.get_by_role("button", name="Spa").click()
    wait_for_answer(page, SPA_A)
    assert concierge.calls[-1][0] == "What can you tell me about spa?"

    send(page, "hello there")
    greeting = wait_for_answer(page, GREETING)  # the draft token was replaced, not appended
    expect(greeting.locator(".sources")).to_have_count(0)

    send(page, "please fail now")
    failed = assistant_messages(page).last
    expect(failed).to_have_attribute("data-status", "error")
    expect(failed.locator(".bubble-text")).to_have_text(
        "Sorry, something went wrong while answering. Please try again."
    )
    expect(page.get_by_label("Your message")).to_be_enabled()
    assert "simulated" not in page.content()

    send(page, "is the kb unavailable?")
    reported = assistant_messages(page).last
    expect(reported.locator(".bubble-text")).to_have_text(
        "The knowledge base is unavailable right now."
    )
    expect(reported).to_have_attribute(
        "data-status", "error"
    )  # the `done` after it changes nothing

    # Shift+Enter makes a new line instead of sending.
    box = page.get_by_label("Your message")
    box.fill("first line")
    box.press("Shift+Enter")
    box.type("second line")
    assert box.input_value() == "first line\nsecond line"
    expect(assistant_messages(page)).to_have_count(4)


@pytest.mark.parametrize(
    ("fulfil", "expected"),
    [
        (
            {"status": 429, "headers": {"Retry-After": "7"}, "json": {"error": "Too many"}},
            "You're sending messages a little quickly. Please wait 7 seconds and try again.",
        ),
        (
            {"status": 503, "json": {"error": "not ready"}},
            "The assistant is still getting ready. Please try again in a moment.",
        ),
        (None, "Couldn't reach the assistant. Check your connection and try again."),
    ],
    ids=["rate-limited", "not-ready", "network-down"],
)
def test_refused_requests_are_explained_politely(page, problems, fulfil, expected):
    def answer(route):
        if fulfil is None:
            route.abort("connectionrefused")
        else:
            route.fulfill(**fulfil)

    page.route("**/chat", answer)
    send(page, DINNER_Q)
    failed = assistant_messages(page).last
    expect(failed).to_have_attribute("data-status", "error")
    expect(failed.locator(".bubble-text")).to_have_text(expected)
    # The question comes back to the composer so it can be sent again.
    expect(page.get_by_label("Your message")).to_have_value(DINNER_Q)
    expect(page.get_by_role("button", name="Send")).to_be_enabled()
    # The browser logs the refused request itself; that is expected here, nothing else is.
    problems[:] = [p for p in problems if "Failed to load resource" not in p]


@pytest.mark.parametrize("width", [360, 390])
def test_phone_width_layout(browser, live_server, problems, width):
    page = open_page(
        browser,
        live_server,
        problems,
        viewport={"width": width, "height": 740},
        device_scale_factor=2,
        is_mobile=True,
        has_touch=True,
    )
    try:
        send(page, POOL_Q)
        wait_for_answer(page, POOL_A)
        # Nothing overflows sideways, and every control sits inside the viewport.
        scroll_width = page.evaluate("document.documentElement.scrollWidth")
        assert scroll_width <= width
        for selector in [
            "#composer",
            "#new-conversation",
            "#messages li[data-role=assistant]",
            ".source-chip",
        ]:
            box = page.locator(selector).first.bounding_box()
            assert box and box["x"] >= 0 and box["x"] + box["width"] <= width + 0.5, selector
            assert box["y"] + box["height"] <= 740 + 0.5, selector
        expect(page.get_by_role("button", name="New conversation")).to_be_visible()
    finally:
        page.context.close()


# ---------------------------------------------------------------- two assistants: telecom

ROUTER_Q = "My router PON LED is blinking red. What's wrong?"
ROUTER_A = "A blinking PON LED means the router is synchronising with the ONT."
REFUND_Q = "I want a refund for invoice INV-20251001"
INVOICE_Q = "Show me invoice INV-1"
TELECOM_CITATIONS = [
    {
        "title": "Router LED Indicators",
        "section": "Troubleshooting",
        "file": "02_router_wifi.md",
        "version": "2.1",
        "score": 0.82,
    },
    {
        "title": "Power and Connections",
        "section": "Cables",
        "file": "01_setup.md",
        "version": "",
        "score": 0.71,
    },
]


class ScriptedTelecom:
    """A telecom AssistantService: a technical answer with citations for 'router', a billing
    tool call for 'refund' (ok) and 'invoice' (failed), the fallback otherwise."""

    name = "telecom"
    ready = True

    def __init__(self) -> None:
        self.calls: list[tuple[str, str, str | None]] = []

    def info(self) -> dict[str, Any]:
        return {
            "assistant": "telecom",
            "name": "Telecom support",
            "location": None,
            "categories": ["technical", "billing"],
            "document_count": 7,
            "takes_user_id": True,
        }

    async def stream(
        self, message: str, thread_id: str, *, user_id: str | None = None
    ) -> AsyncIterator[ChatEvent]:
        self.calls.append((message, thread_id, user_id))
        yield ChatEvent("metadata", {"thread_id": thread_id})
        lowered = message.lower()
        citations: list[dict[str, Any]] = []
        tools: list[dict[str, Any]] = []
        if "router" in lowered:
            route, citations = "technical", TELECOM_CITATIONS
            for index, word in enumerate(ROUTER_A.split(" ")):
                await asyncio.sleep(0.005)
                yield ChatEvent("token", {"content": word if index == 0 else f" {word}"})
        elif "refund" in lowered:
            route = "billing"
            tools = [
                {
                    "name": "open_refund_case",
                    "args": {"user_id": user_id, "invoice_id": "INV-20251001", "amount_pln": 20},
                    "ok": True,
                    "output": {"case_id": "RC-0001", "status": "open"},
                    "error": None,
                }
            ]
            yield ChatEvent("replace", {"content": f"Refund case RC-0001 opened for {user_id}."})
        elif "invoice" in lowered:
            route = "billing"
            tools = [
                {
                    "name": "get_invoice",
                    "args": {"user_id": user_id, "invoice_id": "INV-1"},
                    "ok": False,
                    "output": None,
                    "error": f"No invoice INV-1 for customer {user_id}.",
                }
            ]
            yield ChatEvent("replace", {"content": "I could not find that invoice."})
        else:
            route = "fallback"
            yield ChatEvent(
                "replace", {"content": "I can help with technical or billing questions."}
            )
        yield ChatEvent(
            "sources",
            {
                "sources": [f"{c['title']} — {c['section']}" for c in citations],
                "citations": citations,
                "used_tools": tools,
                "route": route,
            },
        )
        yield ChatEvent("done", {"done": True})

    async def ask(self, message: str, thread_id: str, *, user_id: str | None = None) -> Answer:
        raise NotImplementedError  # pragma: no cover - unused

    async def aclose(self) -> None:
        pass


@pytest.fixture(scope="module")
def two_assistants() -> tuple[ScriptedConcierge, ScriptedTelecom]:
    return ScriptedConcierge(), ScriptedTelecom()


@pytest.fixture(scope="module")
def multi_server(two_assistants) -> Iterator[LiveServer]:
    with LiveServer(*two_assistants) as server:
        yield server


def test_telecom_picker_customer_id_tools_and_sources(
    browser, multi_server, two_assistants, problems
):
    concierge, telecom = two_assistants
    page = open_page(browser, multi_server, problems, viewport={"width": 1100, "height": 800})
    try:
        picker = page.get_by_label("Assistant")
        customer = page.get_by_label("Customer ID")
        # The picker lists both, the server's default first picked; the concierge needs no id.
        expect(picker).to_be_visible()
        expect(picker).to_have_value("concierge")
        expect(picker.locator("option")).to_have_count(2)
        expect(customer).to_be_hidden()
        expect(page).to_have_title("Seaside Grand Hotel · Concierge")
        send(page, DINNER_Q)
        wait_for_answer(page, DINNER_A)
        assert concierge.user_ids[-1] is None

        # Switching starts a new conversation with the telecom assistant.
        picker.select_option("telecom")
        expect(page.locator("#messages li")).to_have_count(0)
        expect(page.locator("#welcome")).to_be_visible()
        expect(page.locator("#property-name")).to_have_text("Telecom support")
        expect(page).to_have_title("Telecom support · Frontdesk")
        expect(customer).to_be_visible()
        expect(customer).to_have_value("u123")

        send(page, ROUTER_Q)
        technical = wait_for_answer(page, ROUTER_A)
        expect(technical.locator(".citation")).to_have_text(
            [
                "Router LED Indicators — Troubleshooting — 02_router_wifi.md (2.1)",
                "Power and Connections — Cables — 01_setup.md",
            ]
        )
        expect(technical.locator(".sources-label")).to_have_text("Sources")
        expect(technical.locator(".tools")).to_have_count(0)
        message, thread_id, user_id = telecom.calls[-1]
        assert (message, user_id) == (ROUTER_Q, "u123") and uuid.UUID(thread_id)
        assert concierge.calls[-1][0] == DINNER_Q  # the concierge was not asked

        customer.fill("u777")
        send(page, REFUND_Q)
        billing = wait_for_answer(page, "Refund case RC-0001 opened for u777.")
        tools = billing.locator(".tools")
        expect(tools.locator(".tools-label")).to_have_text("Tools used")
        expect(tools.locator(".tool-name")).to_have_text(["open_refund_case"])
        expect(tools.locator(".tool-status")).to_have_text(["ok"])
        expect(billing.locator(".citation")).to_have_count(0)
        args = tools.locator("dd code").first
        expect(args).to_be_hidden()  # folded until asked for
        tools.locator("summary").click()
        expect(args).to_have_text('{"user_id":"u777","invoice_id":"INV-20251001","amount_pln":20}')
        expect(tools.locator("dt")).to_have_text(["args", "output"])
        expect(tools.locator("dd code").nth(1)).to_have_text(
            '{"case_id":"RC-0001","status":"open"}'
        )
        assert telecom.calls[-1][1:] == (thread_id, "u777")  # same conversation, new customer

        send(page, INVOICE_Q)
        failed = wait_for_answer(page, "I could not find that invoice.")
        failed.locator("summary").click()
        expect(failed.locator(".tool-status")).to_have_text(["error"])
        expect(failed.locator("dt")).to_have_text(["args", "error"])
        expect(failed.locator("dd code").nth(1)).to_have_text("No invoice INV-1 for customer u777.")

        # A reload keeps the assistant, the customer id, and the rendered tools and sources.
        page.reload()
        expect(page.locator("#status")).to_have_attribute("data-state", "online")
        expect(picker).to_have_value("telecom")
        expect(customer).to_have_value("u777")
        expect(assistant_messages(page)).to_have_count(3)
        expect(assistant_messages(page).first.locator(".citation")).to_have_count(2)
        expect(assistant_messages(page).nth(1).locator(".tool-name")).to_have_text(
            ["open_refund_case"]
        )
        send(page, "hello again")
        wait_for_answer(page, "I can help with technical or billing questions.")
        assert telecom.calls[-1][1:] == (thread_id, "u777")

        # Back to the concierge: a new conversation, no customer id field, none sent.
        picker.select_option("concierge")
        expect(page.locator("#messages li")).to_have_count(0)
        expect(customer).to_be_hidden()
        expect(page.locator("#property-name")).to_have_text("Seaside Grand Hotel")
        send(page, POOL_Q)
        wait_for_answer(page, POOL_A)
        assert concierge.user_ids[-1] is None
        assert concierge.calls[-1][1] != thread_id
    finally:
        page.context.close()


def test_picker_fits_a_phone(browser, multi_server, problems):
    width = 360
    page = open_page(
        browser,
        multi_server,
        problems,
        viewport={"width": width, "height": 740},
        device_scale_factor=2,
        is_mobile=True,
        has_touch=True,
    )
    try:
        page.get_by_label("Assistant").select_option("telecom")
        expect(page.get_by_label("Customer ID")).to_be_visible()
        send(page, REFUND_Q)
        wait_for_answer(page, "Refund case RC-0001 opened for u123.")
        page.locator(".tool summary").click()
        assert page.evaluate("document.documentElement.scrollWidth") <= width
        for selector in ["#assistant-picker", "#new-conversation", "#customer-id", ".tool"]:
            box = page.locator(selector).first.bounding_box()
            assert box and box["x"] >= 0 and box["x"] + box["width"] <= width + 0.5, selector
    finally:
        page.context.close()


# ---------------------------------------------------------------- a data analyst: SQL and rows

HOURS_Q = "How many hours did each technician log last week?"
HOURS_A = "Ann logged 12.5 hours; Bob's hours are not recorded."
HOURS_SQL = (
    "SELECT t.name, SUM(w.hours) AS hours\n"
    "FROM technicians t LEFT JOIN work_logs w ON w.technician_id = t.id\n"
    "GROUP BY t.name LIMIT 100"
)
XSS = "<img src=x onerror=alert(1)>"
MANUAL_Q = "What does the manual say about overtime?"
MANUAL_A = "Overtime is logged as a separate work entry."


class ScriptedAnalyst:
    """A text-to-SQL AssistantService: progress events (route, tool, the SQL agent's steps,
    one correction), the answer word by word, then `sources` with sql, columns and rows.

    'hours' answers with two rows (a null among them), 'html' with a row holding markup,
    'wide' with six columns, 'work orders' with 150 rows cut to a truncated 100, 'manual' from the manual (no SQL).
    `gate` holds the stream after the progress events, before the first token."""

    name = "analyst"
    ready = True

    def __init__(self) -> None:
        self.gate = threading.Event()
        self.gate.set()
        self.calls: list[tuple[str, str]] = []

    def info(self) -> dict[str, Any]:
        return {
            "assistant": "analyst",
            "name": "Data analyst",
            "location": None,
            "categories": ["sql", "rag", "general"],
            "document_count": 3,
            "shows_sql": True,
        }

    async def stream(
        self, message: str, thread_id: str, *, user_id: str | None = None
    ) -> AsyncIterator[ChatEvent]:
        self.calls.append((message, thread_id))
        yield ChatEvent("metadata", {"thread_id": thread_id})
        lowered = message.lower()
        if "manual" in lowered:
            yield ChatEvent("progress", {"stage": "route", "route": "rag"})
            yield ChatEvent("progress", {"stage": "tool", "tool": "rag_agent"})
            yield ChatEvent("replace", {"content": MANUAL_A})
            yield ChatEvent(
                "sources",
                {
                    "sources": ["Work logs — Overtime"],
                    "route": "rag",
                    "sql": None,
                    "columns": [],
                    "rows": [],
                    "row_count": 0,
                    "truncated": False,
                },
            )
            yield ChatEvent("done", {"done": True})
            return
        yield ChatEvent("progress", {"stage": "route", "route": "sql"})
        yield ChatEvent("progress", {"stage": "tool", "tool": "sql_agent"})
        for step in ("select_tables", "generate_sql", "execute", "correct_sql", "execute"):
            await asyncio.sleep(0.01)
            yield ChatEvent("progress", {"stage": "step", "step": step})
        while not self.gate.is_set():
            await asyncio.sleep(0.02)
        if "html" in lowered:
            answer, columns = "One note found.", ["id", "note"]
            rows: list[dict[str, Any]] = [{"id": 7, "note": XSS}]
        elif "wide" in lowered:
            answer = "Here is the asset register."
            columns = ["asset_id", "asset_name", "building", "floor", "installed_on", "cost_eur"]
            rows = [
                {
                    "asset_id": f"A-{i:04d}",
                    "asset_name": "Rooftop air handling unit",
                    "building": "North campus, block C",
                    "floor": i,
                    "installed_on": "2019-04-01",
                    "cost_eur": 18250.75,
                }
                for i in range(1, 4)
            ]
        elif "work orders" in lowered:
            answer, columns = "Here are the work orders.", ["id", "status"]
            rows = [{"id": i, "status": "open"} for i in range(1, 151)]
        else:
            answer, columns = HOURS_A, ["name", "hours"]
            rows = [{"name": "Ann", "hours": 12.5}, {"name": "Bob", "hours": None}]
        for index, word in enumerate(answer.split(" ")):
            await asyncio.sleep(0.005)
            yield ChatEvent("token", {"content": word if index == 0 else f" {word}"})
        yield ChatEvent(
            "sources",
            {
                "sources": [],
                "route": "sql",
                "sql": HOURS_SQL,
                "columns": columns,
                "rows": rows,
                "row_count": len(rows),
                "truncated": len(rows) > 100,
            },
        )
        yield ChatEvent("done", {"done": True})

    async def ask(self, message: str, thread_id: str, *, user_id: str | None = None) -> Answer:
        raise NotImplementedError  # pragma: no cover - unused

    async def aclose(self) -> None:
        pass


@pytest.fixture(scope="module")
def analyst_pair() -> tuple[ScriptedConcierge, ScriptedAnalyst]:
    return ScriptedConcierge(), ScriptedAnalyst()


@pytest.fixture(scope="module")
def analyst_server(analyst_pair) -> Iterator[LiveServer]:
    with LiveServer(*analyst_pair) as server:
        yield server


@pytest.fixture
def analyst_page(browser, analyst_server, problems):
    page = open_page(browser, analyst_server, problems, viewport={"width": 1100, "height": 800})
    page.get_by_label("Assistant").select_option("analyst")
    expect(page.locator("#property-name")).to_have_text("Data analyst")
    yield page
    page.context.close()


def test_analyst_progress_sql_and_rows_survive_reload(analyst_page, analyst_pair):
    page = analyst_page
    _, analyst = analyst_pair
    analyst.gate.clear()  # hold the answer after the progress events
    try:
        send(page, HOURS_Q)
        answer = assistant_messages(page).last
        status = answer.locator(".progress-status")
        # Every step went by; the last one (after a correction) is what is shown, quietly.
        expect(status).to_have_text("Running the corrected query…")
        expect(status).to_have_attribute("aria-hidden", "true")
        expect(answer).to_have_attribute("data-status", "streaming")
        expect(answer.locator(".bubble-text")).to_have_text("")
        expect(answer.locator(".query-result")).to_have_count(0)
    finally:
        analyst.gate.set()

    answer = wait_for_answer(page, HOURS_A)
    expect(answer.locator(".progress-status")).to_have_count(0)
    expect(answer.locator(".typing")).to_have_count(0)
    expect(answer.locator(".sources")).to_have_count(0)  # no manual sections for SQL

    def check(answer) -> None:
        sql = answer.locator("details.sql-block")
        expect(sql.locator("summary")).to_have_text("SQL that ran")
        code = sql.locator("pre code")
        expect(code).to_be_hidden()  # folded until asked for
        assert code.text_content() == HOURS_SQL
        sql.locator("summary").click()
        expect(code).to_be_visible()
        table = answer.locator("table.result-table")
        expect(table.locator("thead th")).to_have_text(["name", "hours"])
        expect(table.locator("tbody tr")).to_have_count(2)
        expect(table.locator("caption")).to_have_text("2 rows")
        expect(table.locator("tbody tr").nth(0).locator("td")).to_have_text(["Ann", "12.5"])
        bob = table.locator("tbody tr").nth(1).locator("td")
        expect(bob).to_have_text(["Bob", "—"])
        # The numeric column is right-aligned, its null too; text is not.
        aligns = table.locator("td, th").evaluate_all(
            "cells => cells.map(c => getComputedStyle(c).textAlign)"
        )
        assert aligns == ["left", "right", "left", "right", "left", "right"]

    check(answer)

    stored = page.evaluate(f"JSON.parse(localStorage.getItem('{STORAGE_KEY}'))")
    saved = stored["messages"][-1]
    assert saved["sql"] == HOURS_SQL and saved["columns"] == ["name", "hours"]
    assert saved["rows"][1] == {"name": "Bob", "hours": None} and saved["truncated"] is False
    assert "progress" not in saved

    page.reload()
    expect(page.locator("#status")).to_have_attribute("data-state", "online")
    expect(page.get_by_label("Assistant")).to_have_value("analyst")
    restored = assistant_messages(page).last
    expect(restored.locator(".bubble-text")).to_have_text(HOURS_A)
    check(restored)

    # A manual answer: its sections as chips, no SQL and no table; the conversation goes on.
    send(page, MANUAL_Q)
    manual = wait_for_answer(page, MANUAL_A)
    expect(manual.locator(".source-chip")).to_have_text(["Work logs — Overtime"])
    expect(manual.locator(".query-result")).to_have_count(0)
    assert analyst.calls[-1][1] == analyst.calls[-2][1]


def test_analyst_rows_are_text_and_capped(analyst_page, analyst_pair):
    page = analyst_page
    page.evaluate("window.__xss = 0; window.alert = () => { window.__xss += 1; }")
    send(page, "Show the html note")
    answer = wait_for_answer(page, "One note found.")
    cell = answer.locator("tbody td").nth(1)
    expect(cell).to_have_text(XSS)
    assert cell.evaluate("td => td.children.length") == 0
    assert answer.locator("img").count() == 0
    expect(answer.locator("tbody td").first).to_have_text("7")

    send(page, "Show many work orders")
    many = wait_for_answer(page, "Here are the work orders.")
    table = many.locator("table.result-table")
    expect(table.locator("tbody tr")).to_have_count(100)
    expect(table.locator("caption")).to_have_text("first 100 rows")

    page.reload()
    expect(page.locator("#status")).to_have_attribute("data-state", "online")
    expect(assistant_messages(page)).to_have_count(2)
    expect(assistant_messages(page).first.locator("tbody td").nth(1)).to_have_text(XSS)
    assert page.locator("#messages img").count() == 0
    expect(assistant_messages(page).last.locator("tbody tr")).to_have_count(100)
    expect(assistant_messages(page).last.locator("caption")).to_have_text("first 100 rows")
    assert page.evaluate("window.__xss || 0") == 0


def test_analyst_wide_table_scrolls_inside_on_a_phone(browser, analyst_server, problems):
    width = 360
    page = open_page(
        browser,
        analyst_server,
        problems,
        viewport={"width": width, "height": 740},
        device_scale_factor=2,
        is_mobile=True,
        has_touch=True,
    )
    try:
        page.get_by_label("Assistant").select_option("analyst")
        expect(page.locator("#property-name")).to_have_text("Data analyst")
        send(page, "Show the wide asset register")
        wait_for_answer(page, "Here is the asset register.")
        page.locator(".sql-block summary").click()
        # The table is wider than the phone: its own box scrolls, the page does not.
        wrap = page.locator(".result-table-wrap")
        assert wrap.evaluate("w => w.scrollWidth > w.clientWidth")
        assert page.evaluate("document.documentElement.scrollWidth") <= width
        for selector in [".sql-block", ".result-table-wrap"]:
            box = page.locator(selector).first.bounding_box()
            assert box and box["x"] >= 0 and box["x"] + box["width"] <= width + 0.5, selector
    finally:
        page.context.close()
