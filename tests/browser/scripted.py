"""Scripted assistant services for the browser tests: canned answers streamed like the real
ones (metadata, progress, token or replace, sources with documents, done)."""

from __future__ import annotations

import asyncio
import threading
from collections.abc import AsyncIterator
from typing import Any

from frontdesk.assistants.base import Answer, ChatEvent
from frontdesk.assistants.telecom.technical import with_sources

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
CHECKED_Q = "Please answer with checked hours"
CHECKED_FIRST = "Happy to help. "
CHECKED_REST = "The spa opens at 9 am."
BARE_URL_TEXT = "For anything else, call 1-888-226-7711 or visit https://mohegansun.com."
HOSTILE_TEXT = (
    'Here is **bold** text.\n\n<img src=x onerror="window.__xss=1"> and '
    "[click me](javascript:window.__xss=2) and [the site](https://example.com/spa).\n\n"
    "- <script>window.__xss=3</script>\n- `<b>code</b>`"
)
POOL_DOC = {
    "id": "amenities/Indoor pool",
    "title": "Indoor pool",
    "text": 'Heated **saltwater** pool.\n<iframe src="javascript:window.__xss=4"></iframe>',
    "category": "amenities",
}

ANSWERS = {  # keyword -> (answer, categories, documents); the first that matches
    "spa": (SPA_A, ["amenities"], []),
    "pool": (POOL_A, ["amenities"], [POOL_DOC]),
    "dinner": (
        DINNER_A,
        ["restaurants"],
        [
            {
                "id": "r/1",
                "title": "Salt & Pine",
                "text": "Rooftop seafood.",
                "category": "restaurants",
            },
            {
                "id": "r/2",
                "title": "Harbor Tavern",
                "text": "Casual pub.",
                "category": "restaurants",
            },
        ],
    ),
}


class ScriptedService:
    name = "scripted"
    ready = True

    def __init__(self) -> None:
        # `gate` (set by default) pauses a stream halfway while cleared, so a test can look at
        # the page mid-answer; `stopped` counts streams closed before their end (a cancel).
        self.gate = threading.Event()
        self.gate.set()
        self.calls: list[tuple[str, str]] = []
        self.user_ids: list[str | None] = []
        self.stopped = 0
        # thread -> the conversation as the server's transcript() gives it (finished turns).
        self.history: dict[str, list[dict[str, str]]] = {}

    async def wait_gate(self) -> None:
        while not self.gate.is_set():
            await asyncio.sleep(0.02)

    async def stream(
        self, message: str, thread_id: str, *, user_id: str | None = None
    ) -> AsyncIterator[ChatEvent]:
        self.calls.append((message, thread_id))
        self.user_ids.append(user_id)
        finished = False
        text = ""
        try:
            async for event in self.answer(message, thread_id, user_id):
                if event.event == "token":
                    text += event.data["content"]
                elif event.event == "replace":
                    text = event.data["content"]
                yield event
            finished = True
        finally:
            if not finished:
                self.stopped += 1
            self.history.setdefault(thread_id, []).extend(
                [{"role": "user", "content": message}, {"role": "assistant", "content": text}]
            )

    async def transcript(self, thread_id: str) -> list[dict[str, str]]:
        return list(self.history.get(thread_id, []))

    async def forget_last_turn(self, thread_id: str) -> bool:
        turns = self.history.get(thread_id) or []
        del turns[-2:]
        return True

    async def words(self, text: str, *, gate_at: int | None = None) -> AsyncIterator[ChatEvent]:
        words = text.split(" ")
        for index, word in enumerate(words):
            if index == (len(words) // 2 if gate_at is None else gate_at):
                await self.wait_gate()
            await asyncio.sleep(0.005)
            yield ChatEvent("token", {"content": word if index == 0 else f" {word}"})

    def answer(self, message, thread_id, user_id) -> AsyncIterator[ChatEvent]:
        raise NotImplementedError

    async def ask(self, message: str, thread_id: str, **_: Any) -> Answer:  # pragma: no cover
        raise NotImplementedError

    async def aclose(self) -> None:
        pass


class ScriptedConcierge(ScriptedService):
    name = "concierge"

    def info(self) -> dict[str, Any]:
        return {
            "name": "Seaside Grand Hotel",
            "location": "Portland, Maine",
            "categories": ["restaurants", "amenities", "hotel", "faq"],
            "document_count": 42,
        }

    async def answer(self, message, thread_id, user_id):
        yield ChatEvent("metadata", {"thread_id": thread_id})
        lowered = message.lower()
        if "fail" in lowered:
            raise RuntimeError("simulated model crash")
        if "unavailable" in lowered:  # how a real service reports its own failure
            yield ChatEvent("error", {"error": "The knowledge base is unavailable right now."})
            yield ChatEvent("done", {"done": True})
            return
        if "queue" in lowered:
            for position in (3, 2):  # 2 ahead, then 1
                yield ChatEvent("progress", {"stage": "queue", "position": position, "waiting": 3})
                await asyncio.sleep(0.01)
            await self.wait_gate()
        if "checked" in lowered:  # text shown, then the rest held while it is checked
            yield ChatEvent("token", {"content": CHECKED_FIRST})
            yield ChatEvent("progress", {"stage": "checking"})
            await self.wait_gate()
            yield ChatEvent("token", {"content": CHECKED_REST})
            yield ChatEvent("sources", {"sources": [], "items": [], "documents": []})
            yield ChatEvent("done", {"done": True})
            return
        if "website" in lowered:  # a bare URL, as the out-of-time answer gives the resort's site
            yield ChatEvent("replace", {"content": BARE_URL_TEXT})
            yield ChatEvent("sources", {"sources": [], "items": [], "documents": []})
            yield ChatEvent("done", {"done": True})
            return
        if "hostile" in lowered:
            yield ChatEvent("replace", {"content": HOSTILE_TEXT})
            yield ChatEvent(
                "sources",
                {"sources": ["amenities"], "items": ["Indoor pool"], "documents": [POOL_DOC]},
            )
            yield ChatEvent("done", {"done": True})
            return
        if lowered.startswith("hello"):
            yield ChatEvent("token", {"content": "Let me check"})
            await asyncio.sleep(0.05)
            yield ChatEvent("replace", {"content": GREETING})
            yield ChatEvent("sources", {"sources": [], "items": [], "documents": []})
            yield ChatEvent("done", {"done": True})
            return
        answer, categories, documents = next(
            (value for key, value in ANSWERS.items() if key in lowered),
            (f"Here is what I know about: {message}", ["faq"], []),
        )
        if "again" in lowered or "regenerate" in lowered:
            answer = f"Answer number {len(self.calls)}."
        async for event in self.words(answer):
            yield event
        names = [d["title"] for d in documents]
        yield ChatEvent("sources", {"sources": categories, "items": names, "documents": documents})
        yield ChatEvent("done", {"done": True})


class ScriptedHelpdesk(ScriptedConcierge):
    """An assistant with no plug-in, hence no UI module: the shell's generic rendering."""

    name = "helpdesk"

    def info(self) -> dict[str, Any]:
        return {"name": "Helpdesk", "location": None, "categories": ["it_support"]}


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

# The router answer as the real service ends it: with the Sources section it writes from the
# retrieved sections (the web chat lists them under the answer instead).
ROUTER_ANSWER_TEXT = with_sources(
    ROUTER_A,
    [
        {
            "content": f"Text of {c['title']}.",
            "metadata": {
                "title": c["title"],
                "section_path": f"{c['title']} > {c['section']}",
                "path": c["file"],
                "version": c["version"],
            },
        }
        for c in TELECOM_CITATIONS
    ],
    "en",
)


class ScriptedTelecom(ScriptedService):
    """A telecom AssistantService: a technical answer with citations for 'router', a billing
    tool call for 'refund' (ok) and 'invoice' (failed), the fallback otherwise."""

    name = "telecom"

    def info(self) -> dict[str, Any]:
        return {
            "assistant": "telecom",
            "name": "Telecom support",
            "location": None,
            "categories": ["technical", "billing"],
            "document_count": 7,
            "takes_user_id": True,
        }

    async def answer(self, message, thread_id, user_id):
        yield ChatEvent("metadata", {"thread_id": thread_id})
        lowered = message.lower()
        citations: list[dict[str, Any]] = []
        tools: list[dict[str, Any]] = []
        if "router" in lowered:
            route, citations = "technical", TELECOM_CITATIONS
            for index, word in enumerate(ROUTER_A.split(" ")):
                await asyncio.sleep(0.005)
                yield ChatEvent("token", {"content": word if index == 0 else f" {word}"})
            # The rest of the final text, as the service streams it (agentkit.streaming).
            yield ChatEvent("token", {"content": ROUTER_ANSWER_TEXT[len(ROUTER_A) :]})
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
                "documents": [
                    {
                        "id": c["file"],
                        "title": f"{c['title']} — {c['section']}",
                        "text": f"Text of {c['title']}.",
                    }
                    for c in citations
                ],
                "used_tools": tools,
                "route": route,
            },
        )
        yield ChatEvent("done", {"done": True})


HOURS_Q = "How many hours did each technician log last week?"
HOURS_A = "Ann logged 12.5 hours; Bob's hours are not recorded."
HOURS_SQL = (
    "SELECT t.name, SUM(w.hours) AS hours\n"
    "FROM technicians t LEFT JOIN work_logs w ON w.technician_id = t.id\n"
    "GROUP BY t.name LIMIT 100"
)
XSS = "<img src=x onerror=alert(1)>"
# A turn whose SQL never ran: the last SQL tried, why in plain words, the database's words.
FAILED_Q = "Which query fails?"
FAILED_A = (
    "I could not write a query that runs for this question; the last try failed because the "
    "database could not run the query as written."
)
FAILED_SQL = "SELECT COUNT(COUNT(*)) AS n FROM secure_workorder AS workOrder LIMIT 100"
FAILED_WRITTEN = "SELECT COUNT(COUNT(*)) AS n FROM workOrder"
FAILED_ERRORS = ["misuse of aggregate function COUNT()"]
MANUAL_Q = "What does the manual say about overtime?"
MANUAL_A = "Overtime is logged as a separate work entry."
MANUAL_PAGE = (
    "## Overtime\n\nLog overtime as a **separate** work entry.\n\n<script>window.__xss=5</script>"
)


class ScriptedAnalyst(ScriptedService):
    """A text-to-SQL AssistantService: progress events (route, tool, the SQL agent's steps,
    one correction), the answer word by word, then `sources` with sql, columns and rows.

    'hours' answers with two rows (a null among them), 'html' with a row holding markup,
    'fails' with a query that did not run (the last SQL tried and why),
    'wide' with six columns, 'work orders' with 150 rows cut to a truncated 100, 'manual' from the manual (no SQL).
    `gate` holds the stream after the progress events, before the first token."""

    name = "analyst"

    def info(self) -> dict[str, Any]:
        return {
            "assistant": "analyst",
            "name": "Data analyst",
            "location": None,
            "categories": ["sql", "rag", "general"],
            "document_count": 3,
            "shows_sql": True,
        }

    async def answer(self, message, thread_id, user_id):
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
                    "documents": [
                        {"id": "wl", "title": "Work logs — Overtime", "text": MANUAL_PAGE}
                    ],
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
        await self.wait_gate()
        if "fails" in lowered:
            yield ChatEvent("replace", {"content": FAILED_A})
            yield ChatEvent(
                "sources",
                {
                    "sources": [],
                    "route": "sql",
                    "sql": FAILED_SQL,
                    "sql_written": FAILED_WRITTEN,
                    "sql_status": "failed",
                    "sql_problem": "the database could not run the query as written",
                    "sql_errors": FAILED_ERRORS,
                    "columns": [],
                    "rows": [],
                    "row_count": 0,
                    "truncated": False,
                },
            )
            yield ChatEvent("done", {"done": True})
            return
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
