"""The answers suite: string checks, conversation threads, errors and progress output."""

from __future__ import annotations

import asyncio
import io

import pytest
from rich.console import Console

from frontdesk.assistants.base import Answer
from frontdesk.eval.datasets import AnswerCase
from frontdesk.eval.harness import evaluate
from frontdesk.eval.suites import EvalError, check_answer, run_answers, states_absence


class FakeConcierge:
    """Remembers a guest's name per thread, like a checkpointed conversation would."""

    def __init__(self, clock=None) -> None:
        self.names: dict[str, str] = {}
        self.calls: list[tuple[str, str]] = []
        self.clock = clock

    async def ask(self, question: str, thread_id: str) -> str:
        self.calls.append((question, thread_id))
        if self.clock is not None:
            self.clock.advance(float(len(self.calls)))  # 1 s, 2 s, 3 s, ...
        if question.startswith("My name is "):
            self.names[thread_id] = question.removeprefix("My name is ").rstrip(".")
            return "Nice to meet you."
        if question == "What is my name?":
            name = self.names.get(thread_id)
            return f"Your name is {name}." if name else "I don't know your name."
        return "The POOL opens at 7 am."


def test_check_answer_is_case_insensitive() -> None:
    assert check_answer("The Pool opens at 7 AM", ["pool", "7 am"], ["closed"]) == ([], [])
    assert check_answer("Closed today", ["pool"], ["CLOSED"]) == (["pool"], ["CLOSED"])


async def test_rows_sharing_a_thread_form_one_conversation(clock) -> None:
    cases = [
        AnswerCase("My name is Ada.", must_include=("nice",), thread="guest-a", line=1),
        AnswerCase("What is my name?", must_include=("Ada",), line=2),
        AnswerCase("My name is Bob.", must_include=("nice",), thread="guest-b", line=3),
        AnswerCase("What is my name?", must_include=("ada",), thread="guest-a", line=4),
        AnswerCase("What is my name?", must_include=("bob",), thread="guest-b", line=5),
    ]
    fake = FakeConcierge(clock)
    result = await run_answers(cases, fake.ask, thread_prefix="run1", show_progress=False)
    ids = [thread_id for _, thread_id in fake.calls]
    assert [q for q, _ in fake.calls] == [c.question for c in cases]  # file order
    assert ids[0] == ids[3] and ids[2] == ids[4]
    assert len({ids[0], ids[1], ids[2]}) == 3
    assert all(i.startswith("run1-") for i in ids)
    # Only the unthreaded question fails: it has no earlier turn to remember.
    assert [d["passed"] for d in result.details] == [True, False, True, True, True]
    assert result.details[1]["missing"] == ["Ada"]
    assert result.details[1]["answer"] == "I don't know your name."
    assert [d["turn"] for d in result.details] == [1, 1, 1, 2, 2]
    metrics = result.metrics
    assert metrics["rows"] == 5 and metrics["passed"] == 4
    assert metrics["pass_rate"] == pytest.approx(0.8)
    assert metrics["conversations"] == 2 and metrics["errors"] == 0
    # Turns took 1..5 s.
    assert metrics["latency_p50_s"] == pytest.approx(3.0)
    assert metrics["latency_p95_s"] == pytest.approx(4.8)


async def test_each_run_and_each_unthreaded_row_gets_fresh_ids() -> None:
    cases = [AnswerCase("Pool?", must_include=("pool",), line=n) for n in (1, 1)]
    first, second = FakeConcierge(), FakeConcierge()
    await run_answers(cases, first.ask, show_progress=False)
    await run_answers(cases, second.ask, show_progress=False)
    ids = [t for _, t in first.calls + second.calls]
    assert len(set(ids)) == 4


async def test_must_not_include_fails_a_row() -> None:
    cases = [
        AnswerCase("Pool?", must_include=("pool",), must_not_include=("7 am",), line=1),
        AnswerCase("Pool?", must_not_include=("closed",), line=2),
    ]
    result = await run_answers(cases, FakeConcierge().ask, show_progress=False)
    assert [d["passed"] for d in result.details] == [False, True]
    assert result.details[0]["forbidden"] == ["7 am"]


async def test_errors_and_timeouts_fail_the_row_and_the_run_goes_on() -> None:
    async def ask(question: str, thread_id: str) -> str:
        if question == "boom":
            raise RuntimeError("model crashed")
        if question == "slow":
            await asyncio.sleep(5)
        return "fine"

    cases = [
        AnswerCase("boom", must_include=("fine",), line=1),
        AnswerCase("slow", must_include=("fine",), line=2),
        AnswerCase("ok", must_include=("fine",), line=3),
    ]
    result = await run_answers(cases, ask, timeout_s=0.05, show_progress=False)
    assert [d["error"] for d in result.details] == [
        "RuntimeError: model crashed",
        "TimeoutError",
        None,
    ]
    assert [d["passed"] for d in result.details] == [False, False, True]
    assert result.metrics["errors"] == 2 and result.metrics["pass_rate"] == pytest.approx(1 / 3)
    # Only the turn that answered has a latency.
    assert [d["latency_s"] is None for d in result.details] == [True, True, False]


async def test_answer_objects_and_wrong_reply_types() -> None:
    async def ask(question: str, thread_id: str) -> Answer:
        return Answer("Breakfast is 7-10.", "dining", 0.9, ["dining.md"], None, thread_id)

    cases = [AnswerCase("Breakfast?", must_include=("7-10",), line=1)]
    result = await run_answers(cases, ask, show_progress=False)
    assert result.details[0]["passed"] and result.details[0]["route"] == "dining"
    assert result.details[0]["sources"] == ["dining.md"]

    async def bad(question: str, thread_id: str) -> int:
        return 42

    with pytest.raises(EvalError, match="ask must return a str"):
        await run_answers(cases, bad, show_progress=False)


async def test_progress_is_drawn_on_the_given_console() -> None:
    out = io.StringIO()
    console = Console(file=out, width=100, force_terminal=False)
    cases = [AnswerCase("Pool?", must_include=("pool",), line=n) for n in (1, 2, 3)]
    await run_answers(cases, FakeConcierge().ask, console=console)
    assert "answers" in out.getvalue() and "3/3" in out.getvalue()


async def test_evaluate_loads_the_dataset_and_runs_the_suite(write_jsonl) -> None:
    path = write_jsonl(
        [
            {"question": "My name is Ada.", "must_include": ["nice"], "thread": "a"},
            {"question": "What is my name?", "must_include": ["ada"], "thread": "a"},
        ]
    )
    result = await evaluate("answers", path, FakeConcierge().ask, show_progress=False)
    assert result.metrics["pass_rate"] == 1.0
    routing = write_jsonl([{"text": "t", "label": "wifi"}], name="routing.jsonl")
    result = await evaluate("routing", routing, lambda text: ("wifi", 1.0), show_progress=False)
    assert result.metrics["accuracy"] == 1.0
    with pytest.raises(ValueError, match="unknown suite 'speed'"):
        await evaluate("speed", path, FakeConcierge().ask)
    with pytest.raises(TypeError, match=r"classify\(text\)"):
        await evaluate("routing", routing, "not callable")


@pytest.mark.parametrize(
    "answer",
    [
        "Mohegan Sun does not have a bowling alley.",
        "Sorry, the resort doesn't offer a water park.",
        "There is no ice rink at Mohegan Sun.",
        "There's no buffet from another casino here.",
        "I don\u2019t see an ice rink among the resort's amenities.",
        "There isn't a golf course on the property.",
        "parse_token is not defined anywhere in the repository itsdangerous.",
        "Only outside its code, in README.rst: no code there does it.",
        "Mohegan Sun no ofrece «bolera», según su guía.",
        "Lo siento, Casino of the Wind no tiene cine. ¿Le ayudo con restaurantes?",
        "No hay parque acuático en el resort.",
        "Niestety nie oferujemy telewizji satelitarnej.",
    ],
)
def test_states_absence_recognises_a_reply_saying_it_is_not_there(answer: str) -> None:
    assert states_absence(answer)


@pytest.mark.parametrize(
    "answer",
    [
        "The bowling alley is open 10:00 AM to 11:00 PM.",
        "I don't have details on that, please call 1-888-226-7711.",
        "Yes, there is a water park in the Earth Tower.",
        "No problem! The spa opens at 9:00 AM.",
        "No tengo información sobre eso; llame al 1-888-226-7711.",
        "No hay datos sobre eso en la guía.",
        "Nie mam informacji na ten temat.",
        "El spa abre a las 9:00 AM; no hace falta reservar.",
    ],
)
def test_states_absence_rejects_replies_that_leave_it_existing_or_open(answer: str) -> None:
    assert not states_absence(answer)


async def test_absent_rows_pass_only_when_the_reply_says_it_is_absent() -> None:
    cases = [
        AnswerCase(question="is there a bowling alley?", absent=True),
        AnswerCase(question="is there a water park?", absent=True, must_not_include=("$",)),
        AnswerCase(question="what time does the spa open?", must_include=("9:00 AM",)),
    ]
    replies = {
        "is there a bowling alley?": "The bowling alley is open until 11:00 PM.",
        "is there a water park?": "There is no water park at the resort.",
        "what time does the spa open?": "The spa opens at 9:00 AM.",
    }
    result = await run_answers(cases, lambda q, _t: replies[q], show_progress=False)
    assert [d["passed"] for d in result.details] == [False, True, True]
    assert result.details[0]["missing"] == ["(a statement that it is not there)"]
    assert result.metrics["absent_rows"] == 2
    assert result.metrics["absent_answered_as_absent"] == 0.5


async def test_pass_rates_are_split_by_language() -> None:
    async def ask(question: str, thread_id: str) -> str:
        return "The pool opens at 7." if question.startswith("When") else "Nie wiem."

    cases = [
        AnswerCase("When does the pool open?", must_include=("7",), line=1),
        AnswerCase("Kiedy otwiera się basen?", must_include=("7",), line=2),
        AnswerCase("Pool hours?", must_include=("7",), language="pl", line=3),  # the row says pl
    ]
    result = await run_answers(cases, ask, show_progress=False)
    per = result.metrics["per_language"]
    assert per["en"] == {"rows": 1, "passed": 1, "pass_rate": 1.0}
    assert per["pl"] == {"rows": 2, "passed": 0, "pass_rate": 0.0}
