"""The telecom `refunds` suite: does a refund conversation open the refund cases it should?

    frontdesk eval refunds --assistant telecom [--dataset FILE]

The default dataset, `data/eval/refunds.jsonl`, is a link to
`refund_conversations_written_apart.jsonl`: conversations written apart from the assistant, to
be measured and never tuned on; `refund_conversations_dev.jsonl` is the tuning set. The rows'
format is `refund_dataset.py`'s.

Each conversation runs through the whole service (router, agents, tools, the configured chat
model) on a thread of its own, signed in as `user_id`, each turn sent with `ask` in order.
Every conversation gets a billing database of its own: a new SQLite file seeded with the demo
customers (`billing_db`), so whatever an earlier conversation opened is never seen. One
database for the whole run would not do: the store keeps one open case per (customer,
invoice), so a second conversation about the same invoice would get the first one's case back
and open nothing. The cases in the database after the last turn are the ones the conversation
opened. Tickets go to a store of the run's own too, so a hand-off never reaches the operator's
queue, and conversations are checkpointed in memory.

Scores:
- right_case_count: the share of conversations that opened exactly the expected number of
  cases (a case opened on another customer's account counts as opened);
- exact_case: of the conversations expecting one case, the share that opened exactly one, on
  the signed-in customer's account, with the expected invoice, amount (to the grosz) and
  reason (those of them given);
- both per language and per kind, the time per turn (p50, p95), and the failures: each
  conversation that missed either, with what was expected, what was opened and the
  assistant's last reply.
"""

from __future__ import annotations

import asyncio
import dataclasses
import tempfile
import uuid
from collections import defaultdict
from collections.abc import Callable, Sequence
from decimal import Decimal
from itertools import count
from pathlib import Path
from typing import Any

from rich.console import Console
from sqlalchemy import select
from sqlalchemy.orm import Session

from frontdesk.assistants.plugin import EvalTarget
from frontdesk.assistants.telecom.billing_db import BillingStore, RefundCase
from frontdesk.assistants.telecom.refund_dataset import (
    ExpectedCase,
    OpenedCase,
    RefundConversation,
    load_conversations,
)
from frontdesk.config import Settings
from frontdesk.eval import metrics as m
from frontdesk.eval import suites
from frontdesk.eval.progress import progress_bar
from frontdesk.eval.suites import SuiteResult, per_language
from frontdesk.runtime import Models

SUITE = "refunds"
# How much of the assistant's last reply a failure shows.
REPLY_CHARS = 300
CENT = Decimal("0.01")


# --- billing databases ---------------------------------------------------------------------


def fresh_billing(folder: str | Path) -> Callable[[], BillingStore]:
    """`() -> a new billing database under folder`, seeded with the demo customers, each call
    its own SQLite file."""
    numbers = count(1)

    def make() -> BillingStore:
        store = BillingStore(f"sqlite:///{Path(folder) / f'billing-{next(numbers)}.sqlite'}")
        store.create_schema()
        store.seed()
        return store

    return make


def cases_in(store: BillingStore) -> list[OpenedCase]:
    """Every refund case in the store, whoever's, oldest first."""
    with Session(store.engine) as session:
        rows = session.scalars(select(RefundCase).order_by(RefundCase.id))
        return [
            OpenedCase(
                r.case_id, r.user_id, r.invoice_id, Decimal(r.amount_pln).quantize(CENT), r.reason
            )
            for r in rows
        ]


# --- scoring -------------------------------------------------------------------------------


def wrong_fields(expected: ExpectedCase, case: OpenedCase, user_id: str) -> list[str]:
    """The fields of `case` that differ from `expected` (the account it is on included); a
    field `expected` leaves as None is not compared."""
    wrong = []
    if case.user_id != user_id:
        wrong.append("user_id")
    if expected.invoice_id is not None and case.invoice_id.strip().upper() != expected.invoice_id:
        wrong.append("invoice_id")
    if expected.amount_pln is not None and case.amount_pln != expected.amount_pln:
        wrong.append("amount_pln")
    if expected.reason is not None and case.reason.strip().lower() != expected.reason:
        wrong.append("reason")
    return wrong


def _expected_text(conversation: RefundConversation) -> str:
    if conversation.case is not None:
        c = conversation.case
        amount = "any amount" if c.amount_pln is None else f"{c.amount_pln} PLN"
        return f"1 case: {c.invoice_id or 'any invoice'}, {amount}, {c.reason or 'any reason'}"
    return f"{conversation.cases_opened} cases" if conversation.cases_opened else "no case"


def _opened_text(cases: Sequence[OpenedCase], user_id: str) -> str:
    if not cases:
        return "no case"
    described = [
        f"{c.case_id}: {c.invoice_id}, {c.amount_pln} PLN, {c.reason}"
        + ("" if c.user_id == user_id else f" (on {c.user_id}'s account)")
        for c in cases
    ]
    return f"{len(cases)} case{'s' if len(cases) > 1 else ''}: " + "; ".join(described)


def score(
    conversation: RefundConversation, opened: Sequence[OpenedCase]
) -> tuple[bool, bool | None, list[str]]:
    """(right number of cases, exact case or None when none was expected, wrong fields)."""
    right_count = len(opened) == conversation.cases_opened
    if conversation.case is None:
        return right_count, None, []
    if len(opened) != 1:
        return right_count, False, []
    wrong = wrong_fields(conversation.case, opened[0], conversation.user_id)
    return right_count, not wrong, wrong


# --- the run -------------------------------------------------------------------------------


async def run_refunds(
    conversations: Sequence[RefundConversation],
    service: Any,
    new_billing: Callable[[], BillingStore],
    *,
    turn_timeout_s: float | None = None,
    thread_prefix: str | None = None,
    show_progress: bool = True,
    console: Console | None = None,
) -> SuiteResult:
    """Run every conversation through `service` (a telecom `GraphAssistant`) and score it.

    Before each conversation `new_billing()` gives the billing database it runs against: the
    service's context is pointed at it for the conversation, and it is disposed of after. The
    cases counted are those it holds after the last turn that it did not hold before the
    first. A turn that raises or outlasts `turn_timeout_s` ends its conversation (recorded as
    its error) and the run goes on; the cases opened until then still count.
    """
    prefix = thread_prefix or f"refunds-{uuid.uuid4().hex[:8]}"
    original = service.context
    details: list[dict[str, Any]] = []
    latencies: list[float] = []
    started = suites.clock()
    with progress_bar(
        "telecom refunds", len(conversations), show=show_progress, console=console
    ) as advance:
        for conversation in conversations:
            store = new_billing()
            try:
                service.context = dataclasses.replace(original, billing=store)
                before = {c.case_id for c in cases_in(store)}
                thread_id = f"{prefix}-{conversation.id}"
                run = await _converse(conversation, service, thread_id, turn_timeout_s, latencies)
                opened = [c for c in cases_in(store) if c.case_id not in before]
            finally:
                service.context = original
                store.dispose()
            details.append(_detail(conversation, opened, run))
            advance()
    return SuiteResult(SUITE, refund_metrics(details, latencies, suites.clock() - started), details)


async def _converse(
    conversation: RefundConversation,
    service: Any,
    thread_id: str,
    timeout_s: float | None,
    latencies: list[float],
) -> dict[str, Any]:
    """Send the turns in order: the last reply, how many turns were answered, the error."""
    reply: Any = ""
    replies: list[str] = []
    answered, out_of_time, error = 0, 0, None
    for message in conversation.turns:
        t0 = suites.clock()
        try:
            reply = await asyncio.wait_for(
                service.ask(message, thread_id, user_id=conversation.user_id), timeout_s
            )
        except Exception as exc:  # noqa: BLE001 - one broken conversation must not end the run
            detail = f": {exc}" if str(exc) else ""
            error = f"turn {answered + 1}: {type(exc).__name__}{detail}"
            break
        latencies.append(suites.clock() - t0)
        replies.append(_text_of(reply))
        answered += 1
        # The service's own time limit ran out: answered without the model (agentkit).
        out_of_time += bool((getattr(reply, "extra", None) or {}).get("out_of_time"))
    return {
        "reply": _text_of(reply),
        "replies": replies,
        "answered": answered,
        "out_of_time": out_of_time,
        "error": error,
    }


def _text_of(reply: Any) -> str:
    text = getattr(reply, "answer", reply)
    return text if isinstance(text, str) else str(text)


def _detail(
    conversation: RefundConversation, opened: list[OpenedCase], run: dict[str, Any]
) -> dict[str, Any]:
    right_count, exact, wrong = score(conversation, opened)
    # The plain values come first and are what the report's table shows, in this order; the
    # rest is for the JSON.
    return {
        "id": conversation.id,
        "language": conversation.language,
        "kind": conversation.kind,
        "passed": right_count and exact is not False and run["error"] is None,
        "right_case_count": right_count,
        "exact_case": exact,
        "expected": _expected_text(conversation),
        "opened": _opened_text(opened, conversation.user_id),
        "wrong_fields": wrong,
        "error": run["error"],
        "last_reply": run["reply"][:REPLY_CHARS],
        "conversation": {
            "line": conversation.line,
            "user_id": conversation.user_id,
            "turns": len(conversation.turns),
            "turns_answered": run["answered"],
            "replies": run["replies"],  # each turn's reply, to read what went wrong where
            "turns_out_of_time": run["out_of_time"],
            "expected_cases": conversation.cases_opened,
            "cases_opened": len(opened),
        },
        "cases": {
            "expected": _case_dict(conversation.case) if conversation.case else None,
            "opened": [_case_dict(c) for c in opened],
        },
    }


def _case_dict(case: ExpectedCase | OpenedCase) -> dict[str, Any]:
    data = dataclasses.asdict(case)
    data["amount_pln"] = None if case.amount_pln is None else float(case.amount_pln)
    return data


def _figures(rows: list[dict[str, Any]]) -> dict[str, Any]:
    expected_one = [d for d in rows if d["exact_case"] is not None]
    return {
        "conversations": len(rows),
        "right_case_count": m.rate(sum(1 for d in rows if d["right_case_count"]), len(rows)),
        "expected_one": len(expected_one),
        "exact_case": m.rate(sum(1 for d in expected_one if d["exact_case"]), len(expected_one)),
    }


def _kind_line(rows: list[dict[str, Any]]) -> str:
    expected_one = [d for d in rows if d["exact_case"] is not None]
    right = sum(1 for d in rows if d["right_case_count"])
    exact = sum(1 for d in expected_one if d["exact_case"])
    return f"right count {right}/{len(rows)}, exact " + (
        f"{exact}/{len(expected_one)}" if expected_one else "n/a"
    )


def refund_metrics(
    details: Sequence[dict[str, Any]], latencies: Sequence[float], duration_s: float
) -> dict[str, Any]:
    rows = list(details)
    overall = _figures(rows)
    by_kind: dict[str, list[dict[str, Any]]] = defaultdict(list)
    for d in rows:
        by_kind[d["kind"]].append(d)
    failures = [d for d in rows if not d["passed"]]
    return {
        "conversations": overall["conversations"],
        "turns": sum(d["conversation"]["turns_answered"] for d in rows),
        "expected_one": overall["expected_one"],
        "expected_none": sum(1 for d in rows if d["conversation"]["expected_cases"] == 0),
        "right_case_count": overall["right_case_count"],
        "exact_case": overall["exact_case"],
        "passed": len(rows) - len(failures),
        "errors": sum(1 for d in rows if d["error"]),
        "turns_out_of_time": sum(d["conversation"]["turns_out_of_time"] for d in rows),
        "latency_turn_p50_s": m.percentile(latencies, 50),
        "latency_turn_p95_s": m.percentile(latencies, 95),
        "duration_s": duration_s,
        # The report's metrics table shows plain values only: there, the failures by id and
        # a line per kind; in full below, for the JSON.
        "failed_ids": [d["id"] for d in failures],
        **{f"kind {kind}": _kind_line(group) for kind, group in sorted(by_kind.items())},
        "per_language": per_language(rows, _figures),
        "per_kind": {kind: _figures(group) for kind, group in sorted(by_kind.items())},
        # By id, in file order (a mapping, so the report's metrics table leaves it out).
        "failures": {
            d["id"]: {
                "language": d["language"],
                "kind": d["kind"],
                "expected": d["expected"],
                "opened": d["opened"],
                "wrong_fields": d["wrong_fields"],
                "error": d["error"],
                "last_reply": d["last_reply"],
            }
            for d in failures
        },
    }


# --- what `frontdesk eval refunds --assistant telecom` runs ---------------------------------


async def run_suite(settings: Settings, models: Models, dataset: Path) -> SuiteResult:
    """The suite on `dataset` with the configured models, in a folder of its own: billing
    databases, tickets and (in memory) conversations are the run's, never the operator's."""
    from frontdesk.assistants.telecom.service import build_service
    from frontdesk.memory.tickets import TicketStore

    conversations = load_conversations(dataset)  # a malformed row fails before any model loads
    with tempfile.TemporaryDirectory(prefix="telecom-refunds-") as folder:
        new_billing = fresh_billing(folder)
        billing = new_billing()  # what the service is built with; each conversation has its own
        tickets = TicketStore(Path(folder) / "threads.sqlite")
        try:
            service = await build_service(
                settings.model_copy(update={"checkpointer": "memory"}),
                models,
                billing=billing,
                tickets=tickets,
            )
            try:
                result = await run_refunds(conversations, service, new_billing)
            finally:
                await service.aclose()
        finally:
            tickets.close()
            billing.dispose()
    # The core's report names the embeddings for a suite it does not know; say which chat
    # model answered.
    result.metrics["chat_model"] = f"{settings.llm_provider} / {settings.llm_model or 'default'}"
    if Path(dataset).resolve().name != Path(dataset).name:  # refunds.jsonl: the set it links to
        result.metrics["dataset_file"] = Path(dataset).resolve().name
    return result


def refunds_target(settings: Settings, models: Models) -> EvalTarget:
    async def run(dataset: Path) -> SuiteResult:
        return await run_suite(settings, models, dataset)

    return EvalTarget(run=run)
