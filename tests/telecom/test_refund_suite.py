"""The telecom `refunds` suite with a scripted model: it counts the refund cases each
conversation opens in a billing database of its own and compares them with what was expected."""

from __future__ import annotations

import asyncio
import json
from dataclasses import dataclass
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest
from typer.testing import CliRunner

from frontdesk.assistants.telecom.plugin import PLUGIN
from frontdesk.assistants.telecom.refund_suite import (
    fresh_billing,
    load_conversations,
    run_refunds,
)
from frontdesk.eval import suites
from frontdesk.eval.datasets import DatasetError
from frontdesk.eval.report import render_report
from frontdesk.eval.targets import default_dataset, suites_of

# The model fills only what the extractors did not find in the customer's words.
REFUND = json.dumps({"reason": "overcharge", "amount_pln": None, "description": None})


def always_refund(_messages) -> str:
    return REFUND


def row(id_, turns, cases_opened, case=None, *, language="en", user="u123", kind="direct"):
    expect: dict[str, Any] = {"cases_opened": cases_opened, "kind": kind}
    if case is not None:
        expect["case"] = case
    return {"id": id_, "language": language, "user_id": user, "turns": turns, "expect": expect}


OVERCHARGE_100 = {"invoice_id": "INV-20251001", "amount_pln": 100, "reason": "overcharge"}
# One conversation that opens the case it should, one that rightly opens none, and one that
# opens a second case on another invoice where one was expected.
THREE = [
    row("one-case", ["Refund 100 PLN on INV-20251001, overcharge"], 1, OVERCHARGE_100),
    row("no-case", ["Jaki mam plan?"], 0, language="pl", kind="bill_question"),
    row(
        "two-cases",
        [
            "Refund 100 PLN on INV-20251001, overcharge",
            "And refund 20 PLN on INV-20250901 too, overcharge",
        ],
        1,
        OVERCHARGE_100,
        kind="slots",
    ),
]


def write(tmp_path: Path, rows: list[Any], name: str = "refunds.jsonl") -> Path:
    path = tmp_path / name
    lines = [r if isinstance(r, str) else json.dumps(r) for r in rows]
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


class StepClock:
    """Each reading one second after the one before: every turn takes exactly 1 s."""

    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        self.now += 1.0
        return self.now


@pytest.fixture
def step_clock(monkeypatch):
    monkeypatch.setattr(suites, "clock", StepClock())


async def run(service, tmp_path, rows, **options):
    conversations = load_conversations(write(tmp_path, rows))
    billing = tmp_path / "billing"
    billing.mkdir(exist_ok=True)
    return await run_refunds(
        conversations, service, fresh_billing(billing), show_progress=False, **options
    )


async def test_one_case_no_case_and_two_cases_are_counted(telecom, store, tmp_path, step_clock):
    service, _ = telecom(always_refund)
    original = service.context
    result = await run(service, tmp_path, THREE)

    one, none, two = result.details
    assert one["passed"] and one["right_case_count"] and one["exact_case"] is True
    assert one["opened"] == "1 case: R10001: INV-20251001, 100.00 PLN, overcharge"
    assert one["cases"]["opened"] == [
        {"case_id": "R10001", "user_id": "u123", "invoice_id": "INV-20251001",
         "amount_pln": 100.0, "reason": "overcharge"}
    ]  # fmt: skip
    assert "R10001" in one["last_reply"]

    assert none["passed"] and none["right_case_count"] and none["exact_case"] is None
    assert none["opened"] == "no case" and none["conversation"]["cases_opened"] == 0

    assert not two["passed"] and not two["right_case_count"] and two["exact_case"] is False
    assert two["conversation"]["cases_opened"] == 2
    assert two["opened"] == (
        "2 cases: R10001: INV-20251001, 100.00 PLN, overcharge; "
        "R10002: INV-20250901, 20.00 PLN, overcharge"
    )

    metrics = result.metrics
    assert metrics["conversations"] == 3 and metrics["turns"] == 4
    assert metrics["expected_one"] == 2 and metrics["expected_none"] == 1
    assert metrics["right_case_count"] == pytest.approx(2 / 3)
    assert metrics["exact_case"] == pytest.approx(1 / 2)
    assert metrics["passed"] == 2 and metrics["errors"] == 0
    assert metrics["latency_turn_p50_s"] == 1.0 and metrics["latency_turn_p95_s"] == 1.0
    assert metrics["per_language"] == {
        "en": {"conversations": 2, "right_case_count": 0.5, "expected_one": 2, "exact_case": 0.5},
        "pl": {"conversations": 1, "right_case_count": 1.0, "expected_one": 0, "exact_case": None},
    }
    assert metrics["per_kind"]["slots"] == {
        "conversations": 1, "right_case_count": 0.0, "expected_one": 1, "exact_case": 0.0,
    }  # fmt: skip
    assert metrics["kind direct"] == "right count 1/1, exact 1/1"
    assert metrics["kind bill_question"] == "right count 1/1, exact n/a"
    assert metrics["failed_ids"] == ["two-cases"]
    failure = metrics["failures"]["two-cases"]
    assert failure["expected"] == "1 case: INV-20251001, 100.00 PLN, overcharge"
    assert failure["opened"] == two["opened"]
    assert failure["last_reply"] and len(failure["last_reply"]) <= 300

    # The conversations ran against databases of their own, never the service's.
    assert store.list_cases("u123") == []
    assert service.context is original


async def test_each_conversation_has_a_billing_database_of_its_own(telecom, tmp_path):
    # The store keeps one open case per invoice: in a shared database the second conversation
    # would get the first one's case back and open none.
    service, _ = telecom(always_refund)
    twice = [
        row("first", ["Refund 100 PLN on INV-20251001, overcharge"], 1, OVERCHARGE_100),
        row("again", ["Refund 100 PLN on INV-20251001, overcharge"], 1, OVERCHARGE_100),
    ]
    result = await run(service, tmp_path, twice)
    assert [d["conversation"]["cases_opened"] for d in result.details] == [1, 1]
    assert result.metrics["exact_case"] == 1.0 and result.metrics["failed_ids"] == []


async def test_a_case_with_a_wrong_amount_and_reason_is_not_exact(telecom, tmp_path):
    service, _ = telecom(always_refund)
    outage = {"invoice_id": "inv-20251001", "amount_pln": 99.99, "reason": "Service_Outage"}
    result = await run(
        service, tmp_path, [row("wrong", ["Refund 100 PLN on INV-20251001, overcharge"], 1, outage)]
    )
    (detail,) = result.details
    assert detail["right_case_count"] and detail["exact_case"] is False and not detail["passed"]
    assert detail["wrong_fields"] == ["amount_pln", "reason"]  # the invoice id is case-blind
    assert result.metrics["right_case_count"] == 1.0 and result.metrics["exact_case"] == 0.0
    assert result.metrics["failures"]["wrong"]["wrong_fields"] == ["amount_pln", "reason"]


async def test_a_field_expected_as_null_is_not_compared(telecom, tmp_path):
    service, _ = telecom(always_refund)
    any_amount = {**OVERCHARGE_100, "amount_pln": None}
    result = await run(
        service,
        tmp_path,
        [row("any", ["Refund 100 PLN on INV-20251001, overcharge"], 1, any_amount)],
    )
    (detail,) = result.details
    assert detail["passed"] and detail["exact_case"] is True
    assert detail["expected"] == "1 case: INV-20251001, any amount, overcharge"


@dataclass
class Context:
    billing: Any = None


class FlakyService:
    """Answers "ok", raises on "boom", never answers "hang" and runs out of time on "slow"."""

    def __init__(self) -> None:
        self.context = Context()
        self.asked: list[tuple[str, str, str | None]] = []

    async def ask(self, message, thread_id, *, user_id=None):
        self.asked.append((message, thread_id, user_id))
        if message == "boom":
            raise RuntimeError("model down")
        if message == "hang":
            await asyncio.sleep(30)
        if message == "slow":
            return SimpleNamespace(answer="Please ask again.", extra={"out_of_time": True})
        return f"reply to {message}"


async def test_a_failing_turn_ends_its_conversation_and_the_run_goes_on(tmp_path):
    service = FlakyService()
    rows = [
        row("breaks", ["ok", "boom", "never sent"], 0),
        row("hangs", ["hang"], 0, user="u456"),
        row("fine", ["ok", "slow"], 0, user="u789"),
    ]
    result = await run(service, tmp_path, rows, turn_timeout_s=0.05)
    breaks, hangs, fine = result.details
    assert breaks["error"] == "turn 2: RuntimeError: model down" and not breaks["passed"]
    assert breaks["last_reply"] == "reply to ok"
    assert breaks["conversation"]["turns_answered"] == 1
    assert hangs["error"] == "turn 1: TimeoutError" and hangs["last_reply"] == ""
    assert fine["passed"] and fine["error"] is None and fine["last_reply"] == "Please ask again."
    assert fine["conversation"]["turns_out_of_time"] == 1
    assert result.metrics["errors"] == 2 and result.metrics["failed_ids"] == ["breaks", "hangs"]
    assert result.metrics["turns_out_of_time"] == 1 and result.metrics["turns"] == 3
    assert "never sent" not in [m for m, _, _ in service.asked]
    # A thread per conversation, each signed in as its customer.
    threads = [thread for _, thread, _ in service.asked]
    assert threads[0] == threads[1] and threads[3] == threads[4] and len(set(threads)) == 3
    assert [user for _, _, user in service.asked] == ["u123", "u123", "u456", "u789", "u789"]


def test_the_report_lists_every_conversation_and_the_failures(tmp_path):
    from frontdesk.assistants.telecom.refund_suite import SUITE, refund_metrics
    from frontdesk.eval.suites import SuiteResult

    detail = {
        "id": "two-cases", "language": "en", "kind": "slots", "passed": False,
        "right_case_count": False, "exact_case": False, "expected": "1 case: INV-1, 1.00 PLN, x",
        "opened": "2 cases: ...", "wrong_fields": [], "error": None, "last_reply": "Done: R10002",
        "conversation": {"line": 1, "user_id": "u123", "turns": 2, "turns_answered": 2,
                         "turns_out_of_time": 0, "expected_cases": 1, "cases_opened": 2},
        "cases": {"expected": None, "opened": []},
    }  # fmt: skip
    result = SuiteResult(SUITE, refund_metrics([detail], [1.0, 2.0], 3.0), [detail])
    report = render_report(result, dataset="refunds.jsonl", assistant="telecom")
    assert "| failed_ids | two-cases |" in report
    assert "| kind slots | right count 0/1, exact 0/1 |" in report
    assert "## Per language" in report and "## Rows (1)" in report
    assert "| two-cases | en | slots | no | no | no | 1 case: INV-1" in report
    assert "Done: R10002" in report


@pytest.mark.parametrize(
    ("line", "message"),
    [
        ({"id": "x", "language": "en", "user_id": "u1", "turns": [], "expect": {}}, "'turns'"),
        (row("x", ["hi"], 1), "'expect.case' must be an object"),
        (row("x", ["hi"], 0, OVERCHARGE_100), "this expects 0"),
        (row("x", ["hi"], True), "cases_opened"),
        (row("x", ["hi"], 1, {**OVERCHARGE_100, "amount_pln": "lots"}), "amount_pln"),
        (row("x", ["hi"], 1, {**OVERCHARGE_100, "reason": ""}), "'reason'"),
        (row("x", ["hi"], 1, {"invoice_id": "INV-20251001", "reason": "other"}), "'amount_pln'"),
        ("{not json", "Expecting property name"),
    ],
)
def test_a_malformed_row_is_refused_naming_its_line(tmp_path, line, message):
    path = write(tmp_path, [row("ok", ["hi"], 0), line])
    with pytest.raises(DatasetError, match=rf"refunds\.jsonl:2: .*{message}"):
        load_conversations(path)


def test_a_duplicate_id_is_refused(tmp_path):
    path = write(tmp_path, [row("same", ["hi"], 0), row("same", ["hello"], 0)])
    with pytest.raises(DatasetError, match="refunds.jsonl:2: duplicate id 'same'"):
        load_conversations(path)


def test_the_suite_is_telecoms_and_its_default_set_is_the_one_written_apart():
    assert "refunds" in suites_of(PLUGIN)
    # `frontdesk eval telecom` still runs the first of its own.
    assert next(iter(PLUGIN.eval_targets)) == "no_context"
    default = default_dataset(PLUGIN, "refunds")
    apart = PLUGIN.eval_dir / "refund_conversations_written_apart.jsonl"
    assert default is not None and default.samefile(apart)
    conversations = load_conversations(default)
    assert {c.language for c in conversations} == {"en", "pl"}
    assert all((c.case is not None) == (c.cases_opened == 1) for c in conversations)


def test_the_cli_runs_it_apart_from_the_operators_data(tmp_path, offline_cli_env):
    from frontdesk.cli import app
    from frontdesk.config import get_settings

    dataset = write(tmp_path, [row("plan", ["What plan am I on?"], 0, kind="bill_question")])
    report = tmp_path / "report.md"
    args = ["eval", "refunds", "--assistant", "telecom", "--dataset", str(dataset)]
    result = CliRunner().invoke(app, [*args, "--json", "--report", str(report)])
    assert result.exit_code == 0, result.output
    metrics = json.loads(result.stdout)["metrics"]
    assert metrics["conversations"] == 1 and metrics["chat_model"].startswith("scripted")
    assert report.read_text().startswith("# Frontdesk evaluation: refunds")
    data_dir = get_settings().data_dir
    assert not (data_dir / "telecom_billing.sqlite").exists()
    assert not (data_dir / "threads.sqlite").exists()
    assert not (data_dir / "conversations.sqlite").exists()
